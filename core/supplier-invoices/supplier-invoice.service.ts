import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Knex } from 'knex';
import type { Ctx } from '~/core/context';
import { AppError, notFound } from '~/core/errors/app-error';
import { isUuid, parseInput } from '~/core/errors/validation';
import { attachReceived, deleteFilesOf } from '~/core/files/files.service';
import type { Received } from '~/core/files/receive';
import { recordHistory } from '~/core/history/history';
import { isErpConnected, tenantErp } from '~/core/invoicing/erp-connection';
import { requireAccess } from '~/core/permissions/access';
import { add, formatDecimal, mul, round, sum } from '~/core/pricing';
import { uniqueViolation } from '~/core/registers/list-query';
import { decide, type ApprovalAction, type SupplierInvoiceStatus } from './approval';
import {
  matchReferences,
  matchSupplier,
  normalizeOrgNumber,
  responsibleFor,
  suggestMatches,
  supplierKey,
  type MatchSuggestions,
  type Seller,
  type Target,
} from './matching';
import { queueSupplierInvoiceDelivery } from './supplier-invoice-delivery';
import { rebillApprovedRows } from './supplier-invoice-costs';
import {
  ZManualSupplierInvoice,
  ZSupplierInvoiceComment,
  ZSupplierInvoiceDecline,
  ZSupplierInvoiceFilter,
  ZSupplierInvoicePatch,
  ZSupplierInvoiceSettings,
} from './supplier-invoice.schema';
import { parseUblInvoice, UblRefusal, type UblInvoice } from './ubl-invoice';
import { canReadAllSupplierInvoices, SUPPLIER_INVOICE_FILES, visibleSupplierInvoices } from './visibility';

/*
 * Supplier invoices (issue 33 items 1–3; spec sections 2–4 and 6; api-calls.md "Supplier
 * invoices"; decision 054). An invoice arrives as a Peppol BIS 3 document (uploaded, or posted by an
 * access point to the tenant's inbound address) or as a PDF whose fields a person types; it is
 * matched to its supplier and work order or project; its content is approved by the person
 * responsible and its payment by finance, which books it in the ERP through an outbox.
 *
 * Who sees what: supplier_invoices:read_all sees every invoice; supplier_invoices:read alone sees
 * those the user is responsible for. An invoice the user may not see behaves as missing (404).
 */

type Row = Record<string, unknown>;

export const SUPPLIER_INVOICE_ENTITY = 'supplier_invoice';
const MODULE = 'supplier_invoices' as const;
export const SUPPLIER_INVOICE_ACCESS = {
  read: { permission: 'supplier_invoices:read', module: MODULE },
  edit: { permission: 'supplier_invoices:edit', module: MODULE },
} as const;

/** The badge (spec section 2): "99+" above this. */
export const BADGE_MAX = 99;

const money = (v: unknown) => formatDecimal(String(v ?? '0'));
const moneyOrNull = (v: unknown) => (v === null || v === undefined ? null : money(v));
const iso = (v: unknown) => (v ? new Date(v as string).toISOString() : null);
const day = (v: unknown) => {
  if (!v) return null;
  if (v instanceof Date)
    return `${v.getFullYear()}-${String(v.getMonth() + 1).padStart(2, '0')}-${String(v.getDate()).padStart(2, '0')}`;
  return String(v).slice(0, 10);
};

/** A unit price: two decimals, four when the supplier gave them ("12.37", "0.0825"). */
const priceText = (v: string) => (/\.\d\d[1-9]|\.\d\d\d[1-9]/.test(v) ? formatDecimal(v, 4) : formatDecimal(v, 2));

// ---- who sees and does what ----

const canReadAll = canReadAllSupplierInvoices;
const canEdit = (ctx: Ctx) => Boolean(ctx.auth?.perms.has('supplier_invoices:edit'));
const visible = visibleSupplierInvoices;

// ---- arrival ----

export interface Arrival {
  source: 'peppol' | 'pdf' | 'erp';
  /** An invoice fetched from the ERP: that ERP's kind and its id there (unique together). */
  erp?: { kind: string; externalId: string };
  supplierId: string | null;
  seller: Seller;
  invoiceNumber: string;
  invoiceType: 'invoice' | 'credit';
  invoiceDate: string;
  dueDate: string | null;
  currency: string;
  orderReference: string | null;
  buyerReference: string | null;
  projectReference: string | null;
  ocr: string | null;
  target: Target | null;
  rows: {
    description: string;
    articleNumber: string | null;
    amount: string;
    unit: string | null;
    price: string;
    total: string;
    vatPercent: string;
    account: string | null;
  }[];
  totalPrice: string;
  totalVat: string;
  fee: string | null;
  rounding: string;
  total: string;
  documentXml: string | null;
  fileId: string | null;
}

function duplicateOf(first: Row): AppError {
  return new AppError('SUPPLIER_INVOICE_DUPLICATE', 409, {
    message: `${String(first.invoice_number)} (${day(first.invoice_date)}): ${String(first.id)}`,
    duplicateOf: first.id,
  });
}

/**
 * The first invoice with this number from this supplier (the same supplier id, or the seller stated
 * with the same Peppol id or organisation number before it was matched).
 */
async function findDuplicate(ctx: Ctx, key: string, a: Arrival, supplierId: string | null): Promise<Row | undefined> {
  const org = a.seller.organizationNumber ? normalizeOrgNumber(a.seller.organizationNumber) : null;
  return ctx
    .trx('supplier_invoices')
    .whereRaw('lower(invoice_number) = lower(?)', [a.invoiceNumber])
    .where((q) => {
      q.where('supplier_key', key);
      if (supplierId) q.orWhere('supplier_id', supplierId);
      if (a.seller.peppolId) q.orWhereRaw('lower(seller_peppol_id) = ?', [a.seller.peppolId.toLowerCase()]);
      if (org) q.orWhereRaw(`upper(regexp_replace(seller_org_number, '[^0-9A-Za-z]', '', 'g')) = ?`, [org]);
    })
    .orderBy('created_at')
    .first('id', 'invoice_number', 'invoice_date');
}

