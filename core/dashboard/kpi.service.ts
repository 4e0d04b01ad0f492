import { z } from 'zod';
import { agreementInvoicingThisMonth } from '~/core/agreements/agreement-invoices.service';
import { tenantTimeZone } from '~/core/calendar/dates';
import { tenantToday } from '~/core/calendar/tenant-today';
import type { Ctx } from '~/core/context';
import { parseInput } from '~/core/errors/validation';
import { requireAccess } from '~/core/permissions/access';
import { compare, decimalPlaces, formatDecimal, isNegative, parseDecimal } from '~/core/pricing/decimal';
import { zMoney } from '~/core/pricing/schemas';
import { periodRange, type DashboardPeriod, type PeriodRange } from './dashboard-period';

/*
 * The dashboard's key figures (spec section 2, dashboard KPI cards; decision 062). Every figure is
 * summed in SQL: one statement gives each card's months and its total over the period (grouping
 * sets), one more the figures that are a state of today (open orders, open projects), plus the
 * price settings and the agreements' due invoicing. Nothing reads rows into Node to add them up.
 */

export interface TrendPoint {
  /** `YYYY-MM` */
  month: string;
  value: number;
}

export interface DashboardSettings {
  /** Excl. VAT, two decimals. */
  pricePerHour: string;
  debitFactor: string;
}

export interface DashboardCards {
  period: PeriodRange;
  settings: DashboardSettings;
  /** Time reported in the period on orders still open, valued at price per hour × debit factor. */
  openToInvoice: { value: string; minutes: number; openOrders: number; trend: TrendPoint[] };
  /** Agreement invoices made in the period (not voided), excl. VAT; and what is due this month. */
  agreementInvoicing: {
    amount: string;
    count: number;
    due: { count: number; amount: string };
    trend: TrendPoint[];
  };
  /** Open projects and what is left to invoice of their contract sums; their invoicing by month. */
  openProjects: { count: number; leftToInvoice: string; invoiced: string; trend: TrendPoint[] };
  /** Average days from intake to closing, over orders closed since `period.leadFrom`. */
  leadTime: { days: number | null; closed: number; trend: TrendPoint[] };
  /** Orders closed in the period with no finalized invoice, their article rows excl. VAT. */
  accruedIncome: { value: string; orders: number; trend: TrendPoint[] };
  /** Orders closed in the period: invoiced (a finalized invoice) or not. Trend: the invoiced share, %. */
  invoicedVsNot: { invoiced: number; notInvoiced: number; trend: TrendPoint[] };
  /** Objects added, and objects made inactive, in the period. */
  objects: { added: number; lost: number; trend: TrendPoint[]; lostTrend: TrendPoint[] };
  /** Supplier order confirmations whose work-order reference matched no order (decision 055). */
  supplierOrdersInError: { count: number; trend: TrendPoint[] };
}

type Row = Record<string, unknown>;

const DEFAULT_SETTINGS: DashboardSettings = { pricePerHour: '0.00', debitFactor: '1.000' };

export async function readDashboardSettings(ctx: Pick<Ctx, 'trx'>): Promise<DashboardSettings> {
  const row = (await ctx
    .trx('dashboard_settings')
    .first(ctx.trx.raw('price_per_hour::text as price'), ctx.trx.raw('debit_factor::text as factor'))) as
    | Row
    | undefined;
  return row ? { pricePerHour: String(row.price), debitFactor: String(row.factor) } : DEFAULT_SETTINGS;
}

/** A debit factor as forms send it ("1,25"): 0–10 with at most 3 decimals. */
const zDebitFactor = () =>
  z.union([z.string(), z.number()], { error: 'ERROR_INVALID_VALUE' }).transform((raw, ctx) => {
    const d = parseDecimal(String(raw));
    if (!d || decimalPlaces(d) > 3 || isNegative(d) || compare(d, 10) > 0) {
      ctx.addIssue({ code: 'custom', message: 'ERROR_INVALID_VALUE' });
      return z.NEVER;
    }
    return formatDecimal(d, 3);
  });

export const ZDashboardSettings = z.object({ pricePerHour: zMoney(), debitFactor: zDebitFactor() });
export type TDashboardSettings = z.infer<typeof ZDashboardSettings>;

