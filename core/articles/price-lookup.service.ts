import { z } from 'zod';
import type { Ctx } from '~/core/context';
import { notFound } from '~/core/errors/app-error';
import { isUuid, parseInput } from '~/core/errors/validation';
import { requireAccess } from '~/core/permissions/access';
import { discountOf, resolvePrice, type PriceListRule, type PriceLookup } from '~/core/pricing';
import { tenantToday } from '~/core/calendar/tenant-today';

export const ZLookupQuery = z.object({
  customerId: z
    .string()
    .optional()
    .transform((v) => (v ? v : null)),
  businessObjectId: z
    .string()
    .optional()
    .transform((v) => (v ? v : null)),
});

type Rule = { pricingType: PriceListRule['pricingType']; value: string } | null;

/**
 * `GET /articles/{id}?customerId&businessObjectId`: what the article costs for this customer at
 * this object, and which source decided it (precedence: docs/decisions/007-price-precedence, the
 * rule itself: core/pricing resolvePrice). Without a customer the object's customer is used.
 * Everything is read in one statement; an unknown (or another tenant's) article, customer or
 * object is a 404.
 */
export async function lookupArticlePrice(ctx: Ctx, id: unknown, raw: unknown = {}): Promise<PriceLookup> {
  requireAccess(ctx.auth, { permission: 'articles:read' });
  const { customerId, businessObjectId } = parseInput(ZLookupQuery, raw);
  if (!isUuid(id) || (customerId && !isUuid(customerId)) || (businessObjectId && !isUuid(businessObjectId)))
    throw notFound();
  const { articles, objectFound, customerFound } = await priceArticles(ctx, [id], { customerId, businessObjectId });
  const priced = articles.get(id);
  if (!priced) throw notFound();
  if (businessObjectId && !objectFound) throw notFound();
  if (customerId && !customerFound) throw notFound();
  return priced.lookup;
}

/** An article with what it costs for one customer at one object. */
export interface PricedArticle {
  id: string;
  title: string;
  status: string;
  lineType: string;
  purchasePrice: string | null;
  lookup: PriceLookup;
}

/**
 * Prices several articles for one customer at one object in one statement: the same sources and
 * rule as the single lookup (decision 007, core/pricing resolvePrice). Without a customer the
 * object's customer is used. Unknown ids are left out; `objectFound`/`customerFound` say whether
 * the ids given for those exist.
 */
