import type { Readable } from 'node:stream';
import type { Ctx } from '~/core/context';
import { AppError, notFound } from '~/core/errors/app-error';
import { isUuid, parseInput } from '~/core/errors/validation';
import type { Received } from '~/core/files/receive';
import { getFileStore } from '~/core/files/store';
import { enqueueInTransaction } from '~/core/jobs/outbox';
import { requireAccess } from '~/core/permissions/access';
import { containsPattern } from '~/core/registers/list-query';
import { catalogueRows, CSV_TYPE, sniffCsv, unreadable, type CatalogueFormat, type CsvDialect } from './catalogue-file';
import {
  FIELDS,
  REQUIRED_FIELDS,
  ZCatalogueQuery,
  ZConfirmUpload,
  ZProductsQuery,
  type CatalogueKind,
  type ColumnMapping,
} from './catalogue.schema';
export { SUPPLIER_OPTION_PREFIX } from './catalogue.schema';
import { catalogueImportJob } from './catalogue-import';

/*
 * Supplier catalogues (issue 33 item 6; decision 056): a wholesaler's price file and discount file,
 * uploaded on the supplier's page (or the API), mapped once per supplier, loaded in the background
 * (catalogue-import.ts) and searched from the article pickers.
 */

type Row = Record<string, unknown>;

export const CATALOGUE_ACCESS = {
  /** The supplier's price-list section and its search. */
  read: { permission: 'suppliers:read', module: 'supplier_inventory' },
  /** Uploading and confirming files. */
  edit: { permission: 'suppliers:edit', module: 'supplier_inventory' },
  /** The article pickers' search across every catalogue. */
  search: { permission: 'articles:read', module: 'supplier_inventory' },
} as const;

/** Rows shown to confirm a mapping (spec section 9: the first 10). */
export const PREVIEW_ROWS = 10;
/** The supplier-inventory results an article picker adds (spec section 9). */
export const PICKER_RESULTS = 10;
/** A catalogue file may be this large (hundreds of thousands of rows fit well below). */
export const MAX_CATALOGUE_BYTES = 200 * 1024 * 1024;

/** What the upload's body reading (before the unit of work) hands the handler: the stored file and its first rows. */
export interface ReceivedCatalogue {
  received: Received;
  format: CatalogueFormat;
  dialect: CsvDialect | null;
  /** The first rows (PREVIEW_ROWS, and one more in case the first is headings). */
  rows: string[][];
}

/** The first rows of a stored catalogue file, read outside any transaction; an empty or unreadable file is refused. */
export async function readCatalogueHead(received: Received): Promise<ReceivedCatalogue> {
  const file = received.files[0]!;
  const format: CatalogueFormat = file.contentType === CSV_TYPE ? 'csv' : 'xlsx';
  const store = getFileStore();
  let dialect: CsvDialect | null = null;
  if (format === 'csv') {
    const head = await store.get(file.storageKey, { start: 0, end: 64 * 1024 - 1 });
    const chunks: Buffer[] = [];
    for await (const c of head.body) chunks.push(c as Buffer);
    dialect = sniffCsv(Buffer.concat(chunks));
  }
  const rows: string[][] = [];
  const { body } = await store.get(file.storageKey);
  for await (const row of catalogueRows(body as Readable, format, dialect)) {
    rows.push(row.slice(0, 200));
    if (rows.length > PREVIEW_ROWS) break;
  }
  if (!rows.length) throw unreadable('The file has no rows');
  return { received, format, dialect, rows };
}

export interface CatalogueUpload {
  uploadId: string;
  kind: CatalogueKind;
  fileName: string;
  format: CatalogueFormat;
  /** The first rows as read (the first may be headings), at most PREVIEW_ROWS + 1. */
  rows: string[][];
  columnCount: number;
  /** The fields this kind of file maps, and which must be mapped. */
  fields: readonly string[];
  required: readonly string[];
  /** The supplier's last mapping when it fits this file, else a guess from the headings. */
  mapping: ColumnMapping;
  /** Whether `mapping` is the one kept from the supplier's last file. */
  mappingKept: boolean;
}

