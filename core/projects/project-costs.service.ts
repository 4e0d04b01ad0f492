import { z } from 'zod';
import { tenantToday } from '~/core/calendar/tenant-today';
import type { Ctx } from '~/core/context';
import { notFound } from '~/core/errors/app-error';
import { isUuid, parseInput } from '~/core/errors/validation';
import { recordHistory } from '~/core/history/history';
import { tenantTimeZone } from '~/core/i18n/number-format';
import { requireAccess } from '~/core/permissions/access';
import { formatDecimal, sub, sum, zOptionalMoney } from '~/core/pricing';
import { monthOf, reportPeriod, type Period } from '~/core/reports/report-period';
import { costPeriodStart, lastMonths } from './cost-period';
import { lockOngoingProject, PROJECT_ACCESS, PROJECT_ENTITY } from './project-access';
import { hoursOf, minutesCost, projectFiguresOf, SUPPLIER_INVOICE_COST } from './project-figures';

export { hoursOf, minutesCost };

/*
 * A project's costs (issue 18; spec section 2 "costs" menu, section 9 "Projects have a configurable
 * month day to reset costs"; api-calls.md GET and POST /projects/{id}/snapshot, GET
 * /projects/{id}/timereports).
 *
 * What a project costs: the time reported on its work orders (work and travel minutes) at the
 * project's hourly cost — the tenant's project setting when the project has none — plus the
 * articles reported on them at their purchase price (the row's, else the article's). Orders in the
 * recycle bin do not count. Approved supplier invoices of the project count too (issue 33), each
 * row once: as an article row where it was re-invoiced, else as a supplier-invoice cost.
 *
 * The ongoing cost is what the project has cost since the last reset day (cost-period.ts); a
 * snapshot keeps it, with the total, as it was when someone took it.
 *
 * Every figure is computed in a fixed number of grouped statements whatever the number of rows:
 * the orders are found through work_orders_project_idx, their time rows through
 * work_order_time_wo_idx and their articles through work_order_articles_wo_idx.
 */

type Row = Record<string, unknown>;

/** How many months the by-month chart covers (spec: statistics cover the last 12 months). */
export const COST_MONTHS = 12;
/** The most snapshots a project lists (newest first). */
export const SNAPSHOT_LIST_LIMIT = 200;
/** Time rows per page of GET /projects/{id}/timereports. */
export const TIME_REPORT_PAGE = 200;
export const TIME_REPORT_MAX_PAGE = 1000;

export interface CostBase {
  id: string;
  number: number;
  title: string;
  status: 'ongoing' | 'closed';
  /** The hourly cost time is valued at, and where it comes from. */
  hourlyCost: string;
  hourlyCostSource: 'project' | 'settings';
  hourlyPrice: string;
  hourlyPriceSource: 'project' | 'settings';
  costResetDay: number;
  estimatedHours: string | null;
  estimatedCost: string | null;
  contractSum: string;
}

export interface ProjectCostMonth {
  /** YYYY-MM */
  month: string;
  timeCost: string;
  articleCost: string;
  /** Approved supplier invoices dated in the month (as in `supplierInvoices`). */
  supplierInvoiceCost: string;
  total: string;
}

export interface ProjectCostUser {
  userId: string;
  name: string;
  minutes: number;
  hours: string;
  cost: string;
}

export interface ProjectCosts {
  projectId: string;
  /** The tenant's calendar day the figures were computed on. */
  today: string;
  hourlyCost: string;
  hourlyCostSource: 'project' | 'settings';
  /** Work and travel time on the project's orders, valued at the hourly cost. */
  time: { workMinutes: number; travelMinutes: number; minutes: number; hours: string; cost: string };
  /** Article rows on the project's orders, valued at their purchase price (and what they sell for). */
  articles: { count: number; cost: string; salesTotal: string };
  /** Approved supplier invoices without VAT, less the rows re-invoiced as article rows (counted there). */
  supplierInvoices: { count: number; cost: string };
  total: string;
  /** Since the last reset day (included) up to now. */
  ongoing: {
    since: string;
    resetDay: number;
    timeCost: string;
    articleCost: string;
    supplierInvoiceCost: string;
    cost: string;
  };
  /** The last 12 months, oldest first, months without costs included. */
  byMonth: ProjectCostMonth[];
  /** Everyone who reported time, the most hours first. */
  byUser: ProjectCostUser[];
  estimated: { hours: string | null; cost: string | null };
  /** Estimate minus actual (negative: over the estimate); null without an estimate. */
  difference: { hours: string | null; cost: string | null };
}

