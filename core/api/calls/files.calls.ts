import { z } from 'zod';
import { AppError } from '~/core/errors/app-error';
import { inTenant } from '~/core/unit-of-work';
import { archiveReply, downloadReply } from '~/core/files/download';
import {
  attachReceived,
  createFolder,
  createLink,
  deleteFile,
  favouriteDriveFiles,
  fileForDownload,
  filesForArchive,
  listFiles,
  moveFile,
  publishedForCustomer,
  quotaLeftBytes,
  recentDriveFiles,
  renameFile,
  reorderFiles,
  setDefaultFile,
  setFavourite,
  setPublished,
  ZDefaultFile,
  ZFavourite,
  ZFolder,
  ZFolderChoice,
  ZLink,
  ZList,
  ZName,
  ZPublishTo,
  ZReorder,
} from '~/core/files/files.service';
import { fileOwnerKind, requireFiles } from '~/core/files/owners';
import { discardReceived, receiveFiles, type Received } from '~/core/files/receive';
import { langFromKey } from '~/core/i18n/languages';
import { SIGNED_IN } from '~/core/permissions/access';
import { asSent, defineCall, type ApiCall, type ReceiveBody } from '../define-call';

/*
 * Files and the drive (api-calls.md "Files and drive"; issue 12). A record's files are under
 * /file/generic/{kind}/{ownerId} (kind: customer, bo, model, article, doorautomatic, wo, proposal, project, supplier_invoice), the
 * drive's under /file/drive; a file's own calls under /file/{id}. The services check the kind's
 * permission (spec section 6: <kind>:files, <kind>:files:read; drive:*) and that the record exists.
 */

/** Path parameters are text; the service answers 404 for a kind or record that is not there. */
const byId = z.object({ id: z.string() });
const onRecord = z.object({ kind: z.string(), ownerId: z.string() });
type Input = Record<string, unknown>;

const ENTRY =
  '{id, kind: file|folder|link, name, link, contentType, size, folderId, sortOrder, isDefault, hasThumbnail, previewable, image, published, publishedAt, favourite, createdAt, createdByName, ownerType, ownerId}';
const LISTING = `{files: [${ENTRY}], totalCount, path: [{id, name}], can: {upload, edit, remove, organise, publish}, inherited?}`;
const UPLOAD =
  'multipart/form-data, one or more `file` parts and an optional `folderId` field → {files: [entry]}; the type is read from the bytes (PDF, images, video, Office, zip, DWG); 400 FILE_EMPTY, FILE_TYPE_NOT_ALLOWED, FILE_TRUNCATED, FILE_UNREADABLE, FILE_ARCHIVE_TOO_LARGE; 413 FILE_TOO_LARGE {limits: {file: MB}}, STORAGE_QUOTA_EXCEEDED {limits: {file: MB}}; 408 UPLOAD_TIMEOUT after 60 s';

/** The upload's body: permission and quota first, then the bytes into the store. */
function upload(kindOf: (input: Input) => unknown): ReceiveBody<Received> {
  return {
    async read(body, headers, { tenant, auth, input }) {
      const k = fileOwnerKind(kindOf(input));
      requireFiles(auth, k, 'upload');
      const lang = langFromKey(auth.user.language ?? tenant.config.languageKey);
      const left = await inTenant({ tenant, auth, lang }, (ctx) => quotaLeftBytes(ctx));
      if (left <= 0)
        throw new AppError('STORAGE_QUOTA_EXCEEDED', 413, {
          fields: { file: ['STORAGE_QUOTA_EXCEEDED'] },
          limits: { file: tenant.config.files.quotaMb },
        });
      const maxUpload = tenant.config.files.maxUploadMb * 1024 * 1024;
      const maxFileBytes = Math.min(maxUpload, left + 1);
      try {
        return await receiveFiles(body, headers, { prefix: tenant.schemaName, maxFileBytes });
      } catch (e) {
        // a file larger than what is left of the quota is the quota's refusal, not the size limit's
        if (e instanceof AppError && e.code === 'FILE_TOO_LARGE' && maxFileBytes < maxUpload)
          throw new AppError('STORAGE_QUOTA_EXCEEDED', 413, {
            fields: { file: ['STORAGE_QUOTA_EXCEEDED'] },
            limits: { file: tenant.config.files.quotaMb },
          });
        throw e;
      }
    },
    discard: discardReceived,
  };
}