/**
 * Stores an arrived invoice, whichever way it came (an upload, the inbound address, a typed PDF, a
 * fetch from the ERP): matched to its supplier and work order or project, refused as a duplicate
 * (409 SUPPLIER_INVOICE_DUPLICATE naming the first) when the same supplier's number is here.
 */
export async function storeArrival(ctx: Ctx, a: Arrival): Promise<string> {
  const supplierId = a.supplierId ?? (await matchSupplier(ctx.trx, a.seller));
  const target =
    a.target && (a.target.workOrderId || a.target.projectId)
      ? a.target
      : await matchReferences(ctx.trx, [a.orderReference, a.buyerReference, a.projectReference]);
  if (target.workOrderId && !target.projectId) {
    const wo: Row | undefined = await ctx.trx('work_orders').where({ id: target.workOrderId }).first('project_id');
    target.projectId = (wo?.project_id as string) ?? null;
  }
  const key = supplierKey(supplierId, a.seller);
  const first = await findDuplicate(ctx, key, a, supplierId);
  if (first) throw duplicateOf(first);
  let inserted: Row[];
  try {
    inserted = await ctx
      .trx('supplier_invoices')
      .insert({
        source: a.source,
        erp_kind: a.erp?.kind ?? null,
        erp_external_id: a.erp?.externalId ?? null,
        supplier_id: supplierId,
        supplier_key: key,
        seller_name: a.seller.name,
        seller_org_number: a.seller.organizationNumber,
        seller_peppol_id: a.seller.peppolId,
        seller_vat_number: a.seller.vatNumber,
        invoice_number: a.invoiceNumber,
        invoice_type: a.invoiceType,
        invoice_date: a.invoiceDate,
        due_date: a.dueDate,
        currency: a.currency,
        order_reference: a.orderReference,
        buyer_reference: a.buyerReference ?? a.projectReference,
        ocr: a.ocr,
        work_order_id: target.workOrderId,
        project_id: target.projectId,
        responsible_user_id: await responsibleFor(ctx.trx, target),
        total_price: a.totalPrice,
        total_vat: a.totalVat,
        fee: a.fee,
        rounding: a.rounding,
        total: a.total,
        document_xml: a.documentXml,
        file_id: a.fileId,
        create_user_id: ctx.auth?.user.id ?? null,
        created_at: ctx.now,
        updated_at: ctx.now,
      })
      .returning('id');
  } catch (e) {
    // another arrival of the same invoice committed between the look and the insert
    if (uniqueViolation(e) === 'supplier_invoices_number_idx')
      throw new AppError('SUPPLIER_INVOICE_DUPLICATE', 409, { message: a.invoiceNumber });
    throw e;
  }
  const id = inserted[0]!.id as string;
  if (a.rows.length)
    await ctx.trx('supplier_invoice_rows').insert(
      a.rows.map((r, i) => ({
        supplier_invoice_id: id,
        sort_order: i,
        description: r.description.slice(0, 500),
        article_number: r.articleNumber,
        amount: r.amount,
        unit: r.unit,
        price: r.price,
        total: r.total,
        vat_percent: r.vatPercent,
        account: r.account,
      })),
    );
  await recordHistory(ctx, {
    entity: SUPPLIER_INVOICE_ENTITY,
    entityId: id,
    action: 'create',
    data: {
      source: a.source,
      ...(a.erp ? { erp: a.erp } : {}),
      invoiceNumber: a.invoiceNumber,
      supplierMatched: Boolean(supplierId),
      workOrderId: target.workOrderId,
      projectId: target.projectId,
    },
  });
  return id;
}

function arrivalOfUbl(doc: UblInvoice, xml: string): Arrival {
  return {
    source: 'peppol',
    supplierId: null,
    seller: doc.seller,
    invoiceNumber: doc.invoiceNumber,
    invoiceType: doc.type,
    invoiceDate: doc.issueDate,
    dueDate: doc.dueDate,
    currency: doc.currency,
    orderReference: doc.orderReference,
    buyerReference: doc.buyerReference,
    projectReference: doc.projectReference,
    ocr: doc.paymentId,
    target: null,
    rows: doc.lines.map((l) => ({ ...l, account: null })),
    totalPrice: doc.totalPrice,
    totalVat: doc.totalVat,
    fee: null,
    rounding: doc.rounding,
    total: doc.total,
    documentXml: xml,
    fileId: null,
  };
}

/** A UblRefusal as the API's 400: the field `document`, the refusal's key, the rule in `message`. */
function refused(e: UblRefusal): AppError {
  return new AppError('SUPPLIER_INVOICE_INVALID', 400, {
    fields: { document: [`SUPPLIER_INVOICE_${e.code}`] },
    message: `${e.rule}: ${e.message}`,
  });
}

function parseOrRefuse(xml: string): UblInvoice {
  try {
    return parseUblInvoice(xml);
  } catch (e) {
    if (e instanceof UblRefusal) throw refused(e);
    throw e;
  }
}

/**
 * POST /supplierinvoices/peppol: a Peppol BIS 3 invoice uploaded by a person (the document's text).
 * 400 SUPPLIER_INVOICE_INVALID naming the rule it breaks; 409 SUPPLIER_INVOICE_DUPLICATE naming the
 * first. The uploader must be able to see what they add: it needs supplier_invoices:edit.
 */