export interface CatalogueImport {
  id: string;
  kind: CatalogueKind;
  status: 'uploaded' | 'queued' | 'running' | 'done' | 'failed' | 'replaced';
  fileName: string;
  fileSize: number;
  bytesDone: number;
  rowsDone: number;
  rowsFailed: number;
  /** The first rows refused: {row (in the file, from 1), reason (suppliercatalogues:rowErrors.*), value?}. */
  errors: { row: number; reason: string; value?: string }[];
  error: string | null;
  createdAt: string;
  finishedAt: string | null;
}

export interface CatalogueState {
  supplierId: string;
  articleCount: number;
  importedAt: string | null;
  discountCount: number;
  discountsImportedAt: string | null;
  latest: { prices: CatalogueImport | null; discounts: CatalogueImport | null };
}

/** A catalogue article as searches answer it (spec: supplier inventory article), with the row's `ref`. */
export interface CatalogueArticle {
  id: string;
  supplierId: string;
  supplierTitle: string;
  articleNumber: string;
  articleTitle: string;
  articleDescription: string | null;
  unit: string | null;
  /** The purchase price after the supplier's discount for the article's group. */
  purchasePrice: string | null;
  /** The purchase price as the price file has it. */
  listPurchasePrice: string | null;
  discountGroup: string | null;
  discountPercent: string | null;
  recommendedSalesPrice: string | null;
  ref: CatalogueRef;
}

/** What a row picked from a catalogue keeps of where it came from (spec: ref, type supplier-inventory). */
export interface CatalogueRef {
  type: 'supplier-inventory';
  supplierId: string;
  articleNumber: string;
  id: string;
}

const kindOf = (k: unknown): CatalogueKind => (k === 'discounts' ? 'discounts' : 'prices');

async function requireSupplier(ctx: Ctx, id: unknown): Promise<string> {
  if (!isUuid(id)) throw notFound();
  const s: Row | undefined = await ctx.trx('suppliers').where({ id }).first('id');
  if (!s) throw notFound();
  return id;
}

const HEADING_GUESSES: Record<string, RegExp> = {
  articleNumber:
    /^(art(ikel)?\.?\s*(nr|nummer|no|number|id)|artnr|item\s*(no|number)|sku|product\s*(no|code)|kood|artikuls|артикул)/i,
  title: /^(ben[äa]mning|namn|title|name|description|nimetus|nosaukums|наименование|название)/i,
  description: /^(beskrivning|text|long\s*description|kirjeldus|apraksts|описание)/i,
  unit: /^(enhet|unit|uom|[üu]hik|vien[īi]ba|ед)/i,
  purchasePrice:
    /^(netto|nettopris|inpris|ink[öo]pspris|purchase|cost|net\s*price|hind|cena|цена|brutto|bruttopris|list\s*price|pris)/i,
  recommendedPrice: /^(rek|rekommenderat|recommended|rrp|msrp|ca.?pris|utpris|f[öo]rs[äa]ljningspris|sales\s*price)/i,
  discountGroup:
    /^(rabattgrupp|rabatt\s*grupp|discount\s*group|rab\.?grp|allahindlusgrupp|atlaides grupa|группа скидки)/i,
  percent: /^(rabatt|procent|percent|discount|%|allahindlus|atlaide|скидка)/i,
};

