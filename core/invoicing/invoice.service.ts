import { z } from 'zod';
import type { Ctx } from '~/core/context';
import { AppError, notFound } from '~/core/errors/app-error';
import { isUuid, parseInput } from '~/core/errors/validation';
import { recordHistory } from '~/core/history/history';
import { hasAccess, requireAccess, type Access } from '~/core/permissions/access';
import { formatDecimal } from '~/core/pricing';
import { addDays, isPlainDate } from '~/core/calendar/dates';
import { PROJECT_ACCESS } from '~/core/projects/project-access';
import { closeProjectInvoice } from '~/core/projects/project-invoice.service';
import { APPLY_TYPES, applyTypesOff, offeredApplyTypes, requireApplyTypeOn, type ApplyType } from './apply-types';
import { erpProvider, isErpConnected, readErpConnection, tenantErp } from './erp-connection';
import { queueDelivery, settleCheckedDelivery, toDelivery, type Delivery } from './erp-delivery';
import { VAT_RATES, type InvoiceFigures, type VatLine } from './invoice-math';
import {
  figuresOf,
  finalizeInvoice,
  INVOICE_ENTITY,
  invoiceColumns,
  lineRecord,
  recomputeInvoice,
} from './invoice-store';
import {
  INVOICE_ROW_KINDS,
  invoiceRowType,
  type InvoiceLine,
  type InvoiceRowKind,
  type InvoiceRowType,
} from './invoice-lines';
import { isValidPersonId } from './ocr';
import { TAX_REDUCTION_KINDS, type TaxReductionKind } from './tax-reduction';

/*
 * The invoice people see (issue 14 item 2; spec sections 3 and 4; api-calls.md "Invoices"): read it
 * on its order or from the list (invoices:read), edit it while a draft (the permission that closes
 * its order), finalize it (its gapless number), its history, and the apply actions.
 */

type Row = Record<string, unknown>;

export const INVOICE_READ: Access = { permission: 'invoices:read' };
export { APPLY_TYPES, type ApplyType } from './apply-types';
export const INVOICE_STATUSES = ['draft', 'finalized', 'void'] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];
/** The ERP side as the list filters it: nothing queued, on its way, in the ERP, failed. */
export const ERP_FILTERS = ['none', 'queued', 'delivered', 'failed'] as const;

export interface InvoiceRowView {
  id: string;
  kind: InvoiceRowKind;
  articleId: string | null;
  articleNumber: string | null;
  articleTitle: string;
  articleDescription: string | null;
  unit: string | null;
  amount: string;
  price: string;
  discountType: 'PERCENTAGE' | 'REGULAR' | null;
  discountValue: string | null;
  totalPrice: string;
  vatPercent: string;
  work: 'labour' | 'material';
  /** What the row is to accounts and ROT/RUT (labour, material, fee, travel, part payment). */
  type: InvoiceRowType;
  green: 'solar' | 'storage' | 'charger' | null;
  isText: boolean;
  comment: string | null;
  /** The person a labour row bills (time rows), kept when a draft's rows are saved. */
  userId: string | null;
}

export interface InvoiceView {
  id: string;
  status: InvoiceStatus;
  invoiceNr: string | null;
  invoiceSequence: number | null;
  invoiceDate: string;
  deliveryDate: string | null;
  paymentDueDate: string | null;
  paymentTermDays: number;
  marking: string | null;
  description: string | null;
  footerText: string | null;
  ourReference: string | null;
  yourReference: string | null;
  customerOrderNumber: string | null;
  ocr: string | null;
  bgAccount: string | null;
  bankAccount: string | null;
  currency: string;
  reverseVat: boolean;
  vatPercentage: string;
  taxReduction: {
    kind: TaxReductionKind;
    propertyDesignation: string | null;
    housingOrgNr: string | null;
    persons: { personId: string }[];
  };
  figures: {
    net: string;
    vat: VatLine[];
    vatTotal: string;
    rounding: string;
    total: string;
    taxReduction: InvoiceFigures['taxReduction'];
    toPay: string;
  };
  totalPrice: string;
  totalPriceVat: string;
  erpReferenceId: string | null;
  erpReference: { externalId: string | null };
  erpState: string | null;
  externalInvoiceNr: string | null;
  delivery: Delivery | null;
  source: {
    type: 'workOrder' | 'salesOrder' | 'project' | null;
    id: string | null;
    number: string | null;
    title: string | null;
  };
  customer: {
    id: string | null;
    customerId: string | null;
    name: string | null;
    sendToErp: boolean;
    invoiceEmail: string | null;
  };
  articles: InvoiceRowView[];
  data: unknown;
  createTs: string;
  version: number;
  unlinked: boolean;
  /** What the viewer may do with it. */
  canEdit: boolean;
  canApply: boolean;
  applyTypes: ApplyType[];
  erpName: string;
}

