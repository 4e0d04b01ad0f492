import { z } from 'zod';
import {
  closeProposal,
  copyProposal,
  createProposal,
  deleteProposal,
  getProposal,
  listProposals,
  patchProposal,
  reopenProposal,
  saveProposal,
  workOrderOfProposal,
  ZCloseProposal,
  ZCreateProposal,
  ZPatchProposal,
  ZProposalList,
  ZSaveProposal,
} from '~/core/proposals/proposal.service';
import {
  closeSalesOrder,
  createSalesOrderWorkOrder,
  createSalesOrder,
  deleteSalesOrder,
  getSalesOrder,
  listSalesOrders,
  reopenSalesOrder,
  saveSalesOrder,
  salesOrderOfProposal,
  ZCloseSalesOrder,
  ZCreateSalesOrder,
  ZSalesOrderList,
  ZSaveSalesOrder,
} from '~/core/proposals/sales-order.service';
import { createAgreementFromProposal, ZCreateProposalAgreement } from '~/core/proposals/proposal-agreement.service';
import {
  getProposalConfiguration,
  updateProposalConfiguration,
  ZProposalConfiguration,
} from '~/core/proposals/proposal-configuration.service';
import { asSent, defineCall, unwrapped, type ApiCall } from '../define-call';

/*
 * Proposals (api-calls.md "Proposals"; issue 13), the CRM module. The services check the finer
 * permissions (proposal:delete, proposal:reopen, salesorder:edit to accept, workorders:create to
 * accept into a work order); `access` is the outer gate.
 */

/** Path parameters are text; the service answers 404 for one that names nothing. */
const byId = z.object({ id: z.string() });
type Input = Record<string, unknown>;
const READ = { permission: 'proposal:read', module: 'crm' } as const;
const EDIT = { permission: 'proposal:edit', module: 'crm' } as const;
const SO_READ = { permission: 'salesorder:read', module: 'crm' } as const;
const SO_EDIT = { permission: 'salesorder:edit', module: 'crm' } as const;
const SALES_ORDER =
  '{id, number, title, customerId, customerName, customerNumber, status: open|closed, paid, referenceUserId, referenceUserName, departmentId, proposalId, totalPrice, totalPurchasePrice, version, createTs, createUserId, closeTs, closeUserId, rows}';

const PROPOSAL =
  '{id, title, sortOrder, sequenceNumber, status: active|accepted|accepted-wo|declined, state, tags, customerId, customerName, customerNumber, contactName, contactEmail, contactPhone, deliveryLocationDescription, deliveryLocationText2, deliveryLocationText3, businessObjectId, businessObjectSerialCode, businessObjectModelName, descriptionIntro, description, description2, descriptionOfExceptions, generalTerms, paymentTerms, validTo, nextActionDate, customData, totalPrice, totalPurchasePrice, totalMonthlyPrice, workOrderId, salesOrderId, objectAgreementId, version, createTs, createUserId, closeTs, closeUserId, rows}';
const ROW =
  '{id, sortOrder, comment, isSummaryRow, articleId, articleTitle, articleDescription, articleUnit, articleAmount, articlePrice, articlePurchasePrice, articleMonthlyPrice, articleDiscountType: percentage|amount, articleDiscountValue, articleMonthlyDiscountType, articleMonthlyDiscountValue, articlePriceTag, articleTotalPrice, articleMonthlyTotalPrice, isInProjectScope, erpRef: {costCenter: {value}, stockPoint: {value}}, summarySalesPrice, summaryPurchasePrice, summaryMonthlyPrice}';