export async function uploadPeppolInvoice(ctx: Ctx, xml: unknown): Promise<{ id: string }> {
  requireAccess(ctx.auth, SUPPLIER_INVOICE_ACCESS.edit);
  if (typeof xml !== 'string' || !xml.trim())
    throw new AppError('SUPPLIER_INVOICE_INVALID', 400, { fields: { document: ['ERROR_REQUIRED_FIELD'] } });
  return { id: await storeArrival(ctx, arrivalOfUbl(parseOrRefuse(xml), xml)) };
}

// ---- the inbound address ----

const hashSecret = (secret: string) => createHash('sha256').update(secret, 'utf8').digest('hex');

/**
 * POST /supplierinvoices/inbound/secret: a new secret for the tenant's inbound address, shown once
 * (only its hash is kept); the old one stops working.
 */
export async function rotateInboundSecret(ctx: Ctx): Promise<{ secret: string }> {
  requireAccess(ctx.auth, { permission: 'settings:read', module: MODULE });
  requireAccess(ctx.auth, SUPPLIER_INVOICE_ACCESS.edit);
  const secret = `ordo_si_${randomBytes(32).toString('base64url')}`;
  await ctx.trx('supplier_invoice_settings').update({ inbound_secret_hash: hashSecret(secret) });
  await recordHistory(ctx, { entity: 'supplier_invoice_settings', entityId: ctx.tenant.id, action: 'inbound.secret' });
  return { secret };
}

/**
 * Throws 401 INVALID_SESSION unless `secret` is the tenant's inbound secret (compared by hash, in
 * constant time): supplier invoices, and supplier order confirmations (decision 055). The inbound
 * calls ask it before they read the body, and again in their unit of work.
 */
export async function checkInboundSecret(trx: Knex, secret: string | null): Promise<void> {
  const row: Row | undefined = await trx('supplier_invoice_settings').first('inbound_secret_hash');
  const stored = row?.inbound_secret_hash as string | null | undefined;
  const given = Buffer.from(hashSecret(secret ?? ''), 'hex');
  if (!stored || !secret || !timingSafeEqual(Buffer.from(stored, 'hex'), given))
    throw new AppError('INVALID_SESSION', 401);
}

/**
 * POST /supplierinvoices/inbound: an access point (or the tenant's own integration) posts a Peppol
 * BIS 3 document with the tenant's secret as `Authorization: Bearer <secret>`. A missing or wrong
 * secret is 401 INVALID_SESSION, the same as any refused credential; the answer is the invoice's id.
 */
export async function receiveInboundInvoice(ctx: Ctx, secret: string | null, xml: unknown): Promise<{ id: string }> {
  await checkInboundSecret(ctx.trx, secret);
  if (typeof xml !== 'string' || !xml.trim())
    throw new AppError('SUPPLIER_INVOICE_INVALID', 400, { fields: { document: ['ERROR_REQUIRED_FIELD'] } });
  return { id: await storeArrival(ctx, arrivalOfUbl(parseOrRefuse(xml), xml)) };
}

// ---- a PDF typed by a person ----

/**
 * POST /supplierinvoices {…}: a PDF invoice's fields typed by a person; the totals computed. The PDF
 * is `fileId` (a file already stored), or `pdf` (the typing screen's upload, stored before this unit
 * of work: it becomes the invoice's own file), or uploaded afterwards to the invoice's files
 * (`POST /file/generic/supplier_invoice/{id}`); the invoice shows its first.
 */
export async function createManualInvoice(ctx: Ctx, raw: unknown, pdf?: Received): Promise<{ id: string }> {
  requireAccess(ctx.auth, SUPPLIER_INVOICE_ACCESS.edit);
  const input = parseInput(ZManualSupplierInvoice, raw);
  const supplier: Row | undefined = await ctx.trx('suppliers').where({ id: input.supplierId }).first();
  if (!supplier) throw new AppError('VALIDATION_FAILED', 400, { fields: { supplierId: ['ERROR_INVALID_VALUE'] } });
  if (pdf && (pdf.files.length !== 1 || pdf.files[0]!.contentType !== 'application/pdf'))
    throw new AppError('VALIDATION_FAILED', 400, { fields: { pdf: ['SUPPLIER_INVOICE_PDF_ONLY'] } });
  if (input.fileId && !(await ctx.trx('files').where({ id: input.fileId, kind: 'file' }).first('id')))
    throw new AppError('VALIDATION_FAILED', 400, { fields: { fileId: ['ERROR_INVALID_VALUE'] } });
  const target = await checkedTarget(ctx, input.workOrderId, input.projectId);
  const rows = input.rows.map((r) => ({
    description: r.description,
    articleNumber: r.articleNumber,
    amount: r.amount,
    unit: r.unit,
    price: r.price,
    total: formatDecimal(mul(r.amount, r.price)),
    vatPercent: r.vatPercent,
    account: r.account,
  }));
  const fee = input.fee;
  const totalPrice = formatDecimal(sum([...rows.map((r) => r.total), fee ?? '0']));
  // VAT per rate on the rows; an invoice fee carries the standard rate (25 %) as Swedish fees do
  const totalVat = formatDecimal(
    round(sum([...rows.map((r) => mul(r.total, `0.${r.vatPercent.padStart(2, '0')}`)), mul(fee ?? '0', '0.25')]), 2),
  );
  const created = {
    id: await storeArrival(ctx, {
      source: 'pdf',
      supplierId: input.supplierId,
      seller: {
        name: String(supplier.name ?? supplier.title),
        organizationNumber: (supplier.organization_number as string) ?? null,
        peppolId: (supplier.peppol_id as string) ?? null,
        vatNumber: null,
      },
      invoiceNumber: input.invoiceNumber,
      invoiceType: 'invoice',
      invoiceDate: input.invoiceDate as string,
      dueDate: input.dueDate,
      currency: input.currency,
      orderReference: input.orderReference,
      buyerReference: null,
      projectReference: null,
      ocr: input.ocr,
      target,
      rows,
      totalPrice,
      totalVat,
      fee,
      rounding: input.rounding,
      total: formatDecimal(add(add(totalPrice, totalVat), input.rounding)),
      documentXml: null,
      fileId: input.fileId,
    }),
  };
  if (pdf) {
    const { files } = await attachReceived(ctx, SUPPLIER_INVOICE_FILES, created.id, pdf);
    await ctx.trx('supplier_invoices').where({ id: created.id }).update({ file_id: files[0]!.id });
  }
  return created;
}