/** A mapping guessed from headings: each field takes the first unused heading that looks like it. */
function guessMapping(kind: CatalogueKind, first: string[]): ColumnMapping {
  const looksLikeHeadings = first.some((c) => c !== '') && first.every((c) => c === '' || !/^[-+]?[\d\s.,%]+$/.test(c));
  const columns: Record<string, number> = {};
  if (!looksLikeHeadings) return { header: false, columns };
  const used = new Set<number>();
  // the specific ones first: "Rabattgrupp" is a discount group before "Rabatt" can take it as a percent
  const order =
    kind === 'prices'
      ? ['recommendedPrice', 'discountGroup', 'articleNumber', 'description', 'title', 'unit', 'purchasePrice']
      : ['discountGroup', 'percent'];
  for (const field of order) {
    const i = first.findIndex((h, idx) => !used.has(idx) && HEADING_GUESSES[field]!.test(h.trim()));
    if (i >= 0) {
      columns[field] = i;
      used.add(i);
    }
  }
  return { header: true, columns };
}

function mappingFits(kind: CatalogueKind, mapping: unknown, columnCount: number): mapping is ColumnMapping {
  const m = mapping as ColumnMapping | null;
  if (!m || typeof m !== 'object' || !m.columns) return false;
  return REQUIRED_FIELDS[kind].every((f) => typeof m.columns[f] === 'number' && m.columns[f]! < columnCount);
}

function toUpload(r: Row, kept: unknown): CatalogueUpload {
  const kind = kindOf(r.kind);
  const preview = r.preview as { rows: string[][] };
  const columnCount = Math.max(0, ...preview.rows.map((x) => x.length));
  const fits = mappingFits(kind, kept, columnCount);
  return {
    uploadId: r.id as string,
    kind,
    fileName: r.file_name as string,
    format: r.file_format as CatalogueFormat,
    rows: preview.rows,
    columnCount,
    fields: FIELDS[kind],
    required: REQUIRED_FIELDS[kind],
    mapping: fits ? (kept as ColumnMapping) : guessMapping(kind, preview.rows[0] ?? []),
    mappingKept: fits,
  };
}

/**
 * POST /supplierinventory/upload/{id} and …/discount: records the file the request's body stored
 * (read before the unit of work: readCatalogueHead) and answers its first rows with the mapping to
 * confirm. 404 for a supplier that is not this tenant's (the stored file is then removed).
 */
export async function recordUpload(
  ctx: Ctx,
  supplierId: unknown,
  kind: CatalogueKind,
  got: ReceivedCatalogue,
): Promise<CatalogueUpload> {
  requireAccess(ctx.auth, CATALOGUE_ACCESS.edit);
  const id = await requireSupplier(ctx, supplierId);
  const file = got.received.files[0]!;
  const [row] = (await ctx
    .trx('supplier_catalogue_imports')
    .insert({
      supplier_id: id,
      kind,
      storage_key: file.storageKey,
      file_name: file.name,
      file_size: file.size,
      file_format: got.format,
      preview: JSON.stringify({ rows: got.rows, dialect: got.dialect }),
      create_user_id: ctx.auth.user.id,
      created_at: ctx.now,
    })
    .returning('*')) as Row[];
  const kept: Row | undefined = await ctx.trx('supplier_catalogues').where({ supplier_id: id }).first();
  return toUpload(row!, kept?.[kind === 'prices' ? 'price_mapping' : 'discount_mapping']);
}

/**
 * A load that has written nothing for this long is taken for dead (its worker stopped): shown as
 * failed, so the page stops waiting and a new file can be loaded. A batch takes well under a second.
 */
export const STALLED_AFTER_MS = 10 * 60_000;

function toImport(r: Row, now: Date): CatalogueImport {
  const stalled =
    r.status === 'running' &&
    now.getTime() - new Date((r.progressed_at ?? r.started_at) as string).getTime() > STALLED_AFTER_MS;
  return {
    id: r.id as string,
    kind: kindOf(r.kind),
    status: stalled ? 'failed' : (r.status as CatalogueImport['status']),
    fileName: r.file_name as string,
    fileSize: Number(r.file_size),
    bytesDone: Number(r.bytes_done),
    rowsDone: Number(r.rows_done),
    rowsFailed: Number(r.rows_failed),
    errors: (r.errors ?? []) as CatalogueImport['errors'],
    error: stalled ? 'stalled' : ((r.error as string | null) ?? null),
    createdAt: new Date(r.created_at as string).toISOString(),
    finishedAt: r.finished_at ? new Date(r.finished_at as string).toISOString() : null,
  };
}

