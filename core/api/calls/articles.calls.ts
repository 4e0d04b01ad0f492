import { z } from 'zod';
import {
  createArticleGroup,
  deleteArticleGroup,
  getArticleGroup,
  GROUPS_EDIT,
  GROUPS_READ,
  listArticleGroups,
  updateArticleGroup,
  ZCreateArticleGroup,
  ZUpdateArticleGroup,
} from '~/core/articles/article-group.service';
import {
  listArticleSuppliers,
  saveArticleSuppliers,
  ZArticleSuppliers,
} from '~/core/articles/article-suppliers.service';
import {
  articleHistory,
  createArticle,
  deleteArticle,
  getArticle,
  getArticleByTitle,
  listArticles,
  listInactiveArticles,
  proposeArticleId,
  searchArticles,
  updateArticle,
  ZArticleTitle,
  ZHistoryQuery,
} from '~/core/articles/article.service';
import { ZArticleQuery, ZCreateArticle, ZUpdateArticle } from '~/core/articles/article.schema';
import {
  createPriceList,
  deletePriceList,
  getPriceListDetails,
  listPriceLists,
  savePriceListGroups,
  updatePriceList,
  ZCreatePriceList,
  ZPriceListGroups,
  ZUpdatePriceList,
} from '~/core/articles/price-list.service';
import { lookupArticlePrice, ZLookupQuery } from '~/core/articles/price-lookup.service';
import { moveStock, stockHistory, ZPage, ZStockMovement } from '~/core/articles/stock.service';
import { ZProposeQuery } from '~/core/registers/propose-id';
import { asSent, defineCall, shownOnly, unwrapped, wrappedIn, type ApiCall } from '../define-call';

const READ = { permission: 'articles:read' } as const;
const SETTINGS = { permission: 'articles:settings' } as const;

/** The path's id; the service answers 404 for one that names nothing. */
const withId = z.object({ id: z.string() });
/** Calls that take nothing; other query parameters are let through. */
const nothing = z.object({}).passthrough();
/** A body or query on one article: the path's id with what the service parses. */
const onArticle = <S extends z.ZodObject>(schema: S) => schema.extend({ id: z.string() });
/** The list filters of /articles, without the status /articles/q and /articles/inactive set themselves. */
const ZArticleFilters = ZArticleQuery.omit({ status: true });
/** Group and price-list bodies: the catalogue does not wrap them; `{group: {…}}` is read too. */
const unwrap = (input: Record<string, unknown>, key: string): unknown =>
  input[key] && typeof input[key] === 'object' ? input[key] : input;

const groupCalls: ApiCall[] = [
  defineCall({
    method: 'GET',
    path: '/articles/groups',
    access: GROUPS_READ,
    input: nothing,
    summary: 'Article groups by ID {id, title, displayName, articleCount, priceListCount} (article_groups module)',
    handler: async (ctx) => ({ groups: await listArticleGroups(ctx) }),
  }),
  defineCall({
    method: 'POST',
    path: '/articles/groups',
    access: GROUPS_EDIT,
    input: asSent(ZCreateArticleGroup, unwrapped('group', ZCreateArticleGroup)),
    summary: 'Creates an article group {title, displayName}; 409 ARTICLE_GROUP_EXISTS on a taken ID',
    handler: (ctx, input) => createArticleGroup(ctx, unwrap(input, 'group')),
  }),
  defineCall({
    method: 'PUT',
    path: '/articles/groups',
    access: GROUPS_EDIT,
    input: asSent(ZUpdateArticleGroup, unwrapped('group', ZUpdateArticleGroup)),
    summary: 'Changes an article group {id, title, displayName}; 409 ARTICLE_GROUP_EXISTS on a taken ID',
    handler: (ctx, input) => updateArticleGroup(ctx, unwrap(input, 'group')),
  }),
  defineCall({
    method: 'GET',
    path: '/articles/groups/:id',
    access: GROUPS_READ,
    input: withId,
    summary: 'One article group with its article count',
    handler: (ctx, input) => getArticleGroup(ctx, input.id),
  }),
  defineCall({
    method: 'DELETE',
    path: '/articles/groups/:id',
    access: GROUPS_EDIT,
    input: withId,
    summary: 'Deletes an empty article group; 409 ARTICLE_GROUP_IN_USE with articles or on a price list',
    async handler(ctx, input) {
      await deleteArticleGroup(ctx, input.id);
      return {};
    },
  }),
];

