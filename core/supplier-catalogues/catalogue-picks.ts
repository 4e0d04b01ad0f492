import type { Ctx } from '~/core/context';
import { requireAccess } from '~/core/permissions/access';
import { articleForSupplierNumber, firstFreeTextArticle } from '~/core/articles/article-suppliers.service';
import { CATALOGUE_ACCESS, catalogueArticle, type CatalogueArticle, type CatalogueRef } from './catalogue.service';

/*
 * A row picked from a supplier's catalogue in a row picker (work order, proposal, sales order;
 * decision 056): the save names the catalogue article (`supplierArticleId`, the picker's `si:`
 * option) and the row is made of an article of ours with the catalogue's name, prices and `ref`.
 * One rule for every kind of row, so a proposal's row and a work order's row of the same pick agree.
 */

/** Supplier-catalogue rows one save may add (a picker adds one at a time; spec section 9's 10 results). */
export const MAX_SUPPLIER_PICKS = 10;

/** A row's pick: the catalogue article and the article of ours the row is made of. */
export interface SupplierPick {
  item: CatalogueArticle;
  articleId: string;
}

/**
 * The catalogue articles that new rows of a save name, by the row's index: each found in its
 * supplier's current catalogue (with the group's discount) and made a row of our article with that
 * number (or the one the supplier calls so), else of the first active free-text article. A pick
 * that is gone (catalogue replaced, another tenant's id) is `SUPPLIER_CATALOGUE_ARTICLE_GONE` on
 * `rows.<index>.supplierArticleId`; more than MAX_SUPPLIER_PICKS is ERROR_INVALID_VALUE on `rows`.
 * Bounded statements: two per pick and one for the free-text article.
 */
export async function supplierPicks(
  ctx: Ctx,
  wanted: readonly { index: number; supplierArticleId: string }[],
  add: (field: string, key: string) => void,
): Promise<Map<number, SupplierPick>> {
  const picks = new Map<number, SupplierPick>();
  if (!wanted.length) return picks;
  requireAccess(ctx.auth, CATALOGUE_ACCESS.search);
  if (wanted.length > MAX_SUPPLIER_PICKS) {
    add('rows', 'ERROR_INVALID_VALUE');
    return picks;
  }
  const freetext = await firstFreeTextArticle(ctx);
  for (const r of wanted) {
    const item = await catalogueArticle(ctx, r.supplierArticleId);
    const article = item && ((await articleForSupplierNumber(ctx, item.articleNumber, item.supplierId)) ?? freetext);
    if (!item || !article) add(`rows.${r.index}.supplierArticleId`, 'SUPPLIER_CATALOGUE_ARTICLE_GONE');
    else picks.set(r.index, { item, articleId: article.id });
  }
  return picks;
}

/**
 * What a picked row takes from the catalogue: its name as the title, its unit, the purchase price
 * after the supplier's discount, the recommended price as the row's price (null: the row's own
 * price lookup decides) and where it came from. A catalogue's price is the supplier's
 * recommendation, so no customer discount is put on top of it.
 */
export function pickedRow(item: CatalogueArticle): {
  title: string;
  unit: string | null;
  purchasePrice: string | null;
  price: string | null;
  ref: CatalogueRef;
} {
  return {
    title: item.articleTitle.slice(0, 200),
    unit: item.unit?.slice(0, 20) ?? null,
    purchasePrice: item.purchasePrice,
    price: item.recommendedSalesPrice,
    ref: item.ref,
  };
}
