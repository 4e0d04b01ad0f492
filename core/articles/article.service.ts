import { deleteFilesOf } from '~/core/files/files.service';
import type { Knex } from 'knex';
import { z } from 'zod';
import type { Ctx } from '~/core/context';
import { AppError, notFound, permissionDenied } from '~/core/errors/app-error';
import { isUuid, parseInput, zRequiredString } from '~/core/errors/validation';
import { recordHistory } from '~/core/history/history';
import { hasAccess, requireAccess } from '~/core/permissions/access';
import { proposeNumber } from '~/core/registers/propose-id';
import { containsPattern, duplicate, isForeignKeyViolation, uniqueViolation } from '~/core/registers/list-query';
import {
  DEFAULT_ARTICLE_STATUS,
  ZArticleQuery,
  ZCreateArticle,
  ZUpdateArticle,
  type ArticleStatus,
  type LineType,
  type ProductType,
  type TArticle,
} from './article.schema';

export const ARTICLE_ENTITY = 'article';

const READ = { permission: 'articles:read' } as const;
const PRICE = { permission: 'articles:price' } as const;

/** The trigram-indexed search expression (migrations/tenant/0003-articles: articles_search_idx). */
export const ARTICLE_SEARCH_SQL = `a.search_text`;

type Row = Record<string, unknown>;

/** Purchase prices are for people with articles:price only (spec section 6). */
export const canSeePurchasePrice = (ctx: Ctx): boolean => hasAccess(ctx.auth, PRICE);

const iso = (v: unknown): string => new Date(v as string).toISOString();

/** Articles with their group; money and quantities read as text so no float ever holds them. */
export function selectArticles(ctx: Ctx) {
  return ctx
    .trx('articles as a')
    .leftJoin('article_groups as g', 'g.id', 'a.article_group_id')
    .select(
      'a.id',
      'a.article_id',
      'a.title',
      'a.description',
      'a.status',
      'a.unit',
      'a.e_number',
      'a.article_group_id',
      'g.title as group_title',
      'g.display_name as group_display_name',
      ctx.trx.raw('a.price::text as price'),
      ctx.trx.raw('a.purchase_price::text as purchase_price'),
      ctx.trx.raw('a.recommended_price::text as recommended_price'),
      'a.product_type',
      'a.line_type',
      'a.house_work',
      'a.security',
      ctx.trx.raw('a.stock_amount::text as stock_amount'),
      'a.stock_location',
      'a.ref',
      'a.created_at',
      'a.updated_at',
    );
}

