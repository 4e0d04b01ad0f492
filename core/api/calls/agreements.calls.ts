import { z } from 'zod';
import {
  addAgreementArticle,
  createAgreementType,
  deleteAgreementType,
  getAgreementPricing,
  getAgreementType,
  listAgreementArticles,
  listAgreementTypes,
  removeAgreementArticle,
  updateAgreementArticle,
  updateAgreementPricing,
  updateAgreementType,
  ZAgreementArticle,
  ZAgreementList,
  ZAgreementPricing,
  ZCreateAgreementFields,
  ZUpdateAgreement,
} from '~/core/agreements/agreement-type.service';
import { asSent, defineCall, shownOnly, unwrapped, type ApiCall } from '../define-call';

const id = z.object({ id: z.string() });
const READ = { permission: 'agreements:read' } as const;
const EDIT = { permission: 'agreements:edit' } as const;

/**
 * The agreement-type calls of the catalogue (api-calls.md "Agreements"). The inputs are the
 * services' schemas, checked here and parsed again by the services; a new type is checked without
 * its validity dates' order, since the service fills in a missing validFrom with today first. `/agreements/:id` takes any one segment: the catalogue lists calls with fixed paths under
 * /agreements (…/invoices/upcoming and the like) before these.
 */
export const agreementTypeCalls: ApiCall[] = [
  defineCall({
    method: 'GET',
    path: '/agreements',
    access: READ,
    input: asSent(ZAgreementList),
    summary:
      'Agreement types by title {agreements, totalCount}, each with objectCount (object agreements using it); ' +
      '?q searches code, title and description; ?status, ?type, ?offset, ?limit',
    handler: (ctx, input) => listAgreementTypes(ctx, input),
  }),
  defineCall({
    method: 'GET',
    path: '/agreements/:id',
    access: READ,
    input: id,
    summary:
      'One agreement type {agreement}: code, title, description, status, type, validFrom/validTo, woDay/woInterval/' +
      'workTypeId, invoiceDay/invoiceInterval (day 0 = last day of the month), pricing, configuration, objectCount',
    handler: (ctx, input) => getAgreementType(ctx, input.id),
  }),
  defineCall({
    method: 'POST',
    path: '/agreements',
    access: EDIT,
    input: asSent(z.object({ agreement: ZCreateAgreementFields }), unwrapped('agreement', ZCreateAgreementFields)),
    summary:
      'Creates an agreement type from {title} or {agreement: {…}}; the code is made from the title and validFrom is ' +
      'today when left out; returns {id}; 409 DUPLICATE_AGREEMENT_TYPE; 400 with field errors',
    handler: (ctx, input) => createAgreementType(ctx, input),
  }),
  defineCall({
    method: 'PUT',
    path: '/agreements',
    access: EDIT,
    input: asSent(z.object({ agreement: ZUpdateAgreement }), unwrapped('agreement', ZUpdateAgreement)),
    summary:
      'Changes an agreement type {agreement: {id, code, title, …}} (all fields but pricing); validFrom required and ' +
      'not after validTo; 409 DUPLICATE_AGREEMENT_TYPE',
    async handler(ctx, input) {
      await updateAgreementType(ctx, input);
      return {};
    },
  }),
  defineCall({
    method: 'DELETE',
    path: '/agreements/:id',
    access: { permission: 'agreements:delete' },
    input: id,
    summary: 'Deletes an agreement type no object agreement uses; 409 IN_USE {usedBy: {objects}} otherwise',
    async handler(ctx, input) {
      await deleteAgreementType(ctx, input.id);
      return {};
    },
  }),
  defineCall({
    method: 'GET',
    path: '/agreements/:id/pricing',
    access: READ,
    input: id,
    summary:
      "A type's default pricing {priceModel: fixed|articles, price, priceArticleId, priceArticle: {id, articleNumber, title}}",
    handler: (ctx, input) => getAgreementPricing(ctx, input.id),
  }),
  defineCall({
    method: 'PUT',
    path: '/agreements/:id/pricing',
    access: EDIT,
    input: asSent(ZAgreementPricing),
    summary: "Sets a type's pricing {priceModel, price, priceArticleId}; the article must exist",
    async handler(ctx, input) {
      await updateAgreementPricing(ctx, input);
      return {};
    },
  }),
  defineCall({
    method: 'GET',
    path: '/agreements/:id/articles',
    access: READ,
    input: id,
    summary:
      "A type's included articles {articles: [{articleId, articleNumber, title, unit, listPrice, discountType, discountValue}]}",
    handler: (ctx, input) => listAgreementArticles(ctx, input.id),
  }),
  defineCall({
    method: 'POST',
    path: '/agreements/articles',
    access: EDIT,
    input: asSent(ZAgreementArticle),
    summary:
      'Includes an article {agreementId, articleId, discountType: PERCENTAGE|REGULAR|NONE, discountValue}; ' +
      '409 DUPLICATE_AGREEMENT_ARTICLE when already included',
    async handler(ctx, input) {
      await addAgreementArticle(ctx, input);
      return {};
    },
  }),
  defineCall({
    method: 'PUT',
    path: '/agreements/articles',
    access: EDIT,
    input: asSent(ZAgreementArticle),
    summary: "Changes an included article's discount {agreementId, articleId, discountType, discountValue}",
    async handler(ctx, input) {
      await updateAgreementArticle(ctx, input);
      return {};
    },
  }),
  defineCall({
    method: 'DELETE',
    path: '/agreements/:id/articles',
    access: EDIT,
    // Shown only: an article id that names nothing, or none, is the service's 404.
    input: shownOnly(z.object({ id: z.string(), articleId: z.string() })),
    summary: 'Removes an included article ?articleId from the type',
    async handler(ctx, input) {
      await removeAgreementArticle(ctx, input.id, input.articleId);
      return {};
    },
  }),
];
