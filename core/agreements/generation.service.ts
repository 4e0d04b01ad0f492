import { randomUUID } from 'node:crypto';
import type { Ctx } from '~/core/context';
import { tenantToday } from '~/core/calendar/tenant-today';
import { langFromKey } from '~/core/i18n/languages';
import { erpProvider, readErpConnection } from '~/core/invoicing/erp-connection';
import { queueNewDeliveries } from '~/core/invoicing/erp-delivery';
import { readInvoiceRules, vatRateOf, type InvoiceLine } from '~/core/invoicing/invoice-lines';
import { figuresOf, INVOICE_ENTITY, lineRecord } from '~/core/invoicing/invoice-store';
import { ocrReference } from '~/core/invoicing/ocr';
import { companyParts, customerPart } from '~/core/invoicing/order-invoice';
import { compare, discountOf, formatDecimal, rowTotal } from '~/core/pricing';
import { addDays } from '~/core/calendar/dates';
import { dispatchTarget } from '~/core/work-orders/dispatch-rules.service';
import { WO_ENTITY } from '~/core/work-orders/work-order-read';
import type { AgreementInterval } from './agreement-constants';
import { periodName, periodRowText, visitTitle, weekText } from './period-text';
import { duePeriods, periodAt, type Period } from './periods';

/*
 * Generating agreement work orders and invoices (issue 16 item 3; decision 028).
 *
 * A batch claims up to BATCH object agreements whose next period is due (`for update of oa skip
 * locked`, in id order after a cursor), builds every due period of each in memory, and writes them in
 * a constant number of statements whatever the batch's size: one insert of the invoices (numbers
 * taken as one block from the tenant's counter), one of their rows (in chunks under the bind limit),
 * one of the history, one of the ERP deliveries, and one update that moves each agreement's
 * scheduled date past what was made. All of it is one transaction, so:
 *
 * - a second run (a duplicated job) finds the dates already moved on and makes nothing;
 * - a worker killed halfway rolls the whole batch back, and the next run makes it again, once;
 * - two workers never claim the same agreement (skip locked), and the unique index on (object
 *   agreement, period start) refuses a second invoice or work order for a period whatever happens.
 *
 * Nothing is made for an inactive object, an inactive agreement type, or a period after the
 * agreement's to-date (spec section 8); those are reported as skipped and their dates stay, so the
 * upcoming list keeps showing them with the reason. A customer set not to send to the ERP still gets
 * the invoice, with the spec's warning, and no delivery.
 */

export const GENERATION_BATCH = 500;
/** Periods one agreement catches up on in one run (24 months of a monthly agreement). */
export const MAX_PERIODS_PER_RUN = 24;
/** invoice_rows columns × this stays far under PostgreSQL's 65,535 bind parameters. */
const ROW_CHUNK = 2000;
const NO_ID = '00000000-0000-0000-0000-000000000000';

export type SkipReason =
  | 'OBJECT_INACTIVE'
  | 'AGREEMENT_TYPE_INACTIVE'
  | 'AGREEMENT_ENDED'
  | 'CUSTOMER_MISSING'
  | 'NOTHING_TO_INVOICE'
  | 'ALREADY_GENERATED';

export interface Skipped {
  objectAgreementId: string;
  serialCode: string;
  periodFrom: string | null;
  reason: SkipReason;
}

export interface Warned {
  objectAgreementId: string;
  serialCode: string;
  invoiceId: string;
  warning: 'CUSTOMER_SET_NOT_TO_SEND_TO_ERP';
}

export interface BatchResult {
  /** Agreements claimed (done with for this run, whatever came of them). */
  claimed: number;
  /** The last claimed id: the next batch starts after it. */
  lastId: string | null;
  created: { objectAgreementId: string; id: string; periodFrom: string }[];
  skipped: Skipped[];
  warnings: Warned[];
}

type Row = Record<string, unknown>;

export { tenantToday };

export interface Candidate {
  id: string;
  businessObjectId: string;
  start: string;
  validTo: string | null;
  totalPrice: string;
  invoiceCustomerId: string | null;
  invoiceAddressId: string | null;
  invoiceExtra: string | null;
  agreementId: string;
  code: string;
  agreementTitle: string;
  agreementStatus: string;
  interval: AgreementInterval;
  day: number;
  workTypeId: string | null;
  priceModel: 'fixed' | 'articles';
  priceArticleId: string | null;
  serialCode: string;
  objectStatus: string;
  objectCustomerId: string | null;
  invoiceMarking: string | null;
  version: number;
}

