/**
 * Files, folders and links on a record or in the drive (spec sections 2, 3 and 6; api-calls.md
 * "Files and drive"). Every function checks the kind's permission, that the owner exists in the
 * tenant, and runs in the caller's unit of work; stored bytes of deleted rows go after commit.
 */
import type { Knex } from 'knex';
import { notifyFilePublished } from '~/core/zone/zone-notify.service';
import { z } from 'zod';
import type { Ctx } from '~/core/context';
import { AppError, notFound, permissionDenied } from '~/core/errors/app-error';
import { parseInput } from '~/core/errors/validation';
import { isModuleEnabled } from '~/core/modules/app-module.service';
import { hasAccess } from '~/core/permissions/access';
import { isImageType, isInlineType } from './inspect';
import {
  canFiles,
  fileOwnerKind,
  noCustomer,
  ownerCustomer,
  requireFiles,
  requireOwner,
  type FileAction,
  type FileOwnerKind,
} from './owners';
import type { Received, ReceivedFile } from './receive';
import { deleteAfterCommit } from './store';

/** Spec section 9: the file lists' page sizes. */
export const FILE_PAGE_SIZES = [20, 50, 100] as const;
/** Spec section 9: "download all" fetches up to this many files. */
export const DOWNLOAD_ALL_MAX = 100;
/** The drive's recent files. */
export const RECENT_FILES = 20;
export const MAX_FILE_NAME = 255;
export const MAX_LINK_LENGTH = 2000;

export interface FileEntry {
  id: string;
  kind: 'file' | 'folder' | 'link';
  name: string;
  link: string | null;
  contentType: string | null;
  size: number;
  folderId: string | null;
  sortOrder: number;
  isDefault: boolean;
  hasThumbnail: boolean;
  /** Shown in the page (image, video, PDF) rather than only downloaded. */
  previewable: boolean;
  image: boolean;
  published: boolean;
  publishedAt: string | null;
  favourite: boolean;
  createdAt: string;
  createdByName: string | null;
  ownerType: string;
  ownerId: string | null;
}

const COLUMNS = [
  'f.id',
  'f.kind',
  'f.name',
  'f.link',
  'f.content_type',
  'f.size',
  'f.folder_id',
  'f.sort_order',
  'f.is_default',
  'f.thumb_key',
  'f.published_at',
  'f.created_at',
  'f.owner_type',
  'f.owner_id',
];

type Row = Record<string, unknown>;

function toEntry(r: Row): FileEntry {
  const contentType = (r.content_type as string | null) ?? null;
  return {
    id: r.id as string,
    kind: r.kind as FileEntry['kind'],
    name: r.name as string,
    link: (r.link as string | null) ?? null,
    contentType,
    size: Number(r.size),
    folderId: (r.folder_id as string | null) ?? null,
    sortOrder: Number(r.sort_order),
    isDefault: Boolean(r.is_default),
    hasThumbnail: Boolean(r.thumb_key),
    previewable: isInlineType(contentType),
    image: isImageType(contentType),
    published: r.published_at != null,
    publishedAt: r.published_at ? new Date(r.published_at as string).toISOString() : null,
    favourite: Boolean(r.favourite),
    createdAt: new Date(r.created_at as string).toISOString(),
    createdByName: (r.created_by_name as string | null) ?? null,
    ownerType: r.owner_type as string,
    ownerId: (r.owner_id as string | null) ?? null,
  };
}

/** The listing's columns with the author's name and the asker's favourite mark. */
function selectEntries(ctx: Ctx, qb: Knex.QueryBuilder): Knex.QueryBuilder {
  return qb
    .select(COLUMNS)
    .select(ctx.trx.raw('u.name as created_by_name'))
    .select(
      ctx.trx.raw(
        'exists (select 1 from file_favourites fav where fav.file_id = f.id and fav.user_id = ?) as favourite',
        [ctx.auth!.user.id],
      ),
    )
    .leftJoin('users as u', 'u.id', 'f.created_by');
}

const id = z.string().uuid();
const optionalId = z.preprocess((v) => (v === '' || v === 'null' ? null : v), id.nullable().optional());
const pageSize = z.coerce
  .number()
  .int()
  .refine((n) => (FILE_PAGE_SIZES as readonly number[]).includes(n), { message: 'ERROR_INVALID_VALUE' });