const str = (v: unknown) => (v === null || v === undefined ? null : String(v));

function toRowView(r: Row): InvoiceRowView {
  return {
    id: r.id as string,
    kind: r.kind as InvoiceRowKind,
    articleId: str(r.article_id),
    articleNumber: str(r.article_number),
    articleTitle: r.title as string,
    articleDescription: str(r.description),
    unit: str(r.unit),
    amount: formatDecimal(String(r.amount), r.kind === 'mileage' ? 1 : 2),
    price: formatDecimal(String(r.price)),
    discountType: (r.discount_type as 'PERCENTAGE' | 'REGULAR' | null) ?? null,
    discountValue:
      r.discount_value === null || r.discount_value === undefined ? null : formatDecimal(String(r.discount_value)),
    totalPrice: formatDecimal(String(r.total)),
    vatPercent: String(Number(r.vat_percent)),
    work: r.work as 'labour' | 'material',
    type: invoiceRowType(String(r.kind), String(r.work)),
    green: (r.green as InvoiceRowView['green']) ?? null,
    isText: Boolean(r.is_text),
    comment: r.is_text ? (r.title as string) : null,
    userId: str(r.user_id),
  };
}

/** The permission that edits and applies an invoice: the one that closes its order (a project's: projects:edit). */
function editAccess(invoice: Row): Access {
  if (invoice.project_id) return PROJECT_ACCESS.edit;
  return invoice.sales_order_id ? { permission: 'salesorder:edit', module: 'crm' } : { permission: 'workorders:close' };
}

/** The same permission from an invoice as read (the document services check it before an e-mail leaves). */
export function invoiceEditAccess(invoice: Pick<InvoiceView, 'source'>): Access {
  return editAccess({
    sales_order_id: invoice.source.type === 'salesOrder' ? invoice.source.id : null,
    project_id: invoice.source.type === 'project' ? invoice.source.id : null,
  });
}

async function loadInvoiceRow(ctx: Ctx, id: unknown): Promise<Row> {
  if (!isUuid(id)) throw notFound();
  const row: Row | undefined = await ctx
    .trx('invoices')
    .leftJoin('customers as c', 'c.id', 'invoices.customer_id')
    .leftJoin('work_orders as w', 'w.id', 'invoices.work_order_id')
    .leftJoin('sales_orders as s', 's.id', 'invoices.sales_order_id')
    .leftJoin('projects as p', 'p.id', 'invoices.project_id')
    .where('invoices.id', id)
    .first(
      ...invoiceColumns(ctx.trx),
      'c.customer_id as c_number',
      'c.name as c_name',
      'c.send_to_erp as c_send',
      ctx.trx.raw('coalesce(c.invoice_email, c.email) as c_email'),
      'w.number as w_number',
      'w.title as w_title',
      's.number as s_number',
      's.title as s_title',
      'p.number as p_number',
      'p.title as p_title',
    );
  if (!row) throw notFound();
  return row;
}

/** GET /invoice/{id}: the invoice with its rows, figures, ERP state and what the viewer may do. */
export async function getInvoice(ctx: Ctx, id: unknown): Promise<InvoiceView> {
  requireAccess(ctx.auth, INVOICE_READ);
  return readInvoice(ctx, id);
}

/**
 * The invoice view without the staff permission check: for a caller that decided access itself
 * (the customer zone prints its own customer's finalized invoices, scoped in its own query).
 */
