import type { CatalogueArticle } from './catalogue.service';

/** The fields of an article's form that a catalogue product fills in (decimal text, '.' or ','). */
export interface ArticleDraftFields {
  articleId: string;
  title: string;
  unit: string | null;
  description: string | null;
  price: string;
  purchasePrice?: string;
  recommendedPrice: string | null;
}

const blankPrice = (v: string | null | undefined) => !v || !/[1-9]/.test(v);

/**
 * An article taken from a supplier's price list (the article screen's "from a price list", issue
 * 33 item 6): the product's number as the article's number, its name, its purchase price after the
 * supplier's discount and its recommended price. The unit and the description are the product's
 * where it has them and the form has none; a sales price already typed is kept, an empty (or
 * zero) one becomes the recommended price, the supplier's suggestion to the customer. The form is
 * only filled in: nothing is saved until the person saves it.
 */
export function articleFromCatalogue<T extends ArticleDraftFields>(product: CatalogueArticle, current: T): T {
  return {
    ...current,
    articleId: product.articleNumber,
    title: product.articleTitle.slice(0, 200),
    unit: current.unit || product.unit,
    description: current.description || product.articleDescription,
    price: blankPrice(current.price) && product.recommendedSalesPrice ? product.recommendedSalesPrice : current.price,
    ...(product.purchasePrice !== null ? { purchasePrice: product.purchasePrice } : {}),
    recommendedPrice: product.recommendedSalesPrice ?? current.recommendedPrice,
  };
}
