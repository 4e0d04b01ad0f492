import { z } from 'zod';
import type { Ctx } from '~/core/context';
import { AppError, permissionDenied } from '~/core/errors/app-error';
import { isUuid, parseInput } from '~/core/errors/validation';
import { recordHistory } from '~/core/history/history';
import { requireAccess } from '~/core/permissions/access';
import { zOptionalMoney } from '~/core/pricing';
import { containsPattern } from '~/core/registers/list-query';
import { ARTICLE_ENTITY, canSeePurchasePrice, requireArticleRow } from './article.service';

/** Who sells an article to us, what they call it and what they charge (spec: article suppliers). */
export interface ArticleSupplier {
  supplierId: string;
  supplierNumber: string;
  supplierTitle: string;
  supplierArticleNumber: string | null;
  /** Only for people with articles:price. */
  purchasePrice?: string | null;
  isPrimary: boolean;
}

const ZArticleSupplier = z.object({
  supplierId: z.string({ error: 'ERROR_REQUIRED_FIELD' }).min(1, 'ERROR_REQUIRED_FIELD'),
  supplierArticleNumber: z
    .string({ error: 'ERROR_INVALID_VALUE' })
    .trim()
    .max(100, 'ERROR_MAX_LENGTH')
    .nullish()
    .transform((v) => (v ? v : null)),
  purchasePrice: zOptionalMoney().optional(),
  isPrimary: z.boolean({ error: 'ERROR_INVALID_VALUE' }).default(false),
});

export const ZArticleSuppliers = z.object({
  suppliers: z.array(ZArticleSupplier, { error: 'ERROR_INVALID_VALUE' }).max(100, 'ERROR_MAX_LENGTH'),
});

const fieldError = (path: string, code: string) =>
  new AppError('VALIDATION_FAILED', 400, { fields: { [path]: [code] } });

/** `GET /articles/{id}/suppliers`: the article's suppliers, the primary one first. */
export async function listArticleSuppliers(ctx: Ctx, id: unknown): Promise<{ suppliers: ArticleSupplier[] }> {
  requireAccess(ctx.auth, { permission: 'articles:read' });
  const article = await requireArticleRow(ctx, id);
  return { suppliers: await suppliersOf(ctx, article.id as string) };
}

async function suppliersOf(ctx: Ctx, articleId: string): Promise<ArticleSupplier[]> {
  const rows = (await ctx
    .trx('article_suppliers as x')
    .join('suppliers as s', 's.id', 'x.supplier_id')
    .where('x.article_id', articleId)
    .select(
      'x.supplier_id',
      's.number',
      's.title',
      'x.supplier_article_number',
      ctx.trx.raw('x.purchase_price::text as purchase_price'),
      'x.is_primary',
    )
    .orderByRaw('x.is_primary desc, lower(s.title), s.id')) as Record<string, unknown>[];
  const withPrice = canSeePurchasePrice(ctx);
  return rows.map((r) => {
    const s: ArticleSupplier = {
      supplierId: r.supplier_id as string,
      supplierNumber: r.number as string,
      supplierTitle: r.title as string,
      supplierArticleNumber: (r.supplier_article_number as string | null) ?? null,
      isPrimary: Boolean(r.is_primary),
    };
    if (withPrice) s.purchasePrice = (r.purchase_price as string | null) ?? null;
    return s;
  });
}

/**
 * `PUT /articles/{id}/suppliers {suppliers}`: replaces the article's suppliers. Each supplier once,
 * at most one primary (a single supplier is primary by itself). Without articles:price the purchase
 * prices cannot be set and the ones stored are kept.
 */