/** A work order and/or project chosen by a person: each must exist; an order's project comes along. */
async function checkedTarget(ctx: Ctx, workOrderId: string | null, projectId: string | null): Promise<Target> {
  let project = projectId;
  if (workOrderId) {
    const wo: Row | undefined = await ctx
      .trx('work_orders')
      .where({ id: workOrderId })
      .whereNull('deleted_at')
      .first('project_id');
    if (!wo) throw new AppError('VALIDATION_FAILED', 400, { fields: { workOrderId: ['ERROR_INVALID_VALUE'] } });
    project = (wo.project_id as string) ?? projectId;
  }
  if (project && !(await ctx.trx('projects').where({ id: project }).first('id')))
    throw new AppError('VALIDATION_FAILED', 400, { fields: { projectId: ['ERROR_INVALID_VALUE'] } });
  return { workOrderId, projectId: project };
}

// ---- reading ----

export interface SupplierInvoiceListItem {
  id: string;
  source: string;
  status: SupplierInvoiceStatus;
  invoiceNumber: string;
  invoiceType: 'invoice' | 'credit';
  invoiceDate: string;
  dueDate: string | null;
  currency: string;
  supplierId: string | null;
  supplierName: string | null;
  orderNumber: string | null;
  workOrderId: string | null;
  workOrderNumber: string | null;
  projectId: string | null;
  projectNumber: number | null;
  projectTitle: string | null;
  responsibleUserId: string | null;
  responsibleUserName: string | null;
  totalCost: string;
  total: string;
  contentApproved: boolean;
  paymentApproved: boolean;
  matched: boolean;
  createdAt: string;
}

function listColumns(ctx: Ctx) {
  return [
    'si.id',
    'si.source',
    'si.status',
    'si.invoice_number',
    'si.invoice_type',
    ctx.trx.raw(`to_char(si.invoice_date, 'YYYY-MM-DD') as invoice_date`),
    ctx.trx.raw(`to_char(si.due_date, 'YYYY-MM-DD') as due_date`),
    'si.currency',
    'si.supplier_id',
    ctx.trx.raw('coalesce(s.title, si.seller_name) as supplier_name'),
    'si.order_reference',
    'si.work_order_id',
    'w.number as work_order_number',
    'si.project_id',
    'p.number as project_number',
    'p.title as project_title',
    'si.responsible_user_id',
    'u.name as responsible_user_name',
    ctx.trx.raw('si.total_price::text as total_price'),
    ctx.trx.raw('si.total::text as total'),
    'si.content_approved_at',
    'si.payment_approved_at',
    'si.created_at',
  ];
}

function toListItem(r: Row): SupplierInvoiceListItem {
  return {
    id: r.id as string,
    source: r.source as string,
    status: r.status as SupplierInvoiceStatus,
    invoiceNumber: r.invoice_number as string,
    invoiceType: r.invoice_type as 'invoice' | 'credit',
    invoiceDate: day(r.invoice_date)!,
    dueDate: day(r.due_date),
    currency: r.currency as string,
    supplierId: (r.supplier_id as string) ?? null,
    supplierName: (r.supplier_name as string) ?? null,
    orderNumber: (r.order_reference as string) ?? null,
    workOrderId: (r.work_order_id as string) ?? null,
    workOrderNumber: (r.work_order_number as string) ?? null,
    projectId: (r.project_id as string) ?? null,
    projectNumber: r.project_number === null || r.project_number === undefined ? null : Number(r.project_number),
    projectTitle: (r.project_title as string) ?? null,
    responsibleUserId: (r.responsible_user_id as string) ?? null,
    responsibleUserName: (r.responsible_user_name as string) ?? null,
    totalCost: money(r.total_price),
    total: money(r.total),
    contentApproved: Boolean(r.content_approved_at),
    paymentApproved: Boolean(r.payment_approved_at),
    matched: Boolean(r.supplier_id) && Boolean(r.work_order_id || r.project_id),
    createdAt: iso(r.created_at)!,
  };
}

function baseQuery(ctx: Ctx) {
  return ctx
    .trx('supplier_invoices as si')
    .leftJoin('suppliers as s', 's.id', 'si.supplier_id')
    .leftJoin('work_orders as w', 'w.id', 'si.work_order_id')
    .leftJoin('projects as p', 'p.id', 'si.project_id')
    .leftJoin('users as u', 'u.id', 'si.responsible_user_id');
}

/**
 * GET /supplierinvoices?status&projectId: one page of the tab, newest first, with the counts the
 * tabs and the badge show: pendingCount (waiting for an approval) and paymentPendingCount (content
 * approved, payment not yet) — both of what the asker may see. Three statements.
 */
