import { deleteFilesOf } from '~/core/files/files.service';
import { randomBytes } from 'node:crypto';
import type { Ctx } from '~/core/context';
import { AppError, notFound } from '~/core/errors/app-error';
import { isUuid, parseInput } from '~/core/errors/validation';
import { recordHistory } from '~/core/history/history';
import { requireAccess } from '~/core/permissions/access';
import { containsPattern, duplicate, isForeignKeyViolation, uniqueViolation } from '~/core/registers/list-query';
import { proposeNumber } from '~/core/registers/propose-id';
import {
  ZBoList,
  ZContacts,
  ZCreateBo,
  ZPage,
  ZQrLookup,
  ZUpdateBo,
  type BoStatus,
  type TContact,
  type TUpdateBo,
} from './business-object.schema';
import { logObjectRemoval } from './access-codes.service';
import { requireBo } from './require-bo';
import { checkRegion } from '~/core/regions/region.service';

export { requireBo };

export interface BoContact extends TContact {
  id: string;
}

export interface BusinessObject {
  id: string;
  serialCode: string;
  status: BoStatus;
  modelId: string | null;
  modelName: string | null;
  model: { id: string; code: string; name: string } | null;
  customerId: string | null;
  customerName: string | null;
  customerNumber: string | null;
  priceListId: string | null;
  priceListTitle: string | null;
  location: string | null;
  location2: string | null;
  location3: string | null;
  region: string | null;
  description: string | null;
  invoiceMarking: string | null;
  qrRef: string | null;
  createdAt: string;
  updatedAt: string;
  specification?: Record<string, unknown>;
}

/** The history rows of an object are entity 'business_object'. */
export const BO_ENTITY = 'business_object';

const SELECT = [
  'b.id',
  'b.serial_code',
  'b.status',
  'b.model_id',
  'm.code as model_code',
  'm.name as model_name',
  'b.customer_id',
  'c.name as customer_name',
  'c.customer_id as customer_number',
  'b.price_list_id',
  'p.title as price_list_title',
  'b.location',
  'b.location2',
  'b.location3',
  'b.region',
  'b.description',
  'b.invoice_marking',
  'b.qr_ref',
  'b.created_at',
  'b.updated_at',
];

type Row = Record<string, unknown>;

const iso = (v: unknown) => (v instanceof Date ? v.toISOString() : String(v));

function toBo(r: Row): BusinessObject {
  const bo: BusinessObject = {
    id: r.id as string,
    serialCode: r.serial_code as string,
    status: r.status as BoStatus,
    modelId: (r.model_id as string) ?? null,
    modelName: (r.model_name as string) ?? null,
    model: r.model_id ? { id: r.model_id as string, code: r.model_code as string, name: r.model_name as string } : null,
    customerId: (r.customer_id as string) ?? null,
    customerName: (r.customer_name as string) ?? null,
    customerNumber: (r.customer_number as string) ?? null,
    priceListId: (r.price_list_id as string) ?? null,
    priceListTitle: (r.price_list_title as string) ?? null,
    location: (r.location as string) ?? null,
    location2: (r.location2 as string) ?? null,
    location3: (r.location3 as string) ?? null,
    region: (r.region as string) ?? null,
    description: (r.description as string) ?? null,
    invoiceMarking: (r.invoice_marking as string) ?? null,
    qrRef: (r.qr_ref as string) ?? null,
    createdAt: iso(r.created_at),
    updatedAt: iso(r.updated_at),
  };
  if (r.specification !== undefined) bo.specification = (r.specification as Record<string, unknown>) ?? {};
  return bo;
}

function withJoins(ctx: Ctx) {
  return ctx
    .trx('business_objects as b')
    .leftJoin('models as m', 'm.id', 'b.model_id')
    .leftJoin('customers as c', 'c.id', 'b.customer_id')
    .leftJoin('price_lists as p', 'p.id', 'b.price_list_id');
}

/**
 * GET /bo (also ?customerId, ?q&customerId): a page of objects by serial code with the total.
 * `q` matches the object's serial code, location and description, its model's code and name, and
 * its customer's number and name; each arm of the union is served by its own trigram index, so
 * the search stays indexed on a large register.
 */