export async function readInvoice(ctx: Ctx, id: unknown): Promise<InvoiceView> {
  const r = await loadInvoiceRow(ctx, id);
  const rows: Row[] = await ctx
    .trx('invoice_rows')
    .where({ invoice_id: r.id })
    .orderBy([{ column: 'sort_order' }, { column: 'id' }]);
  const erp = await tenantErp(ctx);
  // the delivery to the ERP in use: a failure with the one before is not this ERP's (it was switched)
  const delivery: Row | undefined = await ctx
    .trx('erp_deliveries')
    .where({ invoice_id: r.id, kind: erp.id })
    .orderBy('created_at', 'desc')
    .first();
  const f = figuresOf(r, rows);
  const mayEdit = hasAccess(ctx.auth, editAccess(r));
  const status = r.status as InvoiceStatus;
  const applyTypes = offeredApplyTypes({
    capabilities: erp.provider.capabilities,
    erpConnected: isErpConnected(erp.connection, erp.provider),
    customerSends: r.c_send !== false,
    status,
    off: await applyTypesOff(ctx),
  });
  return {
    id: r.id as string,
    status,
    invoiceNr: str(r.invoice_nr),
    invoiceSequence:
      r.invoice_sequence === null || r.invoice_sequence === undefined ? null : Number(r.invoice_sequence),
    invoiceDate: r.date_text as string,
    deliveryDate: str(r.delivery_text),
    paymentDueDate: str(r.due_text),
    paymentTermDays: Number(r.payment_term_days),
    marking: str(r.marking),
    description: str(r.description),
    footerText: str(r.footer_text),
    ourReference: str(r.our_reference),
    yourReference: str(r.your_reference),
    customerOrderNumber: str(r.customer_order_number),
    ocr: str(r.ocr),
    bgAccount: str(r.bg_account),
    bankAccount: str(r.bank_account),
    currency: r.currency as string,
    reverseVat: Boolean(r.reverse_vat),
    vatPercentage: formatDecimal(String(r.vat_percentage)),
    taxReduction: {
      kind: r.tax_reduction as TaxReductionKind,
      propertyDesignation: str(r.property_designation),
      housingOrgNr: str(r.housing_org_nr),
      persons: (r.tax_reduction_persons as { personId: string }[]) ?? [],
    },
    figures: {
      net: f.net,
      vat: f.vat,
      vatTotal: f.vatTotal,
      rounding: f.rounding,
      total: f.total,
      taxReduction: f.taxReduction,
      toPay: f.toPay,
    },
    totalPrice: formatDecimal(String(r.total_price)),
    totalPriceVat: formatDecimal(String(r.total_price_vat)),
    erpReferenceId: str(r.erp_reference_id),
    erpReference: { externalId: str(r.erp_reference_id) },
    erpState: str(r.erp_state),
    externalInvoiceNr: str(r.external_invoice_nr),
    delivery: delivery ? toDelivery(delivery) : null,
    source: r.work_order_id
      ? { type: 'workOrder', id: r.work_order_id as string, number: str(r.w_number), title: str(r.w_title) }
      : r.sales_order_id
        ? { type: 'salesOrder', id: r.sales_order_id as string, number: str(r.s_number), title: str(r.s_title) }
        : r.project_id
          ? { type: 'project', id: r.project_id as string, number: str(r.p_number), title: str(r.p_title) }
          : { type: null, id: null, number: null, title: null },
    customer: {
      id: str(r.customer_id),
      customerId: str(r.c_number),
      name: str(r.c_name),
      sendToErp: r.c_send !== false,
      invoiceEmail: str(r.c_email),
    },
    articles: rows.map(toRowView),
    data: r.data ?? {},
    createTs: new Date(r.create_ts as string).toISOString(),
    version: Number(r.version),
    unlinked: Boolean(r.unlinked_at),
    // a project invoice's draft changes on the project's invoicing tab (its rows are the project's)
    canEdit: mayEdit && status === 'draft' && !r.unlinked_at && !r.project_id,
    canApply: mayEdit && status !== 'void',
    applyTypes,
    erpName: erp.displayName,
  };
}

/** GET /invoice/wo/{id} and /invoice/salesorder/{id}: the order's current invoice, or 404. */
export async function getInvoiceOf(ctx: Ctx, source: 'workOrder' | 'salesOrder', id: unknown): Promise<InvoiceView> {
  requireAccess(ctx.auth, INVOICE_READ);
  if (!isUuid(id)) throw notFound();
  const row: Row | undefined = await ctx
    .trx('invoices')
    .where(source === 'workOrder' ? { work_order_id: id } : { sales_order_id: id })
    .whereNull('unlinked_at')
    .first('id');
  if (!row) throw notFound();
  return getInvoice(ctx, row.id);
}

/** GET /invoice/{id}/erp: the ERP's number for the invoice (null until delivered). */
export async function getInvoiceErp(
  ctx: Ctx,
  id: unknown,
): Promise<{ externalInvoiceNr: string | null; erpState: string | null; delivery: Delivery | null }> {
  const invoice = await getInvoice(ctx, id);
  return { externalInvoiceNr: invoice.externalInvoiceNr, erpState: invoice.erpState, delivery: invoice.delivery };
}