export async function listSupplierInvoices(
  ctx: Ctx,
  raw: unknown,
): Promise<{
  invoices: SupplierInvoiceListItem[];
  totalCount: number;
  pendingCount: number;
  paymentPendingCount: number;
}> {
  requireAccess(ctx.auth, SUPPLIER_INVOICE_ACCESS.read);
  const f = parseInput(ZSupplierInvoiceFilter, raw);
  const filtered = () => {
    const q = visible(ctx, ctx.trx('supplier_invoices as si'));
    if (f.status !== 'all') q.where('si.status', f.status);
    if (f.projectId) q.where('si.project_id', f.projectId);
    if (f.workOrderId) q.where('si.work_order_id', f.workOrderId);
    return q;
  };
  const page = visible(ctx, baseQuery(ctx));
  if (f.status !== 'all') page.where('si.status', f.status);
  if (f.projectId) page.where('si.project_id', f.projectId);
  if (f.workOrderId) page.where('si.work_order_id', f.workOrderId);
  const rows: Row[] = await page
    .orderBy([
      { column: 'si.created_at', order: 'desc' },
      { column: 'si.id', order: 'desc' },
    ])
    .offset(f.offset)
    .limit(f.limit)
    .select(listColumns(ctx));
  const [{ n }] = (await filtered().count({ n: '*' })) as { n: string }[];
  const counts = visible(ctx, ctx.trx('supplier_invoices as si')).where('si.status', 'pending');
  if (f.projectId) counts.where('si.project_id', f.projectId);
  const [c] = (await counts.select(
    ctx.trx.raw('count(*)::int as pending'),
    ctx.trx.raw('(count(*) filter (where si.content_approved_at is not null))::int as payment_pending'),
  )) as Row[];
  return {
    invoices: rows.map(toListItem),
    totalCount: Number(n),
    pendingCount: Number(c?.pending ?? 0),
    paymentPendingCount: Number(c?.payment_pending ?? 0),
  };
}

/**
 * The top bar's red badge (spec section 2): pending invoices waiting for something the asker can
 * do — content they are responsible for, or (with supplier_invoices:edit) payment — shown as "99+"
 * above 99. Null when the asker has no supplier-invoice access (no badge at all). One statement.
 */
export async function supplierInvoiceBadge(ctx: Ctx): Promise<{ count: number; label: string } | null> {
  const auth = ctx.auth;
  if (!auth || !auth.perms.has('supplier_invoices:read')) return null;
  if (auth.user.userType !== 'super' && !auth.modules.has(MODULE)) return null;
  const q = ctx.trx('supplier_invoices as si').where('si.status', 'pending');
  q.where((w) => {
    w.where((c) => c.whereNull('si.content_approved_at').where('si.responsible_user_id', auth.user.id));
    if (canEdit(ctx)) {
      w.orWhere((c) => c.whereNotNull('si.content_approved_at'));
      w.orWhere((c) => c.whereNull('si.content_approved_at').whereNull('si.responsible_user_id'));
    }
  });
  if (!canReadAll(ctx)) q.where('si.responsible_user_id', auth.user.id);
  const [{ n }] = (await q.count({ n: '*' })) as { n: string }[];
  const count = Number(n);
  return { count, label: count > BADGE_MAX ? `${BADGE_MAX}+` : String(count) };
}

async function findVisible(ctx: Ctx, id: unknown, lock = false): Promise<Row> {
  if (!isUuid(id)) throw notFound();
  const q = visible(ctx, ctx.trx('supplier_invoices as si')).where('si.id', id);
  if (lock) q.forUpdate();
  const row: Row | undefined = await q.first('si.*');
  if (!row) throw notFound();
  return row;
}

export interface SupplierInvoiceDetail extends SupplierInvoiceListItem {
  buyerReference: string | null;
  ocr: string | null;
  seller: Seller;
  supplierNumber: string | null;
  supplierAccount: string | null;
  /** Fetched from the ERP: its id there (Fortnox: GivenNumber). */
  erpExternalId: string | null;
  totalVat: string;
  fee: string | null;
  rounding: string;
  hasDocument: boolean;
  fileId: string | null;
  contentApprovedAt: string | null;
  contentApprovedBy: string | null;
  paymentApprovedAt: string | null;
  paymentApprovedBy: string | null;
  declinedAt: string | null;
  rows: {
    id: string;
    description: string;
    articleNumber: string | null;
    amount: string;
    unit: string | null;
    price: string;
    total: string;
    vatPercent: string;
    account: string | null;
    rebilled: boolean;
  }[];
  comments: {
    id: string;
    kind: 'comment' | 'decline';
    text: string;
    userId: string | null;
    userName: string | null;
    createdAt: string;
  }[];
  delivery: {
    status: string;
    attempts: number;
    errorCode: string | null;
    externalId: string | null;
    externalNr: string | null;
  } | null;
}

/**
 * GET /supplierinvoices/{id}: the invoice with rows, comments and delivery; what the asker may do;
 * whether the tenant's ERP books supplier invoices (when it cannot, payment approval sends nothing
 * and the screen says so); and for an unmatched invoice, suggestions.
 */