/** A folder to move into or download, or the top ('' or null). */
export const ZFolderChoice = z.object({ folderId: optionalId });
export const ZDefaultFile = z.object({ isDefault: z.coerce.boolean() });
export const ZFavourite = z.object({ favourite: z.coerce.boolean() });
/** Publishing a drive file names the customer; a record's file goes to the record's customer. */
export const ZPublishTo = z.object({ customerId: id });

export const ZList = z.object({
  folderId: optionalId,
  from: z.coerce.number().int().min(0).default(0),
  size: pageSize.default(20),
  q: z.string().trim().max(200).optional(),
});

export interface FileListing {
  files: FileEntry[];
  totalCount: number;
  /** From the top to the open folder. */
  path: { id: string; name: string }[];
  /** What the asker may do here. */
  can: Record<Exclude<FileAction, 'read'> | 'publish', boolean>;
  /** Files an object passes to its work orders (on a work order's list). */
  inherited?: FileEntry[];
  /** The drive's id (on the drive's list): the `{id}` of the spec's /file/drive/{id} paths. */
  driveId?: string;
}

/**
 * The company's drive. There is one per company today, and it is named by the tenant's id so the
 * spec's /file/drive/{id} paths have an id to carry (issue 29 item 5); a drive of several per
 * company would give it its own table.
 */
export function driveIdOf(ctx: Ctx): string {
  return ctx.tenant.id;
}

/** A /file/drive/{id} path's id: the company's drive, else 404 like any id the asker cannot see. */
export function requireDrive(ctx: Ctx, driveId: unknown): void {
  if (typeof driveId !== 'string' || driveId !== driveIdOf(ctx)) throw notFound();
}

async function folderPath(ctx: Ctx, folderId: string | null): Promise<{ id: string; name: string }[]> {
  if (!folderId) return [];
  const { rows } = (await ctx.trx.raw(
    `with recursive up as (
       select id, name, folder_id, 0 as depth from files where id = ? and kind = 'folder'
       union all
       select f.id, f.name, f.folder_id, up.depth + 1 from files f join up on f.id = up.folder_id where up.depth < 50
     ) select id, name from up order by depth desc`,
    [folderId],
  )) as { rows: { id: string; name: string }[] };
  return rows;
}

function abilities(ctx: Ctx, k: FileOwnerKind): FileListing['can'] {
  return {
    upload: canFiles(ctx.auth, k, 'upload'),
    edit: canFiles(ctx.auth, k, 'edit'),
    remove: canFiles(ctx.auth, k, 'remove'),
    organise: canFiles(ctx.auth, k, 'organise'),
    publish: canPublish(ctx, k),
  };
}

function canPublish(ctx: Ctx, k: FileOwnerKind): boolean {
  return (
    (k.kind === 'drive' || Boolean(k.customer)) &&
    hasAccess(ctx.auth, { permission: 'customerzone:publish_files', module: 'customerzone' })
  );
}

/** A folder of this owner (or null for the top), else not found. */
async function requireFolder(ctx: Ctx, k: FileOwnerKind, ownerId: string | null, folderId: string | null | undefined) {
  if (!folderId) return null;
  const row = await ctx
    .trx('files')
    .where({ id: folderId, kind: 'folder', owner_type: k.kind, owner_id: ownerId })
    .first('id');
  if (!row) throw notFound();
  return folderId;
}

/**
 * GET /file/generic/{kind}/{ownerId} and GET /file/drive: one folder's entries (folders first,
 * then in their order), a page at a time; with `q`, matches by name anywhere under the owner.
 */