export function toArticle(row: Row, withPurchasePrice: boolean): TArticle {
  const article: TArticle = {
    id: row.id as string,
    articleId: row.article_id as string,
    title: row.title as string,
    description: (row.description as string | null) ?? null,
    status: row.status as ArticleStatus,
    unit: (row.unit as string | null) ?? null,
    eNumber: (row.e_number as string | null) ?? null,
    articleGroupId: (row.article_group_id as string | null) ?? null,
    group: row.article_group_id
      ? {
          id: row.article_group_id as string,
          title: row.group_title as string,
          displayName: row.group_display_name as string,
        }
      : null,
    price: row.price as string,
    recommendedPrice: (row.recommended_price as string | null) ?? null,
    productType: row.product_type as ProductType,
    lineType: row.line_type as LineType,
    houseWork: Boolean(row.house_work),
    security: Boolean(row.security),
    stockAmount: row.stock_amount as string,
    stockLocation: (row.stock_location as string | null) ?? null,
    ref: (row.ref as string | null) ?? null,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
  if (withPurchasePrice) article.purchasePrice = row.purchase_price as string;
  return article;
}

/** One article row of this tenant; a malformed or foreign id is not found. */
export async function requireArticleRow(ctx: Ctx, id: unknown): Promise<Row> {
  if (!isUuid(id)) throw notFound();
  const row = (await selectArticles(ctx).where('a.id', id).first()) as Row | undefined;
  if (!row) throw notFound();
  return row;
}

/**
 * `GET /articles`: articles filtered by text (article ID, title, E-number), group and status,
 * sorted and paged in SQL — one query for the page, one for the count, both index-backed.
 */
export async function listArticles(ctx: Ctx, raw: unknown = {}): Promise<{ articles: TArticle[]; totalCount: number }> {
  requireAccess(ctx.auth, READ);
  const f = parseInput(ZArticleQuery, raw);
  if (f.groupId && !isUuid(f.groupId)) return { articles: [], totalCount: 0 };
  const filter = (q: Knex.QueryBuilder) => {
    if (f.status !== 'all') q.where('a.status', f.status);
    if (f.groupId) q.where('a.article_group_id', f.groupId);
    if (f.q) q.whereRaw(`${ARTICLE_SEARCH_SQL} like ?`, [containsPattern(f.q)]);
    return q;
  };
  const [{ n }] = (await filter(ctx.trx('articles as a')).count({ n: '*' })) as { n: string | number }[];
  const dir = f.dir === 'desc' ? 'desc' : 'asc';
  const order =
    f.sort === 'articleId' ? `lower(a.article_id) ${dir}, a.id ${dir}` : `lower(a.title) ${dir}, a.id ${dir}`;
  const rows = (await filter(selectArticles(ctx)).orderByRaw(order).limit(f.limit).offset(f.offset)) as Row[];
  const withPrice = canSeePurchasePrice(ctx);
  return { articles: rows.map((r) => toArticle(r, withPrice)), totalCount: Number(n) };
}

/** `GET /articles/q?q=`: a search over active articles (what pickers and quick searches want). */
export function searchArticles(ctx: Ctx, raw: unknown = {}) {
  return listArticles(ctx, { ...(raw as object), status: 'active' });
}

/** `GET /articles/inactive`: the articles set inactive, same filters and paging. */
export function listInactiveArticles(ctx: Ctx, raw: unknown = {}) {
  return listArticles(ctx, { ...(raw as object), status: 'inactive' });
}

/** `GET /articles/details/{id}`: one article. */
export async function getArticle(ctx: Ctx, id: unknown): Promise<TArticle> {
  requireAccess(ctx.auth, READ);
  return toArticle(await requireArticleRow(ctx, id), canSeePurchasePrice(ctx));
}

/** `GET /articles/details/title/{title}`'s path. */
export const ZArticleTitle = z.object({ title: zRequiredString().max(200, 'ERROR_MAX_LENGTH') });

/**
 * `GET /articles/details/title/{title}`: the article with exactly this title (any case). Titles
 * are not unique: an active one is preferred, then the lowest article ID.
 */
export async function getArticleByTitle(ctx: Ctx, raw: unknown): Promise<TArticle> {
  requireAccess(ctx.auth, READ);
  const { title } = parseInput(ZArticleTitle, raw);
  const row = (await selectArticles(ctx)
    .whereRaw('lower(a.title) = lower(?)', [title])
    .orderByRaw(`a.status = 'active' desc, lower(a.article_id)`)
    .first()) as Row | undefined;
  if (!row) throw notFound();
  return toArticle(row, canSeePurchasePrice(ctx));
}

/** `GET /articles/id/propose?length`: the next free all-digit article ID of that length. */
export function proposeArticleId(ctx: Ctx, raw: unknown): Promise<{ id: string }> {
  requireAccess(ctx.auth, READ);
  return proposeNumber(ctx, 'articles', 'article_id', raw);
}

const duplicateArticleId = () => duplicate('DUPLICATE_ARTICLE_ID', 'articleId');
const duplicateENumber = () => duplicate('DUPLICATE_E_NUMBER', 'eNumber');
const invalidGroup = () =>
  new AppError('VALIDATION_FAILED', 400, { fields: { articleGroupId: ['ERROR_INVALID_VALUE'] } });

/** 409 before writing, so the answer names the field; the unique indexes still decide a race. */
async function assertUnique(ctx: Ctx, values: { articleId?: string; eNumber?: string | null }, exceptId?: string) {
  const { articleId, eNumber } = values;
  if (!articleId && !eNumber) return;
  const q = ctx
    .trx('articles')
    .select(
      ctx.trx.raw('bool_or(lower(article_id) = lower(?)) as id_taken', [articleId ?? '']),
      ctx.trx.raw('bool_or(lower(e_number) = lower(?)) as e_taken', [eNumber ?? '']),
    )
    .where((w) => {
      if (articleId) w.orWhereRaw('lower(article_id) = lower(?)', [articleId]);
      if (eNumber) w.orWhereRaw('lower(e_number) = lower(?)', [eNumber]);
    });
  if (exceptId) q.whereNot('id', exceptId);
  const [taken] = (await q) as { id_taken: boolean | null; e_taken: boolean | null }[];
  if (taken?.id_taken) throw duplicateArticleId();
  if (taken?.e_taken) throw duplicateENumber();
}

async function assertGroup(ctx: Ctx, groupId: string | null | undefined) {
  if (!groupId) return;
  if (!isUuid(groupId) || !(await ctx.trx('article_groups').where({ id: groupId }).first('id'))) throw invalidGroup();
}

function mapWriteError(e: unknown): never {
  const index = uniqueViolation(e);
  if (index === 'articles_article_id_idx') throw duplicateArticleId();
  if (index === 'articles_e_number_idx') throw duplicateENumber();
  if (isForeignKeyViolation(e)) throw invalidGroup();
  throw e;
}

/** Columns of the fields an input names; fields left out are not in the result. */
function columnsOf(input: Partial<Record<string, unknown>>): Record<string, unknown> {
  const map: Record<string, string> = {
    articleId: 'article_id',
    title: 'title',
    description: 'description',
    unit: 'unit',
    eNumber: 'e_number',
    articleGroupId: 'article_group_id',
    price: 'price',
    purchasePrice: 'purchase_price',
    recommendedPrice: 'recommended_price',
    productType: 'product_type',
    lineType: 'line_type',
    houseWork: 'house_work',
    security: 'security',
    stockLocation: 'stock_location',
    ref: 'ref',
    status: 'status',
  };
  return Object.fromEntries(
    Object.entries(input)
      .filter(([k, v]) => k in map && v !== undefined)
      .map(([k, v]) => [map[k]!, v]),
  );
}

/**
 * `POST /articles {article}`: creates an active article (spec section 4). Article ID and E-number
 * are unique (409 DUPLICATE_ARTICLE_ID / DUPLICATE_E_NUMBER); setting a purchase price needs
 * articles:price.
 */
export async function createArticle(ctx: Ctx, raw: unknown): Promise<TArticle> {
  requireAccess(ctx.auth, { permission: 'articles:create' });
  const input = parseInput(ZCreateArticle, raw);
  if (input.purchasePrice !== undefined && !canSeePurchasePrice(ctx)) throw permissionDenied();
  await assertUnique(ctx, input);
  await assertGroup(ctx, input.articleGroupId);
  let id: string;
  try {
    const [row] = (await ctx
      .trx('articles')
      .insert({ ...columnsOf(input), status: DEFAULT_ARTICLE_STATUS, created_at: ctx.now, updated_at: ctx.now })
      .returning('id')) as { id: string }[];
    id = row!.id;
  } catch (e) {
    mapWriteError(e);
  }
  await recordHistory(ctx, { entity: ARTICLE_ENTITY, entityId: id, action: 'create', data: historyData(input) });
  return getArticle(ctx, id);
}

/** History keeps what changed, without the purchase price (readers may lack articles:price). */
function historyData(values: Record<string, unknown>) {
  const { purchasePrice: _hidden, id: _id, ...rest } = values;
  return Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined));
}