type Kind = 'invoice' | 'wo';

async function claim(
  ctx: Ctx,
  kind: Kind,
  until: string,
  afterId: string,
  limit: number,
  ids: readonly string[] | null,
): Promise<Candidate[]> {
  const col = kind === 'invoice' ? 'invoice_scheduled_to' : 'wo_scheduled_to';
  const q = ctx
    .trx('object_agreements as oa')
    .join('agreements as a', 'a.id', 'oa.agreement_id')
    .join('business_objects as bo', 'bo.id', 'oa.business_object_id')
    .where(`oa.${col}`, '<=', until)
    .whereNotNull(kind === 'invoice' ? 'a.invoice_interval' : 'a.wo_interval')
    .where('oa.id', '>', afterId)
    .orderBy('oa.id')
    .limit(limit)
    .forUpdate('oa')
    .skipLocked()
    .select(
      'oa.id',
      'oa.business_object_id',
      ctx.trx.raw(`oa.${col}::text as start`),
      ctx.trx.raw('oa.valid_to::text as valid_to'),
      'oa.total_price',
      'oa.invoice_customer_id',
      'oa.invoice_address_id',
      'oa.invoice_extra',
      'oa.version',
      'a.id as agreement_id',
      'a.code',
      'a.title as agreement_title',
      'a.status as agreement_status',
      kind === 'invoice' ? 'a.invoice_interval as interval' : 'a.wo_interval as interval',
      kind === 'invoice' ? 'a.invoice_day as day' : 'a.wo_day as day',
      'a.work_type_id',
      'a.price_model',
      'a.price_article_id',
      'bo.serial_code',
      'bo.status as object_status',
      'bo.customer_id as object_customer_id',
      'bo.invoice_marking',
    );
  if (ids) void q.whereIn('oa.id', ids);
  const rows = (await q) as Row[];
  return rows.map((r) => ({
    id: r.id as string,
    businessObjectId: r.business_object_id as string,
    start: r.start as string,
    validTo: (r.valid_to as string | null) ?? null,
    totalPrice: String(r.total_price),
    invoiceCustomerId: (r.invoice_customer_id as string | null) ?? null,
    invoiceAddressId: (r.invoice_address_id as string | null) ?? null,
    invoiceExtra: (r.invoice_extra as string | null) ?? null,
    agreementId: r.agreement_id as string,
    code: r.code as string,
    agreementTitle: r.agreement_title as string,
    agreementStatus: r.agreement_status as string,
    interval: r.interval as AgreementInterval,
    day: Number(r.day),
    workTypeId: (r.work_type_id as string | null) ?? null,
    priceModel: r.price_model as 'fixed' | 'articles',
    priceArticleId: (r.price_article_id as string | null) ?? null,
    serialCode: r.serial_code as string,
    objectStatus: r.object_status as string,
    objectCustomerId: (r.object_customer_id as string | null) ?? null,
    invoiceMarking: (r.invoice_marking as string | null) ?? null,
    version: Number(r.version),
  }));
}

/** Why nothing is made for this period, or null when it is made. */
export function skipReason(c: Candidate, p: Period, kind: Kind): SkipReason | null {
  if (c.objectStatus !== 'active') return 'OBJECT_INACTIVE';
  if (c.agreementStatus !== 'active') return 'AGREEMENT_TYPE_INACTIVE';
  if (c.validTo && p.from > c.validTo) return 'AGREEMENT_ENDED';
  if (kind === 'invoice' && !(c.invoiceCustomerId ?? c.objectCustomerId)) return 'CUSTOMER_MISSING';
  return null;
}

interface Planned {
  c: Candidate;
  periods: Period[];
  /** The agreement's next start after this run (null: unchanged). */
  next: string | null;
}

/**
 * The periods each candidate gets in this run. `force` (on demand) makes the next period whatever its
 * day. Stops at the first period that is skipped: its date stays and the reason is reported.
 */