export async function listBusinessObjects(
  ctx: Ctx,
  raw: unknown = {},
): Promise<{ bos: BusinessObject[]; totalCount: number }> {
  requireAccess(ctx.auth, { permission: 'bo:read' });
  const f = parseInput(ZBoList, raw);
  const base = ctx.trx('business_objects as b');
  if (f.q) {
    const like = containsPattern(f.q);
    // Each arm can use an index (the object's search text, or its customer or model by id), so
    // the planner can OR their bitmaps; `= any(array(…))` lets it, where `in (select …)` would not.
    base.whereRaw(
      `(b.search_text like ?
        or b.customer_id = any(array(select id from customers where search_text like ?))
        or b.model_id = any(array(select id from models where search_text like ?)))`,
      [like, like, like],
    );
  }
  if (f.customerId) base.where('b.customer_id', f.customerId);
  if (f.modelId) base.where('b.model_id', f.modelId);
  if (f.status) base.where('b.status', f.status);
  const [{ n }] = await base.clone().count({ n: '*' });
  const rows = await base
    .clone()
    .leftJoin('models as m', 'm.id', 'b.model_id')
    .leftJoin('customers as c', 'c.id', 'b.customer_id')
    .leftJoin('price_lists as p', 'p.id', 'b.price_list_id')
    .select(f.includeSpecificationData ? [...SELECT, 'b.specification'] : SELECT)
    .orderByRaw('lower(b.serial_code), b.id')
    .limit(f.limit)
    .offset(f.offset);
  return { totalCount: Number(n), bos: rows.map(toBo) };
}

async function contactsOf(ctx: Ctx, id: string): Promise<BoContact[]> {
  const rows = await ctx
    .trx('business_object_contacts')
    .where({ business_object_id: id })
    .orderBy([{ column: 'sort_order' }, { column: 'id' }])
    .select('id', 'name', 'role', 'phone', 'email');
  return rows.map((r: Row) => ({
    id: r.id as string,
    name: r.name as string,
    role: (r.role as string) ?? null,
    phone: (r.phone as string) ?? null,
    email: (r.email as string) ?? null,
  }));
}

/** GET /bo/{id}: the object with its model, customer, price list and contacts. */
export async function getBusinessObject(
  ctx: Ctx,
  id: unknown,
): Promise<{ bo: BusinessObject & { contacts: BoContact[] } }> {
  requireAccess(ctx.auth, { permission: 'bo:read' });
  if (!isUuid(id)) throw notFound();
  const row = await withJoins(ctx)
    .where('b.id', id)
    .first([...SELECT, 'b.specification']);
  if (!row) throw notFound();
  return { bo: { ...toBo(row), contacts: await contactsOf(ctx, id) } };
}

/** GET /bo/{id}/customer: the object's customer, or null when it has none. */
export async function getBusinessObjectCustomer(ctx: Ctx, id: unknown) {
  requireAccess(ctx.auth, { permission: 'bo:read' });
  const bo = await requireBo(ctx, id);
  const row = await ctx
    .trx('business_objects as b')
    .join('customers as c', 'c.id', 'b.customer_id')
    .where('b.id', bo.id)
    .first('c.id', 'c.customer_id', 'c.name', 'c.type', 'c.status', 'c.phone', 'c.email');
  return {
    customer: row
      ? {
          id: row.id as string,
          customerId: (row.customer_id as string) ?? null,
          name: row.name as string,
          type: row.type as string,
          status: row.status as string,
          phone: (row.phone as string) ?? null,
          email: (row.email as string) ?? null,
        }
      : null,
  };
}

/** 400 with the field that names a row that does not exist (a model, customer or price list). */
async function checkReferences(ctx: Ctx, bo: Partial<Pick<TUpdateBo, 'modelId' | 'customerId' | 'priceListId'>>) {
  const checks: [keyof typeof bo, string][] = [
    ['modelId', 'models'],
    ['customerId', 'customers'],
    ['priceListId', 'price_lists'],
  ];
  const fields: Record<string, string[]> = {};
  for (const [field, table] of checks) {
    const id = bo[field];
    if (id && !(await ctx.trx(table).where({ id }).first('id'))) fields[field] = ['ERROR_INVALID_VALUE'];
  }
  if (Object.keys(fields).length) throw new AppError('VALIDATION_FAILED', 400, { fields });
}

function rethrowUnique(e: unknown): never {
  const index = uniqueViolation(e);
  if (index === 'business_objects_serial_idx') throw duplicate('DUPLICATE_SERIAL_CODE', 'serialCode');
  if (index === 'business_objects_qr_idx') throw duplicate('QR_REFERENCE_TAKEN', 'qrRef');
  throw e;
}

/** A fresh QR reference: 96 random bits, base64url (16 characters). */
export function newQrRef(): string {
  return randomBytes(12).toString('base64url');
}