export interface ProjectCostSnapshot {
  id: string;
  ongoingCost: string;
  totalCost: string;
  /** The first day of the ongoing period the snapshot was taken in. */
  periodStart: string;
  createdAt: string;
  createUserId: string | null;
  createUserName: string | null;
}

const money = (v: unknown) => formatDecimal(String(v ?? '0'));
const moneyOrNull = (v: unknown) => (v === null || v === undefined ? null : formatDecimal(String(v)));

/**
 * The project's own figures and the tenant's project settings in one statement, or 404 (a
 * malformed id, another tenant's, a missing one).
 */
export async function loadCostBase(ctx: Ctx, id: unknown): Promise<CostBase> {
  if (!isUuid(id)) throw notFound();
  const r = (await ctx
    .trx('projects as p')
    .joinRaw('left join project_settings s on true')
    .where('p.id', id)
    .first(
      'p.id',
      'p.number',
      'p.title',
      'p.status',
      'p.estimated_hours',
      'p.estimated_cost',
      'p.contract_sum',
      'p.hourly_cost',
      'p.hourly_price',
      's.hourly_cost as settings_hourly_cost',
      's.hourly_price as settings_hourly_price',
      's.cost_reset_day',
    )) as Row | undefined;
  if (!r) throw notFound();
  const own = (v: unknown) => v !== null && v !== undefined;
  return {
    id: r.id as string,
    number: Number(r.number),
    title: String(r.title),
    status: r.status as CostBase['status'],
    hourlyCost: money(own(r.hourly_cost) ? r.hourly_cost : r.settings_hourly_cost),
    hourlyCostSource: own(r.hourly_cost) ? 'project' : 'settings',
    hourlyPrice: money(own(r.hourly_price) ? r.hourly_price : r.settings_hourly_price),
    hourlyPriceSource: own(r.hourly_price) ? 'project' : 'settings',
    costResetDay: Number(r.cost_reset_day ?? 1),
    estimatedHours: r.estimated_hours === null ? null : formatDecimal(String(r.estimated_hours)),
    estimatedCost: moneyOrNull(r.estimated_cost),
    contractSum: money(r.contract_sum),
  };
}

export interface TimeGroups {
  workMinutes: number;
  travelMinutes: number;
  minutes: number;
  /** Minutes on or after the ongoing period's first day. */
  ongoingMinutes: number;
  byMonth: Map<string, number>;
  byUser: { userId: string; name: string; minutes: number }[];
}

/**
 * The project's time in one grouped statement: per person, per month and in all (grouping sets),
 * with the part since `since`.
 */
export async function loadTimeGroups(ctx: Ctx, projectId: string, since: string): Promise<TimeGroups> {
  const { rows } = (await ctx.trx.raw(
    `with t as (
       select t.user_id, u.name as user_name, date_trunc('month', t.date)::date as month,
              t.work_minutes, t.travel_minutes, t.work_minutes + t.travel_minutes as minutes,
              t.date >= cast(? as date) as ongoing
         from work_orders w
         join work_order_time t on t.work_order_id = w.id
         join users u on u.id = t.user_id
        where w.project_id = ? and w.deleted_at is null)
     select t.user_id, t.user_name, to_char(t.month, 'YYYY-MM') as month,
            grouping(t.user_id, t.user_name, t.month)::int as g,
            sum(t.work_minutes)::bigint as work_minutes,
            sum(t.travel_minutes)::bigint as travel_minutes,
            sum(t.minutes)::bigint as minutes,
            coalesce(sum(t.minutes) filter (where t.ongoing), 0)::bigint as ongoing_minutes
       from t
      group by grouping sets ((t.user_id, t.user_name), (t.month), ())`,
    [since, projectId],
  )) as { rows: Row[] };
  const groups: TimeGroups = {
    workMinutes: 0,
    travelMinutes: 0,
    minutes: 0,
    ongoingMinutes: 0,
    byMonth: new Map(),
    byUser: [],
  };
  for (const r of rows) {
    const g = Number(r.g);
    // grouping(): a bit per argument left out of the row's set (user_id, user_name, month)
    if (g === 0b111) {
      groups.workMinutes = Number(r.work_minutes ?? 0);
      groups.travelMinutes = Number(r.travel_minutes ?? 0);
      groups.minutes = Number(r.minutes ?? 0);
      groups.ongoingMinutes = Number(r.ongoing_minutes ?? 0);
    } else if (g === 0b110) groups.byMonth.set(String(r.month), Number(r.minutes ?? 0));
    else if (g === 0b001)
      groups.byUser.push({
        userId: String(r.user_id),
        name: String(r.user_name ?? ''),
        minutes: Number(r.minutes ?? 0),
      });
  }
  groups.byUser.sort((a, b) => b.minutes - a.minutes || a.name.localeCompare(b.name));
  return groups;
}

