import { z } from 'zod';
import { discardReceived, receiveFiles } from '~/core/files/receive';
import { requireAccess } from '~/core/permissions/access';
import { inspectCatalogueFile } from '~/core/supplier-catalogues/catalogue-file';
import {
  ZCatalogueQuery,
  ZConfirmUpload,
  ZProductsQuery,
  type CatalogueKind,
} from '~/core/supplier-catalogues/catalogue.schema';
import {
  CATALOGUE_ACCESS,
  catalogueProducts,
  catalogueState,
  confirmUpload,
  MAX_CATALOGUE_BYTES,
  readCatalogueHead,
  recordUpload,
  searchCatalogue,
  type ReceivedCatalogue,
} from '~/core/supplier-catalogues/catalogue.service';
import { asSent, defineCall, type ApiCall, type ReceiveBody } from '../define-call';

const byId = z.object({ id: z.string() });

/**
 * A price or discount file in the request's body (multipart/form-data, one `file` part), stored and
 * its first rows read before the unit of work (decision 049): CSV or XLSX, refused otherwise.
 */
const catalogueFile: ReceiveBody<ReceivedCatalogue> = {
  async read(body, headers, { tenant, auth }) {
    requireAccess(auth, CATALOGUE_ACCESS.edit);
    const received = await receiveFiles(body, headers, {
      prefix: tenant.schemaName,
      maxFileBytes: MAX_CATALOGUE_BYTES,
      maxFiles: 1,
      inspect: inspectCatalogueFile,
    });
    try {
      return await readCatalogueHead(received);
    } catch (e) {
      await discardReceived(received);
      throw e;
    }
  },
  discard: (got) => discardReceived(got.received),
};

const UPLOAD_ANSWER =
  '{uploadId, kind, fileName, format: csv|xlsx, rows: the first rows as read (the first may be headings), columnCount, fields, required, mapping: {header, columns: {field: column from 0}}, mappingKept}; 400 SUPPLIER_CATALOGUE_FILE_UNREADABLE (not CSV or XLSX, or no rows), FILE_EMPTY; 413 FILE_TOO_LARGE';
const IMPORT =
  '{id, kind, status: queued|running|done|failed|replaced, fileName, fileSize, bytesDone, rowsDone, rowsFailed, errors: [{row, reason, value}], error}';

const upload = (kind: CatalogueKind, path: string, what: string) =>
  defineCall({
    method: 'POST',
    path,
    access: CATALOGUE_ACCESS.edit,
    input: byId,
    receive: catalogueFile,
    summary: `Uploads the supplier's ${what} (multipart/form-data, one \`file\`: CSV in UTF-8 or Windows-1252, or XLSX) → ${UPLOAD_ANSWER}`,
    handler: (ctx, input) =>
      recordUpload(ctx, input.id, kind, (input as unknown as { received: ReceivedCatalogue }).received),
  });

const confirm = (kind: CatalogueKind, path: string, fields: string) =>
  defineCall({
    method: 'POST',
    path,
    access: CATALOGUE_ACCESS.edit,
    input: asSent(ZConfirmUpload(kind)),
    summary: `Confirms an upload's mapping {uploadId, header (first row is headings), columns: {${fields}}} and loads it in the background → {import: ${IMPORT}}; the mapping is kept for the supplier's next file`,
    handler: (ctx, input) => confirmUpload(ctx, kind, input),
  });

/** Supplier inventory (api-calls.md "Articles": supplier inventory uploads and queries, /sbsc/products). */
export const supplierCatalogueCalls: ApiCall[] = [
  defineCall({
    method: 'GET',
    path: '/supplierinventory/query/articles',
    access: CATALOGUE_ACCESS.search,
    input: asSent(ZCatalogueQuery),
    summary:
      "A supplier's catalogue ?supplierId&q (number or title, anywhere)&page (from 1)&pageSize (at most 200) → {articles: [{id, supplierId, supplierTitle, articleNumber, articleTitle, articleDescription, unit, purchasePrice (after the group's discount), listPurchasePrice, discountGroup, discountPercent, recommendedSalesPrice, ref}], totalCount, totalCountCapped}; a search counts up to 1,000 matches (totalCountCapped when there are more); without q, totalCount is the whole catalogue's",
    handler: (ctx, input) => searchCatalogue(ctx, input),
  }),
  upload('prices', '/supplierinventory/upload/:id', 'price file'),
  confirm(
    'prices',
    '/supplierinventory/upload/:id/confirm',
    'articleNumber, title, description, unit, purchasePrice, recommendedPrice, discountGroup',
  ),
  upload(
    'discounts',
    '/supplierinventory/upload/:id/discount',
    'discount file (discount group → percent off the purchase price)',
  ),
  confirm('discounts', '/supplierinventory/upload/:id/discount/confirm', 'discountGroup, percent'),
  defineCall({
    method: 'GET',
    path: '/supplierinventory/:id',
    access: CATALOGUE_ACCESS.read,
    input: byId,
    summary: `The supplier's catalogue → {supplierId, articleCount, importedAt, discountCount, discountsImportedAt, latest: {prices: ${IMPORT} | null, discounts}}`,
    handler: (ctx, input) => catalogueState(ctx, input.id),
  }),
  defineCall({
    method: 'GET',
    path: '/sbsc/products',
    access: CATALOGUE_ACCESS.search,
    input: asSent(ZProductsQuery),
    summary:
      "Every supplier's catalogue at once ?q (at least 2 characters)&limit (default 10, at most 50) → {products: [article as /supplierinventory/query/articles answers it]}",
    handler: (ctx, input) => catalogueProducts(ctx, input),
  }),
];
