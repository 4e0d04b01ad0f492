import {
  emailProposalPdf,
  proposalPdf,
  proposalWord,
  salesOrderPdf,
  salesOrderWord,
  ZEmailProposalDocument,
  ZProposalDocument,
  ZSalesOrderDocument,
} from '~/core/proposals/proposal-documents.service';
import { asSent, defineCall, type ApiCall } from '../define-call';
import { fileReply } from './work-order-documents.calls';

/*
 * Proposal and sales-order documents (api-calls.md "Proposals", "Sales orders"; issue 13): POST
 * /proposals/pdf, /proposals/word, /salesorders/pdf and /salesorders/word answer the file itself
 * (attachment, named from the number); POST /proposals/pdf/email mails the proposal's PDF, as
 * /wo/pdf/email does. Registered before the proposal calls, so no `/proposals/:id` pattern can
 * take "pdf" for an id.
 */

const READ = { permission: 'proposal:read', module: 'crm' } as const;
const SO_READ = { permission: 'salesorder:read', module: 'crm' } as const;

export const proposalDocumentCalls: ApiCall[] = [
  defineCall({
    method: 'POST',
    path: '/proposals/pdf',
    access: READ,
    input: asSent(ZProposalDocument),
    summary:
      'The proposal as PDF {proposal (id), templateId (default)} → application/pdf, attachment named from the proposal number; never purchase prices',
    handler: async (ctx, input) => (await proposalPdf(ctx, input)).map(fileReply),
  }),
  defineCall({
    method: 'POST',
    path: '/proposals/word',
    access: READ,
    input: asSent(ZProposalDocument),
    summary: 'The proposal as a Word document {proposal (id), templateId (default)} → .docx attachment',
    handler: async (ctx, input) => (await proposalWord(ctx, input)).map(fileReply),
  }),
  defineCall({
    method: 'POST',
    path: '/proposals/pdf/email',
    access: READ,
    input: asSent(ZEmailProposalDocument),
    summary:
      'E-mails the proposal as PDF {proposal (id), templateId, emailTarget (one address, several separated by commas, or a list; the contact e-mail when left out)} → {message: EMAIL_SENT_TO, recipient, recipients}; needs proposal:edit (history row); the PDF is printed and sent once the call committed, a relay that is down retried',
    handler: (ctx, input) => emailProposalPdf(ctx, input),
  }),
  defineCall({
    method: 'POST',
    path: '/salesorders/pdf',
    access: SO_READ,
    input: asSent(ZSalesOrderDocument),
    summary:
      'The sales order as PDF {salesOrder (id), templateId (default)} → application/pdf, attachment named from the order number',
    handler: async (ctx, input) => (await salesOrderPdf(ctx, input)).map(fileReply),
  }),
  defineCall({
    method: 'POST',
    path: '/salesorders/word',
    access: SO_READ,
    input: asSent(ZSalesOrderDocument),
    summary: 'The sales order as a Word document {salesOrder (id), templateId (default)} → .docx attachment',
    handler: async (ctx, input) => (await salesOrderWord(ctx, input)).map(fileReply),
  }),
];