export interface ArticleGroups {
  count: number;
  cost: string;
  /** What the rows sell for (their totals). */
  revenue: string;
  ongoingCost: string;
  byMonth: Map<string, string>;
}

/**
 * The project's article rows in one grouped statement: per month (of the day the row was reported,
 * in the tenant's zone) and in all, valued at the row's purchase price or else the article's.
 */
export async function loadArticleGroups(ctx: Ctx, projectId: string, since: string): Promise<ArticleGroups> {
  const zone = tenantTimeZone(ctx.tenant.config?.country);
  const { rows } = (await ctx.trx.raw(
    `with r as (
       select (r.created_at at time zone ?)::date as day,
              r.amount * coalesce(r.purchase_price, a.purchase_price, 0) as cost,
              r.total
         from work_orders w
         join work_order_articles r on r.work_order_id = w.id
         left join articles a on a.id = r.article_id
        where w.project_id = ? and w.deleted_at is null)
     select to_char(date_trunc('month', r.day), 'YYYY-MM') as month,
            grouping(date_trunc('month', r.day))::int as g,
            count(*)::int as count,
            round(coalesce(sum(r.cost), 0), 2)::text as cost,
            round(coalesce(sum(r.total), 0), 2)::text as revenue,
            round(coalesce(sum(r.cost) filter (where r.day >= cast(? as date)), 0), 2)::text as ongoing_cost
       from r
      group by grouping sets ((date_trunc('month', r.day)), ())`,
    [zone, projectId, since],
  )) as { rows: Row[] };
  const groups: ArticleGroups = { count: 0, cost: '0.00', revenue: '0.00', ongoingCost: '0.00', byMonth: new Map() };
  for (const r of rows) {
    if (Number(r.g) === 1) {
      groups.count = Number(r.count ?? 0);
      groups.cost = money(r.cost);
      groups.revenue = money(r.revenue);
      groups.ongoingCost = money(r.ongoing_cost);
    } else groups.byMonth.set(String(r.month), money(r.cost));
  }
  return groups;
}

/**
 * The project's approved supplier invoices in one grouped statement: per month of the invoice date,
 * and since the ongoing period began; valued as the project's figures value them.
 */
export async function loadSupplierInvoiceGroups(
  ctx: Ctx,
  projectId: string,
  since: string,
): Promise<{ ongoingCost: string; byMonth: Map<string, string> }> {
  const { rows } = (await ctx.trx.raw(
    `select to_char(date_trunc('month', si.invoice_date), 'YYYY-MM') as month,
            grouping(date_trunc('month', si.invoice_date))::int as g,
            round(coalesce(sum(${SUPPLIER_INVOICE_COST}), 0), 2)::text as cost,
            round(coalesce(sum(${SUPPLIER_INVOICE_COST}) filter (where si.invoice_date >= cast(? as date)), 0), 2)::text
              as ongoing_cost
       from supplier_invoices si
      where si.project_id = ? and si.status = 'approved'
      group by grouping sets ((date_trunc('month', si.invoice_date)), ())`,
    [since, projectId],
  )) as { rows: Row[] };
  const groups = { ongoingCost: '0.00', byMonth: new Map<string, string>() };
  for (const r of rows) {
    if (Number(r.g) === 1) groups.ongoingCost = money(r.ongoing_cost);
    else groups.byMonth.set(String(r.month), money(r.cost));
  }
  return groups;
}

/**
 * The costs of a project whose base is read (shared by the costs call, snapshots and the PDF). The
 * totals are the project's figures (project-figures.ts), the same the header and statistics show;
 * the groups break them down by month, person and the ongoing period.
 */