/**
 * POST …/upload/{id}/confirm and …/discount/confirm {uploadId, header, columns}: keeps the mapping
 * for the supplier (offered with its next file) and starts loading the file in the background (a
 * job promised in this transaction). A confirmed upload answers its import as it stands (a second
 * click starts nothing). A required field without a column, or a column the file does not have,
 * is 400 with the field.
 */
export async function confirmUpload(ctx: Ctx, kind: CatalogueKind, raw: unknown): Promise<{ import: CatalogueImport }> {
  requireAccess(ctx.auth, CATALOGUE_ACCESS.edit);
  const supplierId = await requireSupplier(ctx, (raw as Row | null)?.id);
  const input = parseInput(ZConfirmUpload(kind), raw);
  if (!isUuid(input.uploadId)) throw notFound();
  const upload: Row | undefined = await ctx
    .trx('supplier_catalogue_imports')
    .where({ id: input.uploadId, supplier_id: supplierId, kind })
    .forUpdate()
    .first();
  if (!upload) throw notFound();
  if (upload.status !== 'uploaded') return { import: toImport(upload, ctx.now) };
  const columnCount = Math.max(0, ...(upload.preview as { rows: string[][] }).rows.map((x) => x.length));
  const fields: Record<string, string[]> = {};
  for (const f of REQUIRED_FIELDS[kind])
    if (input.columns[f] === undefined) fields[`columns.${f}`] = ['ERROR_REQUIRED_FIELD'];
  for (const [f, c] of Object.entries(input.columns))
    if (c !== undefined && c >= columnCount) fields[`columns.${f}`] = ['ERROR_INVALID_VALUE'];
  if (Object.keys(fields).length) throw new AppError('VALIDATION_FAILED', 400, { fields });
  const mapping: ColumnMapping = {
    header: input.header,
    columns: Object.fromEntries(Object.entries(input.columns).filter(([, c]) => c !== undefined)),
  };
  const column = kind === 'prices' ? 'price_mapping' : 'discount_mapping';
  await ctx
    .trx('supplier_catalogues')
    .insert({ supplier_id: supplierId, [column]: JSON.stringify(mapping) })
    .onConflict('supplier_id')
    .merge([column]);
  const [row] = (await ctx
    .trx('supplier_catalogue_imports')
    .where({ id: upload.id })
    .update({ status: 'queued', mapping: JSON.stringify(mapping) })
    .returning('*')) as Row[];
  await enqueueInTransaction(ctx.trx, ctx.tenant, catalogueImportJob, {
    tenantId: ctx.tenant.id,
    importId: upload.id as string,
  });
  return { import: toImport(row!, ctx.now) };
}

/**
 * GET /supplierinventory/{id}: the supplier's catalogue (articles, when loaded, discount groups)
 * and its latest price and discount imports (the page polls it for the progress bar).
 */