const drive = (permission: 'drive:read' | 'drive:edit' | 'drive:files:upload') => ({
  permission,
  module: 'drive' as const,
});

export const fileCalls: ApiCall[] = [
  // the drive first: its fixed paths must win over /file/{id}
  defineCall({
    method: 'GET',
    path: '/file/drive',
    access: drive('drive:read'),
    input: asSent(ZList),
    summary: `The drive: one folder ?folderId (the top without), ?from, ?size (20, 50 or 100), ?q (by name, anywhere) → ${LISTING}`,
    handler: (ctx, input) => listFiles(ctx, 'drive', null, input),
  }),
  defineCall({
    method: 'POST',
    path: '/file/drive',
    access: drive('drive:files:upload'),
    input: z.object({}),
    receive: upload(() => 'drive'),
    summary: `Uploads to the drive: ${UPLOAD}`,
    handler: (ctx, input: Input) => attachReceived(ctx, 'drive', null, input.received as Received),
  }),
  defineCall({
    method: 'GET',
    path: '/file/drive/recent',
    access: drive('drive:read'),
    input: z.object({}),
    summary: "The drive's 20 newest files → {files: [entry]}",
    handler: (ctx) => recentDriveFiles(ctx),
  }),
  defineCall({
    method: 'GET',
    path: '/file/drive/favourites',
    access: drive('drive:read'),
    input: z.object({}),
    summary: "The asker's favourite drive files and folders → {files: [entry]}",
    handler: (ctx) => favouriteDriveFiles(ctx),
  }),
  defineCall({
    method: 'PUT',
    path: '/file/drive/config/favourites',
    access: drive('drive:read'),
    input: asSent(ZFavourite.extend(byId.shape)),
    summary: 'Marks or unmarks a favourite {id, favourite: boolean} → {file: entry}',
    handler: (ctx, input) => setFavourite(ctx, input.id, input),
  }),
  defineCall({
    method: 'POST',
    path: '/file/drive/folder',
    access: drive('drive:edit'),
    input: asSent(ZFolder),
    summary: 'A folder in the drive {name, parentId?} → {file: entry}',
    handler: (ctx, input) => createFolder(ctx, 'drive', null, input),
  }),
  defineCall({
    method: 'POST',
    path: '/file/drive/link',
    access: drive('drive:edit'),
    input: asSent(ZLink),
    summary: 'A link in the drive {name, link (http or https), folderId?} → {file: entry}; both are required',
    handler: (ctx, input) => createLink(ctx, 'drive', null, input),
  }),
  defineCall({
    method: 'GET',
    path: '/file/drive/archive',
    access: drive('drive:read'),
    input: asSent(ZFolderChoice),
    summary: 'Download all: up to 100 files of a drive folder ?folderId as one zip',
    handler: async (ctx, input) => archiveReply(await filesForArchive(ctx, 'drive', null, input), 'drive'),
  }),
  defineCall({
    method: 'POST',
    path: '/file/drive/:id/publish',
    access: { permission: 'customerzone:publish_files', module: 'customerzone' },
    input: asSent(ZPublishTo.partial().extend(byId.shape)),
    summary:
      "Publishes a file to a customer zone: a record's file to its customer, a drive file to {customerId} → {file: entry}; 400 FILE_NO_CUSTOMER when the record has no customer",
    handler: (ctx, input) => setPublished(ctx, input.id, true, input),
  }),
  defineCall({
    method: 'POST',
    path: '/file/drive/:id/unpublish',
    access: { permission: 'customerzone:publish_files', module: 'customerzone' },
    input: byId,
    summary: 'Takes a file out of the customer zone → {file: entry}',
    handler: (ctx, input) => setPublished(ctx, input.id, false),
  }),
  defineCall({
    method: 'GET',
    path: '/file/published/:customerId',
    access: { permission: 'customers:files:read', module: 'files' },
    input: z.object({ customerId: z.string() }),
    summary:
      "The files published to a customer's zone, from the customer, its objects and work orders and the drive → {files: [entry]}",
    handler: (ctx, input) => publishedForCustomer(ctx, input.customerId),
  }),
  defineCall({
    method: 'GET',
    path: '/file/generic/:kind/:ownerId',
    access: SIGNED_IN,
    input: asSent(ZList.extend(onRecord.shape)),
    summary: `A record's files (kind: customer, bo, model, article, doorautomatic, wo, proposal, project, supplier_invoice): ?folderId, ?from, ?size (20, 50, 100), ?q → ${LISTING}; a work order's also lists its object's default files (inherited)`,
    handler: (ctx, input) => listFiles(ctx, input.kind, input.ownerId, input),
  }),
  defineCall({
    method: 'POST',
    path: '/file/generic/:kind/:ownerId',
    access: SIGNED_IN,
    input: onRecord,
    receive: upload((input) => input.kind),
    summary: `Uploads to a record: ${UPLOAD}`,
    handler: (ctx, input: Input) => attachReceived(ctx, input.kind, input.ownerId, input.received as Received),
  }),
  defineCall({
    method: 'POST',
    path: '/file/generic/:kind/:ownerId/folder',
    access: SIGNED_IN,
    input: asSent(ZFolder.extend(onRecord.shape)),
    summary: 'A folder on a record {name, parentId?} → {file: entry}',
    handler: (ctx, input) => createFolder(ctx, input.kind, input.ownerId, input),
  }),
  defineCall({
    method: 'POST',
    path: '/file/generic/:kind/:ownerId/link',
    access: SIGNED_IN,
    input: asSent(ZLink.extend(onRecord.shape)),
    summary: 'A link on a record {name, link (http or https), folderId?} → {file: entry}; both are required',
    handler: (ctx, input) => createLink(ctx, input.kind, input.ownerId, input),
  }),
  defineCall({
    method: 'GET',
    path: '/file/generic/:kind/:ownerId/archive',
    access: SIGNED_IN,
    input: asSent(ZFolderChoice.extend(onRecord.shape)),
    summary: "Download all: up to 100 files of a record's folder ?folderId as one zip",
    handler: async (ctx, input) =>
      archiveReply(await filesForArchive(ctx, input.kind, input.ownerId, input), String(input.kind)),
  }),
  defineCall({
    method: 'GET',
    path: '/file/:id',
    access: SIGNED_IN,
    input: byId.extend({ download: z.string().optional() }),
    summary:
      'The file itself (a Range header gives part of it); images, video and PDF are shown inline unless ?download=1; 404 FILE_NOT_FOUND for a folder or link',
    handler: async (ctx, input, meta) =>
      downloadReply(await fileForDownload(ctx, input.id), { range: meta.range, attachment: input.download === '1' }),
  }),
  defineCall({
    method: 'GET',
    path: '/file/:id/thumbnail',
    access: SIGNED_IN,
    input: byId,
    summary: "An image's thumbnail (WebP, at most 320 px, re-encoded from the upload)",
    handler: async (ctx, input) => downloadReply(await fileForDownload(ctx, input.id, 'thumbnail')),
  }),
  defineCall({
    method: 'POST',
    path: '/file/:id/rename',
    access: SIGNED_IN,
    input: asSent(ZName.extend(byId.shape)),
    summary: 'Renames a file, folder or link {name} → {file: entry}',
    handler: (ctx, input) => renameFile(ctx, input.id, input),
  }),
  defineCall({
    method: 'POST',
    path: '/file/:id/move',
    access: SIGNED_IN,
    input: asSent(ZFolderChoice.extend(byId.shape)),
    summary:
      'Moves into a folder of the same record or drive {folderId|null (the top)} → {file: entry}; 409 FAILED_TO_MOVE_FILE into itself',
    handler: (ctx, input) => moveFile(ctx, input.id, input),
  }),
  defineCall({
    method: 'POST',
    path: '/file/:id/reorder',
    access: SIGNED_IN,
    input: asSent(ZReorder.extend(byId.shape)),
    summary: "Sets the order of the entries of {id}'s folder {ids: [id, …]} → {ok}",
    handler: (ctx, input) => reorderFiles(ctx, input.id, input),
  }),
  defineCall({
    method: 'POST',
    path: '/file/:id/default',
    access: SIGNED_IN,
    input: asSent(ZDefaultFile.extend(byId.shape)),
    summary: "An object's default file, shown on its work orders {isDefault: boolean} → {file: entry}",
    handler: (ctx, input) => setDefaultFile(ctx, input.id, input),
  }),
  defineCall({
    method: 'DELETE',
    path: '/file/:id',
    access: SIGNED_IN,
    input: byId,
    summary: 'Deletes a file, a link, or a folder with everything in it → {ok}',
    handler: (ctx, input) => deleteFile(ctx, input.id),
  }),
];