export async function listFiles(ctx: Ctx, kind: unknown, ownerIdRaw: unknown, raw: unknown): Promise<FileListing> {
  const k = fileOwnerKind(kind);
  requireFiles(ctx.auth, k, 'read');
  const ownerId = await requireOwner(ctx, k, ownerIdRaw);
  const f = parseInput(ZList, raw);
  const folderId = f.q ? null : await requireFolder(ctx, k, ownerId, f.folderId);
  const base = ctx.trx('files as f').where('f.owner_type', k.kind);
  if (ownerId) base.where('f.owner_id', ownerId);
  else base.whereNull('f.owner_id');
  if (f.q) base.whereRaw('lower(f.name) like ?', [`%${f.q.toLowerCase().replace(/[%_\\]/g, '\\$&')}%`]);
  else if (folderId) base.where('f.folder_id', folderId);
  else base.whereNull('f.folder_id');
  const [{ n }] = await base.clone().count({ n: '*' });
  const rows = await selectEntries(ctx, base.clone())
    .orderByRaw(`(f.kind = 'folder') desc, f.sort_order, lower(f.name), f.id`)
    .limit(f.size)
    .offset(f.from);
  const listing: FileListing = {
    files: rows.map(toEntry),
    totalCount: Number(n),
    path: await folderPath(ctx, folderId),
    can: abilities(ctx, k),
    ...(k.kind === 'drive' ? { driveId: driveIdOf(ctx) } : {}),
  };
  // An object's default files show on its work orders (spec section 3: "default files"), to
  // those who may open an object's files.
  if (k.kind === 'wo' && !folderId && !f.q && f.from === 0 && canFiles(ctx.auth, fileOwnerKind('bo'), 'read')) {
    const inherited = await selectEntries(
      ctx,
      ctx
        .trx('files as f')
        .join('work_orders as w', function () {
          this.on('w.business_object_id', '=', 'f.owner_id');
        })
        .where('w.id', ownerId)
        .andWhere({ 'f.owner_type': 'bo', 'f.is_default': true, 'f.kind': 'file' }),
    )
      .orderBy([{ column: 'f.sort_order' }, { column: 'f.name' }])
      .limit(DOWNLOAD_ALL_MAX);
    listing.inherited = inherited.map(toEntry);
  }
  return listing;
}

/** The drive's most recent files, newest first. */
export async function recentDriveFiles(ctx: Ctx): Promise<{ files: FileEntry[] }> {
  const k = fileOwnerKind('drive');
  requireFiles(ctx.auth, k, 'read');
  const rows = await selectEntries(ctx, ctx.trx('files as f').where({ 'f.owner_type': 'drive', 'f.kind': 'file' }))
    .orderBy([
      { column: 'f.created_at', order: 'desc' },
      { column: 'f.id', order: 'desc' },
    ])
    .limit(RECENT_FILES);
  return { files: rows.map(toEntry) };
}

/** The asker's favourite drive files and folders. */
export async function favouriteDriveFiles(ctx: Ctx): Promise<{ files: FileEntry[] }> {
  const k = fileOwnerKind('drive');
  requireFiles(ctx.auth, k, 'read');
  const rows = await selectEntries(
    ctx,
    ctx
      .trx('files as f')
      .join('file_favourites as ff', 'ff.file_id', 'f.id')
      .where({ 'ff.user_id': ctx.auth!.user.id, 'f.owner_type': 'drive' }),
  )
    .orderBy([{ column: 'ff.created_at', order: 'desc' }])
    .limit(200);
  return { files: rows.map(toEntry) };
}

/** The row of a file call's `{id}`, with its kind, after the permission for `action`. */
async function requireEntry(ctx: Ctx, fileId: unknown, action: FileAction): Promise<{ row: Row; k: FileOwnerKind }> {
  if (!id.safeParse(fileId).success) throw notFound();
  const row = (await ctx.trx('files').where({ id: fileId }).first()) as Row | undefined;
  if (!row) throw notFound();
  let k: FileOwnerKind;
  try {
    k = fileOwnerKind(row.owner_type);
  } catch {
    throw notFound();
  }
  requireFiles(ctx.auth, k, 'read');
  // a record the asker cannot see (a work order outside the limit) hides its files
  await requireOwner(ctx, k, row.owner_id);
  requireFiles(ctx.auth, k, action);
  return { row, k };
}

const required = () => z.string({ error: 'ERROR_REQUIRED_FIELD' }).trim().min(1, 'ERROR_REQUIRED_FIELD');
export const ZName = z.object({ name: required().max(MAX_FILE_NAME) });

