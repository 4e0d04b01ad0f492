import { z } from 'zod';
import type { Ctx, ZoneAuth } from '~/core/context';
import type { AfterCommitWork } from '~/core/db/with-tenant';
import type { DocumentFile } from '~/core/documents/file';
import { AppError, invalidSession, notFound } from '~/core/errors/app-error';
import { isUuid, parseInput } from '~/core/errors/validation';
import type { FileDownload } from '~/core/files/files.service';
import { isInlineType } from '~/core/files/inspect';
import { invoicePdfOf } from '~/core/invoicing/invoice-documents.service';
import type { AgreementInterval } from '~/core/agreements/agreement-constants';
import { periodAt } from '~/core/agreements/periods';

/**
 * What a customer sees in its zone (issue 35 item 2, decision 061). Every query names the zone
 * session's customer in its own WHERE clause, so another customer's id — of this tenant or any
 * other — is simply not found (404), never refused: nothing here reads a row first and checks after.
 */

/** A page of a zone list: 25 rows, and whether there is another page. */
export const ZONE_PAGE_SIZE = 25;
export const ZZonePage = z.object({
  page: z.coerce.number({ error: 'ERROR_INVALID_VALUE' }).int('ERROR_INVALID_VALUE').min(1).max(10_000).default(1),
});
export const ZZoneWorkOrders = ZZonePage.extend({
  status: z.enum(['open', 'closed'], { error: 'ERROR_INVALID_VALUE' }).default('open'),
});

export interface ZonePage<T> {
  items: T[];
  page: number;
  hasMore: boolean;
}

type Row = Record<string, unknown>;

/** The zone session a zone call runs for; 401 without one (a staff session never is one). */
export function requireZone(ctx: Ctx): ZoneAuth {
  if (!ctx.zone) throw invalidSession();
  return ctx.zone;
}

const iso = (v: unknown) => (v == null ? null : v instanceof Date ? v.toISOString() : String(v));

function paged<T>(rows: T[], page: number): ZonePage<T> {
  return { items: rows.slice(0, ZONE_PAGE_SIZE), page, hasMore: rows.length > ZONE_PAGE_SIZE };
}

/** The next visit an agreement plans: the start of the next work-order period, when it makes them. */
function nextVisit(r: Row): string | null {
  if (!r.wo_interval || !r.wo_scheduled_to) return null;
  return periodAt(r.wo_interval as AgreementInterval, Number(r.wo_day), String(r.wo_scheduled_to)).from;
}

export interface ZoneObject {
  id: string;
  serialCode: string;
  model: string | null;
  location: string | null;
  description: string | null;
  agreement: string | null;
  nextVisit: string | null;
  openDeviations: number;
}

/** Open deviations raised on one of the customer's objects (read-only use of issue 34's tables). */
const openDeviationsOf = (alias: string) =>
  `(select count(*) from deviation_relations dr join deviations d on d.id = dr.deviation_id
     where dr.kind = 'object' and dr.target_id = ${alias}.id and d.status = 'open')::int`;

function zoneObjectOut(r: Row): ZoneObject {
  return {
    id: r.id as string,
    serialCode: r.serial_code as string,
    model: (r.model as string | null) ?? null,
    location: (r.location as string | null) ?? null,
    description: (r.description as string | null) ?? null,
    agreement: (r.agreement as string | null) ?? null,
    nextVisit: nextVisit(r),
    openDeviations: Number(r.open_deviations ?? 0),
  };
}

function objectsQuery(ctx: Ctx, customerId: string) {
  return ctx
    .trx('business_objects as b')
    .leftJoin('models as m', 'm.id', 'b.model_id')
    .leftJoin('object_agreements as oa', 'oa.business_object_id', 'b.id')
    .leftJoin('agreements as a', 'a.id', 'oa.agreement_id')
    .where('b.customer_id', customerId)
    .select(
      'b.id',
      'b.serial_code',
      'b.location',
      'b.description',
      'm.name as model',
      'a.title as agreement',
      'a.wo_interval',
      'a.wo_day',
      ctx.trx.raw(`to_char(oa.wo_scheduled_to, 'YYYY-MM-DD') as wo_scheduled_to`),
      ctx.trx.raw(`${openDeviationsOf('b')} as open_deviations`),
    );
}