const columns = (bo: Partial<TUpdateBo>) => {
  const map: Record<string, unknown> = {
    serial_code: bo.serialCode,
    status: bo.status,
    model_id: bo.modelId,
    customer_id: bo.customerId,
    price_list_id: bo.priceListId,
    location: bo.location,
    location2: bo.location2,
    location3: bo.location3,
    region: bo.region,
    description: bo.description,
    invoice_marking: bo.invoiceMarking,
    qr_ref: bo.qrRef,
  };
  return Object.fromEntries(Object.entries(map).filter(([, v]) => v !== undefined));
};

/**
 * POST /bo {bo}: a new object. The serial code is unique (409 DUPLICATE_SERIAL_CODE); the object
 * gets a QR reference unless one is given, so its label can be printed at once.
 */
export async function createBusinessObject(ctx: Ctx, raw: unknown): Promise<{ id: string }> {
  requireAccess(ctx.auth, { permission: 'bo:edit' });
  const { bo } = parseInput(ZCreateBo, raw);
  await checkReferences(ctx, bo);
  const region = await checkRegion(ctx.trx, bo.region, null, 'bo.region');
  const [row] = await ctx
    .trx('business_objects')
    .insert({ ...columns({ ...bo, region }), qr_ref: bo.qrRef ?? newQrRef(), created_at: ctx.now, updated_at: ctx.now })
    .returning('id')
    .catch(rethrowUnique);
  const id = (row as { id: string }).id;
  await recordHistory(ctx, { entity: BO_ENTITY, entityId: id, action: 'create', data: bo });
  return { id };
}

/** PUT /bo {bo}: changes the fields given; a new QR reference must be free (409 QR_REFERENCE_TAKEN). */
export async function updateBusinessObject(ctx: Ctx, raw: unknown): Promise<void> {
  requireAccess(ctx.auth, { permission: 'bo:edit' });
  const { bo } = parseInput(ZUpdateBo, raw);
  await requireBo(ctx, bo.id);
  await checkReferences(ctx, bo);
  const region =
    bo.region === undefined
      ? undefined
      : await checkRegion(
          ctx.trx,
          bo.region,
          ((await ctx.trx('business_objects').where({ id: bo.id }).first('region')) as { region: string | null }).region,
          'bo.region',
        );
  await ctx
    .trx('business_objects')
    .where({ id: bo.id })
    .update({ ...columns({ ...bo, region }), updated_at: ctx.now })
    .catch(rethrowUnique);
  await recordHistory(ctx, { entity: BO_ENTITY, entityId: bo.id, action: 'edit', data: bo });
}

/** Gives the object a new random QR reference (the old label stops working). */
export async function generateQrRef(ctx: Ctx, id: unknown): Promise<{ qrRef: string }> {
  requireAccess(ctx.auth, { permission: 'bo:edit' });
  const bo = await requireBo(ctx, id);
  const qrRef = newQrRef();
  await ctx.trx('business_objects').where({ id: bo.id }).update({ qr_ref: qrRef, updated_at: ctx.now });
  await recordHistory(ctx, { entity: BO_ENTITY, entityId: bo.id, action: 'qr.generate', data: { qrRef } });
  return { qrRef };
}

/** POST /bo/qr {qrRefId}: the object a QR label points at (404 QR_REFERENCE_NOT_FOUND). */
export async function resolveQrRef(ctx: Ctx, raw: unknown): Promise<{ bo: BusinessObject }> {
  requireAccess(ctx.auth, { permission: 'bo:read' });
  const { qrRefId } = parseInput(ZQrLookup, raw);
  const row = await withJoins(ctx).where('b.qr_ref', qrRefId).first(SELECT);
  if (!row) throw new AppError('QR_REFERENCE_NOT_FOUND', 404);
  return { bo: toBo(row) };
}

/** PUT /bo/{id}/contacts {contacts}: replaces the object's contact people. */
export async function setBusinessObjectContacts(ctx: Ctx, id: unknown, raw: unknown): Promise<void> {
  requireAccess(ctx.auth, { permission: 'bo:edit' });
  const bo = await requireBo(ctx, id);
  const { contacts } = parseInput(ZContacts, raw);
  await ctx.trx('business_object_contacts').where({ business_object_id: bo.id }).delete();
  if (contacts.length)
    await ctx
      .trx('business_object_contacts')
      .insert(contacts.map((c, i) => ({ business_object_id: bo.id, sort_order: i, ...c })));
  await ctx.trx('business_objects').where({ id: bo.id }).update({ updated_at: ctx.now });
  await recordHistory(ctx, { entity: BO_ENTITY, entityId: bo.id, action: 'contacts', data: { contacts } });
}