export async function getSupplierInvoice(
  ctx: Ctx,
  id: unknown,
): Promise<{
  supplierInvoice: SupplierInvoiceDetail;
  can: { approveContent: boolean; approvePayment: boolean; decline: boolean; edit: boolean; delete: boolean };
  erp: { kind: string; displayName: string; canBook: boolean };
  suggestions: MatchSuggestions | null;
}> {
  requireAccess(ctx.auth, SUPPLIER_INVOICE_ACCESS.read);
  const si = await findVisible(ctx, id);
  const r: Row = (await baseQuery(ctx)
    .where('si.id', si.id as string)
    .first(
      ...listColumns(ctx),
      'si.buyer_reference',
      'si.ocr',
      'si.seller_name',
      'si.seller_org_number',
      'si.seller_peppol_id',
      'si.seller_vat_number',
      's.number as supplier_number',
      's.erp_account as supplier_account',
      'si.erp_external_id',
      ctx.trx.raw('si.total_vat::text as total_vat'),
      ctx.trx.raw('si.fee::text as fee'),
      ctx.trx.raw('si.rounding::text as rounding'),
      ctx.trx.raw('(si.document_xml is not null) as has_document'),
      ctx.trx.raw(
        `coalesce(si.file_id, (select f.id from files f where f.owner_type = 'supplier_invoice' and f.owner_id = si.id
           and f.kind = 'file' order by f.sort_order, f.created_at limit 1)) as file_id`,
      ),
      'si.content_approved_by',
      'si.payment_approved_by',
      'si.declined_at',
    )) as Row;
  const rows: Row[] = await ctx
    .trx('supplier_invoice_rows')
    .where({ supplier_invoice_id: si.id })
    .orderBy(['sort_order', 'id'])
    .select(
      'id',
      'description',
      'article_number',
      ctx.trx.raw('amount::text as amount'),
      'unit',
      ctx.trx.raw('price::text as price'),
      ctx.trx.raw('total::text as total'),
      ctx.trx.raw('vat_percent::text as vat_percent'),
      'account',
      'work_order_article_id',
    );
  const comments: Row[] = await ctx
    .trx('supplier_invoice_comments as c')
    .leftJoin('users as u', 'u.id', 'c.user_id')
    .where('c.supplier_invoice_id', si.id as string)
    .orderBy(['c.created_at', 'c.id'])
    .select('c.id', 'c.kind', 'c.text', 'c.user_id', 'u.name as user_name', 'c.created_at');
  const delivery: Row | undefined = await ctx
    .trx('supplier_invoice_deliveries')
    .where({ supplier_invoice_id: si.id })
    .first();
  const erp = await tenantErp(ctx);
  const seller: Seller = {
    name: (r.seller_name as string) ?? null,
    organizationNumber: (r.seller_org_number as string) ?? null,
    peppolId: (r.seller_peppol_id as string) ?? null,
    vatNumber: (r.seller_vat_number as string) ?? null,
  };
  const item = toListItem(r);
  const state = approvalState(si);
  const actor = actorOf(ctx, si);
  const pending = si.status === 'pending';
  return {
    supplierInvoice: {
      ...item,
      buyerReference: (r.buyer_reference as string) ?? null,
      ocr: (r.ocr as string) ?? null,
      seller,
      supplierNumber: (r.supplier_number as string) ?? null,
      supplierAccount: (r.supplier_account as string) ?? null,
      erpExternalId: (r.erp_external_id as string) ?? null,
      totalVat: money(r.total_vat),
      fee: moneyOrNull(r.fee),
      rounding: money(r.rounding),
      hasDocument: Boolean(r.has_document),
      fileId: (r.file_id as string) ?? null,
      contentApprovedAt: iso(r.content_approved_at),
      contentApprovedBy: (r.content_approved_by as string) ?? null,
      paymentApprovedAt: iso(r.payment_approved_at),
      paymentApprovedBy: (r.payment_approved_by as string) ?? null,
      declinedAt: iso(r.declined_at),
      rows: rows.map((x) => ({
        id: x.id as string,
        description: x.description as string,
        articleNumber: (x.article_number as string) ?? null,
        amount: String(x.amount).replace(/\.?0+$/, '') || '0',
        unit: (x.unit as string) ?? null,
        price: priceText(String(x.price)),
        total: money(x.total),
        vatPercent: String(Number(x.vat_percent)),
        account: (x.account as string) ?? null,
        rebilled: Boolean(x.work_order_article_id),
      })),
      comments: comments.map((c) => ({
        id: c.id as string,
        kind: c.kind as 'comment' | 'decline',
        text: c.text as string,
        userId: (c.user_id as string) ?? null,
        userName: (c.user_name as string) ?? null,
        createdAt: iso(c.created_at)!,
      })),
      delivery: delivery
        ? {
            status: delivery.status as string,
            attempts: Number(delivery.attempts),
            errorCode: (delivery.error_code as string) ?? null,
            externalId: (delivery.external_id as string) ?? null,
            externalNr: (delivery.external_nr as string) ?? null,
          }
        : null,
    },
    can: {
      approveContent: decide(state, 'approveContent', actor).ok,
      approvePayment: decide(state, 'approvePayment', actor).ok,
      decline: pending,
      edit: pending && !si.content_approved_at && canEdit(ctx),
      delete: pending && !si.content_approved_at && canEdit(ctx),
    },
    erp: { kind: erp.id, displayName: erp.displayName, canBook: erpTakes(erp, si) },
    suggestions:
      pending && !item.matched
        ? await suggestMatches(ctx.trx, {
            seller,
            references: [item.orderNumber, (r.buyer_reference as string) ?? null],
            needSupplier: !si.supplier_id,
            needTarget: !si.work_order_id && !si.project_id,
          })
        : null,
  };
}

/** Whether the tenant's ERP books supplier invoices (its plugin says so and it is connected). */
function erpBooks(erp: Awaited<ReturnType<typeof tenantErp>>): boolean {
  return (
    erp.provider.capabilities.supplierInvoices &&
    typeof erp.provider.sendSupplierInvoice === 'function' &&
    isErpConnected(erp.connection, erp.provider)
  );
}

/**
 * Whether payment approval reaches the ERP for this invoice: one fetched from the ERP is approved
 * there (by the same ERP, connected); any other is booked there (erpBooks).
 */
function erpTakes(erp: Awaited<ReturnType<typeof tenantErp>>, si: Row): boolean {
  if (si.source !== 'erp') return erpBooks(erp);
  return (
    erp.id === si.erp_kind &&
    typeof erp.provider.approveSupplierInvoicePayment === 'function' &&
    isErpConnected(erp.connection, erp.provider)
  );
}

// ---- approvals ----

function approvalState(si: Row) {
  return {
    status: si.status as SupplierInvoiceStatus,
    contentApproved: Boolean(si.content_approved_at),
    supplierMatched: Boolean(si.supplier_id),
    hasResponsible: Boolean(si.responsible_user_id),
  };
}

function actorOf(ctx: Ctx, si: Row) {
  return { isResponsible: si.responsible_user_id === ctx.auth?.user.id, canEdit: canEdit(ctx) };
}