export async function computeProjectCosts(ctx: Ctx, base: CostBase): Promise<ProjectCosts> {
  const today = tenantToday(ctx);
  const since = costPeriodStart(today, base.costResetDay);
  // one after the other: the statements share the unit of work's connection
  const figures = await projectFiguresOf(ctx, base.id);
  const time = await loadTimeGroups(ctx, base.id, since);
  const articles = await loadArticleGroups(ctx, base.id, since);
  const bought = await loadSupplierInvoiceGroups(ctx, base.id, since);
  const rate = figures.cost.hourlyCost;
  const ongoingTime = minutesCost(time.ongoingMinutes, rate);
  const byMonth = lastMonths(today, COST_MONTHS).map((month) => {
    const t = minutesCost(time.byMonth.get(month) ?? 0, rate);
    const a = articles.byMonth.get(month) ?? '0.00';
    const b = bought.byMonth.get(month) ?? '0.00';
    return { month, timeCost: t, articleCost: a, supplierInvoiceCost: b, total: formatDecimal(sum([t, a, b])) };
  });
  const { hours, cost } = figures;
  return {
    projectId: base.id,
    today,
    hourlyCost: rate,
    hourlyCostSource: base.hourlyCostSource,
    time: {
      workMinutes: hours.workMinutes,
      travelMinutes: hours.travelMinutes,
      minutes: hours.minutes,
      hours: hours.total,
      cost: cost.time,
    },
    articles: { count: cost.articleCount, cost: cost.articles, salesTotal: articles.revenue },
    supplierInvoices: { count: cost.supplierInvoiceCount, cost: cost.supplierInvoices },
    total: cost.total,
    ongoing: {
      since,
      resetDay: base.costResetDay,
      timeCost: ongoingTime,
      articleCost: articles.ongoingCost,
      supplierInvoiceCost: bought.ongoingCost,
      cost: formatDecimal(sum([ongoingTime, articles.ongoingCost, bought.ongoingCost])),
    },
    byMonth,
    byUser: time.byUser.map((u) => ({ ...u, hours: hoursOf(u.minutes), cost: minutesCost(u.minutes, rate) })),
    estimated: { hours: base.estimatedHours, cost: base.estimatedCost },
    difference: {
      hours: base.estimatedHours === null ? null : formatDecimal(sub(base.estimatedHours, hours.total)),
      cost: base.estimatedCost === null ? null : formatDecimal(sub(base.estimatedCost, cost.total)),
    },
  };
}

/** GET /projects/{id}/costs: time, articles, total, the ongoing cost, by month, by person and against the estimate. */
export async function projectCosts(ctx: Ctx, projectId: unknown): Promise<{ costs: ProjectCosts }> {
  requireAccess(ctx.auth, PROJECT_ACCESS.read);
  return { costs: await computeProjectCosts(ctx, await loadCostBase(ctx, projectId)) };
}

// ---- snapshots -------------------------------------------------------------------------------

async function listSnapshots(ctx: Ctx, projectId: string): Promise<ProjectCostSnapshot[]> {
  const rows = (await ctx
    .trx('project_cost_snapshots as s')
    .leftJoin('users as u', 'u.id', 's.create_user_id')
    .where('s.project_id', projectId)
    .orderBy([
      { column: 's.created_at', order: 'desc' },
      { column: 's.id', order: 'desc' },
    ])
    .limit(SNAPSHOT_LIST_LIMIT)
    .select(
      's.id',
      ctx.trx.raw('s.ongoing_cost::text as ongoing_cost'),
      ctx.trx.raw('s.total_cost::text as total_cost'),
      ctx.trx.raw(`to_char(s.period_start, 'YYYY-MM-DD') as period_start`),
      's.created_at',
      's.create_user_id',
      'u.name as create_user_name',
    )) as Row[];
  return rows.map(snapshotOf);
}

function snapshotOf(r: Row): ProjectCostSnapshot {
  return {
    id: r.id as string,
    ongoingCost: money(r.ongoing_cost),
    totalCost: money(r.total_cost),
    periodStart: String(r.period_start).slice(0, 10),
    createdAt: new Date(r.created_at as string).toISOString(),
    createUserId: (r.create_user_id as string | null) ?? null,
    createUserName: (r.create_user_name as string | null) ?? null,
  };
}

