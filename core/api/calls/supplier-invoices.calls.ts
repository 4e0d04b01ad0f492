import { z } from 'zod';
import { withTenant } from '~/core/db/with-tenant';
import { AppError } from '~/core/errors/app-error';
import { readToken } from '~/core/http/session-token';
import { PUBLIC } from '~/core/permissions/access';
import {
  addSupplierInvoiceComment,
  approveContent,
  approvePayment,
  createManualInvoice,
  declineSupplierInvoice,
  checkInboundSecret,
  deleteSupplierInvoice,
  getSupplierInvoice,
  listSupplierInvoiceComments,
  listSupplierInvoices,
  patchSupplierInvoice,
  receiveInboundInvoice,
  rotateInboundSecret,
  saveSupplierInvoiceSettings,
  SUPPLIER_INVOICE_ACCESS,
  supplierInvoiceBadge,
  supplierInvoiceDocument,
  supplierInvoiceSettings,
  uploadPeppolInvoice,
} from '~/core/supplier-invoices/supplier-invoice.service';
import {
  ZManualSupplierInvoice,
  ZSupplierInvoiceComment,
  ZSupplierInvoiceDecline,
  ZSupplierInvoiceFilter,
  ZSupplierInvoicePatch,
  ZSupplierInvoiceSettings,
} from '~/core/supplier-invoices/supplier-invoice.schema';
import { retrySupplierInvoiceDelivery } from '~/core/supplier-invoices/supplier-invoice-delivery';
import { erpFetchStatus, requestErpFetch } from '~/core/supplier-invoices/supplier-invoice-erp-fetch';
import { MAX_UBL_BYTES } from '~/core/supplier-invoices/ubl-invoice';
import { discardReceived, type Received } from '~/core/files/receive';
import { receiveTypedInvoice, typedInvoiceFields } from '~/core/supplier-invoices/typed-invoice-upload';
import { asSent, defineCall, Reply, shownOnly, type ApiCall, type ReceiveBody } from '../define-call';

const byId = z.object({ id: z.string() });

/**
 * An e-invoice document as sent: an XML body (application/xml, as an access point posts it) read
 * here, before the unit of work, up to MAX_UBL_BYTES; or JSON {document: "<Invoice …>"}.
 */
export const xmlBody: ReceiveBody<string | null> = {
  async read(body, headers, { input }) {
    if (typeof input.document === 'string') return input.document;
    const type = String(headers['content-type'] ?? '');
    if (!/^(application|text)\/xml\b/i.test(type)) return null;
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of body as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > MAX_UBL_BYTES)
        throw new AppError('FILE_TOO_LARGE', 413, { fields: { document: ['FILE_TOO_LARGE'] } });
      chunks.push(chunk);
    }
    return Buffer.concat(chunks).toString('utf8');
  },
  async discard() {},
};

/**
 * The inbound address's body: the secret is checked first (one short read of the tenant's settings),
 * so a caller without it cannot make the server read 20 MB.
 */
export const inboundXmlBody: ReceiveBody<string | null> = {
  async read(body, headers, scope) {
    const secret = readToken({ authorization: headers.authorization as string | undefined });
    await withTenant(scope.tenant, (trx) => checkInboundSecret(trx, secret));
    return xmlBody.read(body, headers, scope);
  },
  async discard() {},
};

/** A typed PDF invoice sent as multipart: the PDF into the file store before the unit of work. */
const typedInvoiceBody: ReceiveBody<Received | null> = {
  read: (body, headers, { tenant }) => receiveTypedInvoice(body, headers, tenant),
  discard: async (received) => {
    if (received) await discardReceived(received);
  },
};

const DOCUMENT_INPUT = z.object({ document: z.string().optional() });

/**
 * The catalogue's supplier-invoice calls (api-calls.md "Supplier invoices"), with the arrival and
 * settings calls issue 33 adds. Fixed paths before /supplierinvoices/:id.
 */