async function applyDecision(ctx: Ctx, si: Row, action: ApprovalAction) {
  const decision = decide(approvalState(si), action, actorOf(ctx, si));
  if (!decision.ok) throw new AppError(decision.code, decision.status);
  return decision.next;
}

/** POST /supplierinvoices/{id}/content/approve: the responsible person says it is right. */
export async function approveContent(ctx: Ctx, id: unknown): Promise<{ ok: true }> {
  requireAccess(ctx.auth, SUPPLIER_INVOICE_ACCESS.read);
  const si = await findVisible(ctx, id, true);
  await applyDecision(ctx, si, 'approveContent');
  await ctx
    .trx('supplier_invoices')
    .where({ id: si.id })
    .update({ content_approved_at: ctx.now, content_approved_by: ctx.auth!.user.id, updated_at: ctx.now });
  await recordHistory(ctx, { entity: SUPPLIER_INVOICE_ENTITY, entityId: si.id as string, action: 'content.approve' });
  return { ok: true };
}

/**
 * POST /supplierinvoices/{id}/payment/approve (supplier_invoices:edit): the invoice is approved; its
 * rows become costs of the order or project (and, by the tenant's rule, billable rows of the order);
 * where the ERP books supplier invoices, its delivery is queued in this transaction (exactly once:
 * supplier-invoice-delivery.ts); for an invoice fetched from the ERP, the same delivery approves its
 * payment there instead of booking it again. A supplier without an account for a row is 409
 * ERP_SUPPLIER_ACCOUNT_MISSING before anything changes.
 */
export async function approvePayment(ctx: Ctx, id: unknown): Promise<{ ok: true; erpQueued: boolean }> {
  requireAccess(ctx.auth, SUPPLIER_INVOICE_ACCESS.edit);
  const si = await findVisible(ctx, id, true);
  await applyDecision(ctx, si, 'approvePayment');
  const erp = await tenantErp(ctx);
  const books = erpTakes(erp, si);
  // an invoice fetched from the ERP is booked there already, on the accounts chosen there
  if (books && si.source !== 'erp') {
    const supplier: Row | undefined = await ctx.trx('suppliers').where({ id: si.supplier_id }).first('erp_account');
    const withoutAccount = await ctx
      .trx('supplier_invoice_rows')
      .where({ supplier_invoice_id: si.id })
      .whereNull('account')
      .first('id');
    if (withoutAccount && !supplier?.erp_account) throw new AppError('ERP_SUPPLIER_ACCOUNT_MISSING', 409);
  }
  await ctx.trx('supplier_invoices').where({ id: si.id }).update({
    status: 'approved',
    payment_approved_at: ctx.now,
    payment_approved_by: ctx.auth!.user.id,
    updated_at: ctx.now,
  });
  const rebilled = await rebillApprovedRows(ctx, si.id as string);
  if (books) await queueSupplierInvoiceDelivery(ctx, si.id as string, erp.id);
  await recordHistory(ctx, {
    entity: SUPPLIER_INVOICE_ENTITY,
    entityId: si.id as string,
    action: 'payment.approve',
    data: { erp: books ? erp.id : null, rebilledRows: rebilled },
  });
  return { ok: true, erpQueued: books };
}

/** POST /supplierinvoices/{id}/decline {comment}: anyone who sees a pending invoice; the comment is kept. */
export async function declineSupplierInvoice(ctx: Ctx, raw: unknown): Promise<{ ok: true }> {
  requireAccess(ctx.auth, SUPPLIER_INVOICE_ACCESS.read);
  const input = parseInput(ZSupplierInvoiceDecline, raw);
  const si = await findVisible(ctx, input.id, true);
  await applyDecision(ctx, si, 'decline');
  await ctx
    .trx('supplier_invoices')
    .where({ id: si.id })
    .update({ status: 'declined', declined_at: ctx.now, declined_by: ctx.auth!.user.id, updated_at: ctx.now });
  await ctx.trx('supplier_invoice_comments').insert({
    supplier_invoice_id: si.id,
    kind: 'decline',
    text: input.comment,
    user_id: ctx.auth!.user.id,
    created_at: ctx.now,
  });
  await recordHistory(ctx, { entity: SUPPLIER_INVOICE_ENTITY, entityId: si.id as string, action: 'decline' });
  return { ok: true };
}

/** GET /supplierinvoices/{id}/comments */
export async function listSupplierInvoiceComments(ctx: Ctx, id: unknown) {
  const { supplierInvoice } = await getSupplierInvoice(ctx, id);
  return { comments: supplierInvoice.comments };
}

/** POST /supplierinvoices/{id}/comments {text}: anyone who sees the invoice, in any state. */
export async function addSupplierInvoiceComment(ctx: Ctx, raw: unknown) {
  requireAccess(ctx.auth, SUPPLIER_INVOICE_ACCESS.read);
  const input = parseInput(ZSupplierInvoiceComment, raw);
  const si = await findVisible(ctx, input.id);
  const [c] = (await ctx
    .trx('supplier_invoice_comments')
    .insert({
      supplier_invoice_id: si.id,
      kind: 'comment',
      text: input.text,
      user_id: ctx.auth!.user.id,
      created_at: ctx.now,
    })
    .returning('id')) as Row[];
  await recordHistory(ctx, {
    entity: SUPPLIER_INVOICE_ENTITY,
    entityId: si.id as string,
    action: 'comment',
    data: { commentId: c!.id },
  });
  return { comments: (await getSupplierInvoice(ctx, si.id)).supplierInvoice.comments };
}

/**
 * PATCH /supplierinvoices {id, supplierId?, workOrderId?, projectId?, responsibleUserId?}
 * (supplier_invoices:edit): matching by hand while the content is not yet approved. A new order or
 * project brings its responsible person unless one is given.
 */
