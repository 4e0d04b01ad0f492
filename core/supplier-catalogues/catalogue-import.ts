import type { Readable } from 'node:stream';
import { z } from 'zod';
import { withTenant, type TenantScope, type Trx } from '~/core/db/with-tenant';
import { AppError } from '~/core/errors/app-error';
import { getFileStore } from '~/core/files/store';
import { defineJob } from '~/core/jobs/define-job';
import { logger, type Logger } from '~/core/log/logger';
import { listTenants } from '~/tenants/registry';
import { catalogueRows, parseAmount, type CatalogueFormat, type CsvDialect } from './catalogue-file';
import type { CatalogueKind, ColumnMapping } from './catalogue.schema';

/*
 * Loading a confirmed catalogue file (decision 056), as a job outside any request. The file streams
 * from the file store (outside every transaction: decision 049) through the reader; rows are
 * checked and written BATCH at a time, each batch one short transaction of one insert (arrays
 * unnested: one statement, a handful of parameters, whatever the batch's size) and the progress.
 * A price file's rows go beside the current catalogue under their own import id; when the whole
 * file is in, one statement makes them the supplier's catalogue and the old rows are removed after.
 * A discount file (groups are few) is collected and replaces the supplier's discounts in one
 * transaction. A file that fails half-way leaves the catalogue as it was.
 */

type Row = Record<string, unknown>;

/** Rows per insert: large enough that a statement's cost is spread, small enough to keep memory flat. */
export const BATCH = 5_000;
/** Refused rows kept with their reason for the page; the rest are only counted. */
export const MAX_REPORTED_ERRORS = 50;

interface RowError {
  row: number;
  reason: string;
  value?: string;
}

interface PriceBatch {
  numbers: string[];
  titles: string[];
  descriptions: (string | null)[];
  units: (string | null)[];
  purchase: (string | null)[];
  recommended: (string | null)[];
  groups: (string | null)[];
}

const emptyBatch = (): PriceBatch => ({
  numbers: [],
  titles: [],
  descriptions: [],
  units: [],
  purchase: [],
  recommended: [],
  groups: [],
});

const cell = (cells: string[], column: number | undefined): string =>
  column === undefined ? '' : (cells[column] ?? '').trim();
const orNull = (s: string, max: number): string | null => (s === '' ? null : s.slice(0, max));

/** Adds one price-file row to the batch, or answers why it cannot be (a code of suppliercatalogues:rowErrors). */
export function addPriceRow(batch: PriceBatch, cells: string[], columns: ColumnMapping['columns']): RowError | null {
  const number = cell(cells, columns.articleNumber);
  if (!number) return { row: 0, reason: 'ARTICLE_NUMBER_MISSING' };
  if (number.length > 100) return { row: 0, reason: 'ARTICLE_NUMBER_TOO_LONG', value: number.slice(0, 100) };
  const title = cell(cells, columns.title);
  if (!title) return { row: 0, reason: 'TITLE_MISSING', value: number };
  const purchaseText = cell(cells, columns.purchasePrice);
  const purchase = parseAmount(purchaseText, 4);
  if (purchase === undefined) return { row: 0, reason: 'PURCHASE_PRICE_INVALID', value: purchaseText.slice(0, 50) };
  const recommendedText = cell(cells, columns.recommendedPrice);
  const recommended = parseAmount(recommendedText, 2);
  if (recommended === undefined)
    return { row: 0, reason: 'RECOMMENDED_PRICE_INVALID', value: recommendedText.slice(0, 50) };
  if ((purchase && purchase.length > 15) || (recommended && recommended.length > 15))
    return { row: 0, reason: 'PRICE_TOO_LARGE', value: number };
  batch.numbers.push(number);
  batch.titles.push(title.slice(0, 500));
  batch.descriptions.push(orNull(cell(cells, columns.description), 2000));
  batch.units.push(orNull(cell(cells, columns.unit), 20));
  batch.purchase.push(purchase);
  batch.recommended.push(recommended);
  batch.groups.push(orNull(cell(cells, columns.discountGroup), 50));
  return null;
}