/** `GET /zone/objects`: the customer's installations, by serial code, with agreement and next visit. */
export async function listZoneObjects(ctx: Ctx, raw: unknown): Promise<ZonePage<ZoneObject>> {
  const zone = requireZone(ctx);
  const { page } = parseInput(ZZonePage, raw);
  const rows = (await objectsQuery(ctx, zone.customerId)
    .orderByRaw('lower(b.serial_code), b.id')
    .limit(ZONE_PAGE_SIZE + 1)
    .offset((page - 1) * ZONE_PAGE_SIZE)) as Row[];
  return paged(rows.map(zoneObjectOut), page);
}

export interface ZoneWorkOrder {
  id: string;
  number: string;
  title: string;
  status: string;
  closed: boolean;
  plannedStart: string | null;
  closedAt: string | null;
  objectId: string | null;
  objectSerialCode: string | null;
}

function workOrdersQuery(ctx: Ctx, customerId: string) {
  return ctx
    .trx('work_orders as w')
    .join('work_order_statuses as s', 's.id', 'w.status_id')
    .leftJoin('business_objects as b', 'b.id', 'w.business_object_id')
    .where('w.customer_id', customerId)
    .whereNull('w.deleted_at')
    .select(
      'w.id',
      'w.number',
      'w.title',
      's.name as status',
      'w.planned_start',
      'w.closed_at',
      'b.id as object_id',
      'b.serial_code as object_serial_code',
    );
}

function workOrderOut(r: Row): ZoneWorkOrder {
  return {
    id: r.id as string,
    number: r.number as string,
    title: r.title as string,
    status: r.status as string,
    closed: r.closed_at != null,
    plannedStart: iso(r.planned_start),
    closedAt: iso(r.closed_at),
    objectId: (r.object_id as string | null) ?? null,
    objectSerialCode: (r.object_serial_code as string | null) ?? null,
  };
}

/** `GET /zone/workorders?status=open|closed`: the customer's work orders, the latest planned first. */
export async function listZoneWorkOrders(ctx: Ctx, raw: unknown): Promise<ZonePage<ZoneWorkOrder>> {
  const zone = requireZone(ctx);
  const { page, status } = parseInput(ZZoneWorkOrders, raw);
  const q = workOrdersQuery(ctx, zone.customerId);
  if (status === 'open') q.whereNull('w.closed_at');
  else q.whereNotNull('w.closed_at');
  const rows = (await q
    .orderByRaw('w.planned_start desc nulls last, w.id')
    .limit(ZONE_PAGE_SIZE + 1)
    .offset((page - 1) * ZONE_PAGE_SIZE)) as Row[];
  return paged(rows.map(workOrderOut), page);
}

export interface ZoneDeviation {
  id: string;
  number: number;
  title: string;
  occurredOn: string;
  dueDate: string | null;
  objectId: string;
  objectSerialCode: string;
}

/** Open deviations on the customer's objects; `objectId` narrows to one object. */
async function openDeviations(ctx: Ctx, customerId: string, objectId?: string): Promise<ZoneDeviation[]> {
  const q = ctx
    .trx('deviation_relations as dr')
    .join('deviations as d', 'd.id', 'dr.deviation_id')
    .join('business_objects as b', 'b.id', 'dr.target_id')
    .where({ 'dr.kind': 'object', 'd.status': 'open', 'b.customer_id': customerId })
    .select(
      'd.id',
      'd.number',
      'd.title',
      ctx.trx.raw(`to_char(d.occurred_on, 'YYYY-MM-DD') as occurred_on`),
      ctx.trx.raw(`to_char(d.due_date, 'YYYY-MM-DD') as due_date`),
      'b.id as object_id',
      'b.serial_code as object_serial_code',
    )
    .orderBy([
      { column: 'd.occurred_on', order: 'desc' },
      { column: 'd.id', order: 'asc' },
    ])
    .limit(200);
  if (objectId) q.where('b.id', objectId);
  const rows = (await q) as Row[];
  return rows.map((r) => ({
    id: r.id as string,
    number: Number(r.number),
    title: r.title as string,
    occurredOn: r.occurred_on as string,
    dueDate: (r.due_date as string | null) ?? null,
    objectId: r.object_id as string,
    objectSerialCode: r.object_serial_code as string,
  }));
}

/** `GET /zone/deviations`: the open deviations on the customer's installations (at most 200, newest first). */
export async function listZoneDeviations(ctx: Ctx): Promise<{ deviations: ZoneDeviation[] }> {
  const zone = requireZone(ctx);
  return { deviations: await openDeviations(ctx, zone.customerId) };
}

