import { formatDecimal } from './decimal';
import { discountOf, NO_DISCOUNT, type Discount, type DiscountType } from './discount';
import { markup, type Money } from './rows';

/** How a price list prices an article group (migrations/tenant/0003-articles). */
export const PRICING_TYPES = ['discount', 'markup_purchase', 'markup_sales'] as const;
export type PricingType = (typeof PRICING_TYPES)[number];

/**
 * Which source gave a looked-up price, in precedence order (docs/decisions/007-price-precedence):
 * the object's own price for the article, the customer's own price, the object's service agreement
 * (an included article's discount, decision 028), the object's price list, the customer's price list, the customer's discount for the article group, the customer's default
 * discount, and finally the article's own sales price.
 */
export const PRICE_TYPES = [
  'OBJECT_PRICE',
  'CUSTOMER_PRICE',
  'AGREEMENT',
  'OBJECT_PRICE_LIST',
  'CUSTOMER_PRICE_LIST',
  'CUSTOMER_GROUP_DISCOUNT',
  'CUSTOMER_DISCOUNT',
  'ARTICLE_PRICE',
] as const;
export type PriceType = (typeof PRICE_TYPES)[number];

/** The answer of GET /articles/{id}?customerId&businessObjectId (spec section 3, price lookup). */
export interface PriceLookup {
  salesPrice: Money;
  priceType: PriceType;
  discountValue: string;
  discountType: DiscountType;
}

export interface PriceListRule {
  pricingType: PricingType;
  /** Percent, e.g. "10.00". */
  value: string;
}

/** Everything that may price an article for a customer and object; missing sources are null. */
export interface PriceSources {
  article: { price: string; purchasePrice: string };
  objectPrice?: string | null;
  customerPrice?: string | null;
  /** The discount of the object's agreement for an article it includes (NONE gives way to the next source). */
  agreementDiscount?: Discount | null;
  /** The object's price list's rule for the article's group, if the list prices that group. */
  objectPriceList?: PriceListRule | null;
  customerPriceList?: PriceListRule | null;
  customerGroupDiscount?: Discount | null;
  /** The customer's default discount percentage; null or 0 is none. */
  customerDefaultDiscount?: string | null;
}

/**
 * A price list's rule applied to an article: a discount keeps the article's sales price and gives
 * the percentage as the row's discount (so it shows on the row and the invoice); a markup on the
 * purchase or sales price becomes the sales price itself, with no discount.
 */
export function applyPriceList(
  article: { price: string; purchasePrice: string },
  rule: PriceListRule,
): { salesPrice: Money; discount: Discount } {
  switch (rule.pricingType) {
    case 'discount':
      return { salesPrice: formatDecimal(article.price), discount: discountOf('PERCENTAGE', rule.value) };
    case 'markup_purchase':
      return { salesPrice: markup(article.purchasePrice, rule.value), discount: NO_DISCOUNT };
    case 'markup_sales':
      return { salesPrice: markup(article.price, rule.value), discount: NO_DISCOUNT };
  }
}

const lookup = (salesPrice: string, priceType: PriceType, discount: Discount = NO_DISCOUNT): PriceLookup => ({
  salesPrice: formatDecimal(salesPrice),
  priceType,
  discountValue: discount.value,
  discountType: discount.type,
});

/** The first source that has something to say wins (docs/decisions/007-price-precedence). */
export function resolvePrice(s: PriceSources): PriceLookup {
  if (s.objectPrice != null) return lookup(s.objectPrice, 'OBJECT_PRICE');
  if (s.customerPrice != null) return lookup(s.customerPrice, 'CUSTOMER_PRICE');
  if (s.agreementDiscount && s.agreementDiscount.type !== 'NONE')
    return lookup(s.article.price, 'AGREEMENT', s.agreementDiscount);
  for (const [rule, priceType] of [
    [s.objectPriceList, 'OBJECT_PRICE_LIST'],
    [s.customerPriceList, 'CUSTOMER_PRICE_LIST'],
  ] as const) {
    if (!rule) continue;
    const { salesPrice, discount } = applyPriceList(s.article, rule);
    return lookup(salesPrice, priceType, discount);
  }
  if (s.customerGroupDiscount && s.customerGroupDiscount.type !== 'NONE')
    return lookup(s.article.price, 'CUSTOMER_GROUP_DISCOUNT', s.customerGroupDiscount);
  const defaultDiscount = discountOf('PERCENTAGE', s.customerDefaultDiscount);
  if (defaultDiscount.type !== 'NONE') return lookup(s.article.price, 'CUSTOMER_DISCOUNT', defaultDiscount);
  return lookup(s.article.price, 'ARTICLE_PRICE');
}
