import type { Knex } from 'knex';
import { z } from 'zod';
import { addDays, startOfDayInZone } from '~/core/calendar/dates';
import { tenantToday } from '~/core/calendar/tenant-today';
import type { Ctx } from '~/core/context';
import { AppError } from '~/core/errors/app-error';
import { parseInput, UUID_PATTERN } from '~/core/errors/validation';
import { tenantTimeZone } from '~/core/i18n/number-format';
import { requireAccess } from '~/core/permissions/access';
import { formatDecimal } from '~/core/pricing';
import { containsPattern, MAX_PAGE_SIZE } from '~/core/registers/list-query';
import { assigneeIn } from '~/core/work-orders/work-order-filter';
import { applyLimit } from '~/core/work-orders/work-order-read';
import { reportPeriod, weekOf, zReportDay, type Period } from './report-period';

/*
 * Reports → work-order history (spec section 2; api-calls.md GET /wo/history/closed): the orders
 * closed in a period (this ISO week by default, days in the tenant's time zone), filtered by
 * customer, work type, title, creator and assignee, newest first, within the user's work-order
 * limit, each with what was reported on it (article total, work and travel time). One count with
 * the period's totals and one page: the sums are aggregated in SQL, never per row in code.
 */

export const REPORTS = { permission: 'reports:read' } as const;

/** The most rows one export of the history holds; a longer one is refused (choose a shorter period). */
export const HISTORY_EXPORT_MAX_ROWS = 50_000;

const zFilterId = () =>
  z.preprocess(
    (v) => (v === '' || v === null ? undefined : v),
    z.string().regex(UUID_PATTERN, 'ERROR_INVALID_VALUE').optional(),
  );

export const ZClosedHistory = z.object({
  startTime: zReportDay(),
  endTime: zReportDay(),
  customerId: zFilterId(),
  workType: zFilterId(),
  title: z.string().trim().max(200, 'ERROR_MAX_LENGTH').optional(),
  createUserId: zFilterId(),
  scheduledUserId: zFilterId(),
  offset: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(50),
});
export type ClosedHistoryQuery = z.infer<typeof ZClosedHistory>;

export interface ClosedWorkOrder {
  id: string;
  number: string;
  title: string;
  customerId: string | null;
  customerName: string | null;
  workTypeId: string;
  workType: string;
  closedAt: string;
  createUserName: string | null;
  assignees: { id: string; name: string }[];
  /** The article rows' total before VAT. */
  totalPrice: string;
  workMinutes: number;
  travelMinutes: number;
}

export interface ClosedHistoryTotals {
  totalPrice: string;
  workMinutes: number;
  travelMinutes: number;
}

export interface ClosedHistory {
  startTime: string;
  endTime: string;
  workOrders: ClosedWorkOrder[];
  totalCount: number;
  totals: ClosedHistoryTotals;
}

type Row = Record<string, unknown>;

/** The default period: the ISO week of the tenant's today. */
export function closedHistoryPeriod(ctx: Ctx, raw: unknown): Period {
  return reportPeriod(raw, weekOf(tenantToday(ctx)));
}

/** The filtered orders as `work_orders as w` (no order, no page), within the user's limit. */
function closedQuery(ctx: Ctx, f: ClosedHistoryQuery, period: Period): Knex.QueryBuilder {
  const zone = tenantTimeZone(ctx.tenant.config?.country);
  const qb = ctx
    .trx('work_orders as w')
    .whereNull('w.deleted_at')
    .where('w.closed_at', '>=', startOfDayInZone(period.from, zone).toISOString())
    .where('w.closed_at', '<', startOfDayInZone(addDays(period.to, 1), zone).toISOString());
  if (f.customerId) qb.where('w.customer_id', f.customerId);
  if (f.workType) qb.where('w.work_type_id', f.workType);
  if (f.title) qb.whereRaw('lower(w.title) like ?', [containsPattern(f.title)]);
  if (f.createUserId) qb.where('w.create_user_id', f.createUserId);
  if (f.scheduledUserId) qb.whereExists(assigneeIn(ctx, [f.scheduledUserId]));
  return applyLimit(ctx, qb);
}

const ROW_COLUMNS = (ctx: Ctx) => [
  'w.id',
  'w.number',
  'w.title',
  'w.customer_id',
  'c.name as customer_name',
  'w.work_type_id',
  't.name as work_type',
  'w.closed_at',
  'cu.name as create_user_name',
  ctx.trx.raw(`coalesce((select json_agg(json_build_object('id', u.id, 'name', u.name) order by lower(u.name), u.id)
      from work_order_assignees a join users u on u.id = a.user_id where a.work_order_id = w.id), '[]') as assignee_list`),
  ctx.trx.raw(
    `(select coalesce(sum(r.total), 0) from work_order_articles r where r.work_order_id = w.id) as total_price`,
  ),
  ctx.trx.raw(
    `(select coalesce(sum(tm.work_minutes), 0)::int from work_order_time tm where tm.work_order_id = w.id) as work_minutes`,
  ),
  ctx.trx.raw(
    `(select coalesce(sum(tm.travel_minutes), 0)::int from work_order_time tm where tm.work_order_id = w.id) as travel_minutes`,
  ),
];