/**
 * `GET /zone/objects/{id}`: one installation with its agreement's next visit, its open deviations
 * and a page of its service history (the customer's work orders on it, newest first).
 */
export async function getZoneObject(
  ctx: Ctx,
  objectId: unknown,
  raw: unknown = {},
): Promise<{ object: ZoneObject; deviations: ZoneDeviation[]; history: ZonePage<ZoneWorkOrder> }> {
  const zone = requireZone(ctx);
  if (!isUuid(objectId)) throw notFound();
  const { page } = parseInput(ZZonePage, raw);
  const row = (await objectsQuery(ctx, zone.customerId).where('b.id', objectId).first()) as Row | undefined;
  if (!row) throw notFound();
  const history = (await workOrdersQuery(ctx, zone.customerId)
    .where('w.business_object_id', objectId)
    .orderByRaw('w.intake_ts desc, w.id')
    .limit(ZONE_PAGE_SIZE + 1)
    .offset((page - 1) * ZONE_PAGE_SIZE)) as Row[];
  return {
    object: zoneObjectOut(row),
    deviations: await openDeviations(ctx, zone.customerId, objectId),
    history: paged(history.map(workOrderOut), page),
  };
}

export interface ZoneFile {
  id: string;
  name: string;
  kind: 'file' | 'link';
  link: string | null;
  contentType: string | null;
  size: number;
  publishedAt: string;
  /** The record it belongs to: `wo` (a work order, a service report among them), `bo`, `customer`, `drive`. */
  source: string;
  workOrderNumber: string | null;
  objectSerialCode: string | null;
}

/**
 * `GET /zone/files`: what the office published to the customer (service reports among them), the
 * newest first; the work order or object each belongs to when it belongs to one of the customer's.
 */
export async function listZoneFiles(ctx: Ctx, raw: unknown): Promise<ZonePage<ZoneFile>> {
  const zone = requireZone(ctx);
  const { page } = parseInput(ZZonePage, raw);
  const rows = (await ctx
    .trx('files as f')
    .leftJoin('work_orders as w', function () {
      this.on('w.id', '=', 'f.owner_id').andOn('f.owner_type', '=', ctx.trx.raw('?', ['wo']));
    })
    .leftJoin('business_objects as b', function () {
      this.on('b.id', '=', 'f.owner_id').andOn('f.owner_type', '=', ctx.trx.raw('?', ['bo']));
    })
    .where('f.published_customer_id', zone.customerId)
    .whereNotNull('f.published_at')
    .whereIn('f.kind', ['file', 'link'])
    .select(
      'f.id',
      'f.name',
      'f.kind',
      'f.link',
      'f.content_type',
      'f.size',
      'f.published_at',
      'f.owner_type',
      'w.number as wo_number',
      'b.serial_code as bo_serial',
    )
    .orderBy([
      { column: 'f.published_at', order: 'desc' },
      { column: 'f.id', order: 'asc' },
    ])
    .limit(ZONE_PAGE_SIZE + 1)
    .offset((page - 1) * ZONE_PAGE_SIZE)) as Row[];
  return paged(
    rows.map((r) => ({
      id: r.id as string,
      name: r.name as string,
      kind: r.kind as 'file' | 'link',
      link: (r.link as string | null) ?? null,
      contentType: (r.content_type as string | null) ?? null,
      size: Number(r.size),
      publishedAt: iso(r.published_at)!,
      source: r.owner_type as string,
      workOrderNumber: (r.wo_number as string | null) ?? null,
      objectSerialCode: (r.bo_serial as string | null) ?? null,
    })),
    page,
  );
}

/** `GET /zone/files/{id}`: a published file's bytes (preview inline for images, video and PDF). */
export async function zoneFileForDownload(ctx: Ctx, fileId: unknown): Promise<FileDownload> {
  const zone = requireZone(ctx);
  if (!isUuid(fileId)) throw notFound();
  const row = (await ctx
    .trx('files')
    .where({ id: fileId, published_customer_id: zone.customerId, kind: 'file' })
    .whereNotNull('published_at')
    .first('name', 'content_type', 'size', 'storage_key')) as Row | undefined;
  if (!row) throw new AppError('FILE_NOT_FOUND', 404);
  const contentType = row.content_type as string;
  return {
    name: row.name as string,
    contentType,
    size: Number(row.size),
    storageKey: row.storage_key as string,
    inline: isInlineType(contentType),
  };
}