/** GET /projects/{id}/snapshot: the total cost now and the snapshots taken, newest first. */
export async function projectCostSnapshots(
  ctx: Ctx,
  projectId: unknown,
): Promise<{ totalCost: string; ongoingCost: string; since: string; snapshots: ProjectCostSnapshot[] }> {
  requireAccess(ctx.auth, PROJECT_ACCESS.read);
  const base = await loadCostBase(ctx, projectId);
  const costs = await computeProjectCosts(ctx, base);
  const snapshots = await listSnapshots(ctx, base.id);
  return { totalCost: costs.total, ongoingCost: costs.ongoing.cost, since: costs.ongoing.since, snapshots };
}

/**
 * The costs menu's data in one go: the costs, the snapshots and whether the project is closed
 * (a closed project takes no snapshots).
 */
export async function projectCostsPanel(
  ctx: Ctx,
  projectId: unknown,
): Promise<{ costs: ProjectCosts; snapshots: ProjectCostSnapshot[]; isClosed: boolean }> {
  requireAccess(ctx.auth, PROJECT_ACCESS.read);
  const base = await loadCostBase(ctx, projectId);
  const costs = await computeProjectCosts(ctx, base);
  const snapshots = await listSnapshots(ctx, base.id);
  return { costs, snapshots, isClosed: base.status === 'closed' };
}

export const ZCostSnapshot = z.object({ ongoingCost: zOptionalMoney() });

/**
 * POST /projects/{id}/snapshot {ongoingCost?}: keeps the ongoing cost (the computed one when left
 * out) with the total cost and the period's first day. Needs projects:edit; a closed project
 * changes only after it is reopened (409 PROJECT_CLOSED).
 */
export async function takeProjectCostSnapshot(
  ctx: Ctx,
  projectId: unknown,
  raw: unknown,
): Promise<{ totalCost: string; snapshot: ProjectCostSnapshot }> {
  requireAccess(ctx.auth, PROJECT_ACCESS.edit);
  const input = parseInput(ZCostSnapshot, raw ?? {});
  const project = await lockOngoingProject(ctx, projectId);
  const costs = await computeProjectCosts(ctx, await loadCostBase(ctx, project.id));
  const ongoingCost = input.ongoingCost ?? costs.ongoing.cost;
  const [row] = (await ctx
    .trx('project_cost_snapshots')
    .insert({
      project_id: project.id,
      ongoing_cost: ongoingCost,
      total_cost: costs.total,
      period_start: costs.ongoing.since,
      create_user_id: ctx.auth.user.id,
      created_at: ctx.now,
    })
    .returning('id')) as { id: string }[];
  await recordHistory(ctx, {
    entity: PROJECT_ENTITY,
    entityId: project.id,
    action: 'cost_snapshot',
    data: { snapshotId: row!.id, ongoingCost, totalCost: costs.total, periodStart: costs.ongoing.since },
  });
  const snapshot: ProjectCostSnapshot = {
    id: row!.id,
    ongoingCost,
    totalCost: costs.total,
    periodStart: costs.ongoing.since,
    createdAt: ctx.now.toISOString(),
    createUserId: ctx.auth.user.id,
    createUserName: ctx.auth.user.fullName,
  };
  return { totalCost: costs.total, snapshot };
}

// ---- the project's time reports ------------------------------------------------------------

export interface ProjectTimeRow {
  id: string;
  /** YYYY-MM-DD */
  date: string;
  userId: string;
  userName: string;
  workOrderId: string;
  workOrderNumber: string;
  workOrderTitle: string;
  workMinutes: number;
  travelMinutes: number;
  distanceKm: string;
  comment: string | null;
}

export interface ProjectTimeUserTotal {
  userId: string;
  name: string;
  workMinutes: number;
  travelMinutes: number;
  minutes: number;
  hours: string;
}

export interface ProjectTimeReports {
  period: Period;
  rows: ProjectTimeRow[];
  /** Rows in the period; `rows` is one page of them. */
  totalCount: number;
  offset: number;
  limit: number;
  byUser: ProjectTimeUserTotal[];
  totals: { workMinutes: number; travelMinutes: number; minutes: number; hours: string };
}