/** The next sort position at the end of a folder. */
async function nextSortOrder(ctx: Ctx, k: FileOwnerKind, ownerId: string | null, folderId: string | null) {
  const qb = ctx.trx('files').where({ owner_type: k.kind, owner_id: ownerId, folder_id: folderId });
  const [{ m }] = await qb.max({ m: 'sort_order' });
  return m == null ? 0 : Number(m) + 1;
}

/**
 * Records the files `receiveFiles` stored, in the folder given (the form's `folderId`), after the
 * quota: the tenant's stored bytes, counted by file_storage, may not pass its quota.
 */
export async function attachReceived(
  ctx: Ctx,
  kind: unknown,
  ownerIdRaw: unknown,
  received: Received,
): Promise<{ files: FileEntry[] }> {
  const k = fileOwnerKind(kind);
  requireFiles(ctx.auth, k, 'upload');
  const ownerId = await requireOwner(ctx, k, ownerIdRaw);
  const folderId = await requireFolder(ctx, k, ownerId, parseInput(ZFolderChoice, received.fields).folderId);
  let order = await nextSortOrder(ctx, k, ownerId, folderId ?? null);
  const ids: string[] = [];
  for (const f of received.files) ids.push(await insertFile(ctx, k, ownerId, folderId ?? null, f, order++));
  await requireQuota(ctx);
  const rows = await selectEntries(ctx, ctx.trx('files as f').whereIn('f.id', ids)).orderBy('f.sort_order');
  return { files: rows.map(toEntry) };
}

async function insertFile(
  ctx: Ctx,
  k: FileOwnerKind,
  ownerId: string | null,
  folderId: string | null,
  f: ReceivedFile,
  sortOrder: number,
): Promise<string> {
  const [row] = await ctx
    .trx('files')
    .insert({
      owner_type: k.kind,
      owner_id: ownerId,
      folder_id: folderId,
      kind: 'file',
      name: f.name,
      storage_key: f.storageKey,
      thumb_key: f.thumbKey,
      content_type: f.contentType,
      size: f.size,
      sort_order: sortOrder,
      created_by: ctx.auth?.user.id ?? null,
      created_at: ctx.now,
      updated_at: ctx.now,
    })
    .returning('id');
  return row.id as string;
}

/** STORAGE_QUOTA_EXCEEDED (413, with the quota in MB) when the tenant now stores more than it may. */
async function requireQuota(ctx: Ctx) {
  const { bytes } = (await ctx.trx('file_storage').first('bytes')) as { bytes: string };
  const quotaMb = ctx.tenant.config.files?.quotaMb ?? 10_240;
  if (Number(bytes) > quotaMb * 1024 * 1024)
    throw new AppError('STORAGE_QUOTA_EXCEEDED', 413, {
      fields: { file: ['STORAGE_QUOTA_EXCEEDED'] },
      limits: { file: quotaMb },
    });
}

/** Whether the tenant is already at its quota: checked before an upload streams anything. */
export async function quotaLeftBytes(ctx: Ctx): Promise<number> {
  const { bytes } = (await ctx.trx('file_storage').first('bytes')) as { bytes: string };
  return (ctx.tenant.config.files?.quotaMb ?? 10_240) * 1024 * 1024 - Number(bytes);
}

export const ZFolder = z.object({ name: required().max(MAX_FILE_NAME), parentId: optionalId });

/**
 * A folder or a link in a folder of this owner (the top when none), at the end of its order: the
 * kind's `organise` right, the owner in this tenant, the folder the owner's.
 */
async function addEntry(
  ctx: Ctx,
  kind: unknown,
  ownerIdRaw: unknown,
  folderIdRaw: string | null | undefined,
  values: { kind: 'folder' | 'link'; name: string; link?: string },
): Promise<{ file: FileEntry }> {
  const k = fileOwnerKind(kind);
  requireFiles(ctx.auth, k, 'organise');
  const ownerId = await requireOwner(ctx, k, ownerIdRaw);
  const folderId = await requireFolder(ctx, k, ownerId, folderIdRaw);
  const [row] = await ctx
    .trx('files')
    .insert({
      ...values,
      owner_type: k.kind,
      owner_id: ownerId,
      folder_id: folderId,
      sort_order: await nextSortOrder(ctx, k, ownerId, folderId),
      created_by: ctx.auth!.user.id,
      created_at: ctx.now,
      updated_at: ctx.now,
    })
    .returning('id');
  return { file: await entry(ctx, row.id as string) };
}