function plan(
  candidates: Candidate[],
  kind: Kind,
  until: string,
  force: boolean,
  existing: Set<string>,
  skipped: Skipped[],
  extraSkip: (c: Candidate) => SkipReason | null,
): Planned[] {
  const out: Planned[] = [];
  for (const c of candidates) {
    const due = force
      ? [periodAt(c.interval, c.day, c.start)]
      : duePeriods(c.interval, c.day, c.start, until, MAX_PERIODS_PER_RUN);
    const periods: Period[] = [];
    let next: string | null = null;
    for (const p of due) {
      const reason = skipReason(c, p, kind) ?? extraSkip(c);
      if (reason) {
        skipped.push({ objectAgreementId: c.id, serialCode: c.serialCode, periodFrom: p.from, reason });
        break;
      }
      next = addDays(p.to, 1);
      if (existing.has(`${c.id}|${p.from}`)) {
        // already made (the date was moved back by hand): move on past it, make nothing
        skipped.push({
          objectAgreementId: c.id,
          serialCode: c.serialCode,
          periodFrom: p.from,
          reason: 'ALREADY_GENERATED',
        });
        continue;
      }
      periods.push(p);
    }
    out.push({ c, periods, next });
  }
  return out;
}

async function existingPeriods(ctx: Ctx, kind: Kind, candidates: Candidate[]): Promise<Set<string>> {
  if (!candidates.length) return new Set();
  const ids = candidates.map((c) => c.id);
  const min = candidates.reduce((m, c) => (c.start < m ? c.start : m), candidates[0]!.start);
  const rows: Row[] =
    kind === 'invoice'
      ? await ctx
          .trx('invoices')
          .whereIn('object_agreement_id', ids)
          .whereNot('status', 'void')
          .where('period_from', '>=', min)
          .select('object_agreement_id as oa', ctx.trx.raw('period_from::text as p'))
      : await ctx
          .trx('work_orders')
          .whereIn('object_agreement_id', ids)
          .where('agreement_period_from', '>=', min)
          .select('object_agreement_id as oa', ctx.trx.raw('agreement_period_from::text as p'));
  return new Set(rows.map((r) => `${r.oa as string}|${r.p as string}`));
}

async function advance(ctx: Ctx, kind: Kind, planned: Planned[]): Promise<void> {
  const moves = planned.filter((p) => p.next).map((p) => ({ id: p.c.id, next: p.next }));
  if (!moves.length) return;
  const col = kind === 'invoice' ? 'invoice_scheduled_to' : 'wo_scheduled_to';
  await ctx.trx.raw(
    `update object_agreements oa set ${col} = x.next, version = oa.version + 1, updated_at = ?
       from jsonb_to_recordset(cast(? as jsonb)) as x(id uuid, next date)
      where oa.id = x.id`,
    [ctx.now, JSON.stringify(moves)],
  );
}

async function insertChunked(ctx: Ctx, table: string, rows: Row[]): Promise<void> {
  for (let i = 0; i < rows.length; i += ROW_CHUNK) await ctx.trx(table).insert(rows.slice(i, i + ROW_CHUNK));
}

/** Claims a batch (see `claim`) and the empty result it fills. */
async function claimBatch(
  ctx: Ctx,
  kind: Kind,
  until: string,
  options: { afterId?: string | null; limit?: number; ids?: readonly string[] | null },
): Promise<{ candidates: Candidate[]; result: BatchResult }> {
  const candidates = await claim(
    ctx,
    kind,
    until,
    options.afterId ?? NO_ID,
    options.limit ?? GENERATION_BATCH,
    options.ids ?? null,
  );
  const result: BatchResult = {
    claimed: candidates.length,
    lastId: candidates.at(-1)?.id ?? null,
    created: [],
    skipped: [],
    warnings: [],
  };
  return { candidates, result };
}

/** A stored row's discount as invoice and work-order rows take it: null for NONE. */
function rowDiscount(r: Row): { type: 'PERCENTAGE' | 'REGULAR'; value: string } | null {
  return r.discount_type === 'PERCENTAGE' || r.discount_type === 'REGULAR'
    ? { type: r.discount_type, value: String(r.discount_value) }
    : null;
}

