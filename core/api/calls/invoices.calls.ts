import { z } from 'zod';
import {
  completeErpAuth,
  disconnectErp,
  getErpKind,
  getErpSettings,
  listErpArticles,
  saveErpSettings,
  startErpAuth,
  testErpConnection,
  ZErpArticleQuery,
  ZErpAuthCallback,
  ZErpAuthStart,
  ZSaveErpSettings,
} from '~/core/invoicing/erp-settings.service';
import {
  applyErp,
  finalizeDraft,
  getInvoice,
  getInvoiceErp,
  getInvoiceHistory,
  getInvoiceOf,
  listInvoices,
  settleErpCheck,
  updateInvoice,
  ZApply,
  ZInvoiceList,
  ZSettleErpCheck,
  ZUpdateInvoice,
} from '~/core/invoicing/invoice.service';
import { emailInvoice, invoicePdf } from '~/core/invoicing/invoice-documents.service';
import { invoiceFileOf } from '~/core/invoicing/invoice-file.service';
import { peppolInvoiceOf } from '~/core/invoicing/peppol.service';
import { exportSie, ZSieExport } from '~/core/invoicing/sie-export.service';
import { ZEmailTarget } from '~/core/proposals/proposal-documents.service';
import { listProjectInvoices } from '~/core/projects/project-invoice.service';
import { parseInput } from '~/core/errors/validation';
import { asSent, defineCall, type ApiCall } from '../define-call';
import { fileReply } from './work-order-documents.calls';

/*
 * Invoices and the ERP (api-calls.md "Invoices", POST /instance/erp/auth, GET /instance/erp/data/{id},
 * GET /articles/erp; issue 14). Registered before the article calls, so `/articles/:id` cannot take
 * "erp" for an id. Services check access and validate.
 */

/** Path parameters are text; the service answers 404 for one that names nothing. */
const byId = z.object({ id: z.string() });
/** Apply's body as the handler reads it: the recipients only matter, and are only checked, for email. */
const ZApplyChecked = ZApply.extend({ emailTarget: z.unknown().optional() }).superRefine((v, zctx) => {
  if (v.type !== 'email') return;
  const target = ZEmailTarget.safeParse(v.emailTarget);
  for (const issue of target.error?.issues ?? [])
    zctx.addIssue({ code: 'custom', path: ['emailTarget', ...issue.path], message: issue.message });
});
const READ = { permission: 'invoices:read' } as const;
const ERP_READ = { permission: 'instance:read', module: 'erp' } as const;
const ERP_EDIT = { permission: 'instance:edit', module: 'erp' } as const;
const INVOICE =
  '{id, status, invoiceNr, invoiceDate, paymentDueDate, ocr, articles, figures, erpReference, erpState, externalInvoiceNr, delivery, applyTypes, …}';

