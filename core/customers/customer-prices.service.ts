import { z } from 'zod';
import type { Ctx } from '~/core/context';
import { AppError, notFound } from '~/core/errors/app-error';
import { isUuid, parseInput, UUID_PATTERN } from '~/core/errors/validation';
import { recordHistory } from '~/core/history/history';
import { requireAccess } from '~/core/permissions/access';
import { checkDiscount, DISCOUNT_TYPES, parseDiscount, type Discount } from '~/core/pricing/discount';
import { CUSTOMER_ENTITY, requireCustomerRow } from './customer.service';
import { zPrice } from './customer.schema';

type Row = Record<string, unknown>;

// ---- article-group discounts (/customers/articlegroupdiscounts) --------------------------------

export interface GroupDiscount {
  customerId: string;
  articleGroupId: string;
  /** The group as people know it: "ID – name". */
  articleGroup: string;
  discountType: 'PERCENTAGE' | 'REGULAR';
  /** Decimal text, two decimals ("10.00"). */
  discountValue: string;
}

const zUuidField = () => z.string({ error: 'ERROR_REQUIRED_FIELD' }).regex(UUID_PATTERN, 'ERROR_INVALID_VALUE');

export const ZGroupDiscount = z.object({
  /** The customer's id (uuid), not its number. */
  customerId: z.string({ error: 'ERROR_REQUIRED_FIELD' }),
  articleGroupId: zUuidField(),
  /** A number, or the discount as typed ("10%", "150"); without a type the text decides it. */
  discountValue: z.union([z.string(), z.number()]).nullish(),
  discountType: z.enum(DISCOUNT_TYPES, { error: 'ERROR_INVALID_VALUE' }).nullish(),
});

/** The discount from `{discountValue, discountType}` by the pricing rules; 400 on the field otherwise. */
function discountFrom(input: z.infer<typeof ZGroupDiscount>): Discount {
  const fail = (code: string) => new AppError('VALIDATION_FAILED', 400, { fields: { discountValue: [code] } });
  if (!input.discountType) {
    const parsed = parseDiscount(input.discountValue == null ? '' : String(input.discountValue));
    if (!parsed.ok) throw fail(parsed.error);
    return parsed.discount;
  }
  if (input.discountType === 'NONE') return { type: 'NONE', value: '0.00' };
  const value = input.discountValue == null ? '' : String(input.discountValue).trim().replace(/%$/, '');
  if (value === '') throw fail('ERROR_REQUIRED_FIELD');
  const error = checkDiscount({ type: input.discountType, value });
  if (error) throw fail(error);
  const parsed = parseDiscount(input.discountType === 'PERCENTAGE' ? `${value}%` : value);
  if (!parsed.ok) throw fail(parsed.error);
  return parsed.discount;
}

/** `GET /customers/articlegroupdiscounts?customerId`'s query. */
export const ZGroupDiscountList = z.object({ customerId: z.string({ error: 'ERROR_REQUIRED_FIELD' }) });

/** `GET /customers/articlegroupdiscounts?customerId`: the customer's discounts per article group. */
export async function listGroupDiscounts(ctx: Ctx, raw: unknown): Promise<{ discounts: GroupDiscount[] }> {
  requireAccess(ctx.auth, { permission: 'customers:read' });
  const { customerId } = parseInput(ZGroupDiscountList, raw);
  const customer = await requireCustomerRow(ctx, customerId);
  const rows = (await ctx
    .trx('customer_article_group_discounts as d')
    .join('article_groups as g', 'g.id', 'd.article_group_id')
    .where('d.customer_id', customer.id as string)
    .select('d.customer_id', 'd.article_group_id', 'd.discount_type', 'd.discount_value', 'g.title', 'g.display_name')
    .orderByRaw('lower(g.title), g.id')) as Row[];
  return {
    discounts: rows.map((r) => ({
      customerId: r.customer_id as string,
      articleGroupId: r.article_group_id as string,
      articleGroup:
        r.display_name && r.display_name !== r.title
          ? `${String(r.title)} – ${String(r.display_name)}`
          : String(r.title),
      discountType: r.discount_type as GroupDiscount['discountType'],
      discountValue: String(r.discount_value),
    })),
  };
}

/**
 * `POST|PUT /customers/articlegroupdiscounts`: sets the customer's discount on an article group
 * (one per group). A discount of type NONE, or an empty text, removes it.
 */
export async function setGroupDiscount(ctx: Ctx, raw: unknown): Promise<{ discounts: GroupDiscount[] }> {
  requireAccess(ctx.auth, { permission: 'customers:edit' });
  const input = parseInput(ZGroupDiscount, raw);
  const customer = await requireCustomerRow(ctx, input.customerId);
  const group = await ctx.trx('article_groups').where({ id: input.articleGroupId }).first('id', 'title');
  if (!group) throw new AppError('VALIDATION_FAILED', 400, { fields: { articleGroupId: ['ERROR_INVALID_VALUE'] } });
  const discount = discountFrom(input);
  const key = { customer_id: customer.id as string, article_group_id: input.articleGroupId };
  if (discount.type === 'NONE') await ctx.trx('customer_article_group_discounts').where(key).delete();
  else
    await ctx
      .trx('customer_article_group_discounts')
      .insert({ ...key, discount_type: discount.type, discount_value: discount.value })
      .onConflict(['customer_id', 'article_group_id'])
      .merge();
  await recordHistory(ctx, {
    entity: CUSTOMER_ENTITY,
    entityId: customer.id as string,
    action: discount.type === 'NONE' ? 'discount.delete' : 'discount.set',
    data: {
      articleGroup: (group as { title: string }).title,
      discountType: discount.type,
      discountValue: discount.value,
    },
  });
  return listGroupDiscounts(ctx, { customerId: customer.id });
}