/**
 * One batch of agreement invoices: every due period (generation day on or before `until`) of up to
 * `limit` agreements after `afterId`, or of `ids` only.
 */
export async function generateInvoiceBatch(
  ctx: Ctx,
  options: { until: string; afterId?: string | null; limit?: number; ids?: readonly string[] | null },
): Promise<BatchResult> {
  const { candidates, result } = await claimBatch(ctx, 'invoice', options.until, options);
  if (!candidates.length) return result;

  const oaIds = candidates.map((c) => c.id);
  const [rowRecords, existing] = [
    (await ctx
      .trx('object_agreement_rows as r')
      .leftJoin('articles as ar', 'ar.id', 'r.article_id')
      .whereIn('r.object_agreement_id', oaIds)
      .where('r.kind', 'invoice')
      .orderBy([{ column: 'r.sort_order' }, { column: 'r.id' }])
      .select(
        'r.*',
        'ar.article_id as article_number',
        'ar.unit as article_unit',
        'ar.vat_percent',
        'ar.product_type',
        'ar.house_work',
      )) as Row[],
    await existingPeriods(ctx, 'invoice', candidates),
  ];
  const rowsOf = new Map<string, Row[]>();
  for (const r of rowRecords) {
    const list = rowsOf.get(r.object_agreement_id as string) ?? [];
    list.push(r);
    rowsOf.set(r.object_agreement_id as string, list);
  }
  const planned = plan(candidates, 'invoice', options.until, false, existing, result.skipped, (c) =>
    c.priceModel === 'articles' && !rowsOf.get(c.id)?.length ? 'NOTHING_TO_INVOICE' : null,
  );
  const making = planned.filter((p) => p.periods.length);
  if (making.length) await writeInvoices(ctx, making, rowsOf, result);
  await advance(ctx, 'invoice', planned);
  return result;
}