export const invoiceCalls: ApiCall[] = [
  defineCall({
    method: 'GET',
    path: '/invoices',
    access: READ,
    input: asSent(ZInvoiceList),
    summary:
      'Invoices, newest invoice date first {status: draft|finalized|void|all, erp: none|queued|delivered|failed|all, q, from, to, customerId, offset, size} → {invoices, hasMore}',
    handler: (ctx, input) => listInvoices(ctx, input),
  }),
  defineCall({
    method: 'GET',
    path: '/invoices/sie',
    access: READ,
    input: asSent(ZSieExport),
    summary:
      'The final invoices of a period (by invoice date; drafts and void invoices left out) as an SIE 4I file for the accounting program {from, to (YYYY-MM-DD, at most 12 months), series (default A)} → text/plain; charset=IBM437 (PC8), attachment FAKT_<from>_<to>.SI, one balanced verification per invoice in invoice-number order; 400 SIE_PERIOD_REVERSED, SIE_PERIOD_TOO_LONG; 409 SIE_MIXED_CURRENCIES',
    handler: async (ctx, input) => fileReply(await exportSie(ctx, input)),
  }),
  defineCall({
    method: 'POST',
    path: '/invoice/apply',
    access: READ,
    input: asSent(ZApply.extend({ emailTarget: ZEmailTarget }), ZApplyChecked),
    summary:
      "Applies an invoice {invoiceId, type: pdf|visma-xml|email|erp|peppol}: pdf → the PDF; peppol → the Peppol BIS Billing 3.0 e-invoice (UBL 2.1 XML) of a finalized invoice (409 INVOICE_NOT_FINALIZED, PEPPOL_SELLER_DETAILS_MISSING, PEPPOL_BUYER_ADDRESS_MISSING); email → {message: EMAIL_SENT_TO, recipients} (to emailTarget or the customer's invoice e-mail); erp → {invoice, delivery} (finalized first, queued for the ERP); 409 CUSTOMER_SET_NOT_TO_SEND_TO_ERP, ERP_CANNOT_SEND_INVOICES, INVOICE_ALREADY_IN_ERP; 409 INVOICE_APPLY_TYPE_OFF for a type the tenant turned off in its invoice rules (applyTypesOff)",
    handler: async (ctx, input) => {
      const { invoiceId, type } = parseInput(ZApply, input);
      if (type === 'pdf') return (await invoicePdf(ctx, { invoiceId })).map(fileReply);
      if (type === 'email') return emailInvoice(ctx, input);
      if (type === 'visma-xml') return fileReply(await invoiceFileOf(ctx, invoiceId));
      if (type === 'peppol') return fileReply(await peppolInvoiceOf(ctx, invoiceId));
      return applyErp(ctx, invoiceId);
    },
  }),
  defineCall({
    method: 'POST',
    path: '/invoice/erp/check',
    access: READ,
    input: asSent(ZSettleErpCheck),
    summary: `The office's answer to a delivery stopped as needs checking (issue 31), with the permission that sends the invoice to the ERP {invoiceId, answer: booked|sendAgain, externalInvoiceNr (the invoice's number in the ERP; required for booked)}: booked records it and ends the delivery (never sent again); sendAgain queues it as a first try → {invoice, delivery}; 409 ERP_DELIVERY_NOT_NEEDS_CHECKING`,
    handler: (ctx, input) => settleErpCheck(ctx, input),
  }),
  defineCall({
    method: 'PUT',
    path: '/invoice',
    access: READ,
    input: asSent(ZUpdateInvoice),
    summary: `Changes a draft {id, version, invoiceDate, deliveryDate, paymentTermDays, texts, reverseVat, taxReduction, propertyDesignation, housingOrgNr, taxReductionPersons, rows} → ${INVOICE}; 409 INVOICE_NOT_DRAFT, INVOICE_CHANGED`,
    handler: (ctx, input) => updateInvoice(ctx, input),
  }),
  defineCall({
    method: 'GET',
    path: '/invoice/wo/:id',
    access: READ,
    input: byId,
    summary: `A work order's current invoice → ${INVOICE}`,
    handler: (ctx, input) => getInvoiceOf(ctx, 'workOrder', input.id),
  }),
  defineCall({
    method: 'GET',
    path: '/invoice/salesorder/:id',
    access: READ,
    input: byId,
    summary: `A sales order's current invoice → ${INVOICE}`,
    handler: (ctx, input) => getInvoiceOf(ctx, 'salesOrder', input.id),
  }),
  defineCall({
    method: 'GET',
    path: '/invoice/project/:id',
    access: READ,
    input: byId,
    summary:
      "A project's invoices, oldest first → {invoices: [{id, status, invoiceNr, invoiceDate, percent, rest, contractAmount, backlogAmount, totalPrice, totalPriceVat, erp, …}]}",
    handler: (ctx, input) => listProjectInvoices(ctx, input.id, READ),
  }),
  defineCall({
    method: 'GET',
    path: '/invoice/history/:id',
    access: READ,
    input: byId,
    summary:
      'The invoice history, newest first: create, edit, finalize, email, erp.queued, erp.created, erp.retry, erp.failed, erp.check, erp.booked, erp.resend, void; an entry of the same action within 60 s of the previous one is hidden',
    handler: (ctx, input) => getInvoiceHistory(ctx, input.id),
  }),
  defineCall({
    method: 'GET',
    path: '/invoice/:id/erp',
    access: READ,
    input: byId,
    summary: 'The ERP side of an invoice → {externalInvoiceNr, erpState, delivery}',
    handler: (ctx, input) => getInvoiceErp(ctx, input.id),
  }),
  defineCall({
    method: 'POST',
    path: '/invoice/:id/finalize',
    access: READ,
    input: byId,
    summary: `Gives a draft its number (gapless per tenant) and OCR reference → ${INVOICE}; 409 INVOICE_NOT_DRAFT, INVOICE_HAS_NO_ROWS; 400 when a ROT/RUT claim lacks a person or property`,
    handler: (ctx, input) => finalizeDraft(ctx, input.id),
  }),
  defineCall({
    method: 'GET',
    path: '/invoice/:id',
    access: READ,
    input: byId,
    summary: `One invoice → ${INVOICE}`,
    handler: (ctx, input) => getInvoice(ctx, input.id),
  }),
  defineCall({
    method: 'GET',
    path: '/articles/erp',
    access: { permission: 'articles:read_from_erp' },
    input: asSent(ZErpArticleQuery),
    summary:
      "The ERP's articles {articlenumber?, title?} → {articles: [{externalId, articleNumber, title, unit, price}]}",
    handler: (ctx, input) => listErpArticles(ctx, input),
  }),
  defineCall({
    method: 'GET',
    path: '/instance/erp',
    access: ERP_READ,
    input: z.object({}),
    summary:
      'Settings → ERP → {kind, kinds (each with vatCodes {defaults, guessed} for an ERP that takes its own VAT codes, and verification {verified, unverified}: message keys of what was checked against the vendor’s documentation), connected, companyName, accounts: {sales: {25, 12, 6, 0, reverse}, fee, rounding, vatCodes: {25, 12, 6, 0, reverse}}, deliveries (the last 20)}',
    handler: (ctx) => getErpSettings(ctx),
  }),
  defineCall({
    method: 'PUT',
    path: '/instance/erp',
    access: ERP_EDIT,
    input: asSent(ZSaveErpSettings),
    summary:
      'Chooses the ERP and its accounts {kind, accounts? {sales, fee, rounding, vatCodes? (the ERP’s own VAT code per rate; left out: kept)}, credentials? (an API-key ERP)} → the settings',
    handler: (ctx, input) => saveErpSettings(ctx, input),
  }),
  defineCall({
    method: 'POST',
    path: '/instance/erp/auth',
    access: ERP_EDIT,
    input: asSent(ZErpAuthStart),
    summary:
      "Starts the OAuth round trip {origin (the tenant's https origin)} → {url} to send the browser to; the vendor returns to {origin}/settings/erp/callback",
    handler: (ctx, input) => startErpAuth(ctx, input),
  }),
  defineCall({
    method: 'POST',
    path: '/instance/erp/callback',
    access: ERP_EDIT,
    input: asSent(ZErpAuthCallback),
    summary:
      "Completes the OAuth round trip {code, state, origin, params (the callback's other query parameters, e.g. realmId)} → {companyName}; 409 ERP_OAUTH_STATE_INVALID",
    handler: (ctx, input) => completeErpAuth(ctx, input),
  }),
  defineCall({
    method: 'POST',
    path: '/instance/erp/test',
    access: ERP_EDIT,
    input: z.object({}),
    summary: 'Tests the connection → {ok, companyName, error, vendorMessage}',
    handler: (ctx) => testErpConnection(ctx),
  }),
  defineCall({
    method: 'POST',
    path: '/instance/erp/disconnect',
    access: ERP_EDIT,
    input: z.object({}),
    summary: 'Forgets the stored credentials → the settings',
    handler: (ctx) => disconnectErp(ctx),
  }),
  defineCall({
    method: 'GET',
    path: '/instance/erp/data/:id',
    access: ERP_READ,
    input: byId,
    summary:
      'One ERP kind as Settings → ERP offers it → {id, displayName, auth: oauth2|api-key|none, fields, capabilities}',
    handler: async (ctx, input) => getErpKind(ctx, input.id),
  }),
];
