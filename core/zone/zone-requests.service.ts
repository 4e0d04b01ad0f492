import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { z } from 'zod';
import type { Ctx, ZoneAuth } from '~/core/context';
import { AppError, notFound } from '~/core/errors/app-error';
import { isUuid, parseInput } from '~/core/errors/validation';
import { quotaLeftBytes } from '~/core/files/files.service';
import { inspectFile } from '~/core/files/inspect';
import { receiveFiles, type Received } from '~/core/files/receive';
import { recordHistory } from '~/core/history/history';
import { langFromKey } from '~/core/i18n/languages';
import type { Tenant } from '~/core/tenancy/tenant';
import { inTenant } from '~/core/unit-of-work';
import { dispatchTarget } from '~/core/work-orders/dispatch-rules.service';
import { WO_ENTITY } from '~/core/work-orders/work-order-read';
import { nextWorkOrderNumber } from '~/core/work-orders/settings/settings.service';
import { requireZone, ZONE_PAGE_SIZE, ZZonePage, type ZonePage } from './zone-view.service';
import {
  CUSTOMER_WORK_ORDERS,
  MAX_REQUEST_PHOTOS,
  MAX_REQUEST_TEXT,
  REQUEST_TITLE_LENGTH,
} from './zone-requests.constants';

export { CUSTOMER_WORK_ORDERS, MAX_REQUEST_PHOTOS, MAX_REQUEST_TEXT, REQUEST_TITLE_LENGTH };

/**
 * "Ask for service" (issue 35 item 3, decision 064): a zone user chooses one of its customer's
 * installations, describes the problem and may attach photos; it becomes a new unplanned work
 * order of that customer and installation, which the office plans like any other. The customer
 * then follows it (status, planned date) among its requests.
 */

export const ZZoneRequest = z.object({
  objectId: z.string({ error: 'ERROR_REQUIRED_FIELD' }).trim().min(1, 'ERROR_REQUIRED_FIELD'),
  description: z
    .string({ error: 'ERROR_REQUIRED_FIELD' })
    .trim()
    .min(1, 'ERROR_REQUIRED_FIELD')
    .max(MAX_REQUEST_TEXT, 'ERROR_MAX_LENGTH'),
});

/** 403 unless the tenant has "customer work orders" on (the zone itself needs the customer zone module). */
export function requireRequestsModule(zone: ZoneAuth): void {
  if (!zone.modules.has(CUSTOMER_WORK_ORDERS)) throw new AppError('WARNING_PERMISSION_DENIED', 403);
}

