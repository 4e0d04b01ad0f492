import type { Knex } from 'knex';
import type { Ctx } from '~/core/context';
import { parseInput } from '~/core/errors/validation';
import { requireAccess } from '~/core/permissions/access';
import { assigneeIn, filteredWorkOrders, whereSearch } from './work-order-filter';
import {
  applyLimit,
  toWorkOrder,
  withNames,
  workOrderSelect,
  workOrdersByIds,
  type WorkOrder,
} from './work-order-read';
import { ZWorkOrderListQuery, ZWorkOrderSearch, type WorkOrderListQuery } from './work-order.schema';

/**
 * The list counts its rows up to this many (or up to the end of the requested page, when that is
 * further); beyond it the answer says `totalCountCapped` and the screen shows "10 000+". Counting
 * all of a huge list cost 130–160 ms on 100,000 orders (decision 012).
 */
export const TOTAL_COUNT_CAP = 10_000;

const ORDER: Record<WorkOrderListQuery['sort'], string> = {
  intake: 'w.intake_ts desc, w.id desc',
  updated: 'w.update_ts desc, w.id desc',
  number: 'length(w.number), w.number',
  title: 'lower(w.title) asc, w.id',
  // customer_sort is lower(customers.name), kept on the order (migration 0010) so an index serves the sort
  customer: 'w.customer_sort asc nulls last, w.intake_ts desc, w.id desc',
  plannedStart: 'w.planned_start asc nulls last, w.id',
};

/** The columns ORDER sorts on, for the narrow rows a page is chosen from. */
const SORT_KEYS = ['w.id', 'w.intake_ts', 'w.update_ts', 'w.number', 'w.title', 'w.customer_sort', 'w.planned_start'];

/**
 * GET /wo: one page of a list (open, closed — this ISO week unless closedFrom/closedTo say
 * otherwise —, recently closed, ATA, history, recycle bin) with every filter, sorted, and the
 * total. Two statements whatever the page size: the count and the page (assignees and tags by
 * sub-select). The user's work-order limit applies.
 *
 * The total is exact up to TOTAL_COUNT_CAP rows (or the end of the requested page); a longer list
 * answers that many with `totalCountCapped: true`, meaning "more than totalCount".
 */
export async function listWorkOrders(
  ctx: Ctx,
  raw: unknown = {},
): Promise<{ workOrders: WorkOrder[]; totalCount: number; totalCountCapped: boolean }> {
  requireAccess(ctx.auth, { permission: 'workorders:read' });
  const f = parseInput(ZWorkOrderListQuery, raw);
  const base = filteredWorkOrders(ctx, f);
  const cap = Math.max(TOTAL_COUNT_CAP, f.from + f.size);
  const [{ n }] = await ctx.trx
    .from(
      base
        .clone()
        .select(ctx.trx.raw('1'))
        .limit(cap + 1)
        .as('capped'),
    )
    .count({ n: '*' });
  const capped = Number(n) > cap;
  // The page's ids first, on narrow rows (the order's id and sort keys), then the names, assignees
  // and tags of those rows only: skipped rows (an offset) and rows sorted away cost no joins.
  // A list the count found short (at most `cap` rows) is filtered first and then sorted: the
  // subquery's LIMIT keeps the planner from walking the sort's index and testing each row, which
  // is unbounded when the matches sit late in that order (tags, assignees, search). A long list
  // is dense in any order, so walking the sort's index to the page is the fast plan there.
  const source: Knex.QueryBuilder = capped
    ? base.clone()
    : ctx.trx.from(
        base
          .clone()
          .select(SORT_KEYS)
          .limit(cap + 1)
          .as('w'),
      );
  const ids: string[] = await source.orderByRaw(ORDER[f.sort]).limit(f.size).offset(f.from).pluck('w.id');
  const workOrders = await workOrdersByIds(ctx, ids);
  return { totalCount: capped ? cap : Number(n), totalCountCapped: capped, workOrders };
}

/**
 * GET /wo/q?q=: orders (not in the recycle bin) matching `q` in number, title, address, customer
 * or object serial; open ones first, then newest. Within the user's limit.
 */
export async function searchWorkOrders(
  ctx: Ctx,
  raw: unknown = {},
): Promise<{ workOrders: WorkOrder[]; totalCount: number }> {
  requireAccess(ctx.auth, { permission: 'workorders:read' });
  const { q, size } = parseInput(ZWorkOrderSearch, raw);
  if (!q) return { workOrders: [], totalCount: 0 };
  const base = applyLimit(ctx, whereSearch(ctx, ctx.trx('work_orders as w').whereNull('w.deleted_at'), q));
  const [{ n }] = await base.clone().count({ n: '*' });
  const rows = await withNames(base.clone())
    .select(workOrderSelect(ctx.trx))
    .orderByRaw('(w.closed_at is not null), w.intake_ts desc, w.id desc')
    .limit(size);
  return { totalCount: Number(n), workOrders: rows.map(toWorkOrder) };
}

/** GET /wo/my: the signed-in user's open orders, planned ones first by start, then newest. */
export async function myWorkOrders(ctx: Ctx): Promise<{ workOrders: WorkOrder[]; totalCount: number }> {
  requireAccess(ctx.auth, { permission: 'workorders:read' });
  const me = ctx.auth.user.id;
  const base = ctx
    .trx('work_orders as w')
    .whereNull('w.closed_at')
    .whereNull('w.deleted_at')
    .whereExists(assigneeIn(ctx, [me]));
  const rows = await withNames(base)
    .select(workOrderSelect(ctx.trx))
    .orderByRaw('w.planned_start asc nulls last, w.intake_ts desc, w.id desc')
    .limit(500);
  return { totalCount: rows.length, workOrders: rows.map(toWorkOrder) };
}