export async function catalogueState(ctx: Ctx, supplierId: unknown): Promise<CatalogueState> {
  requireAccess(ctx.auth, CATALOGUE_ACCESS.read);
  const id = await requireSupplier(ctx, supplierId);
  const [cat, discounts, latest] = await Promise.all([
    ctx.trx('supplier_catalogues').where({ supplier_id: id }).first() as Promise<Row | undefined>,
    ctx.trx('supplier_catalogue_discounts').where({ supplier_id: id }).count({ n: '*' }) as Promise<Row[]>,
    ctx.trx
      .raw(
        `select distinct on (kind) * from supplier_catalogue_imports
          where supplier_id = ? and status <> 'uploaded'
          order by kind, created_at desc, id`,
        [id],
      )
      .then((r: { rows: Row[] }) => r.rows),
  ]);
  const of = (k: CatalogueKind) => {
    const r = latest.find((x) => x.kind === k);
    return r ? toImport(r, ctx.now) : null;
  };
  return {
    supplierId: id,
    articleCount: Number(cat?.article_count ?? 0),
    importedAt: cat?.imported_at ? new Date(cat.imported_at as string).toISOString() : null,
    discountCount: Number(discounts[0]?.n ?? 0),
    discountsImportedAt: cat?.discounts_imported_at
      ? new Date(cat.discounts_imported_at as string).toISOString()
      : null,
    latest: { prices: of('prices'), discounts: of('discounts') },
  };
}

/**
 * The purchase price after the group's discount, rounded to öre (decision 056): list × (1 − % / 100).
 * In SQL so that a page of results is priced by the statement that finds it.
 */
const NET_PRICE = `round(a.purchase_price * (100 - coalesce(d.percent, 0)) / 100, 2)`;

const ARTICLE_COLUMNS = `a.id::text as id, a.supplier_id, s.title as supplier_title, a.article_number, a.title,
  a.description, a.unit, a.discount_group, d.percent::text as discount_percent,
  a.purchase_price::text as list_price, (${NET_PRICE})::text as net_price,
  a.recommended_price::text as recommended_price`;

const DISCOUNT_JOIN = `left join supplier_catalogue_discounts d
  on d.supplier_id = a.supplier_id and d.discount_group = a.discount_group`;

const trimPrice = (v: unknown): string | null => {
  if (v === null || v === undefined) return null;
  const s = String(v);
  // the list price keeps four decimals in the file's precision; shown with at least two
  return s.includes('.') ? s.replace(/(\.\d\d\d*?)0+$/, '$1') : `${s}.00`;
};

function toArticle(r: Row): CatalogueArticle {
  const supplierId = r.supplier_id as string;
  return {
    id: r.id as string,
    supplierId,
    supplierTitle: r.supplier_title as string,
    articleNumber: r.article_number as string,
    articleTitle: r.title as string,
    articleDescription: (r.description as string | null) ?? null,
    unit: (r.unit as string | null) ?? null,
    purchasePrice: trimPrice(r.net_price),
    listPurchasePrice: trimPrice(r.list_price),
    discountGroup: (r.discount_group as string | null) ?? null,
    discountPercent:
      r.discount_percent === null || r.discount_percent === undefined ? null : String(r.discount_percent),
    recommendedSalesPrice: trimPrice(r.recommended_price),
    ref: { type: 'supplier-inventory', supplierId, articleNumber: r.article_number as string, id: r.id as string },
  };
}

/**
 * GET /supplierinventory/query/articles ?supplierId&q&page&pageSize → {articles, totalCount}: the
 * supplier's current catalogue, by article number, `q` anywhere in the number or the title (the
 * trigram index). Three statements whatever the catalogue's size.
 */