async function writeInvoices(ctx: Ctx, making: Planned[], rowsOf: Map<string, Row[]>, result: BatchResult) {
  const customerIds = [...new Set(making.map((p) => (p.c.invoiceCustomerId ?? p.c.objectCustomerId)!))];
  const priceArticleIds = [...new Set(making.map((p) => p.c.priceArticleId).filter((x): x is string => !!x))];
  const customers = new Map(
    ((await ctx.trx('customers').whereIn('id', customerIds)) as Row[]).map((r) => [r.id as string, r]),
  );
  const priceArticles = new Map(
    (priceArticleIds.length
      ? ((await ctx
          .trx('articles')
          .whereIn('id', priceArticleIds)
          .select('id', 'article_id', 'title', 'unit', 'vat_percent', 'product_type', 'house_work')) as Row[])
      : []
    ).map((r) => [r.id as string, r]),
  );
  const settings: Row | undefined = await ctx.trx('work_order_settings').first('vat_percentage');
  const defaultVat = vatRateOf(settings?.vat_percentage);
  const rules = await readInvoiceRules(ctx);
  const company = companyParts(ctx);
  const today = tenantToday(ctx);
  const erp = erpProvider((await readErpConnection(ctx.trx)).kind);
  const count = making.reduce((n, p) => n + p.periods.length, 0);

  let firstNr = 0;
  let ocrOn = rules.ocr;
  if (!rules.reviewBeforeSending) {
    const taken = await ctx.trx.raw(
      `update invoice_settings set next_invoice_nr = next_invoice_nr + ? returning next_invoice_nr - ? as nr, ocr`,
      [count, count],
    );
    const t = taken.rows[0] as { nr: string | number; ocr: boolean };
    firstNr = Number(t.nr);
    ocrOn = t.ocr;
  }

  const invoices: Row[] = [];
  const rows: Row[] = [];
  const history: Row[] = [];
  const deliver: string[] = [];
  let n = 0;
  for (const { c, periods } of making) {
    const customer = customers.get((c.invoiceCustomerId ?? c.objectCustomerId)!)!;
    const lang = langFromKey(customer.invoice_language as string | null, langFromKey(ctx.tenant.config.languageKey));
    const reverseVat = Boolean(customer.reverse_vat);
    const termDays = typeof customer.payment_term_days === 'number' ? customer.payment_term_days : 30;
    const priceArticle = c.priceArticleId ? priceArticles.get(c.priceArticleId) : undefined;
    for (const p of periods) {
      const id = randomUUID();
      const lines: InvoiceLine[] = [
        {
          kind: 'text',
          articleId: null,
          articleNumber: null,
          title: periodRowText(lang, c.interval, p.from, p.to),
          description: null,
          unit: null,
          amount: '0',
          price: '0',
          discountType: null,
          discountValue: null,
          vatPercent: defaultVat,
          work: 'material',
          green: null,
          userId: null,
        },
      ];
      if (c.priceModel === 'fixed')
        lines.push({
          kind: 'agreement_fee',
          articleId: (priceArticle?.id as string) ?? null,
          articleNumber: (priceArticle?.article_id as string) ?? null,
          title: `${c.agreementTitle} – ${c.serialCode}`,
          description: null,
          unit: (priceArticle?.unit as string) ?? null,
          amount: '1',
          price: c.totalPrice,
          discountType: null,
          discountValue: null,
          vatPercent: vatRateOf(priceArticle?.vat_percent, defaultVat),
          work: priceArticle?.product_type === 'service' || priceArticle?.house_work ? 'labour' : 'material',
          green: null,
          userId: null,
        });
      for (const r of rowsOf.get(c.id) ?? []) {
        const discount = rowDiscount(r);
        lines.push({
          kind: r.article_id ? 'article' : 'text',
          articleId: (r.article_id as string) ?? null,
          articleNumber: (r.article_number as string) ?? null,
          title: String(r.title ?? ''),
          description: (r.description as string) ?? null,
          unit: (r.article_unit as string) ?? null,
          amount: String(r.amount),
          price: String(r.price),
          discountType: discount?.type ?? null,
          discountValue: discount?.value ?? null,
          vatPercent: vatRateOf(r.vat_percent, defaultVat),
          work: r.product_type === 'service' || r.house_work ? 'labour' : 'material',
          green: null,
          userId: null,
        });
      }
      const records = lines.map((l, i) => lineRecord(id, l, i));
      const figures = figuresOf(
        { reverse_vat: reverseVat, tax_reduction: 'none', tax_reduction_persons: [], date_text: today, due_text: null },
        records,
      );
      records.forEach((r, i) => {
        r.id = randomUUID();
        r.total = figures.lines[i]!.total;
      });
      const final = !rules.reviewBeforeSending;
      const nr = final ? String(firstNr + n) : null;
      const zero = compare(figures.total, 0) === 0;
      const sends = customer.send_to_erp !== false;
      invoices.push({
        id,
        status: final ? 'finalized' : 'draft',
        invoice_nr: nr,
        invoice_sequence: nr,
        ocr: final && ocrOn ? ocrReference(nr!) : null,
        finalized_at: final ? ctx.now : null,
        finalized_user_id: final ? (ctx.auth?.user.id ?? null) : null,
        object_agreement_id: c.id,
        period_from: p.from,
        period_to: p.to,
        customer_id: customer.id,
        invoice_date: today,
        delivery_date: p.from,
        payment_term_days: termDays,
        payment_due_date: addDays(today, termDays),
        marking: c.invoiceMarking,
        description: `${c.agreementTitle} ${periodName(lang, c.interval, p.from)}`,
        our_reference: null,
        your_reference: c.invoiceExtra,
        vat_percentage: reverseVat ? '0' : defaultVat,
        reverse_vat: reverseVat,
        bg_account: company.bgAccount,
        bank_account: rules.bankAccount,
        tax_reduction: 'none',
        tax_reduction_persons: JSON.stringify([]),
        total_price: figures.net,
        vat_total: figures.vatTotal,
        rounding: figures.rounding,
        total_price_vat: figures.total,
        tax_reduction_amount: formatDecimal(0),
        to_pay: figures.toPay,
        erp_state: final && zero && sends && erp.provider.capabilities.sendInvoices ? 'not_sent.zero_price' : null,
        data: JSON.stringify({
          instance: company.instance,
          customer: { ...customerPart(customer, false), invoiceAddressId: c.invoiceAddressId },
          agreement: {
            id: c.agreementId,
            code: c.code,
            title: c.agreementTitle,
            objectAgreementId: c.id,
            periodFrom: p.from,
            periodTo: p.to,
          },
          businessObject: { id: c.businessObjectId, serialCode: c.serialCode },
        }),
        create_user_id: ctx.auth?.user.id ?? null,
        create_ts: ctx.now,
        update_ts: ctx.now,
      });
      rows.push(...records);
      const user = ctx.auth?.user.id ?? null;
      history.push({
        entity: INVOICE_ENTITY,
        entity_id: id,
        action: 'create',
        user_id: user,
        at: ctx.now,
        data: JSON.stringify({ agreement: { objectAgreementId: c.id, serialCode: c.serialCode, periodFrom: p.from } }),
      });
      if (final)
        history.push({
          entity: INVOICE_ENTITY,
          entity_id: id,
          action: 'finalize',
          user_id: user,
          at: ctx.now,
          data: JSON.stringify({ invoiceNr: nr }),
        });
      if (final && !zero && erp.provider.capabilities.sendInvoices) {
        if (sends) deliver.push(id);
        else
          result.warnings.push({
            objectAgreementId: c.id,
            serialCode: c.serialCode,
            invoiceId: id,
            warning: 'CUSTOMER_SET_NOT_TO_SEND_TO_ERP',
          });
      }
      result.created.push({ objectAgreementId: c.id, id, periodFrom: p.from });
      n++;
    }
  }
  await insertChunked(ctx, 'invoices', invoices);
  await insertChunked(ctx, 'invoice_rows', rows);
  await insertChunked(ctx, 'history', history);
  await queueNewDeliveries(ctx, erp.id, deliver);
}