/** The open work orders card's price per hour and debit factor (`dashboard:open_workorders_kpi_edit`). */
export async function saveDashboardSettings(ctx: Ctx, input: unknown): Promise<DashboardSettings> {
  requireAccess(ctx.auth, { permission: 'dashboard:open_workorders_kpi_edit', module: 'dashboard' });
  const v = parseInput(ZDashboardSettings, input);
  await ctx
    .trx('dashboard_settings')
    .insert({ id: true, price_per_hour: v.pricePerHour, debit_factor: v.debitFactor, updated_at: ctx.now })
    .onConflict('id')
    .merge();
  return readDashboardSettings(ctx);
}

/**
 * One part of the cards' statement: a card's figures `a` and `b` for each month of the period and
 * (month null) for the whole of it.
 */
const part = (card: string, month: string, a: string, b: string, body: string) =>
  `select '${card}' as card, ${month} as month, (${a})::numeric as a, (${b})::numeric as b ${body}
    group by grouping sets ((${month}), ())`;

const NOT_INVOICED = `not exists (select 1 from invoices i where i.work_order_id = w.id and i.status = 'finalized')`;
const CLOSED_IN_PERIOD = `from p, work_orders w
  where w.closed_at >= p.from_ts and w.deleted_at is null and w.project_id is null`;
const closedMonth = `to_char(w.closed_at at time zone p.zone, 'YYYY-MM')`;

const CARDS_SQL = `with p as not materialized (
    select ?::date as from_d, ?::date as to_d, ?::text as zone,
           (?::date)::timestamp at time zone ? as from_ts, (?::date)::timestamp at time zone ? as lead_ts,
           ?::numeric as rate, ?::numeric as factor)
  ${part(
    'open',
    `to_char(t.date, 'YYYY-MM')`,
    `round(coalesce(sum(t.work_minutes), 0) * max(p.rate) * max(p.factor) / 60, 2)`,
    `coalesce(sum(t.work_minutes), 0)`,
    `from p, work_order_time t join work_orders w on w.id = t.work_order_id
      where t.date between p.from_d and p.to_d and w.closed_at is null and w.deleted_at is null`,
  )}
  union all ${part(
    'agreements',
    `to_char(i.invoice_date, 'YYYY-MM')`,
    `coalesce(sum(i.total_price), 0)`,
    `count(*)`,
    `from p, invoices i where i.object_agreement_id is not null and i.status <> 'void'
      and i.invoice_date between p.from_d and p.to_d`,
  )}
  union all ${part(
    'projects',
    `to_char(i.invoice_date, 'YYYY-MM')`,
    `coalesce(sum(i.total_price), 0)`,
    `count(*)`,
    `from p, invoices i where i.project_id is not null and i.status = 'finalized'
      and i.invoice_date between p.from_d and p.to_d`,
  )}
  union all ${part(
    'lead',
    closedMonth,
    `round((avg(extract(epoch from w.closed_at - w.intake_ts)) / 86400)::numeric, 1)`,
    `count(*)`,
    `from p, work_orders w where w.closed_at >= p.lead_ts and w.deleted_at is null`,
  )}
  union all ${part(
    'accrued',
    closedMonth,
    `coalesce(sum(x.total), 0)`,
    `count(*)`,
    `${CLOSED_IN_PERIOD.replace('from p, work_orders w', `from p, work_orders w left join lateral (
        select sum(r.total) as total from work_order_articles r where r.work_order_id = w.id) x on true`)}
      and ${NOT_INVOICED}`,
  )}
  union all ${part(
    'invoiced',
    closedMonth,
    `count(*) filter (where not ${NOT_INVOICED})`,
    `count(*) filter (where ${NOT_INVOICED})`,
    CLOSED_IN_PERIOD,
  )}
  union all ${part(
    'objectsAdded',
    `to_char(o.created_at at time zone p.zone, 'YYYY-MM')`,
    `count(*)`,
    `0`,
    `from p, business_objects o where o.created_at >= p.from_ts`,
  )}
  union all ${part(
    'objectsLost',
    `to_char(o.updated_at at time zone p.zone, 'YYYY-MM')`,
    `count(*)`,
    `0`,
    `from p, business_objects o where o.status = 'inactive' and o.updated_at >= p.from_ts`,
  )}
  union all ${part(
    'supplier',
    `to_char(s.created_at at time zone p.zone, 'YYYY-MM')`,
    `count(*)`,
    `0`,
    `from p, supplier_orders s where s.status = 'error' and s.created_at >= p.from_ts`,
  )}`;