/** One batch into the import's rows: a single insert of unnested arrays. */
async function insertPrices(trx: Trx, importId: string, supplierId: string, b: PriceBatch): Promise<void> {
  await trx.raw(
    `insert into supplier_catalogue_articles
       (import_id, supplier_id, article_number, title, description, unit, purchase_price, recommended_price, discount_group)
     select ?, ?, * from unnest(?::text[], ?::text[], ?::text[], ?::text[], ?::numeric[], ?::numeric[], ?::text[])`,
    // arrays with nulls travel as Postgres arrays with NULL elements (the driver's array encoding)
    [importId, supplierId, b.numbers, b.titles, b.descriptions, b.units, b.purchase, b.recommended, b.groups] as never,
  );
}

async function progress(
  trx: Trx,
  importId: string,
  p: { rowsDone: number; rowsFailed: number; bytesDone: number; errors: RowError[] },
): Promise<void> {
  await trx('supplier_catalogue_imports')
    .where({ id: importId })
    .update({
      rows_done: p.rowsDone,
      rows_failed: p.rowsFailed,
      bytes_done: p.bytesDone,
      errors: JSON.stringify(p.errors),
    });
}

interface Claimed {
  id: string;
  supplierId: string;
  kind: CatalogueKind;
  storageKey: string;
  format: CatalogueFormat;
  dialect: CsvDialect | null;
  mapping: ColumnMapping;
  fileSize: number;
  createdAt: Date;
}

/** Reads the file's rows (after the headings, when there are some) with their row numbers in the file. */
async function* mappedRows(c: Claimed, onBytes: (n: number) => void): AsyncGenerator<{ n: number; cells: string[] }> {
  const { body } = await getFileStore().get(c.storageKey);
  let n = 0;
  for await (const cells of catalogueRows(body as Readable, c.format, c.dialect, onBytes)) {
    n++;
    if (n === 1 && c.mapping.header) continue;
    yield { n, cells };
  }
}

async function loadPrices(tenant: TenantScope, c: Claimed): Promise<void> {
  let bytesDone = 0;
  let rowsDone = 0;
  let rowsFailed = 0;
  const errors: RowError[] = [];
  let batch = emptyBatch();
  const flush = async () => {
    const b = batch;
    batch = emptyBatch();
    const p = { rowsDone: rowsDone + b.numbers.length, rowsFailed, bytesDone, errors };
    await withTenant(tenant, async (trx) => {
      if (b.numbers.length) await insertPrices(trx, c.id, c.supplierId, b);
      await progress(trx, c.id, p);
    });
    rowsDone = p.rowsDone;
  };
  // one batch is written while the next is read and checked: the database and the parser work side
  // by side (two cores), still at most two batches in memory
  let writing: Promise<void> = Promise.resolve();
  try {
    for await (const { n, cells } of mappedRows(c, (k) => (bytesDone += k))) {
      const error = addPriceRow(batch, cells, c.mapping.columns);
      if (error) {
        rowsFailed++;
        if (errors.length < MAX_REPORTED_ERRORS) errors.push({ ...error, row: n });
      }
      if (batch.numbers.length >= BATCH) {
        await writing;
        writing = flush();
        // observed here so that a failure waits for the next await instead of being unhandled
        writing.catch(() => undefined);
      }
    }
  } catch (e) {
    // the batch being written lands before the failed load's rows are cleared
    await writing.catch(() => undefined);
    throw e;
  }
  await writing;
  await flush();
  // the whole file is in: its rows become the catalogue in one statement, unless a newer file did first
  const replaced = await withTenant(tenant, async (trx) => {
    const current: Row | undefined = await trx('supplier_catalogues as c')
      .leftJoin('supplier_catalogue_imports as i', 'i.id', 'c.current_import_id')
      .where('c.supplier_id', c.supplierId)
      .forUpdate('c')
      .first('c.current_import_id', 'i.created_at');
    const newer = current?.created_at && new Date(current.created_at as string) > c.createdAt;
    const now = new Date();
    if (newer) {
      await trx('supplier_catalogue_imports').where({ id: c.id }).update({ status: 'replaced', finished_at: now });
      return c.id;
    }
    await trx('supplier_catalogues')
      .where({ supplier_id: c.supplierId })
      .update({ current_import_id: c.id, article_count: rowsDone, imported_at: now });
    await trx('supplier_catalogue_imports')
      .where({ id: c.id })
      .update({ status: 'done', finished_at: now, bytes_done: c.fileSize });
    if (current?.current_import_id)
      await trx('supplier_catalogue_imports').where({ id: current.current_import_id }).update({ status: 'replaced' });
    return (current?.current_import_id as string | null) ?? null;
  });
  if (replaced) await clearRows(tenant, replaced);
}