/**
 * One batch of agreement work orders: every due service period of up to `limit` agreements after
 * `afterId`, or of `ids` only; `force` makes each one's next period now (POST /bo/agreement/wo/schedule).
 * Each order gets the type's work type (and so its checklists), the settings' default status, the
 * person a dispatch rule names for this moment, the agreement's work-order rows, and the history
 * event agreement.create.
 */
export async function generateWorkOrderBatch(
  ctx: Ctx,
  options: {
    until: string;
    afterId?: string | null;
    limit?: number;
    ids?: readonly string[] | null;
    force?: boolean;
    /** Who gets an order no dispatch rule and no earlier visit names (a bulk run: who started it). */
    assignTo?: string | null;
  },
): Promise<BatchResult> {
  const { candidates, result } = await claimBatch(ctx, 'wo', options.force ? '9999-12-31' : options.until, options);
  if (!candidates.length) return result;
  const existing = await existingPeriods(ctx, 'wo', candidates);
  const planned = plan(candidates, 'wo', options.until, options.force === true, existing, result.skipped, () => null);
  const making = planned.filter((p) => p.periods.length);
  if (making.length) await writeWorkOrders(ctx, making, result, options.assignTo ?? null);
  await advance(ctx, 'wo', planned);
  return result;
}

async function writeWorkOrders(ctx: Ctx, making: Planned[], result: BatchResult, fallbackAssignee: string | null) {
  const count = making.reduce((n, p) => n + p.periods.length, 0);
  const status: Row | undefined = await ctx
    .trx('work_order_statuses')
    .where({ is_default: true, is_closing: false })
    .first('id');
  const fallbackStatus: Row | undefined = status
    ? undefined
    : await ctx.trx('work_order_statuses').where({ is_closing: false }).orderBy('sort_order').first('id');
  const type: Row | undefined = await ctx
    .trx('work_types')
    .orderBy([{ column: 'is_default', order: 'desc' }, { column: 'sort_order' }])
    .first('id');
  // who goes: the dispatch rule's person, else whoever last served the object, else the run's starter
  const assignee = await dispatchTarget(ctx);
  const lastServed = new Map<string, string>();
  if (!assignee)
    for (const r of (
      await ctx.trx.raw(
        `select distinct on (w.business_object_id) w.business_object_id, a.user_id
         from work_orders w join work_order_assignees a on a.work_order_id = w.id
        where w.business_object_id in (select value::uuid from json_array_elements_text(cast(? as json)))
        order by w.business_object_id, w.intake_ts desc nulls last`,
        [JSON.stringify([...new Set(making.map((p) => p.c.businessObjectId))])],
      )
    ).rows as Row[])
      lastServed.set(r.business_object_id as string, r.user_id as string);
  const taken = await ctx.trx.raw(
    `update work_order_settings set next_number = next_number + ? returning number_prefix, next_number - ? as first`,
    [count, count],
  );
  const t = taken.rows[0] as { number_prefix: string; first: string | number };
  const oaIds = making.map((p) => p.c.id);
  const woRows = (await ctx
    .trx('object_agreement_rows')
    .whereIn('object_agreement_id', oaIds)
    .where('kind', 'wo')
    .whereNotNull('article_id')
    .orderBy([{ column: 'sort_order' }, { column: 'id' }])) as Row[];
  const rowsOf = new Map<string, Row[]>();
  for (const r of woRows)
    rowsOf.set(r.object_agreement_id as string, [...(rowsOf.get(r.object_agreement_id as string) ?? []), r]);
  const lang = langFromKey(ctx.tenant.config.languageKey);
  // one address rule for every way an order is made (issue 28 item 11): the customer's primary address
  const customerIds = [...new Set(making.map((p) => p.c.objectCustomerId).filter((id): id is string => Boolean(id)))];
  const primaries = new Map<string, Row>(
    (customerIds.length
      ? ((await ctx
          .trx('customer_addresses')
          .whereIn('customer_id', customerIds)
          .where({ is_primary: true })
          .select('id', 'customer_id', 'street', 'post_index', 'city')) as Row[])
      : []
    ).map((a) => [a.customer_id as string, a]),
  );

  const orders: Row[] = [];
  const assignees: Row[] = [];
  const articles: Row[] = [];
  const history: Row[] = [];
  let n = 0;
  for (const { c, periods } of making) {
    for (const p of periods) {
      const id = randomUUID();
      const number = `${t.number_prefix}${Number(t.first) + n}`;
      const title = visitTitle(lang, c.agreementTitle, p.generateOn);
      orders.push({
        id,
        number,
        title,
        description: `${c.serialCode} · ${p.from} – ${p.to} · ${weekText(lang, p.generateOn)}`,
        customer_id: c.objectCustomerId,
        business_object_id: c.businessObjectId,
        customer_address_id: primaries.get(c.objectCustomerId as string)?.id ?? null,
        street: primaries.get(c.objectCustomerId as string)?.street ?? null,
        post_index: primaries.get(c.objectCustomerId as string)?.post_index ?? null,
        city: primaries.get(c.objectCustomerId as string)?.city ?? null,
        status_id: (status ?? fallbackStatus)!.id,
        work_type_id: c.workTypeId ?? type!.id,
        priority: 'medium',
        invoice_marking: c.invoiceMarking,
        object_agreement_id: c.id,
        agreement_period_from: p.from,
        intake_ts: ctx.now,
        update_ts: ctx.now,
        create_user_id: ctx.auth?.user.id ?? null,
      });
      const who = assignee ?? lastServed.get(c.businessObjectId) ?? ctx.auth?.user.id ?? fallbackAssignee ?? null;
      if (who) assignees.push({ work_order_id: id, user_id: who });
      (rowsOf.get(c.id) ?? []).forEach((r, i) => {
        const discount = rowDiscount(r);
        articles.push({
          work_order_id: id,
          article_id: r.article_id,
          title: r.title,
          description: r.description ?? null,
          amount: r.amount,
          price: r.price,
          discount_type: discount?.type ?? null,
          discount_value: discount?.value ?? null,
          total: rowTotal({
            amount: String(r.amount),
            price: String(r.price),
            discount: discount ? discountOf(discount.type, discount.value) : null,
          }),
          sort_order: i + 1,
        });
      });
      history.push({
        entity: WO_ENTITY,
        entity_id: id,
        action: 'agreement.create',
        user_id: ctx.auth?.user.id ?? null,
        at: ctx.now,
        data: JSON.stringify({ number, title, objectAgreementId: c.id, periodFrom: p.from, periodTo: p.to }),
      });
      result.created.push({ objectAgreementId: c.id, id, periodFrom: p.from });
      n++;
    }
  }
  await insertChunked(ctx, 'work_orders', orders);
  await insertChunked(ctx, 'work_order_assignees', assignees);
  await insertChunked(ctx, 'work_order_articles', articles);
  await insertChunked(ctx, 'history', history);
}