const priceListCalls: ApiCall[] = [
  defineCall({
    method: 'GET',
    path: '/articles/pricelists',
    access: READ,
    input: nothing,
    summary: 'Price lists by title with groupCount, customerCount and objectCount',
    handler: async (ctx) => ({ priceLists: await listPriceLists(ctx) }),
  }),
  defineCall({
    method: 'POST',
    path: '/articles/pricelists',
    access: SETTINGS,
    input: asSent(ZCreatePriceList, unwrapped('priceList', ZCreatePriceList)),
    summary: 'Creates a price list {title, description}; 409 DUPLICATE_PRICE_LIST on a taken title',
    handler: (ctx, input) => createPriceList(ctx, unwrap(input, 'priceList')),
  }),
  defineCall({
    method: 'PUT',
    path: '/articles/pricelists',
    access: SETTINGS,
    input: asSent(ZUpdatePriceList, unwrapped('priceList', ZUpdatePriceList)),
    summary: 'Renames a price list {id, title, description}; 409 DUPLICATE_PRICE_LIST on a taken title',
    handler: (ctx, input) => updatePriceList(ctx, unwrap(input, 'priceList')),
  }),
  defineCall({
    method: 'DELETE',
    path: '/articles/pricelists',
    access: SETTINGS,
    input: z.object({ id: z.string({ error: 'ERROR_REQUIRED_FIELD' }) }),
    summary: 'Deletes a price list ?id= no customer or object uses; 409 PRICE_LIST_IN_USE otherwise',
    async handler(ctx, input) {
      await deletePriceList(ctx, input.id);
      return {};
    },
  }),
  defineCall({
    method: 'GET',
    path: '/articles/pricelists/details',
    access: READ,
    input: z.object({ id: z.string({ error: 'ERROR_REQUIRED_FIELD' }) }),
    summary:
      'A price list ?id= and every article group with its pricingType (discount, markup_purchase, markup_sales) and value %',
    handler: (ctx, input) => getPriceListDetails(ctx, input.id),
  }),
  defineCall({
    method: 'PUT',
    path: '/articles/pricelists/details',
    access: SETTINGS,
    input: asSent(ZPriceListGroups),
    summary:
      'Sets a price list’s rules {id, groups: [{articleGroupId, pricingType, value}]}; groups left out are unpriced',
    handler: (ctx, input) => savePriceListGroups(ctx, input),
  }),
  defineCall({
    method: 'GET',
    path: '/articles/pricelists/:id/details',
    access: READ,
    input: withId,
    summary: 'Same as /articles/pricelists/details?id=',
    handler: (ctx, input) => getPriceListDetails(ctx, input.id),
  }),
  defineCall({
    method: 'PUT',
    path: '/articles/pricelists/:id/details',
    access: SETTINGS,
    input: asSent(ZPriceListGroups),
    summary: 'Same as PUT /articles/pricelists/details, the list named in the path {groups}',
    handler: (ctx, input) => savePriceListGroups(ctx, input),
  }),
  defineCall({
    method: 'DELETE',
    path: '/articles/pricelists/:id',
    access: SETTINGS,
    input: withId,
    summary: 'Same as DELETE /articles/pricelists?id=',
    async handler(ctx, input) {
      await deletePriceList(ctx, input.id);
      return {};
    },
  }),
];