/** The order's title: the first line of the customer's words, cut on a word at 80 characters. */
export function requestTitle(description: string): string {
  const line = description.trim().split(/\r?\n/)[0]!.trim();
  if (line.length <= REQUEST_TITLE_LENGTH) return line;
  const cut = line.slice(0, REQUEST_TITLE_LENGTH - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > REQUEST_TITLE_LENGTH / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

const photoRefused = (code: string) => new AppError(code, 400, { fields: { photos: [code] } });

/**
 * Reads a request's photos (multipart part `photos`, images only, at most ten) into the file store
 * before the unit of work, as every upload does; the form's text fields come along. A request that
 * is not multipart (the JSON call) has nothing to receive: null.
 */
export async function receiveRequestPhotos(
  body: Readable,
  headers: Record<string, string | string[] | undefined>,
  tenant: Tenant,
): Promise<Received | null> {
  if (!String(headers['content-type'] ?? '').startsWith('multipart/form-data')) return null;
  const left = await inTenant({ tenant, auth: null, lang: langFromKey(tenant.config.languageKey) }, (ctx) =>
    quotaLeftBytes(ctx),
  );
  if (left <= 0) throw photoRefused('STORAGE_QUOTA_EXCEEDED');
  try {
    return await receiveFiles(body, headers, {
      prefix: tenant.schemaName,
      maxFileBytes: Math.min(tenant.config.files.maxUploadMb * 1024 * 1024, left + 1),
      maxFiles: MAX_REQUEST_PHOTOS,
      optional: true,
      async inspect(file, size) {
        const type = await inspectFile(file, size);
        if (!type.image) throw photoRefused('FILE_NOT_AN_IMAGE');
        return type;
      },
    });
  } catch (e) {
    // the upload's refusals name the `file` field; the request form's field is `photos`
    if (e instanceof AppError && e.details?.fields && 'file' in (e.details.fields as object))
      throw new AppError(e.code, e.status, { ...e.details, fields: { photos: [e.code] } });
    throw e;
  }
}

/** The same for a zone page's form post (a web Request). */
export function receiveRequestPhotosFrom(request: Request, tenant: Tenant): Promise<Received | null> {
  const multipart = (request.headers.get('content-type') ?? '').startsWith('multipart/form-data');
  if (!request.body || !multipart) return Promise.resolve(null);
  return receiveRequestPhotos(
    Readable.fromWeb(request.body as unknown as NodeReadableStream),
    Object.fromEntries(request.headers),
    tenant,
  );
}

export interface ZoneRequest {
  id: string;
  number: string;
  title: string;
  description: string | null;
  status: string;
  closed: boolean;
  requestedAt: string;
  requestedBy: string;
  plannedStart: string | null;
  closedAt: string | null;
  objectId: string | null;
  objectSerialCode: string | null;
  photos: number;
}

type Row = Record<string, unknown>;
const iso = (v: unknown) => (v == null ? null : v instanceof Date ? v.toISOString() : String(v));

function requestsQuery(ctx: Ctx, customerId: string) {
  return ctx
    .trx('work_orders as w')
    .join('work_order_statuses as s', 's.id', 'w.status_id')
    .leftJoin('business_objects as b', 'b.id', 'w.business_object_id')
    .where('w.customer_id', customerId)
    .whereNotNull('w.zone_requested_name')
    .whereNull('w.deleted_at')
    .select(
      'w.id',
      'w.number',
      'w.title',
      'w.description',
      's.name as status',
      'w.intake_ts',
      'w.zone_requested_name',
      'w.planned_start',
      'w.closed_at',
      'b.id as object_id',
      'b.serial_code as object_serial_code',
      ctx.trx.raw(
        `(select count(*) from files f where f.owner_type = 'wo' and f.owner_id = w.id and f.kind = 'file')::int as photos`,
      ),
    );
}

function requestOut(r: Row): ZoneRequest {
  return {
    id: r.id as string,
    number: r.number as string,
    title: r.title as string,
    description: (r.description as string | null) ?? null,
    status: r.status as string,
    closed: r.closed_at != null,
    requestedAt: iso(r.intake_ts)!,
    requestedBy: r.zone_requested_name as string,
    plannedStart: iso(r.planned_start),
    closedAt: iso(r.closed_at),
    objectId: (r.object_id as string | null) ?? null,
    objectSerialCode: (r.object_serial_code as string | null) ?? null,
    photos: Number(r.photos ?? 0),
  };
}

/**
 * `GET /zone/requests`: what the customer's people asked for, the newest first, each following
 * its work order (status, planned date, closed). Asked by any zone user of the same customer.
 */
export async function listZoneRequests(ctx: Ctx, raw: unknown): Promise<ZonePage<ZoneRequest>> {
  const zone = requireZone(ctx);
  requireRequestsModule(zone);
  const { page } = parseInput(ZZonePage, raw);
  const rows = (await requestsQuery(ctx, zone.customerId)
    .orderBy([
      { column: 'w.intake_ts', order: 'desc' },
      { column: 'w.id', order: 'desc' },
    ])
    .limit(ZONE_PAGE_SIZE + 1)
    .offset((page - 1) * ZONE_PAGE_SIZE)) as Row[];
  return { items: rows.slice(0, ZONE_PAGE_SIZE).map(requestOut), page, hasMore: rows.length > ZONE_PAGE_SIZE };
}

/** The installations a request may name: the customer's own, by serial code (the form's choices). */
export async function zoneRequestObjects(ctx: Ctx): Promise<{ id: string; label: string }[]> {
  const zone = requireZone(ctx);
  requireRequestsModule(zone);
  const rows = (await ctx
    .trx('business_objects as b')
    .leftJoin('models as m', 'm.id', 'b.model_id')
    .where('b.customer_id', zone.customerId)
    .orderByRaw('lower(b.serial_code), b.id')
    .limit(1000)
    .select('b.id', 'b.serial_code', 'b.location', 'm.name as model')) as Row[];
  return rows.map((r) => ({
    id: r.id as string,
    label: [r.serial_code, r.model, r.location].filter((v) => typeof v === 'string' && v).join(' · '),
  }));
}

/**
 * `POST /zone/requests {objectId, description}` (+ photos): a new work order for the customer and
 * installation, unplanned, with the work-order defaults (the settings' default status that does
 * not close, the default work type, priority medium, the customer's primary address, the person a
 * dispatch rule names for this moment if any), the customer's words as its description and their
 * first line as its title, the asking zone user as contact and as who asked (`zone_requested_*`).
 * The photos become the order's files. Another customer's installation is 404, as a missing one.
 * The tenant's required work-order fields are the office's to fill when it plans the order.
 */
export async function createZoneRequest(
  ctx: Ctx,
  raw: unknown,
  received: Received | null = null,
): Promise<{ request: ZoneRequest }> {
  const zone = requireZone(ctx);
  requireRequestsModule(zone);
  const input = parseInput(ZZoneRequest, raw);
  if (!isUuid(input.objectId)) throw notFound();
  const object = (await ctx
    .trx('business_objects')
    .where({ id: input.objectId, customer_id: zone.customerId })
    .first('id')) as Row | undefined;
  if (!object) throw notFound();
  const status = (await ctx
    .trx('work_order_statuses')
    .where({ is_closing: false })
    .orderBy([{ column: 'is_default', order: 'desc' }, { column: 'sort_order' }])
    .first('id')) as Row | undefined;
  const type = (await ctx
    .trx('work_types')
    .orderBy([{ column: 'is_default', order: 'desc' }, { column: 'sort_order' }])
    .first('id')) as Row | undefined;
  if (!status || !type) throw new AppError('WARNING_PERMISSION_DENIED', 403);
  const address = (await ctx
    .trx('customer_addresses')
    .where({ customer_id: zone.customerId, is_primary: true })
    .first('id', 'street', 'post_index', 'city')) as Row | undefined;
  const number = await nextWorkOrderNumber(ctx);
  const title = requestTitle(input.description);
  const [row] = (await ctx
    .trx('work_orders')
    .insert({
      number,
      title,
      description: input.description,
      customer_id: zone.customerId,
      business_object_id: object.id,
      status_id: status.id,
      work_type_id: type.id,
      priority: 'medium',
      contact_name: zone.user.name,
      contact_email: zone.user.email,
      customer_address_id: address?.id ?? null,
      street: address?.street ?? null,
      post_index: address?.post_index ?? null,
      city: address?.city ?? null,
      intake_ts: ctx.now,
      update_ts: ctx.now,
      create_user_id: null,
      zone_requested_by: zone.user.id,
      zone_requested_name: zone.user.name,
    })
    .returning('id')) as Row[];
  const id = row!.id as string;
  const assignee = await dispatchTarget(ctx);
  if (assignee) await ctx.trx('work_order_assignees').insert({ work_order_id: id, user_id: assignee });
  const photos = received?.files ?? [];
  if (photos.length)
    await ctx.trx('files').insert(
      photos.map((f, i) => ({
        owner_type: 'wo',
        owner_id: id,
        folder_id: null,
        kind: 'file',
        name: f.name,
        storage_key: f.storageKey,
        thumb_key: f.thumbKey,
        content_type: f.contentType,
        size: f.size,
        sort_order: i + 1,
        created_by: null,
        created_at: ctx.now,
        updated_at: ctx.now,
      })),
    );
  await recordHistory(ctx, {
    entity: WO_ENTITY,
    entityId: id,
    action: 'create',
    data: {
      number,
      title,
      zoneRequest: { zoneUserId: zone.user.id, name: zone.user.name, email: zone.user.email, photos: photos.length },
    },
  });
  const created = (await requestsQuery(ctx, zone.customerId).where('w.id', id).first()) as Row;
  return { request: requestOut(created) };
}