/** A folder in the open folder (spec: "folder"). */
export async function createFolder(
  ctx: Ctx,
  kind: unknown,
  ownerIdRaw: unknown,
  raw: unknown,
): Promise<{ file: FileEntry }> {
  requireFiles(ctx.auth, fileOwnerKind(kind), 'organise');
  const f = parseInput(ZFolder, raw);
  return addEntry(ctx, kind, ownerIdRaw, f.parentId, { kind: 'folder', name: f.name });
}

export const ZLink = z.object({
  name: required().max(MAX_FILE_NAME),
  link: required()
    .max(MAX_LINK_LENGTH)
    .refine((v) => v === '' || /^https?:\/\/[^\s]+$/i.test(v), { message: 'ERROR_INVALID_URL' }),
  folderId: optionalId,
});

/** A link (spec section 5: link and name are required). */
export async function createLink(
  ctx: Ctx,
  kind: unknown,
  ownerIdRaw: unknown,
  raw: unknown,
): Promise<{ file: FileEntry }> {
  requireFiles(ctx.auth, fileOwnerKind(kind), 'organise');
  const f = parseInput(ZLink, raw);
  return addEntry(ctx, kind, ownerIdRaw, f.folderId, { kind: 'link', name: f.name, link: f.link });
}

async function entry(ctx: Ctx, fileId: string): Promise<FileEntry> {
  const row = await selectEntries(ctx, ctx.trx('files as f').where('f.id', fileId)).first();
  if (!row) throw notFound();
  return toEntry(row as Row);
}

/** POST /file/{id}/rename {name}. */
export async function renameFile(ctx: Ctx, fileId: unknown, raw: unknown): Promise<{ file: FileEntry }> {
  const { row } = await requireEntry(ctx, fileId, 'edit');
  const { name } = parseInput(ZName, raw);
  await ctx.trx('files').where({ id: row.id }).update({ name, updated_at: ctx.now });
  return { file: await entry(ctx, row.id as string) };
}

/** POST /file/{id}/move {folderId|null}: within the same record or drive; never into itself. */
export async function moveFile(ctx: Ctx, fileId: unknown, raw: unknown): Promise<{ file: FileEntry }> {
  const { row, k } = await requireEntry(ctx, fileId, 'edit');
  const { folderId } = parseInput(ZFolderChoice, raw);
  const target = await requireFolder(ctx, k, (row.owner_id as string | null) ?? null, folderId);
  if (target && row.kind === 'folder') {
    const path = await folderPath(ctx, target);
    if (path.some((p) => p.id === row.id)) throw new AppError('FAILED_TO_MOVE_FILE', 409);
  }
  await ctx
    .trx('files')
    .where({ id: row.id })
    .update({
      folder_id: target,
      sort_order: await nextSortOrder(ctx, k, (row.owner_id as string | null) ?? null, target),
      updated_at: ctx.now,
    });
  return { file: await entry(ctx, row.id as string) };
}

export const ZReorder = z.object({ ids: z.array(id).min(1).max(1000) });

/** POST /file/{id}/reorder {ids}: the order of the entries of `{id}`'s folder (the first id's folder). */
export async function reorderFiles(ctx: Ctx, fileId: unknown, raw: unknown): Promise<{ ok: true }> {
  const { row } = await requireEntry(ctx, fileId, 'edit');
  const { ids } = parseInput(ZReorder, raw);
  const siblings = await ctx
    .trx('files')
    .where({ owner_type: row.owner_type, owner_id: row.owner_id ?? null, folder_id: row.folder_id ?? null })
    .whereIn('id', ids)
    .pluck('id');
  if (siblings.length !== new Set(ids).size) throw notFound();
  if (ids.length)
    await ctx.trx.raw(
      `update files set sort_order = o.n, updated_at = ? from unnest(?::uuid[]) with ordinality as o(id, n) where files.id = o.id`,
      [ctx.now, ids],
    );
  return { ok: true };
}

