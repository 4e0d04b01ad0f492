import { describe, expect, it } from 'vitest';
import { articleFromCatalogue, type ArticleDraftFields } from './article-from-catalogue';
import type { CatalogueArticle } from './catalogue.service';

const product: CatalogueArticle = {
  id: '41',
  supplierId: 's1',
  supplierTitle: 'Ahlsell',
  articleNumber: 'E2005',
  articleTitle: 'Dörrstängare TS 5',
  articleDescription: 'Med glidskena',
  unit: 'st',
  purchasePrice: '94.73',
  listPurchasePrice: '145.74',
  discountGroup: 'B',
  discountPercent: '35',
  recommendedSalesPrice: '250.00',
  ref: { type: 'supplier-inventory', supplierId: 's1', articleNumber: 'E2005', id: '41' },
};

const empty: ArticleDraftFields = {
  articleId: '',
  title: '',
  unit: null,
  description: null,
  price: '',
  purchasePrice: '',
  recommendedPrice: null,
};

describe('articleFromCatalogue', () => {
  it.each([
    {
      name: 'an empty form takes number, name, unit, description, the discounted purchase price and the recommended price, also as its price',
      current: empty,
      want: {
        articleId: 'E2005',
        title: 'Dörrstängare TS 5',
        unit: 'st',
        description: 'Med glidskena',
        price: '250.00',
        purchasePrice: '94.73',
        recommendedPrice: '250.00',
      },
    },
    {
      name: 'a price, unit and description already typed are kept; a zero price is none',
      current: { ...empty, price: '0,00', unit: 'm', description: 'Egen text' },
      want: { unit: 'm', description: 'Egen text', price: '250.00' },
    },
    {
      name: 'a sales price typed stays',
      current: { ...empty, price: '299,50', recommendedPrice: '1' },
      want: { price: '299,50', recommendedPrice: '250.00' },
    },
  ])('$name', ({ current, want }) => {
    expect(articleFromCatalogue(product, current)).toMatchObject(want);
  });

  it('keeps what the product has not: no purchase price, no recommended price', () => {
    const bare = { ...product, purchasePrice: null, recommendedSalesPrice: null, unit: null };
    expect(articleFromCatalogue(bare, { ...empty, purchasePrice: '12', recommendedPrice: '20', unit: 'st' })).toEqual({
      ...empty,
      articleId: 'E2005',
      title: 'Dörrstängare TS 5',
      unit: 'st',
      description: 'Med glidskena',
      price: '',
      purchasePrice: '12',
      recommendedPrice: '20',
    });
  });
});