const ZPage = z.object({
  offset: z.coerce
    .number({ error: 'ERROR_INVALID_VALUE' })
    .int('ERROR_INVALID_VALUE')
    .min(0, 'ERROR_INVALID_VALUE')
    .default(0),
  limit: z.coerce
    .number({ error: 'ERROR_INVALID_VALUE' })
    .int('ERROR_INVALID_VALUE')
    .min(1, 'ERROR_INVALID_VALUE')
    .max(TIME_REPORT_MAX_PAGE, 'ERROR_INVALID_VALUE')
    .default(TIME_REPORT_PAGE),
});

/**
 * GET /projects/{id}/timereports?startTime&endTime: the time rows of the project's orders in the
 * period (this month when left out; at most 366 days, 400 ERROR_REPORT_PERIOD_TOO_LONG), a page
 * of them (?offset, ?limit up to 1000) oldest first, and each person's totals over the whole period.
 */
export async function projectTimeReports(ctx: Ctx, projectId: unknown, raw: unknown): Promise<ProjectTimeReports> {
  requireAccess(ctx.auth, PROJECT_ACCESS.read);
  const input = (raw ?? {}) as Record<string, unknown>;
  const period = reportPeriod({ startTime: input.startTime, endTime: input.endTime }, monthOf(tenantToday(ctx)));
  const page = parseInput(ZPage, { offset: input.offset ?? undefined, limit: input.limit ?? undefined });
  const base = await loadCostBase(ctx, projectId);
  const scope = () =>
    ctx
      .trx('work_orders as w')
      .join('work_order_time as t', 't.work_order_id', 'w.id')
      .join('users as u', 'u.id', 't.user_id')
      .where('w.project_id', base.id)
      .whereNull('w.deleted_at')
      .whereBetween('t.date', [period.from, period.to]);
  const rows = (await scope()
    .orderBy([
      { column: 't.date', order: 'asc' },
      { column: 'u.name', order: 'asc' },
      { column: 't.start_ts', order: 'asc' },
      { column: 't.id', order: 'asc' },
    ])
    .offset(page.offset)
    .limit(page.limit)
    .select(
      't.id',
      ctx.trx.raw(`to_char(t.date, 'YYYY-MM-DD') as date_text`),
      't.user_id',
      'u.name as user_name',
      'w.id as work_order_id',
      'w.number as work_order_number',
      'w.title as work_order_title',
      't.work_minutes',
      't.travel_minutes',
      ctx.trx.raw('t.distance_km::text as distance_km'),
      't.comment',
    )) as Row[];
  const groups = (await scope()
    .groupByRaw('grouping sets ((t.user_id, u.name), ())')
    .select(
      't.user_id',
      'u.name as user_name',
      ctx.trx.raw('grouping(t.user_id, u.name)::int as g'),
      ctx.trx.raw('count(*)::int as count'),
      ctx.trx.raw('sum(t.work_minutes)::bigint as work_minutes'),
      ctx.trx.raw('sum(t.travel_minutes)::bigint as travel_minutes'),
    )) as Row[];
  const byUser: ProjectTimeUserTotal[] = [];
  let totalCount = 0;
  let work = 0;
  let travel = 0;
  for (const g of groups) {
    const w = Number(g.work_minutes ?? 0);
    const tr = Number(g.travel_minutes ?? 0);
    if (Number(g.g) === 0b11) {
      totalCount = Number(g.count ?? 0);
      work = w;
      travel = tr;
    } else
      byUser.push({
        userId: String(g.user_id),
        name: String(g.user_name ?? ''),
        workMinutes: w,
        travelMinutes: tr,
        minutes: w + tr,
        hours: hoursOf(w + tr),
      });
  }
  byUser.sort((a, b) => b.minutes - a.minutes || a.name.localeCompare(b.name));
  return {
    period,
    rows: rows.map((r) => ({
      id: r.id as string,
      date: String(r.date_text),
      userId: r.user_id as string,
      userName: String(r.user_name ?? ''),
      workOrderId: r.work_order_id as string,
      workOrderNumber: String(r.work_order_number),
      workOrderTitle: String(r.work_order_title),
      workMinutes: Number(r.work_minutes ?? 0),
      travelMinutes: Number(r.travel_minutes ?? 0),
      distanceKm: String(r.distance_km ?? '0'),
      comment: (r.comment as string | null) ?? null,
    })),
    totalCount,
    offset: page.offset,
    limit: page.limit,
    byUser,
    totals: { workMinutes: work, travelMinutes: travel, minutes: work + travel, hours: hoursOf(work + travel) },
  };
}