export interface ZoneAgreement {
  id: string;
  title: string;
  objectId: string;
  objectSerialCode: string;
  validFrom: string;
  validTo: string | null;
  nextVisit: string | null;
}

/** `GET /zone/agreements`: the agreements on the customer's installations with their next visit. */
export async function listZoneAgreements(ctx: Ctx, raw: unknown): Promise<ZonePage<ZoneAgreement>> {
  const zone = requireZone(ctx);
  const { page } = parseInput(ZZonePage, raw);
  const rows = (await ctx
    .trx('object_agreements as oa')
    .join('business_objects as b', 'b.id', 'oa.business_object_id')
    .join('agreements as a', 'a.id', 'oa.agreement_id')
    .where('b.customer_id', zone.customerId)
    .select(
      'oa.id',
      'a.title',
      'a.wo_interval',
      'a.wo_day',
      ctx.trx.raw(`to_char(oa.wo_scheduled_to, 'YYYY-MM-DD') as wo_scheduled_to`),
      ctx.trx.raw(`to_char(oa.valid_from, 'YYYY-MM-DD') as valid_from`),
      ctx.trx.raw(`to_char(oa.valid_to, 'YYYY-MM-DD') as valid_to`),
      'b.id as object_id',
      'b.serial_code',
    )
    .orderByRaw('lower(b.serial_code), oa.id')
    .limit(ZONE_PAGE_SIZE + 1)
    .offset((page - 1) * ZONE_PAGE_SIZE)) as Row[];
  return paged(
    rows.map((r) => ({
      id: r.id as string,
      title: r.title as string,
      objectId: r.object_id as string,
      objectSerialCode: r.serial_code as string,
      validFrom: r.valid_from as string,
      validTo: (r.valid_to as string | null) ?? null,
      nextVisit: nextVisit(r),
    })),
    page,
  );
}

export interface ZoneInvoice {
  id: string;
  invoiceNr: string | null;
  invoiceDate: string;
  dueDate: string | null;
  totalPrice: string;
  totalPriceVat: string;
  workOrderNumber: string | null;
}

/** `GET /zone/invoices`: the customer's finalized invoices (never a draft or a void), the newest first. */
export async function listZoneInvoices(ctx: Ctx, raw: unknown): Promise<ZonePage<ZoneInvoice>> {
  const zone = requireZone(ctx);
  const { page } = parseInput(ZZonePage, raw);
  const rows = (await ctx
    .trx('invoices as i')
    .leftJoin('work_orders as w', 'w.id', 'i.work_order_id')
    .where({ 'i.customer_id': zone.customerId, 'i.status': 'finalized' })
    .select(
      'i.id',
      'i.invoice_nr',
      ctx.trx.raw(`to_char(i.invoice_date, 'YYYY-MM-DD') as invoice_date`),
      ctx.trx.raw(`to_char(i.payment_due_date, 'YYYY-MM-DD') as due_date`),
      'i.total_price',
      'i.total_price_vat',
      'w.number as wo_number',
    )
    .orderBy([
      { column: 'i.invoice_date', order: 'desc' },
      { column: 'i.id', order: 'desc' },
    ])
    .limit(ZONE_PAGE_SIZE + 1)
    .offset((page - 1) * ZONE_PAGE_SIZE)) as Row[];
  return paged(
    rows.map((r) => ({
      id: r.id as string,
      invoiceNr: (r.invoice_nr as string | null) ?? null,
      invoiceDate: r.invoice_date as string,
      dueDate: (r.due_date as string | null) ?? null,
      totalPrice: String(r.total_price),
      totalPriceVat: String(r.total_price_vat),
      workOrderNumber: (r.wo_number as string | null) ?? null,
    })),
    page,
  );
}

/** `GET /zone/invoices/{id}/pdf`: one of the customer's finalized invoices as PDF, printed after commit. */
export async function zoneInvoicePdf(ctx: Ctx, invoiceId: unknown): Promise<AfterCommitWork<DocumentFile>> {
  const zone = requireZone(ctx);
  if (!isUuid(invoiceId)) throw notFound();
  const row = await ctx
    .trx('invoices')
    .where({ id: invoiceId, customer_id: zone.customerId, status: 'finalized' })
    .first('id');
  if (!row) throw notFound();
  return invoicePdfOf(ctx, row.id as string);
}