/**
 * `PUT /articles {article}`: changes the fields given. Setting it inactive is how an article in use
 * leaves the pickers (delete is refused then). The stock amount changes only through stock moves.
 */
export async function updateArticle(ctx: Ctx, raw: unknown): Promise<TArticle> {
  requireAccess(ctx.auth, { permission: 'articles:edit' });
  const input = parseInput(ZUpdateArticle, raw);
  if (input.purchasePrice !== undefined && !canSeePurchasePrice(ctx)) throw permissionDenied();
  const before = toArticle(await requireArticleRow(ctx, input.id), true);
  const changed = Object.fromEntries(
    Object.entries(input).filter(
      ([k, v]) => k !== 'id' && v !== undefined && v !== (before as unknown as Record<string, unknown>)[k],
    ),
  );
  if (Object.keys(changed).length === 0) return getArticle(ctx, before.id);
  await assertUnique(
    ctx,
    {
      articleId:
        changed.articleId && String(changed.articleId).toLowerCase() !== before.articleId.toLowerCase()
          ? (changed.articleId as string)
          : undefined,
      eNumber:
        changed.eNumber && String(changed.eNumber).toLowerCase() !== before.eNumber?.toLowerCase()
          ? (changed.eNumber as string)
          : undefined,
    },
    before.id,
  );
  await assertGroup(ctx, changed.articleGroupId as string | null | undefined);
  try {
    await ctx
      .trx('articles')
      .where({ id: before.id })
      .update({ ...columnsOf(changed), updated_at: ctx.now });
  } catch (e) {
    mapWriteError(e);
  }
  const from = Object.fromEntries(
    Object.keys(changed).map((k) => [k, (before as unknown as Record<string, unknown>)[k] ?? null]),
  );
  await recordHistory(ctx, {
    entity: ARTICLE_ENTITY,
    entityId: before.id,
    action: changed.status ? `status.${String(changed.status)}` : 'edit',
    data: { before: historyData(from), after: historyData(changed) },
  });
  return getArticle(ctx, before.id);
}