const toClosed = (r: Row): ClosedWorkOrder => ({
  id: r.id as string,
  number: r.number as string,
  title: r.title as string,
  customerId: (r.customer_id as string | null) ?? null,
  customerName: (r.customer_name as string | null) ?? null,
  workTypeId: r.work_type_id as string,
  workType: r.work_type as string,
  closedAt: r.closed_at instanceof Date ? r.closed_at.toISOString() : new Date(String(r.closed_at)).toISOString(),
  createUserName: (r.create_user_name as string | null) ?? null,
  assignees: (typeof r.assignee_list === 'string' ? JSON.parse(r.assignee_list) : r.assignee_list) as {
    id: string;
    name: string;
  }[],
  totalPrice: formatDecimal(String(r.total_price ?? 0)),
  workMinutes: Number(r.work_minutes ?? 0),
  travelMinutes: Number(r.travel_minutes ?? 0),
});

/** The orders, sorted newest closed first, with their names and sums (`limit`/`offset` when paging). */
function closedRows(ctx: Ctx, base: Knex.QueryBuilder): Knex.QueryBuilder {
  return base
    .clone()
    .leftJoin('customers as c', 'c.id', 'w.customer_id')
    .join('work_types as t', 't.id', 'w.work_type_id')
    .leftJoin('users as cu', 'cu.id', 'w.create_user_id')
    .orderBy([
      { column: 'w.closed_at', order: 'desc' },
      { column: 'w.id', order: 'desc' },
    ])
    .select(ROW_COLUMNS(ctx));
}

/** How many orders match and what was reported on them all: one statement. */
async function closedTotals(ctx: Ctx, base: Knex.QueryBuilder): Promise<{ n: number } & ClosedHistoryTotals> {
  const [row] = (await ctx.trx.with('f', base.clone().select('w.id')).select(
    ctx.trx.raw('(select count(*)::int from f) as n'),
    ctx.trx.raw(
      '(select coalesce(sum(r.total), 0) from work_order_articles r join f on f.id = r.work_order_id) as total_price',
    ),
    ctx.trx
      .raw(`(select coalesce(sum(tm.work_minutes), 0)::int from work_order_time tm join f on f.id = tm.work_order_id)
          as work_minutes`),
    ctx.trx
      .raw(`(select coalesce(sum(tm.travel_minutes), 0)::int from work_order_time tm join f on f.id = tm.work_order_id)
          as travel_minutes`),
  )) as Row[];
  return {
    n: Number(row?.n ?? 0),
    totalPrice: formatDecimal(String(row?.total_price ?? 0)),
    workMinutes: Number(row?.work_minutes ?? 0),
    travelMinutes: Number(row?.travel_minutes ?? 0),
  };
}

/**
 * GET /wo/history/closed?startTime&endTime&customerId&workType&title&createUserId&scheduledUserId
 * (&offset&limit): one page of the closed orders with the count and the period's totals
 * (reports:read; the work-order limit applies; 400 with the reason on endTime for a period
 * reversed or longer than 366 days).
 */
export async function closedWorkOrderHistory(ctx: Ctx, raw: unknown = {}): Promise<ClosedHistory> {
  requireAccess(ctx.auth, REPORTS);
  const f = parseInput(ZClosedHistory, raw);
  const period = closedHistoryPeriod(ctx, f);
  const base = closedQuery(ctx, f, period);
  const { n, ...totals } = await closedTotals(ctx, base);
  const rows = n === 0 ? [] : ((await closedRows(ctx, base).limit(f.limit).offset(f.offset)) as Row[]);
  return { startTime: period.from, endTime: period.to, workOrders: rows.map(toClosed), totalCount: n, totals };
}

/**
 * Every order of the history's filter for an export, in the list's order; 409
 * REPORT_EXPORT_TOO_LARGE beyond HISTORY_EXPORT_MAX_ROWS (one statement for the count, one for the rows).
 */
export async function closedWorkOrdersForExport(
  ctx: Ctx,
  raw: unknown = {},
): Promise<{ period: Period; workOrders: ClosedWorkOrder[]; totals: ClosedHistoryTotals }> {
  requireAccess(ctx.auth, REPORTS);
  const f = parseInput(ZClosedHistory, raw);
  const period = closedHistoryPeriod(ctx, f);
  const base = closedQuery(ctx, f, period);
  const { n, ...totals } = await closedTotals(ctx, base);
  if (n > HISTORY_EXPORT_MAX_ROWS)
    throw new AppError('REPORT_EXPORT_TOO_LARGE', 409, { max: HISTORY_EXPORT_MAX_ROWS, count: n });
  const rows = n === 0 ? [] : ((await closedRows(ctx, base)) as Row[]);
  return { period, workOrders: rows.map(toClosed), totals };
}