export const proposalCalls: ApiCall[] = [
  // before /proposals/:id, which would take "conf" for an id
  defineCall({
    method: 'GET',
    path: '/proposals/conf',
    access: READ,
    input: z.object({}),
    summary:
      'The proposal configuration → {summaryRows, monthlyPrice, negativePrices, files, purchasePriceEdit, stockPoint, costCenter, projectScope, validTo, generalTerms, paymentTerms, nextSequence, salesOrderNextNumber, standardTexts: [{id, title, body}], customFields: [{id, label, type: text|number|date, required}], priceTemplates: [{id, title, articleId, articleTitle, monthly, tiers: [{label, price}]}]}',
    handler: (ctx) => getProposalConfiguration(ctx),
  }),
  defineCall({
    method: 'PUT',
    path: '/proposals/conf',
    access: { permission: 'instance:edit', module: 'crm' },
    input: asSent(ZProposalConfiguration),
    summary:
      'Changes any part of the proposal configuration (the same fields; each list saved whole: listed rows kept by id, new ones added, the rest removed) → the configuration; 400 PROPOSAL_NUMBER_IN_USE when a next number is not above the highest in use',
    handler: (ctx, input) => updateProposalConfiguration(ctx, input),
  }),
  defineCall({
    method: 'GET',
    path: '/proposals',
    access: READ,
    input: asSent(ZProposalList),
    summary: `Proposals, one page: ?status (active by default; accepted, accepted-wo, declined, all), ?startTime, ?endTime (created), ?tags (ids, all of them), ?createUserId, ?offset, ?limit ≤ 200 → {proposals: [${PROPOSAL} without rows], totalCount}`,
    handler: (ctx, input) => listProposals(ctx, input),
  }),
  defineCall({
    method: 'POST',
    path: '/proposals',
    access: EDIT,
    input: asSent(ZCreateProposal),
    summary:
      'Creates an active proposal {customerId?} with the tenant’s terms and the customer’s first contact → {id, title, sortOrder, sequenceNumber}',
    handler: (ctx, input) => createProposal(ctx, input),
  }),
  defineCall({
    method: 'PUT',
    path: '/proposals',
    access: EDIT,
    input: asSent(z.object({ proposal: ZSaveProposal }), unwrapped('proposal', ZSaveProposal)),
    summary: `Saves a whole proposal {proposal: {id, version, …fields, tags: [tag names], rows: [${ROW}]}} → ${PROPOSAL}; 409 PROPOSAL_CHANGED {message} when it was saved since \`version\`, 409 PROPOSAL_NOT_ACTIVE once accepted or declined; 400 AMOUNT_CANT_BE_NEGATIVE, ERROR_NEGATIVE_PRICE, ERROR_ARTICLE_INACTIVE by row field`,
    handler: (ctx, input) => saveProposal(ctx, input),
  }),
  defineCall({
    method: 'POST',
    path: '/proposals/close',
    access: EDIT,
    input: asSent(ZCloseProposal),
    summary:
      'Accepts or declines {proposalId, status: accepted|accepted-wo|declined, ignoreArticlesForWorkOrder} → {proposal, message, salesOrderId?, workOrderId?}; accepted needs salesorder:edit and a customer number (409 CANNOT_CLOSE_PROPOSAL_SALES_ORDER_CUSTOMER_NUMBER_MISSING), accepted-wo needs workorders:create and an object (409 CANNOT_CLOSE_PROPOSAL_WORKORDER_OBJECT_IS_MISSING); both a customer (409 PROPOSAL_PLEASE_SELECT_CUSTOMER_BEFORE_ACCEPTING)',
    handler: (ctx, input) => closeProposal(ctx, input),
  }),
  defineCall({
    method: 'GET',
    path: '/proposals/:id',
    access: READ,
    input: byId,
    summary: `One proposal with its rows → ${PROPOSAL}`,
    handler: (ctx, input) => getProposal(ctx, input.id),
  }),
  defineCall({
    method: 'PATCH',
    path: '/proposals/:id',
    access: EDIT,
    input: asSent(ZPatchProposal.extend(byId.shape)),
    summary: "The list's grouping and order {state?, sortOrder?} → the proposal",
    handler: (ctx, input) => patchProposal(ctx, input.id, input),
  }),
  defineCall({
    method: 'DELETE',
    path: '/proposals/:id',
    access: { permission: 'proposal:delete', module: 'crm' },
    input: byId,
    summary: 'Deletes a proposal and its rows; orders it created stay → {message: PROPOSAL_SUCCESSFULLY_DELETED}',
    handler: (ctx, input) => deleteProposal(ctx, input.id),
  }),
  defineCall({
    method: 'POST',
    path: '/proposals/:id/reopen',
    access: { permission: 'proposal:reopen', module: 'crm' },
    input: byId,
    summary:
      'Makes an accepted or declined proposal active again; the work and sales orders it created are kept → the proposal',
    handler: (ctx, input) => reopenProposal(ctx, input.id),
  }),
  defineCall({
    method: 'POST',
    path: '/proposals/:id/agreement',
    access: { permission: 'bo:agreements:edit' },
    input: ZCreateProposalAgreement.passthrough(),
    summary:
      "Puts the object agreement that bills an accepted proposal's monthly rows on its object {agreementId (a type with price model articles), validFrom} → {agreement, businessObjectId, rows}; one invoice row per monthly row (monthly price × months of the invoice interval, amount, monthly discount); 409 PROPOSAL_AGREEMENT_OBJECT_HAS_AGREEMENT {businessObjectId}, PROPOSAL_AGREEMENT_TYPE_NOT_ARTICLES, PROPOSAL_AGREEMENT_NOT_ACCEPTED, PROPOSAL_AGREEMENT_OBJECT_MISSING, PROPOSAL_AGREEMENT_NO_MONTHLY_ROWS",
    handler: (ctx, input: Input) => createAgreementFromProposal(ctx, input.id, input),
  }),
  defineCall({
    method: 'GET',
    path: '/wo/proposal/:id',
    access: READ,
    input: byId,
    summary: 'The work order a proposal was accepted into → {workOrder}; 404 when none',
    handler: (ctx, input) => workOrderOfProposal(ctx, input.id),
  }),
  defineCall({
    method: 'GET',
    path: '/salesorders',
    access: SO_READ,
    input: asSent(ZSalesOrderList),
    summary: `Sales orders, newest first: ?customerId, ?status (open by default; closed, all), ?departmentId, ?createUserId, ?offset, ?limit ≤ 200 → {salesOrders: [${SALES_ORDER}], totalCount}`,
    handler: (ctx, input) => listSalesOrders(ctx, input),
  }),
  defineCall({
    method: 'POST',
    path: '/salesorders',
    access: SO_EDIT,
    input: asSent(ZCreateSalesOrder),
    summary: `Creates an open sales order {customerId?, title?} with the asker as reference → ${SALES_ORDER}`,
    handler: (ctx, input) => createSalesOrder(ctx, input),
  }),
  defineCall({
    method: 'PUT',
    path: '/salesorders',
    access: SO_EDIT,
    input: asSent(z.object({ salesOrder: ZSaveSalesOrder }), unwrapped('salesOrder', ZSaveSalesOrder)),
    summary:
      'Saves an open sales order {salesOrder: {id, version, title?, customerId?, referenceUserId?, departmentId?, rows?}} (rows as the proposal’s) → the order; 409 SALES_ORDER_CHANGED, SALES_ORDER_CLOSED',
    handler: (ctx, input) => saveSalesOrder(ctx, input),
  }),
  defineCall({
    method: 'GET',
    path: '/salesorders/proposal/:id',
    access: SO_READ,
    input: byId,
    summary: 'The sales order a proposal was accepted into → the order with its rows; 404 when none',
    handler: (ctx, input) => salesOrderOfProposal(ctx, input.id),
  }),
  defineCall({
    method: 'GET',
    path: '/salesorders/:id',
    access: SO_READ,
    input: byId,
    summary: `One sales order with its rows → ${SALES_ORDER}`,
    handler: (ctx, input) => getSalesOrder(ctx, input.id),
  }),
  defineCall({
    method: 'DELETE',
    path: '/salesorders/:id',
    access: { permission: 'salesorder:delete', module: 'crm' },
    input: byId,
    summary: 'Deletes an open sales order and its rows → {ok}; 409 SALES_ORDER_CLOSED',
    handler: (ctx, input) => deleteSalesOrder(ctx, input.id),
  }),
  defineCall({
    method: 'POST',
    path: '/salesorders/:id/close',
    access: SO_EDIT,
    input: asSent(ZCloseSalesOrder.extend(byId.shape)),
    summary:
      'Closes (invoiced) {paid} → the order; needs a reference person (409 SALES_ORDER_REFERENCE_USER_MISSING) and a customer number (409 SALES_ORDER_CUSTOMER_NUMBER_MISSING)',
    handler: (ctx, input) => closeSalesOrder(ctx, input.id, input),
  }),
  defineCall({
    method: 'POST',
    path: '/salesorders/:id/workorder',
    access: SO_EDIT,
    // the id from the path; the object to make the order for, else the proposal's
    input: z.object({ id: z.string(), businessObjectId: z.string().nullish() }),
    summary:
      'Makes the work order that fulfils and bills an open sales order {businessObjectId?} → {workOrderId, salesOrder}; 409 SALES_ORDER_HAS_WORK_ORDER, CANNOT_CLOSE_PROPOSAL_WORKORDER_OBJECT_IS_MISSING',
    handler: (ctx, input: Input) => createSalesOrderWorkOrder(ctx, input.id, input),
  }),
  defineCall({
    method: 'POST',
    path: '/salesorders/:id/reopen',
    access: SO_EDIT,
    input: byId,
    summary: 'Opens a closed sales order again (paid cleared) → the order',
    handler: (ctx, input) => reopenSalesOrder(ctx, input.id),
  }),
  defineCall({
    method: 'POST',
    path: '/proposals/:id/copy',
    access: EDIT,
    input: byId,
    summary: 'A new proposal for the same customer with the full content (spec: copy) → the new proposal',
    handler: (ctx, input) => copyProposal(ctx, input.id),
  }),
];
