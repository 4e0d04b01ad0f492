import type { Knex } from 'knex';
import { z } from 'zod';
import type { Ctx } from '~/core/context';
import { notFound } from '~/core/errors/app-error';
import { isUuid, parseInput } from '~/core/errors/validation';
import { requireAccess } from '~/core/permissions/access';
import { discountOf, formatDecimal, mul, rowTotal, sum } from '~/core/pricing';
import { containsPattern } from '~/core/registers/list-query';
import type { AgreementInterval } from './agreement-constants';
import { zPlainDate } from './agreement-schema';
import { skipReason, tenantToday, type Candidate, type SkipReason } from './generation.service';
import { addDays, addMonthsToFirst } from '~/core/calendar/dates';
import { duePeriods, periodAt, periodsGeneratedBetween } from './periods';

/*
 * The agreement invoice screens (issue 16 item 4): what is due (upcoming), what the coming months
 * will make (scheduled), what was made by period (history), the count badge, and one agreement's
 * year. Lists filter and page in SQL on the agreements' next date (object_agreements_invoice_due_idx);
 * the generation day, clamped to the month, is computed in SQL the way periods.ts computes it.
 */

type Row = Record<string, unknown>;
const READ = { permission: 'agreements:read' } as const;
const INVOICES = { permission: 'invoices:read' } as const;

/** periods.ts generationDate in SQL: `day` of the month of `start`, clamped; 0 is the last day. */
export const generationDateSql = (day: string, start: string) =>
  `(case when ${day} = 0 then (date_trunc('month', ${start}) + interval '1 month' - interval '1 day')::date
     else date_trunc('month', ${start})::date
          + (least(${day}, extract(day from date_trunc('month', ${start}) + interval '1 month' - interval '1 day')::int) - 1) end)`;

const GEN = generationDateSql('a.invoice_day', 'oa.invoice_scheduled_to');

/** Due and not held back: the object and the type active, the period not after the to-date, someone to invoice. */
const DUE_SQL = `bo.status = 'active' and a.status = 'active'
  and (oa.valid_to is null or oa.invoice_scheduled_to <= oa.valid_to)
  and coalesce(oa.invoice_customer_id, bo.customer_id) is not null`;

export function thisMonth(ctx: Ctx): { from: string; to: string } {
  const today = tenantToday(ctx);
  const from = addMonthsToFirst(today, 0);
  return { from, to: addDays(addMonthsToFirst(today, 1), -1) };
}

/** The upcoming list counts this far; beyond it the page says "10,000+" (`more`). */
export const UPCOMING_COUNT_CAP = 10_000;