/** `DELETE /customers/articlegroupdiscounts?customerId&articleGroupId`'s query. */
export const ZGroupDiscountDelete = ZGroupDiscountList.extend({ articleGroupId: zUuidField() });

/** `DELETE /customers/articlegroupdiscounts?customerId&articleGroupId`. */
export async function deleteGroupDiscount(ctx: Ctx, raw: unknown): Promise<void> {
  requireAccess(ctx.auth, { permission: 'customers:edit' });
  const input = parseInput(ZGroupDiscountDelete, raw);
  const customer = await requireCustomerRow(ctx, input.customerId);
  const group = (await ctx.trx('article_groups').where({ id: input.articleGroupId }).first('title')) as
    { title: string } | undefined;
  const n = await ctx
    .trx('customer_article_group_discounts')
    .where({ customer_id: customer.id as string, article_group_id: input.articleGroupId })
    .delete();
  if (!n) throw notFound();
  await recordHistory(ctx, {
    entity: CUSTOMER_ENTITY,
    entityId: customer.id as string,
    action: 'discount.delete',
    data: { articleGroup: group?.title ?? null },
  });
}

// ---- customer article prices (/customers/{id}/articles, /customers/articles) ------------------

export interface CustomerArticlePrice {
  articleId: string;
  /** The article's number (spec: article ID) and title, for showing. */
  articleNumber: string;
  title: string;
  unit: string | null;
  /** The customer's own price, decimal text ("1250.00"). */
  price: string;
  /** The article's ordinary sales price, for comparison. */
  listPrice: string;
}

/** `GET /customers/{id}/articles`: the articles with a price of the customer's own, by article number. */
export async function listCustomerArticles(ctx: Ctx, id: unknown): Promise<{ articles: CustomerArticlePrice[] }> {
  requireAccess(ctx.auth, { permission: 'customers:read' });
  const customer = await requireCustomerRow(ctx, id);
  const rows = (await ctx
    .trx('customer_articles as ca')
    .join('articles as a', 'a.id', 'ca.article_id')
    .where('ca.customer_id', customer.id as string)
    .select('ca.article_id', 'ca.price', 'a.article_id as article_number', 'a.title', 'a.unit', 'a.price as list_price')
    .orderByRaw('lower(a.article_id), a.id')) as Row[];
  return {
    articles: rows.map((r) => ({
      articleId: r.article_id as string,
      articleNumber: String(r.article_number),
      title: String(r.title),
      unit: r.unit == null ? null : String(r.unit),
      price: String(r.price),
      listPrice: String(r.list_price),
    })),
  };
}

export const ZCustomerArticlePrice = z.object({
  customerId: z.string({ error: 'ERROR_REQUIRED_FIELD' }),
  articleId: zUuidField(),
  price: zPrice(),
});

/** `PUT /customers/articles {customerId, articleId, price}`: sets the customer's price of an article. */
export async function setCustomerArticlePrice(ctx: Ctx, raw: unknown): Promise<{ articles: CustomerArticlePrice[] }> {
  requireAccess(ctx.auth, { permission: 'customers:edit' });
  const input = parseInput(ZCustomerArticlePrice, raw);
  const customer = await requireCustomerRow(ctx, input.customerId);
  const article = (await ctx.trx('articles').where({ id: input.articleId }).first('id', 'article_id')) as
    { id: string; article_id: string } | undefined;
  if (!article) throw new AppError('VALIDATION_FAILED', 400, { fields: { articleId: ['ERROR_INVALID_VALUE'] } });
  await ctx
    .trx('customer_articles')
    .insert({ customer_id: customer.id as string, article_id: article.id, price: input.price })
    .onConflict(['customer_id', 'article_id'])
    .merge();
  await recordHistory(ctx, {
    entity: CUSTOMER_ENTITY,
    entityId: customer.id as string,
    action: 'article.set',
    data: { article: article.article_id, price: input.price },
  });
  return listCustomerArticles(ctx, customer.id);
}

export const ZCustomerArticleRemove = z.object({ articleId: zUuidField() });

/** `DELETE /customers/{id}/articles?articleId`: the article goes back to its ordinary price. */
export async function deleteCustomerArticlePrice(ctx: Ctx, id: unknown, raw: unknown): Promise<void> {
  requireAccess(ctx.auth, { permission: 'customers:edit' });
  const { articleId } = parseInput(ZCustomerArticleRemove, raw);
  const customer = await requireCustomerRow(ctx, id);
  if (!isUuid(articleId)) throw notFound();
  const article = (await ctx.trx('articles').where({ id: articleId }).first('article_id')) as
    { article_id: string } | undefined;
  const n = await ctx
    .trx('customer_articles')
    .where({ customer_id: customer.id as string, article_id: articleId })
    .delete();
  if (!n) throw notFound();
  await recordHistory(ctx, {
    entity: CUSTOMER_ENTITY,
    entityId: customer.id as string,
    action: 'article.delete',
    data: { article: article?.article_id ?? null },
  });
}