// ---- list ----

export const ZInvoiceList = z.object({
  status: z.enum([...INVOICE_STATUSES, 'all'], { error: 'ERROR_INVALID_VALUE' }).default('all'),
  erp: z.enum([...ERP_FILTERS, 'all'], { error: 'ERROR_INVALID_VALUE' }).default('all'),
  q: z.string().trim().max(100).optional(),
  from: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'ERROR_INVALID_VALUE')
    .optional(),
  to: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'ERROR_INVALID_VALUE')
    .optional(),
  customerId: z.string().uuid('ERROR_INVALID_VALUE').optional(),
  offset: z.coerce.number().int().min(0).default(0),
  size: z.coerce.number().int().min(1).max(200).default(50),
});

export interface InvoiceListItem {
  id: string;
  status: InvoiceStatus;
  invoiceNr: string | null;
  invoiceDate: string;
  paymentDueDate: string | null;
  customerName: string | null;
  customerNumber: string | null;
  source: string | null;
  totalPrice: string;
  totalPriceVat: string;
  toPay: string;
  erp: 'none' | 'queued' | 'delivered' | 'failed';
  externalInvoiceNr: string | null;
  errorCode: string | null;
}

/**
 * GET /invoices: newest invoice date first, filtered in SQL by status, ERP state, period, customer
 * and a search on number, customer or order; one statement, a page at a time (one row more than
 * the page says whether there is a next).
 */
export async function listInvoices(ctx: Ctx, raw: unknown): Promise<{ invoices: InvoiceListItem[]; hasMore: boolean }> {
  requireAccess(ctx.auth, INVOICE_READ);
  const f = parseInput(ZInvoiceList, raw);
  const erpState = `case when d.status in ('pending', 'sending') then 'queued'
                         when d.status = 'delivered' or i.erp_reference_id is not null then 'delivered'
                         when d.status in ('failed', 'needs_checking') then 'failed' else 'none' end`;
  // every invoice that has existed: a voided one keeps its number and stays findable
  const where: string[] = ['true'];
  const args: (string | number)[] = [];
  if (f.status !== 'all') {
    where.push('i.status = ?');
    args.push(f.status);
  }
  if (f.from) {
    where.push('i.invoice_date >= ?');
    args.push(f.from);
  }
  if (f.to) {
    where.push('i.invoice_date <= ?');
    args.push(f.to);
  }
  if (f.customerId) {
    where.push('i.customer_id = ?');
    args.push(f.customerId);
  }
  if (f.q) {
    where.push(`(i.invoice_nr = ? or c.search_text like ? or w.number::text = ? or i.external_invoice_nr = ?)`);
    args.push(f.q, `%${f.q.toLowerCase()}%`, f.q, f.q);
  }
  if (f.erp !== 'all') {
    where.push(`${erpState} = ?`);
    args.push(f.erp);
  }
  const { rows } = (await ctx.trx.raw(
    `select i.id, i.status, i.invoice_nr, i.invoice_date::text as date_text, i.payment_due_date::text as due_text,
            c.name as customer_name, c.customer_id as customer_number,
            coalesce('#' || w.number::text, 'S' || s.number::text, 'P' || p.number::text) as source,
            i.total_price::text as total_price, i.total_price_vat::text as total_price_vat, i.to_pay::text as to_pay,
            ${erpState} as erp, i.external_invoice_nr, d.error_code
       from invoices i
       left join customers c on c.id = i.customer_id
       left join work_orders w on w.id = i.work_order_id
       left join sales_orders s on s.id = i.sales_order_id
       left join projects p on p.id = i.project_id
       left join lateral (select status, error_code from erp_deliveries x where x.invoice_id = i.id and x.kind = ?
                           order by x.created_at desc limit 1) d on true
      where ${where.map((w) => `(${w})`).join(' and ')}
      order by i.invoice_date desc, i.id desc
      limit ? offset ?`,
    // the ERP in use: a delivery to one switched away from shows no state (nor its failure badge)
    [erpProvider((await readErpConnection(ctx.trx)).kind).id, ...args, f.size + 1, f.offset],
  )) as { rows: Row[] };
  return {
    hasMore: rows.length > f.size,
    invoices: rows.slice(0, f.size).map((r) => ({
      id: r.id as string,
      status: r.status as InvoiceStatus,
      invoiceNr: str(r.invoice_nr),
      invoiceDate: r.date_text as string,
      paymentDueDate: str(r.due_text),
      customerName: str(r.customer_name),
      customerNumber: str(r.customer_number),
      source: str(r.source),
      totalPrice: formatDecimal(String(r.total_price)),
      totalPriceVat: formatDecimal(String(r.total_price_vat)),
      toPay: formatDecimal(String(r.to_pay)),
      erp: r.erp as InvoiceListItem['erp'],
      externalInvoiceNr: str(r.external_invoice_nr),
      errorCode: str(r.error_code),
    })),
  };
}