export async function priceArticles(
  ctx: Ctx,
  ids: readonly string[],
  where: { customerId: string | null; businessObjectId: string | null },
): Promise<{ articles: Map<string, PricedArticle>; objectFound: boolean; customerFound: boolean }> {
  const articles = new Map<string, PricedArticle>();
  if (!ids.length) return { articles, objectFound: false, customerFound: false };
  const { rows } = (await ctx.trx.raw(
    `with a as (select id, title, status, line_type, price, purchase_price, article_group_id from articles
                where id in (select cast(jsonb_array_elements_text(cast(:ids as jsonb)) as uuid))),
          bo as (select id, customer_id, price_list_id from business_objects where id = cast(:bo as uuid)),
          c as (select id, price_list_id, default_discount from customers
                where id = coalesce(cast(:customer as uuid), (select customer_id from bo))),
          -- the object's agreement in force today, with an active type (decision 028)
          oa as (select oa.agreement_id, oa.articles from object_agreements oa
                   join agreements t on t.id = oa.agreement_id and t.status = 'active'
                  where oa.business_object_id = (select id from bo) and oa.valid_from <= cast(:today as date)
                    and (oa.valid_to is null or oa.valid_to >= cast(:today as date)))
     select a.id, a.title, a.status, a.line_type,
            a.price::text as price,
            a.purchase_price::text as purchase_price,
            (select count(*) from bo) as bo_found,
            (select count(*) from c) as customer_found,
            (select x.price::text from business_object_articles x
              where x.business_object_id = (select id from bo) and x.article_id = a.id) as object_price,
            (select x.price::text from customer_articles x
              where x.customer_id = (select id from c) and x.article_id = a.id) as customer_price,
            (select json_build_object('pricingType', r.pricing_type, 'value', r.value::text) from price_list_groups r
              where r.price_list_id = (select price_list_id from bo) and r.article_group_id = a.article_group_id)
              as object_rule,
            (select json_build_object('pricingType', r.pricing_type, 'value', r.value::text) from price_list_groups r
              where r.price_list_id = (select price_list_id from c) and r.article_group_id = a.article_group_id)
              as customer_rule,
            (select json_build_object('type', d.discount_type, 'value', d.discount_value::text)
               from customer_article_group_discounts d
              where d.customer_id = (select id from c) and d.article_group_id = a.article_group_id) as group_discount,
            (select default_discount::text from c) as default_discount,
            coalesce(
              (select json_build_object('type', x->>'discountType', 'value', x->>'discountValue')
                 from oa, jsonb_array_elements(oa.articles) x where x->>'articleId' = a.id::text limit 1),
              (select json_build_object('type', i.discount_type, 'value', i.discount_value::text)
                 from agreement_articles i where i.agreement_id = (select agreement_id from oa) and i.article_id = a.id)
            ) as agreement_discount
       from a`,
    { ids: JSON.stringify(ids), bo: where.businessObjectId, customer: where.customerId, today: tenantToday(ctx) },
  )) as { rows: Record<string, unknown>[] };
  for (const row of rows) {
    const groupDiscount = row.group_discount as { type: string; value: string } | null;
    const agreement = row.agreement_discount as { type: string; value: string } | null;
    articles.set(row.id as string, {
      id: row.id as string,
      title: row.title as string,
      status: row.status as string,
      lineType: row.line_type as string,
      purchasePrice: (row.purchase_price as string | null) ?? null,
      lookup: resolvePrice({
        article: { price: row.price as string, purchasePrice: row.purchase_price as string },
        objectPrice: (row.object_price as string | null) ?? null,
        customerPrice: (row.customer_price as string | null) ?? null,
        agreementDiscount: agreement ? discountOf(agreement.type, agreement.value) : null,
        objectPriceList: row.object_rule as Rule,
        customerPriceList: row.customer_rule as Rule,
        customerGroupDiscount: groupDiscount ? discountOf(groupDiscount.type, groupDiscount.value) : null,
        customerDefaultDiscount: (row.default_discount as string | null) ?? null,
      }),
    });
  }
  const first = rows[0];
  return {
    articles,
    objectFound: Boolean(first) && Number(first!.bo_found) > 0,
    customerFound: Boolean(first) && Number(first!.customer_found) > 0,
  };
}

/**
 * What the article costs under each price list (the article page shows it): one row per list
 * that prices the article's group. One query.
 */
export async function articlePriceListPrices(
  ctx: Ctx,
  articleId: string,
): Promise<{ priceListId: string; title: string; lookup: PriceLookup }[]> {
  requireAccess(ctx.auth, { permission: 'articles:read' });
  if (!isUuid(articleId)) throw notFound();
  const rows = (await ctx
    .trx('price_list_groups as r')
    .join('price_lists as pl', 'pl.id', 'r.price_list_id')
    .join('articles as a', 'a.article_group_id', 'r.article_group_id')
    .where('a.id', articleId)
    .select(
      'pl.id',
      'pl.title',
      'r.pricing_type',
      ctx.trx.raw('r.value::text as value'),
      ctx.trx.raw('a.price::text as price'),
      ctx.trx.raw('a.purchase_price::text as purchase_price'),
    )
    .orderByRaw('lower(pl.title), pl.id')) as Record<string, string>[];
  return rows.map((r) => ({
    priceListId: r.id!,
    title: r.title!,
    lookup: resolvePrice({
      article: { price: r.price!, purchasePrice: r.purchase_price! },
      customerPriceList: { pricingType: r.pricing_type as PriceListRule['pricingType'], value: r.value! },
    }),
  }));
}
