import type { Knex } from 'knex';
import type { Ctx } from '~/core/context';
import { containsPattern } from '~/core/registers/list-query';
import { applyLimit } from './work-order-read';
import { addDays, startOfDayInZone, tenantTimeZone } from '~/core/calendar/dates';
import { isoWeekOf } from './work-order-rules';
import type { WorkOrderListQuery } from './work-order.schema';
import { listRegion } from '~/core/regions/region.service';

/** How far back "recently closed" looks. */
export const RECENTLY_CLOSED_DAYS = 7;

/**
 * Orders whose number, title or address, customer (number, name, org. number) or object (serial,
 * location, description) matches `q`: the order's own search text and the customer's and object's
 * kept on it (`related_search`, migration 0010), each with its trigram index.
 */
export function whereSearch(ctx: Ctx, qb: Knex.QueryBuilder, q: string) {
  const like = containsPattern(q);
  return qb.whereRaw(`(w.search_text like ? or w.related_search like ?)`, [like, like]);
}

export const assigneeIn = (ctx: Ctx, users: string[]) =>
  function (this: Knex.QueryBuilder) {
    this.select(ctx.trx.raw('1'))
      .from('work_order_assignees as fa')
      .whereRaw('fa.work_order_id = w.id')
      .whereIn('fa.user_id', users);
  };

/**
 * The orders a list and its filters select, as a query on `work_orders as w` (no order, no page):
 * which list, then every filter, then the user's work-order limit. One place for every view of a
 * list: GET /wo and the list tab, and the map tab's markers.
 */
export function filteredWorkOrders(ctx: Ctx, f: WorkOrderListQuery): Knex.QueryBuilder {
  const qb = ctx.trx('work_orders as w');
  switch (f.list) {
    case 'open':
      qb.whereNull('w.closed_at').whereNull('w.deleted_at');
      break;
    case 'closed': {
      // calendar days in the tenant's zone, as the closed-orders report counts them
      const zone = tenantTimeZone(ctx.tenant.config?.country);
      const week = isoWeekOf(ctx.now, zone);
      const from = f.closedFrom ?? week.from;
      const to = f.closedTo ?? week.to;
      qb.whereNull('w.deleted_at')
        .where('w.closed_at', '>=', startOfDayInZone(from, zone).toISOString())
        .where('w.closed_at', '<', startOfDayInZone(addDays(to, 1), zone).toISOString());
      break;
    }
    case 'recentlyClosed':
      qb.whereNull('w.deleted_at').where(
        'w.closed_at',
        '>=',
        new Date(ctx.now.getTime() - RECENTLY_CLOSED_DAYS * 86_400_000),
      );
      break;
    case 'ata':
      qb.whereNull('w.deleted_at').whereNotNull('w.project_extra_status');
      break;
    case 'history':
      qb.whereNull('w.deleted_at');
      break;
    case 'recycleBin':
      qb.whereNotNull('w.deleted_at');
      break;
  }
  if (f.search) whereSearch(ctx, qb, f.search);
  const workTypes = [...f.workTypes, ...f.workType];
  if (workTypes.length) qb.whereIn('w.work_type_id', workTypes);
  if (f.status.length) qb.whereIn('w.status_id', f.status);
  // any of the tags: the order's tags are kept on it (migration 0043)
  if (f.tags.length) qb.whereRaw('w.tag_ids && ?::uuid[]', [f.tags]);
  const assignees = [...f.assignees, ...f.assignee];
  if (assignees.length) qb.whereExists(assigneeIn(ctx, assignees));
  if (f.onlyMine && ctx.auth) qb.whereExists(assigneeIn(ctx, [ctx.auth.user.id]));
  if (f.ignoredUsers.length) qb.whereNotExists(assigneeIn(ctx, f.ignoredUsers));
  // kept by the assignee rows' triggers (migration 0010), with a partial index of its own
  if (f.unassigned) qb.where('w.assignee_count', 0);
  // an assignee in one of the departments: their departments are kept on the order (migration 0043)
  if (f.departments.length) qb.whereRaw('w.assignee_departments && ?::uuid[]', [f.departments]);
  if (f.createUserId) qb.where('w.create_user_id', f.createUserId);
  if (f.customerType)
    qb.whereExists(function () {
      this.select(ctx.trx.raw('1'))
        .from('customers as ct')
        .whereRaw('ct.id = w.customer_id')
        .where('ct.type', f.customerType);
    });
  if (f.scheduleStatus === 'scheduled') qb.whereNotNull('w.planned_start');
  if (f.scheduleStatus === 'notScheduled') qb.whereNull('w.planned_start');
  if (!f.includeScheduled) qb.whereNull('w.planned_start');
  if (f.project) qb.where('w.project_id', f.project);
  // the object's region (its partial index): the asked one, or by default the session's
  const region = listRegion(ctx.auth, f.region);
  if (region)
    qb.whereExists(function () {
      this.select(ctx.trx.raw('1'))
        .from('business_objects as rb')
        .whereRaw('rb.id = w.business_object_id')
        .where('rb.region', region);
    });
  if (!f.showRegular || !f.showPotential) {
    // neither: nothing with a customer; one of them: only that kind
    const potential = !f.showRegular && f.showPotential ? true : f.showRegular && !f.showPotential ? false : null;
    if (potential === null) qb.whereNull('w.customer_id');
    else
      qb.whereExists(function () {
        this.select(ctx.trx.raw('1'))
          .from('customers as cp')
          .whereRaw('cp.id = w.customer_id')
          .where('cp.potential', potential);
      });
  }
  return applyLimit(ctx, qb);
}