/** Removes an import's rows (a replaced catalogue, a failed load) in its own transaction. */
async function clearRows(tenant: TenantScope, importId: string): Promise<void> {
  await withTenant(tenant, (trx) => trx('supplier_catalogue_articles').where({ import_id: importId }).delete());
}

async function loadDiscounts(tenant: TenantScope, c: Claimed): Promise<void> {
  let bytesDone = 0;
  let rowsFailed = 0;
  const errors: RowError[] = [];
  const percents = new Map<string, string>();
  for await (const { n, cells } of mappedRows(c, (k) => (bytesDone += k))) {
    const group = cell(cells, c.mapping.columns.discountGroup);
    const text = cell(cells, c.mapping.columns.percent);
    const percent = parseAmount(text, 3);
    const error: RowError | null = !group
      ? { row: n, reason: 'DISCOUNT_GROUP_MISSING' }
      : group.length > 50
        ? { row: n, reason: 'DISCOUNT_GROUP_TOO_LONG', value: group.slice(0, 50) }
        : !percent || Number(percent) > 100
          ? { row: n, reason: 'PERCENT_INVALID', value: text.slice(0, 50) }
          : null;
    if (error) {
      rowsFailed++;
      if (errors.length < MAX_REPORTED_ERRORS) errors.push(error);
    } else percents.set(group, percent!); // a group twice: the later row wins
  }
  await withTenant(tenant, async (trx) => {
    await trx('supplier_catalogue_discounts').where({ supplier_id: c.supplierId }).delete();
    if (percents.size)
      await trx.raw(
        `insert into supplier_catalogue_discounts (supplier_id, discount_group, percent)
         select ?, * from unnest(?::text[], ?::numeric[])`,
        [c.supplierId, [...percents.keys()], [...percents.values()]],
      );
    await trx('supplier_catalogues').where({ supplier_id: c.supplierId }).update({ discounts_imported_at: new Date() });
    await progress(trx, c.id, { rowsDone: percents.size, rowsFailed, bytesDone: c.fileSize, errors });
    await trx('supplier_catalogue_imports').where({ id: c.id }).update({ status: 'done', finished_at: new Date() });
  });
}

/** Loads a queued import to its end (the job's body; also what a test or the bench calls directly). */
export async function executeImport(tenant: TenantScope, importId: string, log: Logger = logger): Promise<void> {
  const claimed = await withTenant(tenant, async (trx) => {
    // only a queued import: the outbox hands a job over at least once, and a second copy finds it taken
    const [r] = (await trx('supplier_catalogue_imports')
      .where({ id: importId, status: 'queued' })
      .update({ status: 'running', started_at: new Date(), progressed_at: new Date() })
      .returning('*')) as Row[];
    return r;
  });
  if (!claimed) return;
  const preview = claimed.preview as { dialect: CsvDialect | null };
  const c: Claimed = {
    id: claimed.id as string,
    supplierId: claimed.supplier_id as string,
    kind: claimed.kind === 'discounts' ? 'discounts' : 'prices',
    storageKey: claimed.storage_key as string,
    format: claimed.file_format as CatalogueFormat,
    dialect: preview.dialect ?? null,
    mapping: claimed.mapping as ColumnMapping,
    fileSize: Number(claimed.file_size),
    createdAt: new Date(claimed.created_at as string),
  };
  try {
    if (c.kind === 'discounts') await loadDiscounts(tenant, c);
    else await loadPrices(tenant, c);
  } catch (err) {
    log.warn({ err, importId }, 'a supplier catalogue file could not be loaded');
    // a message key for the page (the detail, in English, is in the log above)
    const code = err instanceof AppError ? err.code : 'SERVER_ERROR';
    await withTenant(tenant, (trx) =>
      trx('supplier_catalogue_imports')
        .where({ id: importId })
        .update({ status: 'failed', error: code, finished_at: new Date() }),
    );
    if (c.kind === 'prices') await clearRows(tenant, c.id);
  }
}

export const catalogueImportJob = defineJob({
  id: 'supplier-catalogues.import',
  schema: z.object({ tenantId: z.string(), importId: z.string() }),
  attempts: 1,
  async handler(data, ctx) {
    const tenant = (await listTenants({ status: 'active' })).find((t) => t.id === data.tenantId);
    if (!tenant) return;
    await executeImport(tenant, data.importId, ctx.log);
  },
});
