import { z } from 'zod';
import { PROJECT_ACCESS } from '~/core/projects/project-access';
import {
  closeProjectInvoice,
  createProjectInvoice,
  deleteProjectInvoice,
  getProjectRows,
  listProjectInvoices,
  reopenProjectInvoice,
  setArticleStatus,
  setWorkOrderStatus,
  updateProjectInvoice,
  ZArticleStatus,
  ZCreateProjectInvoice,
  ZUpdateProjectInvoice,
  ZWorkOrderStatus,
} from '~/core/projects/project-invoice.service';
import { asSent, defineCall, type ApiCall } from '../define-call';

/*
 * Project invoicing (api-calls.md "Projects": the article and work-order invoicing status, project
 * invoices; issue 18). Registered before the project calls: /projects/invoices… is a fixed path
 * that /projects/:id would otherwise take. Services check access and validate.
 */

/** Path parameters are text; the service answers 404 for one that names nothing. */
const byId = z.object({ id: z.string() });
const byInvoice = z.object({ invoiceId: z.string() });
const ITEM =
  '{id, status: draft|finalized|void, invoiceNr, invoiceDate, marking, customerName, percent, rest, withBacklog, contractAmount, backlogAmount, totalPrice, totalPriceVat, erp: none|queued|delivered|failed, externalInvoiceNr, errorCode, version}';
const ROWS =
  '{rows: [{kind: workOrder|article, id, workOrderId, workOrderNumber, title, quantity, unit, price, total, status: open|included|invoiced, ownStatus, extraWork: pending|accepted|declined|null, invoiceId, invoiceNr, invoiceStatus, canMarkIncluded, invoiceable}]}';

export const projectInvoiceCalls: ApiCall[] = [
  defineCall({
    method: 'GET',
    path: '/projects/:id/articles',
    access: PROJECT_ACCESS.read,
    input: byId,
    summary: `The project's invoicing rows: each work order (its labour: hours × the hourly price) and the article rows on them, with their status (an article row without its own follows its order) → ${ROWS}`,
    handler: (ctx, input) => getProjectRows(ctx, input.id),
  }),
  defineCall({
    method: 'PATCH',
    path: '/projects/:id/articles/status',
    access: PROJECT_ACCESS.edit,
    input: asSent(ZArticleStatus.extend(byId.shape)),
    summary: `Sets an article row's status {rowId, status: open|included|invoiced, invoiceId (a finalized invoice of the project, for invoiced)} → ${ROWS}; 409 PROJECT_ROW_INVOICED (invoiced or on an invoice), PROJECT_CLOSED`,
    handler: (ctx, input) => setArticleStatus(ctx, input.id, input),
  }),
  defineCall({
    method: 'PATCH',
    path: '/projects/:id/workorders/status',
    access: PROJECT_ACCESS.edit,
    input: asSent(ZWorkOrderStatus.extend(byId.shape)),
    summary: `Sets a project work order's status {workOrderId, status: open|included|invoiced, invoiceId} → ${ROWS}; 409 PROJECT_ROW_INVOICED, PROJECT_CLOSED`,
    handler: (ctx, input) => setWorkOrderStatus(ctx, input.id, input),
  }),
  defineCall({
    method: 'GET',
    path: '/projects/:id/invoices',
    access: PROJECT_ACCESS.read,
    input: byId,
    summary: `The project's invoices, oldest first → {invoices: [${ITEM}]}`,
    handler: (ctx, input) => listProjectInvoices(ctx, input.id),
  }),
  defineCall({
    method: 'POST',
    path: '/projects/invoices',
    access: PROJECT_ACCESS.edit,
    input: asSent(ZCreateProjectInvoice),
    summary: `Creates a draft part invoice {projectId, percent: number (0–100, two decimals) | 'rest' | null, withBacklog, invoiceDate?, marking?} → {invoice: ${ITEM}}; 400 PROJECT_INVOICE_EMPTY; 409 PROJECT_INVOICE_EXCEEDS_CONTRACT, PROJECT_INVOICE_CUSTOMER_MISSING, PROJECT_CLOSED`,
    handler: (ctx, input) => createProjectInvoice(ctx, input),
  }),
  defineCall({
    method: 'PUT',
    path: '/projects/invoices',
    access: PROJECT_ACCESS.edit,
    input: asSent(ZUpdateProjectInvoice),
    summary: `Changes a draft and computes it again {id, version?, percent?, withBacklog?, invoiceDate?, marking?} → {invoice}; 409 INVOICE_NOT_DRAFT, INVOICE_CHANGED, PROJECT_INVOICE_EXCEEDS_CONTRACT`,
    handler: (ctx, input) => updateProjectInvoice(ctx, input),
  }),
  defineCall({
    method: 'DELETE',
    path: '/projects/invoices/:invoiceId',
    access: PROJECT_ACCESS.edit,
    input: byInvoice,
    summary:
      'Deletes a draft and frees its rows → {deleted, voided} (a reopened draft keeps its number and is voided); 409 INVOICE_NOT_DRAFT',
    handler: (ctx, input) => deleteProjectInvoice(ctx, input.invoiceId),
  }),
  defineCall({
    method: 'POST',
    path: '/projects/invoices/:invoiceId/close',
    access: PROJECT_ACCESS.edit,
    input: byInvoice,
    summary: `Finalizes a draft: its number, its rows invoiced, queued for the ERP when one that takes invoices is connected → {invoice, queued, delivery: queued|notConnected|customerNotSent|zeroPrice}; 409 PROJECT_INVOICE_CUSTOMER_NUMBER_MISSING, INVOICE_NOT_DRAFT; 403 for a negative total without projects:close_negative_invoice`,
    handler: (ctx, input) => closeProjectInvoice(ctx, input.invoiceId),
  }),
  defineCall({
    method: 'POST',
    path: '/projects/invoices/:invoiceId/reopen',
    access: PROJECT_ACCESS.edit,
    input: byInvoice,
    summary:
      'A finalized invoice the ERP does not have yet becomes a draft again with its number → {invoice}; 409 INVOICE_ALREADY_IN_ERP, INVOICE_NOT_FINALIZED',
    handler: (ctx, input) => reopenProjectInvoice(ctx, input.invoiceId),
  }),
];
