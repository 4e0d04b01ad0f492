import { z } from 'zod';
import {
  getInvoiceRules,
  INVOICE_RULES_EDIT,
  INVOICE_RULES_READ,
  saveInvoiceRules,
  ZInvoiceRules,
} from '~/core/invoicing/invoice-rules.service';
import { asSent, defineCall, type ApiCall } from '../define-call';

/*
 * Settings → invoicing (issue 14 items 1 and 6): the invoice rules and the labour article per work
 * type and per person. The service's schema checks the body at the boundary and again in the service, so field errors carry keys
 * like overrides.users.2.articleId either way.
 */

const RULES =
  '{reviewBeforeSending, applyTypesOff: [pdf|email|visma-xml|erp|peppol], billTime, labourArticle: {id, articleId, title}, billTravelTime, travelArticle, ' +
  'timeRoundingMinutes (0, 5, 10, 15, 30, 60), mileageArticle, bankAccount, ocr, nextInvoiceNr, lowestNextInvoiceNr, ' +
  'overrides: {workTypes: [{id, workType: {id, name}, article}], users: [{id, user: {id, name}, article}]}}';

export const invoiceRuleCalls: ApiCall[] = [
  defineCall({
    method: 'GET',
    path: '/instance/invoicerules',
    access: INVOICE_RULES_READ,
    // The service takes nothing; other query parameters are let through.
    input: z.object({}).passthrough(),
    summary: `The invoice rules → ${RULES}`,
    handler: (ctx) => getInvoiceRules(ctx),
  }),
  defineCall({
    method: 'PUT',
    path: '/instance/invoicerules',
    access: INVOICE_RULES_EDIT,
    input: asSent(ZInvoiceRules),
    summary:
      'Changes the invoice rules {reviewBeforeSending?, applyTypesOff? (the apply types the invoice does not offer), billTime?, labourArticleId?, billTravelTime?, travelArticleId?, ' +
      'timeRoundingMinutes?, mileageArticleId?, bankAccount? (at most 50), ocr?, nextInvoiceNr?, overrides?: {workTypes: ' +
      '[{workTypeId, articleId}], users: [{userId, articleId}]} (replaces them all)} → the rules; articles must exist and ' +
      'be active (NOT_FOUND, ERROR_ARTICLE_INACTIVE); 400 ERROR_INVOICE_NUMBER_TAKEN when nextInvoiceNr is not above ' +
      'the highest number already given',
    handler: (ctx, input) => saveInvoiceRules(ctx, input),
  }),
];