// ---- edit a draft ----

const optText = (max: number) =>
  z.preprocess(
    (v) => (typeof v === 'string' ? (v.trim() === '' ? null : v.trim()) : v),
    z.string().max(max, 'ERROR_MAX_LENGTH').nullable().optional(),
  );
const zDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'ERROR_INVALID_VALUE')
  .refine((s) => isPlainDate(s), 'ERROR_INVALID_VALUE');
const zAmount = z.preprocess(
  (v) =>
    typeof v === 'number' ? String(v) : typeof v === 'string' ? v.trim().replace(',', '.').replace(/\s/g, '') : v,
  z.string().regex(/^-?\d{1,11}(\.\d{1,3})?$/, 'ERROR_PRICE_PATTERN'),
);

export const ZInvoiceRowInput = z.object({
  kind: z.enum(INVOICE_ROW_KINDS, { error: 'ERROR_INVALID_VALUE' }).default('article'),
  articleId: z.string().uuid('ERROR_INVALID_VALUE').nullable().optional(),
  articleNumber: optText(50),
  articleTitle: z
    .string({ error: 'ERROR_REQUIRED_FIELD' })
    .trim()
    .min(1, 'ERROR_REQUIRED_FIELD')
    .max(300, 'ERROR_MAX_LENGTH'),
  articleDescription: optText(2000),
  unit: optText(20),
  amount: zAmount.default('1'),
  price: zAmount.default('0'),
  discountType: z.enum(['PERCENTAGE', 'REGULAR'], { error: 'ERROR_INVALID_VALUE' }).nullable().optional(),
  discountValue: zAmount.nullable().optional(),
  vatPercent: z
    .preprocess(
      (v) => (v === undefined || v === null ? v : String(Number(v))),
      z.enum(VAT_RATES, { error: 'ERROR_INVALID_VALUE' }),
    )
    .default('25'),
  work: z.enum(['labour', 'material'], { error: 'ERROR_INVALID_VALUE' }).default('material'),
  green: z.enum(['solar', 'storage', 'charger'], { error: 'ERROR_INVALID_VALUE' }).nullable().optional(),
  userId: z.string().uuid().nullable().optional(),
});

export const ZUpdateInvoice = z.object({
  id: z.string({ error: 'ERROR_REQUIRED_FIELD' }),
  version: z.coerce.number({ error: 'ERROR_REQUIRED_FIELD' }).int(),
  invoiceDate: zDate.optional(),
  deliveryDate: zDate.nullable().optional(),
  paymentTermDays: z.coerce
    .number({ error: 'ERROR_INVALID_VALUE' })
    .int('ERROR_INVALID_VALUE')
    .min(0, 'ERROR_INVALID_VALUE')
    .max(365, 'ERROR_INVALID_VALUE')
    .optional(),
  marking: optText(200),
  description: optText(2000),
  footerText: optText(2000),
  ourReference: optText(200),
  yourReference: optText(200),
  customerOrderNumber: optText(100),
  reverseVat: z.boolean({ error: 'ERROR_INVALID_VALUE' }).optional(),
  taxReduction: z
    .enum(TAX_REDUCTION_KINDS as [TaxReductionKind, ...TaxReductionKind[]], { error: 'ERROR_INVALID_VALUE' })
    .optional(),
  propertyDesignation: optText(100),
  housingOrgNr: optText(20),
  taxReductionPersons: z
    .array(
      z.object({
        personId: z.string().trim().refine(isValidPersonId, 'ERROR_PERSON_ID_INVALID'),
      }),
    )
    .max(4, 'ERROR_INVALID_VALUE')
    .optional(),
  rows: z.array(ZInvoiceRowInput).max(500, 'ERROR_INVALID_VALUE').optional(),
});