export async function searchCatalogue(
  ctx: Ctx,
  raw: unknown,
): Promise<{ articles: CatalogueArticle[]; totalCount: number; totalCountCapped: boolean }> {
  requireAccess(ctx.auth, CATALOGUE_ACCESS.search);
  const input = parseInput(ZCatalogueQuery, raw);
  await requireSupplier(ctx, input.supplierId);
  const cat: Row | undefined = await ctx
    .trx('supplier_catalogues')
    .where({ supplier_id: input.supplierId })
    .first('current_import_id', 'article_count');
  if (!cat?.current_import_id) return { articles: [], totalCount: 0, totalCountCapped: false };
  const where = input.q ? `a.import_id = ? and a.search_text like ?` : `a.import_id = ?`;
  const importId = cat.current_import_id as string;
  const params: string[] = input.q ? [importId, containsPattern(input.q)] : [importId];
  const [page, count] = await Promise.all([
    ctx.trx.raw(
      `select ${ARTICLE_COLUMNS}
         from supplier_catalogue_articles a
         join suppliers s on s.id = a.supplier_id
         ${DISCOUNT_JOIN}
        where ${where}
        order by a.article_number, a.id
        limit ? offset ?`,
      [...params, input.pageSize, (input.page - 1) * input.pageSize],
    ),
    // the whole catalogue's count is kept with it; a search counts up to COUNT_CAP matches (a
    // word in a tenth of a million rows is not counted row by row on every keystroke)
    input.q
      ? ctx.trx.raw(
          `select count(*)::int as n from (select 1 from supplier_catalogue_articles a where ${where} limit ?) m`,
          [...params, COUNT_CAP + 1],
        )
      : { rows: [{ n: cat.article_count }] },
  ]);
  const n = Number((count.rows as Row[])[0]!.n);
  return {
    articles: (page.rows as Row[]).map(toArticle),
    totalCount: Math.min(n, COUNT_CAP),
    totalCountCapped: n > COUNT_CAP,
  };
}

/** A search's matches are counted up to this many; more is "at least this many" (totalCountCapped). */
export const COUNT_CAP = 1_000;

/**
 * GET /sbsc/products ?q&limit (default and picker's 10) → {products}: every supplier's current
 * catalogue at once, `q` (two characters at least) anywhere in the number or title; an exact
 * article number first, then the first matches found, by number. What the article pickers add
 * below our own articles. Two statements; neither sorts every match of a common word.
 */
export async function catalogueProducts(ctx: Ctx, raw: unknown): Promise<{ products: CatalogueArticle[] }> {
  requireAccess(ctx.auth, CATALOGUE_ACCESS.search);
  const input = parseInput(ZProductsQuery, raw);
  if (input.q.length < 2) return { products: [] };
  const current = `a.import_id in (select current_import_id from supplier_catalogues where current_import_id is not null)`;
  const [exact, found] = await Promise.all([
    ctx.trx.raw(
      `select ${ARTICLE_COLUMNS}
         from supplier_catalogue_articles a
         join suppliers s on s.id = a.supplier_id
         ${DISCOUNT_JOIN}
        where ${current} and a.article_number in (?, ?)
        order by a.article_number, a.id
        limit ?`,
      [input.q, input.q.toUpperCase(), input.limit],
    ),
    ctx.trx.raw(
      `select * from (
         select ${ARTICLE_COLUMNS}
           from supplier_catalogue_articles a
           join suppliers s on s.id = a.supplier_id
           ${DISCOUNT_JOIN}
          where ${current} and a.search_text like ?
          limit ?) m
        order by article_number, id`,
      [containsPattern(input.q), input.limit],
    ),
  ]);
  const seen = new Set<string>();
  const products = [...(exact.rows as Row[]), ...(found.rows as Row[])]
    .filter((r) => !seen.has(r.id as string) && seen.add(r.id as string))
    .slice(0, input.limit);
  return { products: products.map(toArticle) };
}

/**
 * A catalogue article by its id, in its supplier's current catalogue (a row picked in a picker):
 * undefined when it is not (another tenant's id, or a catalogue replaced since the search).
 */
export async function catalogueArticle(ctx: Ctx, id: string): Promise<CatalogueArticle | undefined> {
  if (!/^\d{1,18}$/.test(id)) return undefined;
  const { rows } = await ctx.trx.raw(
    `select ${ARTICLE_COLUMNS}
       from supplier_catalogue_articles a
       join supplier_catalogues c on c.current_import_id = a.import_id
       join suppliers s on s.id = a.supplier_id
       ${DISCOUNT_JOIN}
      where a.id = ?`,
    [id],
  );
  const r = (rows as Row[])[0];
  return r ? toArticle(r) : undefined;
}