/** What still points at an article, by kind (stock moves are its history, not a use). */
async function articleUse(ctx: Ctx, id: string): Promise<Record<string, number>> {
  const [row] = (
    await ctx.trx.raw(
      `select (select count(*) from customer_articles where article_id = :id) as customers,
            (select count(*) from business_object_articles where article_id = :id) as objects,
            (select count(*) from article_suppliers where article_id = :id) as suppliers`,
      { id },
    )
  ).rows as Record<string, string | number>[];
  return Object.fromEntries(Object.entries(row ?? {}).map(([k, v]) => [k, Number(v)]));
}

const deleteRefused = (usedBy: Record<string, number>) =>
  new AppError('DELETE_NOT_POSSIBLE_SET_INACTIVE', 409, {
    usedBy: Object.fromEntries(Object.entries(usedBy).filter(([, n]) => n > 0)),
  });

/**
 * `DELETE /articles/{id}`: only an article nothing uses (customer or object prices, suppliers,
 * and the rows of later areas that reference it); otherwise 409 DELETE_NOT_POSSIBLE_SET_INACTIVE,
 * and the UI offers to set it inactive instead (spec section 8).
 */
export async function deleteArticle(ctx: Ctx, id: unknown): Promise<void> {
  requireAccess(ctx.auth, { permission: 'articles:delete' });
  const row = await requireArticleRow(ctx, id);
  const usedBy = await articleUse(ctx, row.id as string);
  if (Object.values(usedBy).some((n) => n > 0)) throw deleteRefused(usedBy);
  try {
    await ctx
      .trx('articles')
      .where({ id: row.id as string })
      .delete();
  } catch (e) {
    // Rows of areas added later (work-order and proposal rows) reference articles too.
    if (isForeignKeyViolation(e)) throw deleteRefused({ other: 1 });
    throw e;
  }
  await deleteFilesOf(ctx, 'article', [row.id as string]);
  await recordHistory(ctx, {
    entity: ARTICLE_ENTITY,
    entityId: row.id as string,
    action: 'delete',
    data: { articleId: row.article_id, title: row.title },
  });
}

export interface HistoryEntry {
  id: string;
  action: string;
  userName: string | null;
  at: string;
  data: unknown;
}

export const ZHistoryQuery = z.object({
  offset: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

/** `GET /articles/{id}/history`: who did what to the article, newest first (spec: history rows). */
export async function articleHistory(
  ctx: Ctx,
  id: unknown,
  raw: unknown = {},
): Promise<{ history: HistoryEntry[]; totalCount: number }> {
  requireAccess(ctx.auth, READ);
  const row = await requireArticleRow(ctx, id);
  const { offset, limit } = parseInput(ZHistoryQuery, raw);
  const base = ctx.trx('history as h').where({ 'h.entity': ARTICLE_ENTITY, 'h.entity_id': row.id as string });
  const [{ n }] = (await base.clone().count({ n: '*' })) as { n: string | number }[];
  const rows = (await base
    .clone()
    .leftJoin('users as u', 'u.id', 'h.user_id')
    .select('h.id', 'h.action', 'h.at', 'h.data', 'u.name as user_name')
    .orderBy([
      { column: 'h.at', order: 'desc' },
      { column: 'h.id', order: 'desc' },
    ])
    .limit(limit)
    .offset(offset)) as Row[];
  return {
    totalCount: Number(n),
    history: rows.map((r) => ({
      id: String(r.id),
      action: r.action as string,
      userName: (r.user_name as string | null) ?? null,
      at: iso(r.at),
      data: r.data ?? null,
    })),
  };
}