const ROW_FIELDS_OF_HEADER: [keyof z.output<typeof ZUpdateInvoice>, string][] = [
  ['invoiceDate', 'invoice_date'],
  ['deliveryDate', 'delivery_date'],
  ['paymentTermDays', 'payment_term_days'],
  ['marking', 'marking'],
  ['description', 'description'],
  ['footerText', 'footer_text'],
  ['ourReference', 'our_reference'],
  ['yourReference', 'your_reference'],
  ['customerOrderNumber', 'customer_order_number'],
  ['reverseVat', 'reverse_vat'],
  ['taxReduction', 'tax_reduction'],
  ['propertyDesignation', 'property_designation'],
  ['housingOrgNr', 'housing_org_nr'],
];

/**
 * PUT /invoice {id, version, …}: changes a draft (its dates, texts, tax reduction and rows; rows are
 * replaced as sent) and recomputes it. 409 INVOICE_NOT_DRAFT for a final invoice, 409
 * INVOICE_CHANGED when someone saved it since `version`. History: edit with the fields changed.
 */
export async function updateInvoice(ctx: Ctx, raw: unknown): Promise<InvoiceView> {
  requireAccess(ctx.auth, INVOICE_READ);
  const input = parseInput(ZUpdateInvoice, raw);
  const current = await loadInvoiceRow(ctx, input.id);
  requireAccess(ctx.auth, editAccess(current));
  if (current.project_id) throw new AppError('PROJECT_INVOICE_EDIT_IN_PROJECT', 409);
  const locked: Row = await ctx
    .trx('invoices')
    .where({ id: current.id })
    .forUpdate()
    .first('status', 'version', 'unlinked_at');
  if (locked.status !== 'draft' || locked.unlinked_at) throw new AppError('INVOICE_NOT_DRAFT', 409);
  if (Number(locked.version) !== input.version)
    throw new AppError('INVOICE_CHANGED', 409, { version: Number(locked.version) });
  const update: Row = {};
  const changed: string[] = [];
  for (const [key, column] of ROW_FIELDS_OF_HEADER) {
    const value = input[key];
    if (value === undefined) continue;
    update[column] = value;
    changed.push(key);
  }
  if (input.taxReductionPersons) {
    update.tax_reduction_persons = JSON.stringify(
      input.taxReductionPersons.map((p) => ({ personId: p.personId.replace(/[\s]/g, '') })),
    );
    changed.push('taxReductionPersons');
  }
  const invoiceDate = input.invoiceDate ?? (current.date_text as string);
  const termDays = input.paymentTermDays ?? Number(current.payment_term_days);
  if (input.invoiceDate || input.paymentTermDays !== undefined)
    update.payment_due_date = addDays(invoiceDate, termDays);
  if (input.rows) {
    await ctx.trx('invoice_rows').where({ invoice_id: current.id }).delete();
    const lines: InvoiceLine[] = input.rows.map((r) => ({
      kind: r.kind,
      articleId: r.articleId ?? null,
      articleNumber: r.articleNumber ?? null,
      title: r.articleTitle,
      description: r.articleDescription ?? null,
      unit: r.unit ?? null,
      amount: r.amount,
      price: r.price,
      discountType: r.discountType ?? null,
      discountValue: r.discountType ? (r.discountValue ?? '0') : null,
      vatPercent: r.vatPercent,
      work: r.work,
      green: r.green ?? null,
      userId: r.userId ?? null,
    }));
    if (lines.length) await ctx.trx('invoice_rows').insert(lines.map((l, i) => lineRecord(current.id as string, l, i)));
    const fee = lines.find((l) => l.kind === 'fee');
    update.invoice_fee = fee ? fee.price : null;
    changed.push('rows');
  }
  await ctx
    .trx('invoices')
    .where({ id: current.id })
    .update({ ...update, version: input.version + 1, update_ts: ctx.now });
  await recomputeInvoice(ctx, current.id as string);
  if (changed.length)
    await recordHistory(ctx, {
      entity: INVOICE_ENTITY,
      entityId: current.id as string,
      action: 'edit',
      data: { changed },
    });
  return getInvoice(ctx, current.id);
}