/**
 * DELETE /bo/{id}: removes the object with its contacts, prices, forms, service log and access
 * codes. The security log keeps a row for each destroyed code and group. Something else that
 * still points at the object (a work order) refuses it: DELETE_NOT_POSSIBLE_SET_INACTIVE.
 */
export async function deleteBusinessObject(ctx: Ctx, id: unknown): Promise<void> {
  requireAccess(ctx.auth, { permission: 'bo:delete' });
  const bo = await requireBo(ctx, id);
  const removal = await logObjectRemoval(ctx, bo);
  await ctx
    .trx('business_objects')
    .where({ id: bo.id })
    .delete()
    .catch((e: unknown) => {
      if (isForeignKeyViolation(e)) throw new AppError('DELETE_NOT_POSSIBLE_SET_INACTIVE', 409);
      throw e;
    });
  await deleteFilesOf(ctx, 'bo', [bo.id]);
  await removal.commit();
  await recordHistory(ctx, {
    entity: BO_ENTITY,
    entityId: bo.id,
    action: 'delete',
    data: { serialCode: bo.serialCode },
  });
}

/**
 * GET /bo/id/propose?length: the next free all-digit serial code of that length; without one, of
 * the instance's minimum object id length (PATCH /instance/bo `minIdLength`).
 */
export function proposeSerialCode(ctx: Ctx, raw: unknown) {
  requireAccess(ctx.auth, { permission: 'bo:edit' });
  const query = raw && typeof raw === 'object' ? (raw as Record<string, unknown>) : {};
  const length =
    query.length === undefined || query.length === '' ? ctx.tenant.config.objects.minIdLength : query.length;
  return proposeNumber(ctx, 'business_objects', 'serial_code', { ...query, length });
}

export interface HistoryEntry {
  id: string;
  action: string;
  at: string;
  userId: string | null;
  userName: string | null;
  data: unknown;
}

/** GET /bo/{id}/history?from&size: the object's history, newest first. */
export async function listBusinessObjectHistory(
  ctx: Ctx,
  id: unknown,
  raw: unknown = {},
): Promise<{ history: HistoryEntry[]; totalCount: number }> {
  requireAccess(ctx.auth, { permission: 'bo:read' });
  const bo = await requireBo(ctx, id);
  const page = parseInput(ZPage(20), raw);
  const base = ctx.trx('history as h').where({ 'h.entity': BO_ENTITY, 'h.entity_id': bo.id });
  const [{ n }] = await base.clone().count({ n: '*' });
  const rows = await base
    .clone()
    .leftJoin('users as u', 'u.id', 'h.user_id')
    .select('h.id', 'h.action', 'h.at', 'h.user_id', 'u.name as user_name', 'h.data')
    .orderBy([
      { column: 'h.at', order: 'desc' },
      { column: 'h.id', order: 'desc' },
    ])
    .limit(page.size)
    .offset(page.from);
  return {
    totalCount: Number(n),
    history: rows.map((r: Row) => ({
      id: String(r.id),
      action: r.action as string,
      at: iso(r.at),
      userId: (r.user_id as string) ?? null,
      userName: (r.user_name as string) ?? null,
      data: r.data ?? null,
    })),
  };
}

/** "serial – model – location" of an object, as pickers and links show it. */
export function boLabel(bo: Pick<BusinessObject, 'serialCode' | 'modelName' | 'location'>): string {
  return [bo.serialCode, bo.modelName, bo.location].filter(Boolean).join(' – ');
}

/**
 * The object picker's options: active and inactive objects matching `q` (optionally of one
 * customer), at most 200, with how many matched.
 */
export async function businessObjectOptions(
  ctx: Ctx,
  raw: { q?: string; customerId?: string },
): Promise<{ options: { id: string; label: string; description?: string }[]; total: number }> {
  const { bos, totalCount } = await listBusinessObjects(ctx, { ...raw, limit: 200 });
  return {
    total: totalCount,
    options: bos.map((b) => ({ id: b.id, label: boLabel(b), description: b.customerName ?? undefined })),
  };
}

/** A customer as the object form's picker shows it preselected ("10001 – Brf Solgläntan"), or null. */
export async function customerOption(ctx: Ctx, id: unknown): Promise<{ id: string; label: string } | null> {
  requireAccess(ctx.auth, { permission: 'bo:read' });
  if (!isUuid(id)) return null;
  const row = await ctx.trx('customers').where({ id }).first('id', 'customer_id', 'name');
  return row ? { id: row.id as string, label: [row.customer_id, row.name].filter(Boolean).join(' – ') } : null;
}