const articleCalls: ApiCall[] = [
  defineCall({
    method: 'GET',
    path: '/articles/q',
    access: READ,
    input: asSent(ZArticleFilters),
    summary:
      'Searches active articles ?q= on article ID, title and E-number (offset, limit ≤ 200) → {articles, totalCount}',
    handler: (ctx, input) => searchArticles(ctx, input),
  }),
  defineCall({
    method: 'GET',
    path: '/articles/inactive',
    access: READ,
    input: asSent(ZArticleFilters),
    summary: 'Inactive articles (q, groupId, offset, limit) → {articles, totalCount}',
    handler: (ctx, input) => listInactiveArticles(ctx, input),
  }),
  defineCall({
    method: 'GET',
    path: '/articles/id/propose',
    access: READ,
    input: asSent(ZProposeQuery),
    summary: 'Proposes the next free all-digit article ID ?length= (default 5) → {id}',
    handler: (ctx, input) => proposeArticleId(ctx, input),
  }),
  defineCall({
    method: 'GET',
    path: '/articles/details/title/:title',
    access: READ,
    input: asSent(ZArticleTitle),
    summary: 'The article with exactly this title (any case; an active one first)',
    handler: (ctx, input) => getArticleByTitle(ctx, input),
  }),
  defineCall({
    method: 'GET',
    path: '/articles/details/:id',
    access: READ,
    input: withId,
    summary: 'One article (purchasePrice only with articles:price)',
    handler: (ctx, input) => getArticle(ctx, input.id),
  }),
  defineCall({
    method: 'GET',
    path: '/articles',
    access: READ,
    input: asSent(ZArticleQuery),
    summary:
      'Articles: q, groupId, status (active | inactive | all; active by default), sort (title | articleId), dir, offset, limit ≤ 200 → {articles, totalCount}',
    handler: (ctx, input) => listArticles(ctx, input),
  }),
  defineCall({
    method: 'POST',
    path: '/articles',
    access: { permission: 'articles:create' },
    input: wrappedIn('article', ZCreateArticle),
    summary:
      'Creates an article {article: {articleId, title, …}} with the default status (active); 409 DUPLICATE_ARTICLE_ID / DUPLICATE_E_NUMBER',
    handler: (ctx, input) => createArticle(ctx, input.article),
  }),
  defineCall({
    method: 'PUT',
    path: '/articles',
    access: { permission: 'articles:edit' },
    input: wrappedIn('article', ZUpdateArticle),
    summary: 'Changes an article {article: {id, …fields to change}} (status active | inactive too)',
    handler: (ctx, input) => updateArticle(ctx, input.article),
  }),
  defineCall({
    method: 'GET',
    path: '/articles/:id/suppliers',
    access: READ,
    input: withId,
    summary:
      'The article’s suppliers {supplierId, supplierNumber, supplierTitle, supplierArticleNumber, purchasePrice, isPrimary}',
    handler: (ctx, input) => listArticleSuppliers(ctx, input.id),
  }),
  defineCall({
    method: 'PUT',
    path: '/articles/:id/suppliers',
    access: { permission: 'articles:edit' },
    input: asSent(onArticle(ZArticleSuppliers)),
    summary:
      'Replaces the article’s suppliers {suppliers: [{supplierId, supplierArticleNumber, purchasePrice, isPrimary}]}',
    handler: (ctx, input) => saveArticleSuppliers(ctx, input.id, input),
  }),
  defineCall({
    method: 'POST',
    path: '/articles/:id/stock',
    access: { permission: 'articles:edit' },
    input: asSent(onArticle(ZStockMovement)),
    summary: 'Adds to or removes from stock {amount, price, type: add | remove}; 409 ERROR_STOCK_NOT_ENOUGH below 0',
    handler: (ctx, input) => moveStock(ctx, input.id, input),
  }),
  defineCall({
    method: 'GET',
    path: '/articles/:id/stock/history',
    access: READ,
    input: shownOnly(onArticle(ZPage)),
    summary: 'The article’s stock movements, newest first (offset, limit) → {movements, totalCount}',
    handler: (ctx, input) => stockHistory(ctx, input.id, input),
  }),
  defineCall({
    method: 'GET',
    path: '/articles/:id/history',
    access: READ,
    input: shownOnly(onArticle(ZHistoryQuery)),
    summary: 'Who changed the article and how, newest first (offset, limit) → {history, totalCount}',
    handler: (ctx, input) => articleHistory(ctx, input.id, input),
  }),
  defineCall({
    method: 'GET',
    path: '/articles/:id',
    access: READ,
    input: asSent(onArticle(ZLookupQuery)),
    summary:
      'Price lookup ?customerId&businessObjectId → {salesPrice, priceType, discountValue, discountType} (docs/decisions/007)',
    handler: (ctx, input) => lookupArticlePrice(ctx, input.id, input),
  }),
  defineCall({
    method: 'DELETE',
    path: '/articles/:id',
    access: { permission: 'articles:delete' },
    input: withId,
    summary: 'Deletes an article nothing uses; 409 DELETE_NOT_POSSIBLE_SET_INACTIVE otherwise (set it inactive)',
    async handler(ctx, input) {
      await deleteArticle(ctx, input.id);
      return {};
    },
  }),
];

/**
 * The catalogue's article calls (spec api-calls "Articles"). Fixed paths (/articles/groups,
 * /articles/pricelists, /articles/q, …) come before /articles/:id so the router does not read them
 * as ids. ERP and supplier-catalogue calls (/articles/erp, /sbsc/products) are not served.
 */
export const articlesCalls: ApiCall[] = [...groupCalls, ...priceListCalls, ...articleCalls];
