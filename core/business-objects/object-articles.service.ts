import { z } from 'zod';
import type { Ctx } from '~/core/context';
import { AppError, notFound } from '~/core/errors/app-error';
import { isUuid, parseInput, UUID_PATTERN } from '~/core/errors/validation';
import { recordHistory } from '~/core/history/history';
import { requireAccess } from '~/core/permissions/access';
import { requireBo } from './require-bo';

/**
 * An object's own article prices (GET /bo/{id}/articles, POST/PUT /bo/articles, DELETE
 * /bo/{id}/articles?articleId): a price that wins over the price list for work on this object.
 * Money stays a decimal string end to end (numeric in the database).
 */

export interface ObjectArticlePrice {
  articleId: string;
  articleNumber: string;
  title: string;
  unit: string | null;
  /** The object's price, "1234.50". */
  price: string;
  /** The article's own sales price, for comparison. */
  listPrice: string;
}

/** Spec section 5: a price is digits, with up to two decimals (comma or point); never negative. */
export const zPrice = () =>
  z
    .union([z.string(), z.number()], { error: 'ERROR_REQUIRED_FIELD' })
    .transform((v) => String(v).trim().replace(/\s/g, '').replace(',', '.'))
    .refine((v) => v !== '', 'ERROR_REQUIRED_FIELD')
    .refine((v) => v === '' || !v.startsWith('-'), 'ERROR_NEGATIVE_AMOUNT')
    .refine((v) => v === '' || v.startsWith('-') || /^\d{1,12}(\.\d{1,2})?$/.test(v), 'ERROR_PRICE_PATTERN');

export const ZObjectArticlePrice = z.object({
  businessObjectId: z.string({ error: 'ERROR_REQUIRED_FIELD' }),
  articleId: z.string({ error: 'ERROR_REQUIRED_FIELD' }).regex(UUID_PATTERN, 'ERROR_INVALID_VALUE'),
  price: zPrice(),
});

/** GET /bo/{id}/articles: the object's prices, by article title. */
export async function listObjectArticlePrices(ctx: Ctx, id: unknown): Promise<{ articles: ObjectArticlePrice[] }> {
  requireAccess(ctx.auth, { permission: 'bo:read' });
  const bo = await requireBo(ctx, id);
  const rows = await ctx
    .trx('business_object_articles as ba')
    .join('articles as a', 'a.id', 'ba.article_id')
    .where('ba.business_object_id', bo.id)
    .select('a.id', 'a.article_id', 'a.title', 'a.unit', 'a.price as list_price', 'ba.price')
    .orderByRaw('lower(a.title), a.id');
  return {
    articles: rows.map((r: Record<string, unknown>) => ({
      articleId: r.id as string,
      articleNumber: r.article_id as string,
      title: r.title as string,
      unit: (r.unit as string) ?? null,
      price: String(r.price),
      listPrice: String(r.list_price),
    })),
  };
}

/**
 * POST /bo/articles (adds, or changes an existing price) and PUT /bo/articles (changes one that
 * exists, 404 otherwise) {businessObjectId, price, articleId}.
 */
export async function saveObjectArticlePrice(ctx: Ctx, raw: unknown, mode: 'create' | 'update'): Promise<void> {
  requireAccess(ctx.auth, { permission: 'bo:edit' });
  const input = parseInput(ZObjectArticlePrice, raw);
  const bo = await requireBo(ctx, input.businessObjectId);
  if (!(await ctx.trx('articles').where({ id: input.articleId }).first('id')))
    throw new AppError('VALIDATION_FAILED', 400, { fields: { articleId: ['ERROR_INVALID_VALUE'] } });
  if (mode === 'update') {
    const n = await ctx
      .trx('business_object_articles')
      .where({ business_object_id: bo.id, article_id: input.articleId })
      .update({ price: input.price });
    if (!n) throw notFound();
  } else {
    await ctx.trx.raw(
      `insert into business_object_articles (business_object_id, article_id, price) values (?, ?, ?)
       on conflict (business_object_id, article_id) do update set price = excluded.price`,
      [bo.id, input.articleId, input.price],
    );
  }
  await recordHistory(ctx, {
    entity: 'business_object',
    entityId: bo.id,
    action: 'article.price',
    data: { articleId: input.articleId, price: input.price },
  });
}

/** DELETE /bo/{id}/articles?articleId: the object falls back to the price list for it. */
export async function deleteObjectArticlePrice(ctx: Ctx, id: unknown, raw: unknown): Promise<void> {
  requireAccess(ctx.auth, { permission: 'bo:edit' });
  const bo = await requireBo(ctx, id);
  const { articleId } = parseInput(z.object({ articleId: z.string({ error: 'ERROR_REQUIRED_FIELD' }) }), raw);
  if (!isUuid(articleId)) throw notFound();
  const n = await ctx
    .trx('business_object_articles')
    .where({ business_object_id: bo.id, article_id: articleId })
    .delete();
  if (!n) throw notFound();
  await recordHistory(ctx, {
    entity: 'business_object',
    entityId: bo.id,
    action: 'article.price.delete',
    data: { articleId },
  });
}