/** The claims a ROT or RUT invoice must carry before it can be final (the tax agency refuses others). */
function checkTaxReduction(r: Row): void {
  const kind = r.tax_reduction as TaxReductionKind;
  if (kind === 'none' || kind === 'green') return;
  const persons = (r.tax_reduction_persons as unknown[]) ?? [];
  const fields: Record<string, string[]> = {};
  if (!persons.length) fields.taxReductionPersons = ['ERROR_TAX_REDUCTION_PERSON_MISSING'];
  if (kind === 'ROT' && !r.property_designation && !r.housing_org_nr)
    fields.propertyDesignation = ['ERROR_TAX_REDUCTION_PROPERTY_MISSING'];
  if (Object.keys(fields).length) throw new AppError('VALIDATION_FAILED', 400, { fields });
}

/** POST /invoice/{id}/finalize: the draft gets its number and can no longer change. */
export async function finalizeDraft(ctx: Ctx, id: unknown): Promise<InvoiceView> {
  requireAccess(ctx.auth, INVOICE_READ);
  const current = await loadInvoiceRow(ctx, id);
  requireAccess(ctx.auth, editAccess(current));
  if (current.unlinked_at) throw new AppError('INVOICE_NOT_DRAFT', 409);
  // a project invoice is closed as the project closes it: its rows become invoiced, the ERP gets it
  if (current.project_id) await closeProjectInvoice(ctx, current.id);
  else {
    checkTaxReduction(current);
    await finalizeInvoice(ctx, current.id as string);
  }
  return getInvoice(ctx, current.id);
}

// ---- history ----

export interface InvoiceHistoryEntry {
  action: string;
  userName: string | null;
  timestamp: string;
  data: unknown;
}

/**
 * GET /invoice/history/{id}: newest first. Spec: an entry of the same action within 60 seconds of
 * the one before it is hidden (a burst of saves shows as one line); done in SQL with lag().
 */
export async function getInvoiceHistory(ctx: Ctx, id: unknown): Promise<InvoiceHistoryEntry[]> {
  requireAccess(ctx.auth, INVOICE_READ);
  const invoice = await loadInvoiceRow(ctx, id);
  const { rows } = (await ctx.trx.raw(
    `select action, user_name, at, data from (
       select h.action, u.name as user_name, h.at, h.data, h.id,
              lag(h.action) over w as prev_action, lag(h.at) over w as prev_at
         from history h left join users u on u.id = h.user_id
        where h.entity = ? and h.entity_id = ?
       window w as (order by h.at, h.id)
     ) x
     where prev_action is null or not (prev_action = action and at - prev_at < interval '60 seconds')
     order by at desc, id desc
     limit 200`,
    [INVOICE_ENTITY, String(invoice.id)],
  )) as { rows: Row[] };
  return rows.map((r) => ({
    action: r.action as string,
    userName: str(r.user_name),
    timestamp: new Date(r.at as string).toISOString(),
    data: r.data ?? null,
  }));
}

// ---- apply ----

export const ZApply = z.object({
  invoiceId: z.string({ error: 'ERROR_REQUIRED_FIELD' }),
  type: z.enum(APPLY_TYPES, { error: 'ERROR_INVALID_VALUE' }),
});

/**
 * POST /invoice/apply {invoiceId, type: erp}: finalizes a draft first (it gets its number), then
 * queues its delivery to the tenant's ERP in this transaction (the job sends it). The other apply
 * types produce a file or an e-mail and are served by the document route.
 */
export async function applyErp(
  ctx: Ctx,
  invoiceId: unknown,
): Promise<{ invoice: InvoiceView; delivery: Delivery | null }> {
  requireAccess(ctx.auth, INVOICE_READ);
  const current = await loadInvoiceRow(ctx, invoiceId);
  requireAccess(ctx.auth, editAccess(current));
  await requireApplyTypeOn(ctx, 'erp');
  if (current.status === 'void') throw new AppError('INVOICE_VOID', 409);
  // nothing is finalized or queued for an ERP that cannot take it yet (the screen offers no button then)
  const erp = await tenantErp(ctx);
  if (erp.provider.capabilities.sendInvoices && !isErpConnected(erp.connection, erp.provider))
    throw new AppError('ERP_NOT_CONNECTED', 409, { name: erp.displayName });
  if (current.status === 'draft' && current.project_id) {
    // the project's close finalizes it, marks its rows invoiced and queues it for the ERP
    const closed = await closeProjectInvoice(ctx, current.id);
    const delivery = closed.queued
      ? toDelivery(
          await ctx.trx('erp_deliveries').where({ invoice_id: current.id }).orderBy('created_at', 'desc').first(),
        )
      : null;
    return { invoice: await getInvoice(ctx, current.id), delivery };
  }
  if (current.status === 'draft') {
    checkTaxReduction(current);
    await finalizeInvoice(ctx, current.id as string);
  }
  const id = current.id as string;
  const { total_price_vat: total } = await ctx.trx('invoices').where({ id }).first('total_price_vat');
  if (Number(total) === 0) {
    // spec ERP state not_sent.zero_price: nothing to collect, nothing sent
    await ctx.trx('invoices').where({ id }).update({ erp_state: 'not_sent.zero_price', update_ts: ctx.now });
    await recordHistory(ctx, {
      entity: INVOICE_ENTITY,
      entityId: id,
      action: 'erp.not_sent',
      data: { reason: 'zero_price' },
    });
    return { invoice: await getInvoice(ctx, id), delivery: null };
  }
  const delivery = await queueDelivery(ctx, id);
  await recordHistory(ctx, {
    entity: INVOICE_ENTITY,
    entityId: id,
    action: 'erp.queued',
    data: { kind: delivery.kind },
  });
  return { invoice: await getInvoice(ctx, id), delivery };
}

