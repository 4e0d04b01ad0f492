import { describe, expect, it } from 'vitest';
import { applyPriceList, resolvePrice, type PriceSources } from './price-lookup';

const article = { price: '1000.00', purchasePrice: '600.00' };

describe('[pricing] price lookup precedence (docs/decisions/007)', () => {
  const all: PriceSources = {
    article,
    objectPrice: '850.00',
    customerPrice: '900.00',
    objectPriceList: { pricingType: 'discount', value: '20.00' },
    customerPriceList: { pricingType: 'markup_purchase', value: '50.00' },
    customerGroupDiscount: { type: 'REGULAR', value: '100.00' },
    customerDefaultDiscount: '5.00',
  };

  it.each<[string, PriceSources, object]>([
    ['the object’s own price first', all, { salesPrice: '850.00', priceType: 'OBJECT_PRICE', discountType: 'NONE' }],
    [
      'then the customer’s own price',
      { ...all, objectPrice: null },
      { salesPrice: '900.00', priceType: 'CUSTOMER_PRICE', discountType: 'NONE', discountValue: '0.00' },
    ],
    [
      'then the discount of the object’s agreement for an article it includes',
      { ...all, objectPrice: null, customerPrice: null, agreementDiscount: { type: 'PERCENTAGE', value: '100.00' } },
      { salesPrice: '1000.00', priceType: 'AGREEMENT', discountType: 'PERCENTAGE', discountValue: '100.00' },
    ],
    [
      'an agreement without a discount for the article gives way to the price list',
      { ...all, objectPrice: null, customerPrice: null, agreementDiscount: { type: 'NONE', value: '0.00' } },
      { salesPrice: '1000.00', priceType: 'OBJECT_PRICE_LIST', discountType: 'PERCENTAGE', discountValue: '20.00' },
    ],
    [
      'then the object’s price list (a discount keeps the price and gives the percentage)',
      { ...all, objectPrice: null, customerPrice: null },
      { salesPrice: '1000.00', priceType: 'OBJECT_PRICE_LIST', discountType: 'PERCENTAGE', discountValue: '20.00' },
    ],
    [
      'then the customer’s price list (markup on purchase price)',
      { ...all, objectPrice: null, customerPrice: null, objectPriceList: null },
      { salesPrice: '900.00', priceType: 'CUSTOMER_PRICE_LIST', discountType: 'NONE' },
    ],
    [
      'then the customer’s group discount',
      { ...all, objectPrice: null, customerPrice: null, objectPriceList: null, customerPriceList: null },
      {
        salesPrice: '1000.00',
        priceType: 'CUSTOMER_GROUP_DISCOUNT',
        discountType: 'REGULAR',
        discountValue: '100.00',
      },
    ],
    [
      'then the customer’s default discount',
      { article, customerDefaultDiscount: '5.00', customerGroupDiscount: { type: 'NONE', value: '0.00' } },
      { salesPrice: '1000.00', priceType: 'CUSTOMER_DISCOUNT', discountType: 'PERCENTAGE', discountValue: '5.00' },
    ],
    [
      'a default discount of 0 is none',
      { article, customerDefaultDiscount: '0.00' },
      { salesPrice: '1000.00', priceType: 'ARTICLE_PRICE', discountType: 'NONE', discountValue: '0.00' },
    ],
    [
      'otherwise the article’s own price',
      { article },
      { salesPrice: '1000.00', priceType: 'ARTICLE_PRICE', discountType: 'NONE', discountValue: '0.00' },
    ],
    [
      'an own price of 0 is still an own price',
      { ...all, objectPrice: '0' },
      { salesPrice: '0.00', priceType: 'OBJECT_PRICE' },
    ],
  ])('%s', (_name, sources, expected) => {
    expect(resolvePrice(sources)).toMatchObject(expected);
  });

  it('applies each pricing type of a price list', () => {
    expect(applyPriceList(article, { pricingType: 'discount', value: '15' })).toEqual({
      salesPrice: '1000.00',
      discount: { type: 'PERCENTAGE', value: '15.00' },
    });
    expect(applyPriceList(article, { pricingType: 'markup_purchase', value: '25' })).toEqual({
      salesPrice: '750.00',
      discount: { type: 'NONE', value: '0.00' },
    });
    expect(applyPriceList(article, { pricingType: 'markup_sales', value: '12.5' })).toEqual({
      salesPrice: '1125.00',
      discount: { type: 'NONE', value: '0.00' },
    });
    expect(
      applyPriceList({ price: '9.99', purchasePrice: '3.33' }, { pricingType: 'markup_purchase', value: '33.33' }),
    ).toMatchObject({ salesPrice: '4.44' }); // 4.439889
  });
});