/** DELETE /file/{id}: the entry, and for a folder everything in it; the bytes after commit. */
export async function deleteFile(ctx: Ctx, fileId: unknown): Promise<{ ok: true }> {
  const { row } = await requireEntry(ctx, fileId, 'remove');
  const { rows } = (await ctx.trx.raw(
    `with recursive down as (
       select id, storage_key, thumb_key from files where id = ?
       union all
       select f.id, f.storage_key, f.thumb_key from files f join down on f.folder_id = down.id
     ) select storage_key, thumb_key from down`,
    [row.id as string],
  )) as { rows: { storage_key: string | null; thumb_key: string | null }[] };
  await ctx.trx('files').where({ id: row.id }).delete();
  await releaseStored(
    ctx.trx,
    rows.flatMap((r) => [r.storage_key, r.thumb_key]),
  );
  return { ok: true };
}

/** Removes every file of these records (the records are being deleted): the bytes after commit. */
export async function deleteFilesOf(ctx: Ctx, kind: string, ownerIds: readonly string[]): Promise<void> {
  if (!ownerIds.length) return;
  const gone = (await ctx
    .trx('files')
    .where({ owner_type: kind })
    .whereIn('owner_id', ownerIds)
    .delete()
    .returning(['storage_key', 'thumb_key'])) as { storage_key: string | null; thumb_key: string | null }[];
  await releaseStored(
    ctx.trx,
    gone.flatMap((r) => [r.storage_key, r.thumb_key]),
  );
}

/**
 * Deletes after commit the stored objects of removed file rows that no other row still names (a
 * copy shares its original's bytes). Run after the rows were deleted, in the same unit of work.
 */
async function releaseStored(trx: Ctx['trx'], keys: readonly (string | null)[]): Promise<void> {
  const list = [...new Set(keys.filter((k): k is string => Boolean(k)))];
  if (!list.length) return;
  const { rows } = (await trx.raw(
    `select storage_key as key from files where storage_key = any(?::text[])
     union select thumb_key from files where thumb_key = any(?::text[])`,
    [list, list],
  )) as { rows: { key: string }[] };
  const kept = new Set(rows.map((r) => r.key));
  deleteAfterCommit(
    trx,
    list.filter((k) => !kept.has(k)),
  );
}

/** POST /file/{id}/default {isDefault}: an object's file shown on its work orders. */
export async function setDefaultFile(ctx: Ctx, fileId: unknown, raw: unknown): Promise<{ file: FileEntry }> {
  const { row } = await requireEntry(ctx, fileId, 'edit');
  if (row.owner_type !== 'bo' || row.kind !== 'file') throw notFound();
  const { isDefault } = parseInput(ZDefaultFile, raw);
  await ctx.trx('files').where({ id: row.id }).update({ is_default: isDefault, updated_at: ctx.now });
  return { file: await entry(ctx, row.id as string) };
}

/**
 * POST /file/drive/{id}/publish and /unpublish (customerzone:publish_files): a file on a customer,
 * an object or a work order is published to that record's customer; a drive file to the customer
 * the call names (`customerId`).
 */
export async function setPublished(
  ctx: Ctx,
  fileId: unknown,
  publish: boolean,
  raw: unknown = {},
): Promise<{ file: FileEntry }> {
  const { row, k } = await requireEntry(ctx, fileId, 'read');
  if (!canPublish(ctx, k)) throw permissionDenied();
  if (row.kind === 'folder') throw notFound();
  if (!publish) {
    await ctx
      .trx('files')
      .where({ id: row.id })
      .update({ published_at: null, published_by: null, published_customer_id: null });
    return { file: await entry(ctx, row.id as string) };
  }
  let customerId: string | null;
  if (k.kind === 'drive') {
    const c = parseInput(ZPublishTo, raw).customerId;
    customerId = (await ctx.trx('customers').where({ id: c }).first('id')) ? c : null;
    if (!customerId) throw notFound();
  } else customerId = await ownerCustomer(ctx, k, (row.owner_id as string | null) ?? null);
  if (!customerId) throw noCustomer();
  await markPublished(ctx, row.id as string, customerId);
  return { file: await entry(ctx, row.id as string) };
}