export async function patchSupplierInvoice(ctx: Ctx, raw: unknown): Promise<{ ok: true }> {
  requireAccess(ctx.auth, SUPPLIER_INVOICE_ACCESS.edit);
  const input = parseInput(ZSupplierInvoicePatch, raw);
  const si = await findVisible(ctx, input.id, true);
  if (si.status !== 'pending') throw new AppError('SUPPLIER_INVOICE_NOT_PENDING', 409);
  if (si.content_approved_at) throw new AppError('SUPPLIER_INVOICE_CONTENT_ALREADY_APPROVED', 409);
  const changes: Row = {};
  if (input.supplierId !== undefined) {
    if (input.supplierId && !(await ctx.trx('suppliers').where({ id: input.supplierId }).first('id')))
      throw new AppError('VALIDATION_FAILED', 400, { fields: { supplierId: ['ERROR_INVALID_VALUE'] } });
    changes.supplier_id = input.supplierId;
    changes.supplier_key = supplierKey(input.supplierId, {
      name: (si.seller_name as string) ?? null,
      organizationNumber: (si.seller_org_number as string) ?? null,
      peppolId: (si.seller_peppol_id as string) ?? null,
      vatNumber: null,
    });
    if (input.supplierId) {
      const other: Row | undefined = await ctx
        .trx('supplier_invoices')
        .where({ supplier_id: input.supplierId })
        .whereRaw('lower(invoice_number) = lower(?)', [si.invoice_number as string])
        .whereNot('id', si.id as string)
        .first('id', 'invoice_number', 'invoice_date');
      if (other) throw duplicateOf(other);
    }
  }
  if (input.workOrderId !== undefined || input.projectId !== undefined) {
    const target = await checkedTarget(
      ctx,
      input.workOrderId === undefined ? ((si.work_order_id as string) ?? null) : input.workOrderId,
      input.projectId === undefined ? ((si.project_id as string) ?? null) : input.projectId,
    );
    changes.work_order_id = target.workOrderId;
    changes.project_id = target.projectId;
    if (input.responsibleUserId === undefined) changes.responsible_user_id = await responsibleFor(ctx.trx, target);
  }
  if (input.responsibleUserId !== undefined) {
    if (
      input.responsibleUserId &&
      !(await ctx.trx('users').where({ id: input.responsibleUserId, status: 'active' }).first('id'))
    )
      throw new AppError('VALIDATION_FAILED', 400, { fields: { responsibleUserId: ['ERROR_INVALID_VALUE'] } });
    changes.responsible_user_id = input.responsibleUserId;
  }
  if (!Object.keys(changes).length) return { ok: true };
  try {
    await ctx
      .trx('supplier_invoices')
      .where({ id: si.id })
      .update({ ...changes, updated_at: ctx.now });
  } catch (e) {
    if (uniqueViolation(e) === 'supplier_invoices_number_idx')
      throw new AppError('SUPPLIER_INVOICE_DUPLICATE', 409, { message: String(si.invoice_number) });
    throw e;
  }
  await recordHistory(ctx, {
    entity: SUPPLIER_INVOICE_ENTITY,
    entityId: si.id as string,
    action: 'edit',
    data: Object.fromEntries(Object.entries(changes).filter(([k]) => k !== 'supplier_key')),
  });
  return { ok: true };
}

/** DELETE /supplierinvoices/{id} (supplier_invoices:edit): only before its content was approved. */
export async function deleteSupplierInvoice(ctx: Ctx, id: unknown): Promise<{ ok: true }> {
  requireAccess(ctx.auth, SUPPLIER_INVOICE_ACCESS.edit);
  const si = await findVisible(ctx, id, true);
  if (si.status === 'approved' || si.content_approved_at) throw new AppError('SUPPLIER_INVOICE_NOT_PENDING', 409);
  await ctx.trx('supplier_invoices').where({ id: si.id }).delete();
  // its own PDF goes with it (a file of the drive it pointed to stays where it is)
  await deleteFilesOf(ctx, SUPPLIER_INVOICE_FILES, [si.id as string]);
  await recordHistory(ctx, {
    entity: SUPPLIER_INVOICE_ENTITY,
    entityId: si.id as string,
    action: 'delete',
    data: { invoiceNumber: si.invoice_number },
  });
  return { ok: true };
}

/** The stored e-invoice document itself (GET /supplierinvoices/{id}/document). */
export async function supplierInvoiceDocument(ctx: Ctx, id: unknown): Promise<string> {
  requireAccess(ctx.auth, SUPPLIER_INVOICE_ACCESS.read);
  const si = await findVisible(ctx, id);
  if (!si.document_xml) throw notFound();
  return si.document_xml as string;
}

// ---- settings ----

export async function supplierInvoiceSettings(ctx: Ctx) {
  requireAccess(ctx.auth, SUPPLIER_INVOICE_ACCESS.read);
  const row: Row = (await ctx.trx('supplier_invoice_settings').first()) ?? {};
  return {
    rebill: Boolean(row.rebill),
    rebillMarkup: money(row.rebill_markup),
    inboundConfigured: Boolean(row.inbound_secret_hash),
  };
}

/** PUT /supplierinvoices/settings {rebill, rebillMarkup} (settings:read and supplier_invoices:edit). */
export async function saveSupplierInvoiceSettings(ctx: Ctx, raw: unknown) {
  requireAccess(ctx.auth, { permission: 'settings:read', module: MODULE });
  requireAccess(ctx.auth, SUPPLIER_INVOICE_ACCESS.edit);
  const input = parseInput(ZSupplierInvoiceSettings, raw);
  await ctx.trx('supplier_invoice_settings').update({ rebill: input.rebill, rebill_markup: input.rebillMarkup });
  await recordHistory(ctx, {
    entity: 'supplier_invoice_settings',
    entityId: ctx.tenant.id,
    action: 'edit',
    data: input,
  });
  return supplierInvoiceSettings(ctx);
}