export const ZSettleErpCheck = z
  .object({
    invoiceId: z.string({ error: 'ERROR_REQUIRED_FIELD' }),
    answer: z.enum(['booked', 'sendAgain'], { error: 'ERROR_INVALID_VALUE' }),
    /** The invoice's number in the ERP, as the office found it there (answer booked). */
    externalInvoiceNr: z.string({ error: 'ERROR_INVALID_VALUE' }).trim().max(100, 'ERROR_MAX_LENGTH').optional(),
  })
  .superRefine((v, zctx) => {
    if (v.answer === 'booked' && !v.externalInvoiceNr)
      zctx.addIssue({ code: 'custom', path: ['externalInvoiceNr'], message: 'ERROR_REQUIRED_FIELD' });
  });

/**
 * POST /invoice/erp/check {invoiceId, answer: booked|sendAgain, externalInvoiceNr}: the office's answer
 * to a delivery stopped as "needs checking" (issue 31), with the permission that sends the invoice to
 * the ERP (applyErp's). booked records the ERP's number and ends the delivery; sendAgain queues it as
 * a first try. 409 ERP_DELIVERY_NOT_NEEDS_CHECKING when the delivery is not waiting for that answer.
 */
export async function settleErpCheck(
  ctx: Ctx,
  input: unknown,
): Promise<{ invoice: InvoiceView; delivery: Delivery }> {
  requireAccess(ctx.auth, INVOICE_READ);
  const { invoiceId, answer, externalInvoiceNr } = parseInput(ZSettleErpCheck, input);
  const current = await loadInvoiceRow(ctx, invoiceId);
  requireAccess(ctx.auth, editAccess(current));
  await requireApplyTypeOn(ctx, 'erp');
  const delivery = await settleCheckedDelivery(
    ctx,
    current.id as string,
    answer === 'booked' ? { booked: { externalInvoiceNr: externalInvoiceNr! } } : { sendAgain: true },
  );
  return { invoice: await getInvoice(ctx, current.id), delivery };
}

/** Finalizes a draft before a document leaves (pdf, e-mail, file): what a customer sees has a number. */
export async function finalizeForDocument(ctx: Ctx, invoiceId: unknown): Promise<InvoiceView> {
  requireAccess(ctx.auth, INVOICE_READ);
  const current = await loadInvoiceRow(ctx, invoiceId);
  // a project's draft is closed on the project (its rows become invoiced); its document shows the draft
  if (
    current.status === 'draft' &&
    hasAccess(ctx.auth, editAccess(current)) &&
    !current.unlinked_at &&
    !current.project_id
  ) {
    checkTaxReduction(current);
    await finalizeInvoice(ctx, current.id as string);
  }
  return getInvoice(ctx, current.id);
}

/** What each listed invoice was made from (work order, sales order, project), for the list's links. */
export async function invoiceOrigins(
  ctx: Ctx,
  ids: string[],
): Promise<Map<string, { workOrderId: string | null; salesOrderId: string | null; projectId: string | null }>> {
  const rows: { id: string; work_order_id: string | null; sales_order_id: string | null; project_id: string | null }[] =
    ids.length
      ? await ctx.trx('invoices').whereIn('id', ids).select('id', 'work_order_id', 'sales_order_id', 'project_id')
      : [];
  return new Map(
    rows.map((r) => [r.id, { workOrderId: r.work_order_id, salesOrderId: r.sales_order_id, projectId: r.project_id }]),
  );
}