/** Publishes a file to a customer and tells the customer's zone users, once per file (decision 063). */
async function markPublished(ctx: Ctx, fileId: string, customerId: string): Promise<void> {
  const [row] = (await ctx
    .trx('files')
    .where({ id: fileId })
    .update({ published_at: ctx.now, published_by: ctx.auth?.user.id ?? null, published_customer_id: customerId })
    .returning(['id', 'name'])) as { id: string; name: string }[];
  if (row) await notifyFilePublished(ctx, row, customerId);
}

/**
 * Who will see a file once published (issue 35 item 4, decision 063): the customer it would be
 * published to — the record's own, or for a drive file the customer the dialog names — and that
 * customer's zone users (the invited ones see it once they have registered). Asked by the publish
 * dialog before publishing, with the rights publishing needs.
 */
export async function publishAudience(
  ctx: Ctx,
  fileId: unknown,
  raw: unknown = {},
): Promise<{
  customer: { id: string; name: string } | null;
  users: { name: string; email: string; status: 'STATUS_ACTIVE' | 'STATUS_REGISTERED' }[];
}> {
  const { row, k } = await requireEntry(ctx, fileId, 'read');
  if (!canPublish(ctx, k)) throw permissionDenied();
  if (row.kind === 'folder') throw notFound();
  let customerId: string | null;
  if (k.kind === 'drive') {
    const asked = ZPublishTo.partial().safeParse(raw);
    customerId = asked.success ? (asked.data.customerId ?? null) : null;
  } else customerId = await ownerCustomer(ctx, k, (row.owner_id as string | null) ?? null);
  const customer = customerId
    ? ((await ctx.trx('customers').where({ id: customerId }).first('id', 'name')) as
        | { id: string; name: string }
        | undefined)
    : undefined;
  if (!customer) return { customer: null, users: [] };
  const users = (await ctx
    .trx('customer_zone_users')
    .where({ customer_id: customer.id })
    .whereIn('status', ['STATUS_ACTIVE', 'STATUS_REGISTERED'])
    .orderByRaw('lower(name), lower(email)')
    .limit(200)
    .select('name', 'email', 'status')) as {
    name: string;
    email: string;
    status: 'STATUS_ACTIVE' | 'STATUS_REGISTERED';
  }[];
  return { customer, users };
}

/**
 * Publishes a record's file because the tenant said so (a generated service report when Settings →
 * Service reports publishes them, decision 053), by the rules of publishing by hand: only with the
 * customer zone on, never a folder, and to the record's own customer; a record without a customer
 * publishes nothing. The tenant's setting stands in for the person's customerzone:publish_files (the
 * technician who prints the report on site seldom has it). Answers the customer, or null.
 */
export async function publishByTenantSetting(ctx: Ctx, fileId: string): Promise<string | null> {
  if (!(await isModuleEnabled(ctx.trx, 'customerzone'))) return null;
  const row = (await ctx.trx('files').where({ id: fileId }).first('id', 'kind', 'owner_type', 'owner_id')) as
    Row | undefined;
  if (!row || row.kind === 'folder' || row.owner_type === 'drive') return null;
  const customerId = await ownerCustomer(ctx, fileOwnerKind(row.owner_type), (row.owner_id as string | null) ?? null);
  if (!customerId) return null;
  await markPublished(ctx, fileId, customerId);
  return customerId;
}

/** The files published to a customer, from any of its records or the drive (customer screen). */
export async function publishedForCustomer(ctx: Ctx, customerId: unknown): Promise<{ files: FileEntry[] }> {
  const k = fileOwnerKind('customer');
  requireFiles(ctx.auth, k, 'read');
  await requireOwner(ctx, k, customerId);
  const rows = await selectEntries(ctx, ctx.trx('files as f').where('f.published_customer_id', customerId as string))
    .orderBy([{ column: 'f.published_at', order: 'desc' }])
    .limit(500);
  return { files: rows.map(toEntry) };
}