export const ZUpcomingInvoices = z.object({
  from: zPlainDate().optional(),
  to: zPlainDate().optional(),
  q: z.string().trim().max(200).optional(),
  offset: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

export interface UpcomingInvoice {
  objectAgreementId: string;
  businessObjectId: string;
  serialCode: string;
  customerName: string | null;
  agreementCode: string;
  agreementTitle: string;
  periodFrom: string;
  periodTo: string;
  generateOn: string;
  amount: string;
  /** Made by the next run, or held back with the reason (no invoice is made). */
  skipReason: SkipReason | null;
}

interface AmountParts {
  price_model: string;
  total_price: unknown;
  rows: unknown;
}

/** What one period costs before VAT: the fixed price (fixed pricing) and the invoice rows. */
export function periodAmount(r: AmountParts): string {
  const rows = ((typeof r.rows === 'string' ? JSON.parse(r.rows) : r.rows) ?? []) as {
    amount: string;
    price: string;
    discount_type: string;
    discount_value: string;
  }[];
  const parts = rows.map((x) =>
    rowTotal({
      amount: String(x.amount),
      price: String(x.price),
      discount: x.discount_type === 'NONE' ? null : discountOf(x.discount_type, String(x.discount_value)),
    }),
  );
  if (r.price_model === 'fixed') parts.push(formatDecimal(String(r.total_price)));
  return formatDecimal(sum(parts));
}

const ROWS_JSON = `coalesce((select json_agg(json_build_object('amount', r.amount, 'price', r.price,
    'discount_type', r.discount_type, 'discount_value', r.discount_value))
    from object_agreement_rows r where r.object_agreement_id = oa.id and r.kind = 'invoice'), '[]') as rows`;

function candidateOf(r: Row): Candidate {
  return {
    id: r.id as string,
    businessObjectId: r.business_object_id as string,
    start: r.start as string,
    validTo: (r.valid_to as string | null) ?? null,
    totalPrice: String(r.total_price),
    invoiceCustomerId: (r.invoice_customer_id as string | null) ?? null,
    invoiceAddressId: null,
    invoiceExtra: null,
    agreementId: r.agreement_id as string,
    code: r.code as string,
    agreementTitle: r.title as string,
    agreementStatus: r.agreement_status as string,
    interval: r.invoice_interval as AgreementInterval,
    day: Number(r.invoice_day),
    workTypeId: null,
    priceModel: r.price_model as 'fixed' | 'articles',
    priceArticleId: null,
    serialCode: r.serial_code as string,
    objectStatus: r.object_status as string,
    objectCustomerId: (r.object_customer_id as string | null) ?? null,
    invoiceMarking: null,
    version: 0,
  };
}

function baseQuery(ctx: Ctx) {
  return ctx
    .trx('object_agreements as oa')
    .join('agreements as a', 'a.id', 'oa.agreement_id')
    .join('business_objects as bo', 'bo.id', 'oa.business_object_id')
    .leftJoin('customers as c', 'c.id', ctx.trx.raw('coalesce(oa.invoice_customer_id, bo.customer_id)'))
    .whereNotNull('oa.invoice_scheduled_to')
    .whereNotNull('a.invoice_interval');
}

const CANDIDATE_COLUMNS = (ctx: Ctx) => [
  'oa.id',
  'oa.business_object_id',
  ctx.trx.raw('oa.invoice_scheduled_to::text as start'),
  ctx.trx.raw('oa.valid_to::text as valid_to'),
  'oa.total_price',
  'oa.invoice_customer_id',
  'a.id as agreement_id',
  'a.code',
  'a.title',
  'a.status as agreement_status',
  'a.invoice_interval',
  'a.invoice_day',
  'a.price_model',
  'bo.serial_code',
  'bo.status as object_status',
  'bo.customer_id as object_customer_id',
  'c.name as customer_name',
  ctx.trx.raw(ROWS_JSON),
];

/**
 * GET /agreements/invoices/upcoming?from&to&q: the invoices the next run makes for periods whose
 * invoice day is on or before `to` (this month by default; earlier ones not yet made are included),
 * by date, with the reason when one is held back.
 */
export async function upcomingInvoices(
  ctx: Ctx,
  raw: unknown = {},
): Promise<{ from: string; to: string; invoices: UpcomingInvoice[]; totalCount: number; more: boolean }> {
  requireAccess(ctx.auth, READ);
  const f = parseInput(ZUpcomingInvoices, raw);
  const month = thisMonth(ctx);
  const from = f.from ?? month.from;
  const to = f.to ?? month.to;
  const base = baseQuery(ctx).where('oa.invoice_scheduled_to', '<=', to).whereRaw(`${GEN} <= ?`, [to]);
  const search = (q: Knex.QueryBuilder) =>
    q.where((w) =>
      w
        .whereRaw('bo.search_text like ?', [containsPattern(f.q!)])
        .orWhereRaw('lower(c.name) like ?', [containsPattern(f.q!)])
        .orWhereRaw('lower(a.title) like ?', [containsPattern(f.q!)]),
    );
  if (f.q) void search(base);
  // counted up to the cap through the index, joining only what the filter needs: a count of 50,000
  // due rows would cost more than the page
  const counting = f.q
    ? base.clone()
    : ctx
        .trx('object_agreements as oa')
        .join('agreements as a', 'a.id', 'oa.agreement_id')
        .whereNotNull('a.invoice_interval')
        .where('oa.invoice_scheduled_to', '<=', to)
        .whereRaw(`${GEN} <= ?`, [to]);
  const [{ n }] = (await ctx.trx
    .from(
      counting
        .select(ctx.trx.raw('1'))
        .limit(UPCOMING_COUNT_CAP + 1)
        .as('x'),
    )
    .count({ n: '*' })) as { n: string | number }[];
  const rows = (await base
    .clone()
    .orderBy([{ column: 'oa.invoice_scheduled_to' }, { column: 'oa.id' }])
    .limit(f.limit)
    .offset(f.offset)
    .select(CANDIDATE_COLUMNS(ctx))) as Row[];
  return {
    from,
    to,
    totalCount: Math.min(Number(n), UPCOMING_COUNT_CAP),
    more: Number(n) > UPCOMING_COUNT_CAP,
    invoices: rows.map((r) => {
      const c = candidateOf(r);
      const p = periodAt(c.interval, c.day, c.start);
      const reason =
        skipReason(c, p, 'invoice') ??
        (c.priceModel === 'articles' && periodAmountRows(r) === 0 ? 'NOTHING_TO_INVOICE' : null);
      return {
        objectAgreementId: c.id,
        businessObjectId: c.businessObjectId,
        serialCode: c.serialCode,
        customerName: (r.customer_name as string | null) ?? null,
        agreementCode: c.code,
        agreementTitle: c.agreementTitle,
        periodFrom: p.from,
        periodTo: p.to,
        generateOn: p.generateOn,
        amount: periodAmount(r as unknown as AmountParts),
        skipReason: reason,
      };
    }),
  };
}

const periodAmountRows = (r: Row) => ((typeof r.rows === 'string' ? JSON.parse(r.rows) : r.rows) as unknown[]).length;

export const ZScheduledInvoices = z.object({ from: zPlainDate().optional(), to: zPlainDate().optional() });

export interface ScheduledMonth {
  month: string;
  count: number;
  amount: string;
}

/**
 * GET /agreements/invoices/scheduled?from&to: what the coming months will invoice, by month (the
 * next 12 by default): each agreement's periods whose invoice day falls in the window, at today's
 * prices. Held-back agreements are left out.
 */
export async function scheduledInvoices(
  ctx: Ctx,
  raw: unknown = {},
): Promise<{ from: string; to: string; months: ScheduledMonth[] }> {
  requireAccess(ctx.auth, READ);
  const f = parseInput(ZScheduledInvoices, raw);
  const from = f.from ?? thisMonth(ctx).from;
  const to = f.to ?? addDays(addMonthsToFirst(from, 12), -1);
  const rows = (await baseQuery(ctx).whereRaw(DUE_SQL).select(CANDIDATE_COLUMNS(ctx))) as Row[];
  const months = new Map<string, { count: number; amounts: string[] }>();
  for (let m = addMonthsToFirst(from, 0); m <= to; m = addMonthsToFirst(m, 1))
    months.set(m.slice(0, 7), { count: 0, amounts: [] });
  for (const r of rows) {
    const c = candidateOf(r);
    const amount = periodAmount(r as unknown as AmountParts);
    for (const p of periodsGeneratedBetween(c.interval, c.day, c.start, from, to)) {
      if (c.validTo && p.from > c.validTo) break;
      const slot = months.get(p.generateOn.slice(0, 7));
      if (!slot) continue;
      slot.count++;
      slot.amounts.push(amount);
    }
  }
  return {
    from,
    to,
    months: [...months].map(([month, s]) => ({ month, count: s.count, amount: formatDecimal(sum(s.amounts)) })),
  };
}

export const ZAgreementInvoiceHistory = z.object({
  startTime: zPlainDate().optional(),
  endTime: zPlainDate().optional(),
  offset: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

export interface AgreementInvoice {
  id: string;
  invoiceNr: string | null;
  status: string;
  invoiceDate: string;
  periodFrom: string;
  periodTo: string;
  serialCode: string | null;
  businessObjectId: string | null;
  customerName: string | null;
  agreementTitle: string | null;
  totalPrice: string;
  totalPriceVat: string;
  erpState: string | null;
}

/** Agreement invoices (`invoices as i`) with their object agreement, type, object and customer (also the reports'). */
export function historyQuery(ctx: Ctx) {
  return ctx
    .trx('invoices as i')
    .leftJoin('object_agreements as oa', 'oa.id', 'i.object_agreement_id')
    .leftJoin('agreements as a', 'a.id', 'oa.agreement_id')
    .leftJoin('business_objects as bo', 'bo.id', 'oa.business_object_id')
    .leftJoin('customers as c', 'c.id', 'i.customer_id')
    .whereNotNull('i.period_from')
    .whereNotNull('i.object_agreement_id');
}

const HISTORY_COLUMNS = (ctx: Ctx) => [
  'i.id',
  'i.invoice_nr',
  'i.status',
  ctx.trx.raw('i.invoice_date::text as invoice_date'),
  ctx.trx.raw('i.period_from::text as period_from'),
  ctx.trx.raw('i.period_to::text as period_to'),
  'bo.serial_code',
  'bo.id as business_object_id',
  'c.name as customer_name',
  'a.title as agreement_title',
  'i.total_price',
  'i.total_price_vat',
  'i.erp_state',
];

const toInvoice = (r: Row): AgreementInvoice => ({
  id: r.id as string,
  invoiceNr: (r.invoice_nr as string | null) ?? null,
  status: r.status as string,
  invoiceDate: r.invoice_date as string,
  periodFrom: r.period_from as string,
  periodTo: r.period_to as string,
  serialCode: (r.serial_code as string | null) ?? null,
  businessObjectId: (r.business_object_id as string | null) ?? null,
  customerName: (r.customer_name as string | null) ?? null,
  agreementTitle: (r.agreement_title as string | null) ?? null,
  totalPrice: formatDecimal(String(r.total_price)),
  totalPriceVat: formatDecimal(String(r.total_price_vat)),
  erpState: (r.erp_state as string | null) ?? null,
});

/**
 * GET /invoice/agreement/history?startTime&endTime: the agreement invoices whose period overlaps the
 * window (this month by default) — a quarter invoiced in advance is in each of its months, not only
 * the month it starts in — newest period first, with the window's totals (invoices:read).
 */
export async function agreementInvoiceHistory(
  ctx: Ctx,
  raw: unknown = {},
): Promise<{
  startTime: string;
  endTime: string;
  invoices: AgreementInvoice[];
  totalCount: number;
  totalPrice: string;
  totalPriceVat: string;
}> {
  requireAccess(ctx.auth, INVOICES);
  const f = parseInput(ZAgreementInvoiceHistory, raw);
  const month = thisMonth(ctx);
  const startTime = f.startTime ?? month.from;
  const endTime = f.endTime ?? month.to;
  const base = historyQuery(ctx)
    .where('i.period_from', '<=', endTime)
    .where((q) =>
      q
        .where('i.period_to', '>=', startTime)
        .orWhere((n) => n.whereNull('i.period_to').where('i.period_from', '>=', startTime)),
    );
  const [totals] = (await base
    .clone()
    .whereNot('i.status', 'void')
    .select(
      ctx.trx.raw('count(*)::int as n'),
      ctx.trx.raw('coalesce(sum(i.total_price), 0) as net'),
      ctx.trx.raw('coalesce(sum(i.total_price_vat), 0) as gross'),
    )) as Row[];
  const [{ n }] = (await base.clone().count({ n: '*' })) as { n: string | number }[];
  const rows = (await base
    .clone()
    .orderBy([
      { column: 'i.period_from', order: 'desc' },
      { column: 'i.invoice_sequence', order: 'desc', nulls: 'first' },
      { column: 'i.id' },
    ])
    .limit(f.limit)
    .offset(f.offset)
    .select(HISTORY_COLUMNS(ctx))) as Row[];
  return {
    startTime,
    endTime,
    invoices: rows.map(toInvoice),
    totalCount: Number(n),
    totalPrice: formatDecimal(String(totals?.net ?? 0)),
    totalPriceVat: formatDecimal(String(totals?.gross ?? 0)),
  };
}

/** GET /invoice/agreement/count: how many agreement invoices are due by today and not yet made. */
export async function dueAgreementInvoiceCount(ctx: Ctx): Promise<{ count: number }> {
  requireAccess(ctx.auth, READ);
  const today = tenantToday(ctx);
  const [{ n }] = (await baseQuery(ctx)
    .where('oa.invoice_scheduled_to', '<=', today)
    .whereRaw(`${GEN} <= ?`, [today])
    .whereRaw(DUE_SQL)
    .count({ n: '*' })) as { n: string | number }[];
  return { count: Number(n) };
}

/**
 * The dashboard's agreement card (spec section 2 "agreement invoicing"): this month's agreement
 * invoices still to make (due by the month's end and not held back) with what their next periods
 * cost, and those made this month (by invoice date, void ones left out). The caller checks access
 * (dashboard:read); the figures are the company's.
 */
export async function agreementInvoicingThisMonth(ctx: Ctx): Promise<{
  due: { count: number; amount: string };
  invoiced: { count: number; amount: string };
}> {
  const { from, to } = thisMonth(ctx);
  const dueQuery = () =>
    baseQuery(ctx).where('oa.invoice_scheduled_to', '<=', to).whereRaw(`${GEN} <= ?`, [to]).whereRaw(DUE_SQL);
  // aggregated in SQL, so a tenant with 50,000 monthly agreements reads two rows, not 50,000: the
  // fixed prices summed, and the rows grouped by what prices them (each kind priced once, times its count)
  const [due] = (await dueQuery().select(
    ctx.trx.raw('count(*)::int as n'),
    ctx.trx.raw(`coalesce(sum(case when a.price_model = 'fixed' then oa.total_price else 0 end), 0) as fixed`),
  )) as Row[];
  const kinds = (await ctx
    .trx('object_agreement_rows as r')
    .whereIn('r.object_agreement_id', dueQuery().select('oa.id'))
    .where('r.kind', 'invoice')
    .groupBy('r.amount', 'r.price', 'r.discount_type', 'r.discount_value')
    .select('r.amount', 'r.price', 'r.discount_type', 'r.discount_value', ctx.trx.raw('count(*)::int as n'))) as Row[];
  const rowsAmount = kinds.map((k) =>
    mul(periodAmount({ price_model: 'articles', total_price: 0, rows: [k] }), Number(k.n)),
  );
  const [made] = (await ctx
    .trx('invoices')
    .whereNotNull('object_agreement_id')
    .whereBetween('invoice_date', [from, to])
    .whereNot('status', 'void')
    .select(ctx.trx.raw('count(*)::int as n'), ctx.trx.raw('coalesce(sum(total_price), 0) as net'))) as Row[];
  return {
    due: { count: Number(due?.n ?? 0), amount: formatDecimal(sum([String(due?.fixed ?? 0), ...rowsAmount])) },
    invoiced: { count: Number(made?.n ?? 0), amount: formatDecimal(String(made?.net ?? 0)) },
  };
}

export const ZAgreementYear = z.object({ year: z.coerce.number().int().min(2000).max(2100).optional() });

export interface YearPeriod {
  from: string;
  to: string;
  generateOn: string;
  invoice: AgreementInvoice | null;
}

/**
 * GET /invoice/agreement/{id}?year: one object agreement's year — every invoice period starting in it,
 * each with its invoice when made (invoices:read; 404 for an unknown id).
 */
export async function agreementYear(
  ctx: Ctx,
  id: unknown,
  raw: unknown = {},
): Promise<{ year: number; periods: YearPeriod[]; invoices: AgreementInvoice[] }> {
  requireAccess(ctx.auth, INVOICES);
  if (!isUuid(id)) throw notFound();
  const { year: y } = parseInput(ZAgreementYear, raw);
  const year = y ?? Number(tenantToday(ctx).slice(0, 4));
  const oa: Row | undefined = await ctx
    .trx('object_agreements as oa')
    .join('agreements as a', 'a.id', 'oa.agreement_id')
    .where('oa.id', id)
    .first(
      'oa.id',
      ctx.trx.raw('oa.invoice_period_from::text as start'),
      ctx.trx.raw('oa.valid_to::text as valid_to'),
      'a.invoice_interval',
      'a.invoice_day',
    );
  if (!oa) throw notFound();
  const invoices = (
    (await historyQuery(ctx)
      .where('i.object_agreement_id', id)
      .whereBetween('i.period_from', [`${year}-01-01`, `${year}-12-31`])
      .orderBy([{ column: 'i.period_from' }, { column: 'i.id' }])
      .select(HISTORY_COLUMNS(ctx))) as Row[]
  ).map(toInvoice);
  const periods: YearPeriod[] = [];
  if (oa.invoice_interval && oa.start) {
    for (const p of duePeriods(
      oa.invoice_interval as AgreementInterval,
      Number(oa.invoice_day),
      oa.start as string,
      `${year + 1}-12-31`,
      10_000,
    )) {
      if (p.from > `${year}-12-31`) break;
      if (oa.valid_to && p.from > (oa.valid_to as string)) break;
      if (p.from < `${year}-01-01`) continue;
      periods.push({ ...p, invoice: invoices.find((i) => i.periodFrom === p.from && i.status !== 'void') ?? null });
    }
  }
  return { year, periods, invoices };
}
