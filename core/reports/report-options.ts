import type { Ctx } from '~/core/context';
import { namedOptionsSql } from '~/core/db/json-options';
import { isUuid } from '~/core/errors/validation';
import { requireAccess } from '~/core/permissions/access';
import { REPORTS } from './closed-work-orders.service';

export interface ReportOptions {
  /** Every user, the inactive too: a report looks back at those who have left. */
  users: { id: string; name: string }[];
  workTypes: { id: string; name: string }[];
  /** The customer a filter names, for its picker ("10001 – Brf Solrosen"). */
  customer: { id: string; label: string } | null;
}

/** What the work-order history's filters choose from: one statement. */
export async function reportOptions(ctx: Ctx, opts: { customerId?: string | null } = {}): Promise<ReportOptions> {
  requireAccess(ctx.auth, REPORTS);
  const customerId = isUuid(opts.customerId) ? opts.customerId : null;
  const { rows } = (await ctx.trx.raw(
    `select ${namedOptionsSql('users')} as users,
       (select coalesce(json_agg(json_build_object('id', id, 'name', name) order by lower(name), id), '[]')
          from work_types) as work_types,
       (select case when customer_id is null then name else customer_id || ' – ' || name end
          from customers where id = ?) as customer_label`,
    [customerId],
  )) as {
    rows: { users: ReportOptions['users']; work_types: ReportOptions['workTypes']; customer_label: string | null }[];
  };
  const row = rows[0]!;
  const parse = <T>(v: T | string): T => (typeof v === 'string' ? (JSON.parse(v) as T) : v);
  return {
    users: parse(row.users),
    workTypes: parse(row.work_types),
    customer: customerId && row.customer_label ? { id: customerId, label: row.customer_label } : null,
  };
}