export const supplierInvoiceCalls: ApiCall[] = [
  defineCall({
    method: 'GET',
    path: '/supplierinvoices',
    access: SUPPLIER_INVOICE_ACCESS.read,
    input: asSent(ZSupplierInvoiceFilter),
    summary:
      'Supplier invoices ?status (pending|approved|declined|all, default pending)&projectId&workOrderId&offset&limit, newest first → {invoices, totalCount, pendingCount, paymentPendingCount}; without read_all only those the user is responsible for',
    handler: (ctx, input) => listSupplierInvoices(ctx, input),
  }),
  defineCall({
    method: 'GET',
    path: '/supplierinvoices/badge',
    access: SUPPLIER_INVOICE_ACCESS.read,
    input: z.object({}),
    summary: "The top bar's count of invoices waiting for the user → {count, label} (label \"99+\" above 99)",
    handler: async (ctx) => (await supplierInvoiceBadge(ctx)) ?? { count: 0, label: '0' },
  }),
  defineCall({
    method: 'GET',
    path: '/supplierinvoices/settings',
    access: SUPPLIER_INVOICE_ACCESS.read,
    input: z.object({}),
    summary:
      'The re-invoicing rule, whether the inbound address has a secret, and the fetch from the ERP → {rebill, rebillMarkup, inboundConfigured, erpFetch: {available, state (idle|queued|running), fetchedAt, added, existing, error}}',
    handler: async (ctx) => ({ ...(await supplierInvoiceSettings(ctx)), erpFetch: await erpFetchStatus(ctx.trx) }),
  }),
  defineCall({
    method: 'POST',
    path: '/supplierinvoices/erp/fetch',
    access: SUPPLIER_INVOICE_ACCESS.edit,
    input: z.object({}),
    summary:
      "Fetches the supplier invoices awaiting approval in the tenant's ERP (a job; one at a time) → {queued, fetch: as erpFetch of the settings}; 409 SUPPLIER_INVOICE_ERP_CANNOT_FETCH when its ERP cannot",
    handler: (ctx) => requestErpFetch(ctx),
  }),
  defineCall({
    method: 'PUT',
    path: '/supplierinvoices/settings',
    access: SUPPLIER_INVOICE_ACCESS.edit,
    input: asSent(ZSupplierInvoiceSettings),
    summary: 'Sets the re-invoicing rule {rebill, rebillMarkup (percent)}; needs settings:read too',
    handler: (ctx, input) => saveSupplierInvoiceSettings(ctx, input),
  }),
  defineCall({
    method: 'POST',
    path: '/supplierinvoices/inbound/secret',
    access: SUPPLIER_INVOICE_ACCESS.edit,
    input: z.object({}),
    summary: "A new secret for the tenant's inbound address, shown once → {secret}; the old one stops working",
    handler: (ctx) => rotateInboundSecret(ctx),
  }),
  defineCall({
    method: 'POST',
    path: '/supplierinvoices/inbound',
    access: PUBLIC,
    input: DOCUMENT_INPUT,
    receive: inboundXmlBody,
    summary:
      "An access point posts a Peppol BIS 3 invoice or credit note (application/xml) with `Authorization: Bearer <the tenant's inbound secret>` → {id}; 401 INVALID_SESSION, 400 SUPPLIER_INVOICE_INVALID {fields: {document}, message: the rule}, 409 SUPPLIER_INVOICE_DUPLICATE {message naming the first}",
    handler: (ctx, input, meta) => receiveInboundInvoice(ctx, meta.token, (input as { received: unknown }).received),
  }),
  defineCall({
    method: 'POST',
    path: '/supplierinvoices/peppol',
    access: SUPPLIER_INVOICE_ACCESS.edit,
    input: DOCUMENT_INPUT,
    receive: xmlBody,
    summary:
      'Uploads a Peppol BIS 3 invoice or credit note (application/xml body, or {document}) → {id}; 400 SUPPLIER_INVOICE_INVALID, 409 SUPPLIER_INVOICE_DUPLICATE',
    handler: (ctx, input) => uploadPeppolInvoice(ctx, (input as { received: unknown }).received),
  }),
  defineCall({
    method: 'POST',
    path: '/supplierinvoices',
    access: SUPPLIER_INVOICE_ACCESS.edit,
    // a multipart request carries the fields as JSON in `invoice`: the service checks them
    input: shownOnly(ZManualSupplierInvoice),
    receive: typedInvoiceBody,
    summary:
      'A PDF invoice typed by a person {supplierId, invoiceNumber, invoiceDate, dueDate, currency, orderReference, ocr, workOrderId, projectId, fee, rounding, fileId, rows: [{description, articleNumber, amount, unit, price, vatPercent, account}]} → {id}; totals computed; 409 SUPPLIER_INVOICE_DUPLICATE. Or multipart/form-data: the PDF as `pdf`, those fields as JSON in `invoice` (400 SUPPLIER_INVOICE_PDF_ONLY for anything but one PDF); a PDF can also be added later with POST /file/generic/supplier_invoice/{id}',
    handler: (ctx, input) => {
      const { received, ...sent } = input as unknown as Record<string, unknown> & { received: Received | null };
      return createManualInvoice(ctx, typedInvoiceFields(sent, received), received ?? undefined);
    },
  }),
  defineCall({
    method: 'PATCH',
    path: '/supplierinvoices',
    access: SUPPLIER_INVOICE_ACCESS.edit,
    input: asSent(ZSupplierInvoicePatch),
    summary:
      'Matches by hand before the content is approved {id, supplierId?, workOrderId?, projectId?, responsibleUserId?} → {ok}',
    handler: (ctx, input) => patchSupplierInvoice(ctx, input),
  }),
  defineCall({
    method: 'GET',
    path: '/supplierinvoices/:id',
    access: SUPPLIER_INVOICE_ACCESS.read,
    input: byId,
    summary:
      'One supplier invoice with rows, comments and ERP delivery → {supplierInvoice, can: {approveContent, approvePayment, decline, edit, delete}, erp: {kind, displayName, canBook}, suggestions}',
    handler: (ctx, input) => getSupplierInvoice(ctx, input.id),
  }),
  defineCall({
    method: 'GET',
    path: '/supplierinvoices/:id/document',
    access: SUPPLIER_INVOICE_ACCESS.read,
    input: byId,
    summary: 'The e-invoice document as it arrived (application/xml)',
    handler: async (ctx, input) =>
      new Reply(200, await supplierInvoiceDocument(ctx, input.id), {
        'Content-Type': 'application/xml; charset=utf-8',
      }),
  }),
  defineCall({
    method: 'POST',
    path: '/supplierinvoices/:id/content/approve',
    access: SUPPLIER_INVOICE_ACCESS.read,
    input: byId,
    summary:
      'The responsible person approves the content → {ok}; 403 for anyone else, 409 SUPPLIER_INVOICE_NOT_PENDING, SUPPLIER_INVOICE_CONTENT_ALREADY_APPROVED, SUPPLIER_INVOICE_SUPPLIER_NOT_MATCHED',
    handler: (ctx, input) => approveContent(ctx, input.id),
  }),
  defineCall({
    method: 'POST',
    path: '/supplierinvoices/:id/payment/approve',
    access: SUPPLIER_INVOICE_ACCESS.edit,
    input: byId,
    summary:
      'Finance approves the payment: the invoice is approved, its rows become costs, and where the ERP books supplier invoices it is queued for it → {ok, erpQueued}; 409 SUPPLIER_INVOICE_CONTENT_NOT_APPROVED, ERP_SUPPLIER_ACCOUNT_MISSING',
    handler: (ctx, input) => approvePayment(ctx, input.id),
  }),
  defineCall({
    method: 'POST',
    path: '/supplierinvoices/:id/decline',
    access: SUPPLIER_INVOICE_ACCESS.read,
    input: asSent(ZSupplierInvoiceDecline),
    summary: 'Declines a pending invoice {comment} → {ok}; the comment joins the thread',
    handler: (ctx, input) => declineSupplierInvoice(ctx, input),
  }),
  defineCall({
    method: 'POST',
    path: '/supplierinvoices/:id/erp/retry',
    access: SUPPLIER_INVOICE_ACCESS.edit,
    input: byId,
    summary: 'Queues a failed ERP delivery again (same key) → {queued}',
    handler: async (ctx, input) => {
      await getSupplierInvoice(ctx, input.id);
      return { queued: await retrySupplierInvoiceDelivery(ctx, input.id) };
    },
  }),
  defineCall({
    method: 'GET',
    path: '/supplierinvoices/:id/comments',
    access: SUPPLIER_INVOICE_ACCESS.read,
    input: byId,
    summary: 'The comments, oldest first → {comments: [{id, kind (comment|decline), text, userId, userName, createdAt}]}',
    handler: (ctx, input) => listSupplierInvoiceComments(ctx, input.id),
  }),
  defineCall({
    method: 'POST',
    path: '/supplierinvoices/:id/comments',
    access: SUPPLIER_INVOICE_ACCESS.read,
    input: asSent(ZSupplierInvoiceComment),
    summary: 'Adds a comment {text} → {comments}',
    handler: (ctx, input) => addSupplierInvoiceComment(ctx, input),
  }),
  defineCall({
    method: 'DELETE',
    path: '/supplierinvoices/:id',
    access: SUPPLIER_INVOICE_ACCESS.edit,
    input: byId,
    summary: 'Deletes an invoice whose content is not yet approved → {ok}; 409 SUPPLIER_INVOICE_NOT_PENDING',
    handler: (ctx, input) => deleteSupplierInvoice(ctx, input.id),
  }),
];