export async function saveArticleSuppliers(
  ctx: Ctx,
  id: unknown,
  raw: unknown,
): Promise<{ suppliers: ArticleSupplier[] }> {
  requireAccess(ctx.auth, { permission: 'articles:edit' });
  const { suppliers } = parseInput(ZArticleSuppliers, raw);
  const withPrice = canSeePurchasePrice(ctx);
  if (!withPrice && suppliers.some((s) => s.purchasePrice != null)) throw permissionDenied();
  const article = await requireArticleRow(ctx, id);
  const articleId = article.id as string;
  const seen = new Set<string>();
  suppliers.forEach((s, i) => {
    if (!isUuid(s.supplierId)) throw fieldError(`suppliers.${i}.supplierId`, 'ERROR_INVALID_VALUE');
    if (seen.has(s.supplierId)) throw fieldError(`suppliers.${i}.supplierId`, 'ERROR_INVALID_VALUE');
    seen.add(s.supplierId);
  });
  if (suppliers.filter((s) => s.isPrimary).length > 1) throw fieldError('suppliers', 'ERROR_INVALID_VALUE');
  if (suppliers.length === 1) suppliers[0]!.isPrimary = true;
  if (suppliers.length) {
    const found = (await ctx
      .trx('suppliers')
      .whereIn('id', [...seen])
      .pluck('id')) as string[];
    const missing = suppliers.findIndex((s) => !found.includes(s.supplierId));
    if (missing >= 0) throw fieldError(`suppliers.${missing}.supplierId`, 'ERROR_INVALID_VALUE');
  }
  const before = await suppliersOf(ctx, articleId);
  const keptPrices = withPrice
    ? new Map<string, string | null>()
    : new Map(
        (
          (await ctx
            .trx('article_suppliers')
            .where({ article_id: articleId })
            .select('supplier_id', ctx.trx.raw('purchase_price::text as purchase_price'))) as {
            supplier_id: string;
            purchase_price: string | null;
          }[]
        ).map((r) => [r.supplier_id, r.purchase_price]),
      );
  await ctx.trx('article_suppliers').where({ article_id: articleId }).delete();
  if (suppliers.length)
    await ctx.trx('article_suppliers').insert(
      suppliers.map((s) => ({
        article_id: articleId,
        supplier_id: s.supplierId,
        supplier_article_number: s.supplierArticleNumber,
        purchase_price: withPrice ? (s.purchasePrice ?? null) : (keptPrices.get(s.supplierId) ?? null),
        is_primary: s.isPrimary,
      })),
    );
  const after = await suppliersOf(ctx, articleId);
  const brief = (list: ArticleSupplier[]) =>
    list.map((s) => ({
      supplier: s.supplierTitle,
      supplierArticleNumber: s.supplierArticleNumber,
      isPrimary: s.isPrimary,
    }));
  await recordHistory(ctx, {
    entity: ARTICLE_ENTITY,
    entityId: articleId,
    action: 'suppliers',
    data: { before: brief(before), after: brief(after) },
  });
  return { suppliers: after };
}

/**
 * Suppliers to pick for an article (the article page's picker): active ones matching `q` on
 * number, title and name with the suppliers' trigram index; at most 200.
 */
export async function supplierOptions(
  ctx: Ctx,
  raw: unknown,
): Promise<{ options: { id: string; label: string; description?: string }[]; total: number }> {
  requireAccess(ctx.auth, { permission: 'articles:read' });
  const { q } = parseInput(z.object({ q: z.string().trim().max(200).optional() }), raw);
  const base = ctx.trx('suppliers as s').where('s.status', 'active');
  if (q) base.whereRaw(`s.search_text like ?`, [containsPattern(q)]);
  const [{ n }] = (await base.clone().count({ n: '*' })) as { n: string | number }[];
  const rows = (await base
    .clone()
    .select('s.id', 's.number', 's.title', 's.name')
    .orderByRaw('lower(s.title), s.id')
    .limit(200)) as { id: string; number: string; title: string; name: string | null }[];
  return {
    total: Number(n),
    options: rows.map((r) => ({
      id: r.id,
      label: `${r.number} – ${r.title}`,
      ...(r.name && r.name !== r.title ? { description: r.name } : {}),
    })),
  };
}

/**
 * The active article a supplier's article number names: ours by that number, else the one this
 * supplier calls so (article_suppliers). For a supplier's row (an invoice row, a catalogue pick).
 */
export async function articleForSupplierNumber(
  ctx: Ctx,
  number: string | null,
  supplierId: string | null,
): Promise<{ id: string } | undefined> {
  if (!number) return undefined;
  const own: { id: string } | undefined = await ctx
    .trx('articles')
    .whereRaw('lower(article_id) = lower(?)', [number])
    .where('status', 'active')
    .first('id');
  if (own || !supplierId) return own;
  return ctx
    .trx('article_suppliers as x')
    .join('articles as a', 'a.id', 'x.article_id')
    .where({ 'x.supplier_id': supplierId, 'x.supplier_article_number': number, 'a.status': 'active' })
    .first('a.id');
}

/** The first active free-text article (by article number): what a supplier's row without one of ours becomes. */
export async function firstFreeTextArticle(ctx: Ctx): Promise<{ id: string } | undefined> {
  return ctx
    .trx('articles')
    .where({ line_type: 'freetext', status: 'active' })
    .orderByRaw('lower(article_id)')
    .first('id');
}