/** PUT /file/{id}/favourite {favourite}: the asker's mark. */
export async function setFavourite(ctx: Ctx, fileId: unknown, raw: unknown): Promise<{ file: FileEntry }> {
  const { row } = await requireEntry(ctx, fileId, 'read');
  const { favourite } = parseInput(ZFavourite, raw);
  const key = { user_id: ctx.auth!.user.id, file_id: row.id };
  if (favourite)
    await ctx
      .trx('file_favourites')
      .insert({ ...key, created_at: ctx.now })
      .onConflict(['user_id', 'file_id'])
      .ignore();
  else await ctx.trx('file_favourites').where(key).delete();
  return { file: await entry(ctx, row.id as string) };
}

export interface FileDownload {
  name: string;
  contentType: string;
  size: number;
  storageKey: string;
  inline: boolean;
}

/** What a download streams: the file (or its thumbnail), after the read permission. */
export async function fileForDownload(
  ctx: Ctx,
  fileId: unknown,
  variant: 'file' | 'thumbnail' = 'file',
): Promise<FileDownload> {
  const { row } = await requireEntry(ctx, fileId, 'read');
  if (row.kind !== 'file') throw new AppError('FILE_NOT_FOUND', 404);
  const contentType = row.content_type as string;
  if (variant === 'thumbnail') {
    if (!row.thumb_key) throw new AppError('FILE_NOT_FOUND', 404);
    return {
      name: `${row.name as string}.webp`,
      contentType: 'image/webp',
      size: -1,
      storageKey: row.thumb_key as string,
      inline: true,
    };
  }
  return {
    name: row.name as string,
    contentType,
    size: Number(row.size),
    storageKey: row.storage_key as string,
    inline: isInlineType(contentType),
  };
}

/** Up to DOWNLOAD_ALL_MAX files of a folder (top level when none), for "download all" as one zip. */
export async function filesForArchive(
  ctx: Ctx,
  kind: unknown,
  ownerIdRaw: unknown,
  raw: unknown,
): Promise<FileDownload[]> {
  const k = fileOwnerKind(kind);
  requireFiles(ctx.auth, k, 'read');
  const ownerId = await requireOwner(ctx, k, ownerIdRaw);
  const { folderId } = parseInput(ZFolderChoice, raw);
  const folder = await requireFolder(ctx, k, ownerId, folderId);
  const rows = (await ctx
    .trx('files')
    .where({ owner_type: k.kind, owner_id: ownerId, folder_id: folder, kind: 'file' })
    .orderBy([{ column: 'sort_order' }, { column: 'name' }])
    .limit(DOWNLOAD_ALL_MAX)) as Row[];
  if (!rows.length) throw new AppError('FILE_NOT_FOUND', 404);
  return rows.map((r) => ({
    name: r.name as string,
    contentType: r.content_type as string,
    size: Number(r.size),
    storageKey: r.storage_key as string,
    inline: false,
  }));
}

/**
 * Copies the files (not folders or links) of one record to another (a work order's revisit with
 * the `files` option): each copy is a row of its own that shares its original's stored bytes, so
 * the unit of work touches no file store (decision 049); the bytes go once no row names them
 * (`releaseStored`). The originals are read FOR SHARE: a deletion of one waits for this copy to
 * commit and then sees it, and a copy waits for a deletion and then skips what it removed.
 */
export async function copyFiles(
  ctx: Ctx,
  from: { kind: string; ownerId: string },
  to: { kind: string; ownerId: string },
): Promise<number> {
  const rows = (await ctx
    .trx('files')
    .where({ owner_type: from.kind, owner_id: from.ownerId, kind: 'file' })
    .orderBy([{ column: 'sort_order' }, { column: 'name' }])
    .forShare()) as Row[];
  if (rows.length)
    await ctx.trx('files').insert(
      rows.map((r, i) => ({
        owner_type: to.kind,
        owner_id: to.ownerId,
        kind: 'file',
        name: r.name,
        storage_key: r.storage_key,
        thumb_key: r.thumb_key,
        content_type: r.content_type,
        size: r.size,
        sort_order: i,
        created_by: ctx.auth?.user.id ?? null,
        created_at: ctx.now,
        updated_at: ctx.now,
      })),
    );
  await requireQuota(ctx);
  return rows.length;
}