/** Today's state: open orders, and the open projects with their contract sums not yet invoiced. */
const NOW_SQL = `select
    (select count(*) from work_orders where closed_at is null and deleted_at is null)::int as open_orders,
    (select count(*) from projects where status = 'ongoing')::int as open_projects,
    (select coalesce(sum(p.contract_sum - coalesce(inv.amount, 0)), 0)
       from projects p
       left join lateral (select sum(i.project_contract_amount) as amount from invoices i
                           where i.project_id = p.id and i.status = 'finalized') inv on true
      where p.status = 'ongoing')::numeric(14, 2)::text as left_to_invoice`;

/** The cards for the period the page asks for (`?period=`), the company's figures, not the person's. */
export async function getDashboardCards(ctx: Ctx, period: DashboardPeriod): Promise<DashboardCards> {
  requireAccess(ctx.auth, { permission: 'dashboard:read', module: 'dashboard' });
  const range = periodRange(period, tenantToday(ctx));
  const zone = tenantTimeZone(ctx.tenant.config?.country);
  const settings = await readDashboardSettings(ctx);
  const { rows } = (await ctx.trx.raw(CARDS_SQL, [
    range.from,
    range.to,
    zone,
    range.from,
    zone,
    range.leadFrom,
    zone,
    settings.pricePerHour,
    settings.debitFactor,
  ])) as { rows: Row[] };
  const { rows: nowRows } = (await ctx.trx.raw(NOW_SQL)) as { rows: Row[] };
  const now = nowRows[0]!;
  const agreementsDue = (await agreementInvoicingThisMonth(ctx)).due;

  const total = (card: string) => rows.find((r) => r.card === card && r.month === null);
  const num = (card: string, col: 'a' | 'b') => Number(total(card)?.[col] ?? 0);
  const money = (card: string, col: 'a' | 'b') => Number(total(card)?.[col] ?? 0).toFixed(2);
  const trend = (card: string, value: (r: Row) => number = (r) => Number(r.a)): TrendPoint[] =>
    range.months.map((month) => {
      const r = rows.find((x) => x.card === card && x.month === month);
      return { month, value: r ? value(r) : 0 };
    });
  const lead = total('lead');
  const invoiced = num('invoiced', 'a');
  const notInvoiced = num('invoiced', 'b');
  return {
    period: range,
    settings,
    openToInvoice: {
      value: money('open', 'a'),
      minutes: num('open', 'b'),
      openOrders: Number(now.open_orders),
      trend: trend('open'),
    },
    agreementInvoicing: {
      amount: money('agreements', 'a'),
      count: num('agreements', 'b'),
      due: agreementsDue,
      trend: trend('agreements'),
    },
    openProjects: {
      count: Number(now.open_projects),
      leftToInvoice: String(now.left_to_invoice),
      invoiced: money('projects', 'a'),
      trend: trend('projects'),
    },
    leadTime: {
      days: lead && Number(lead.b) > 0 ? Number(lead.a) : null,
      closed: num('lead', 'b'),
      trend: trend('lead'),
    },
    accruedIncome: { value: money('accrued', 'a'), orders: num('accrued', 'b'), trend: trend('accrued') },
    invoicedVsNot: {
      invoiced,
      notInvoiced,
      trend: trend('invoiced', (r) => {
        const all = Number(r.a) + Number(r.b);
        return all === 0 ? 0 : Math.round((Number(r.a) * 100) / all);
      }),
    },
    objects: {
      added: num('objectsAdded', 'a'),
      lost: num('objectsLost', 'a'),
      trend: trend('objectsAdded'),
      lostTrend: trend('objectsLost'),
    },
    supplierOrdersInError: { count: num('supplier', 'a'), trend: trend('supplier') },
  };
}
