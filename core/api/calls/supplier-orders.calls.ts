import { z } from 'zod';
import { PUBLIC } from '~/core/permissions/access';
import {
  ZSupplierOrderFilter,
  ZSupplierOrderHandle,
  ZSupplierOrderUpload,
} from '~/core/supplier-orders/supplier-order.schema';
import {
  discardSupplierOrder,
  handleSupplierOrder,
  listSupplierOrdersInError,
  receiveInboundOrder,
  SUPPLIER_ORDER_ACCESS,
  uploadSupplierOrder,
} from '~/core/supplier-orders/supplier-order.service';
import { asSent, defineCall, shownOnly, type ApiCall } from '../define-call';
import { inboundXmlBody, xmlBody } from './supplier-invoices.calls';

const byId = z.object({ id: z.string() });

/**
 * Supplier orders (api-calls.md "GET /suppliers/order; POST /suppliers/order/{id}/discard; POST
 * /suppliers/order/{id}/handle {workOrderTitle}"; decision 055), with the arrival calls issue 33
 * item 5 adds. Before suppliers.calls.ts: /suppliers/order is not a supplier id.
 */
export const supplierOrderCalls: ApiCall[] = [
  defineCall({
    method: 'GET',
    path: '/suppliers/order',
    access: SUPPLIER_ORDER_ACCESS.edit,
    input: asSent(ZSupplierOrderFilter),
    summary:
      'Supplier order confirmations in error (their work-order reference named no open order) of the past 2 months, newest first ?q&offset&limit → {orders: [{id, source, orderNumber, orderDate, supplierId, supplierName, workOrderReference, currency, total, rows, createdAt}], totalCount}',
    handler: (ctx, input) => listSupplierOrdersInError(ctx, input),
  }),
  defineCall({
    method: 'POST',
    path: '/suppliers/order',
    access: SUPPLIER_ORDER_ACCESS.edit,
    input: shownOnly(ZSupplierOrderUpload.partial()),
    receive: xmlBody,
    summary:
      "Uploads an order confirmation: a Peppol Order Response (application/xml body, or {document}) or a wholesaler's CSV (text/csv body with ?supplierId, charset=windows-1252 if so, or {document, format: 'csv', supplierId}) → {orders: [{id, orderNumber, status (added|error|nothing), workOrderId, workOrderNumber, rowsAdded, skippedLines}]}; 400 SUPPLIER_ORDER_INVALID {fields: {document}, message: the rule}, 409 SUPPLIER_ORDER_DUPLICATE {duplicateOf}",
    handler: (ctx, input) => {
      const sent = input as {
        received?: string | null;
        body?: unknown;
        document?: unknown;
        format?: unknown;
        supplierId?: unknown;
      };
      // JSON {document} (which the XML reader also hands on as `received`), an XML body, a CSV body
      if (sent.document !== undefined || (sent.received == null && typeof sent.body !== 'string'))
        return uploadSupplierOrder(ctx, { document: sent.document, format: sent.format, supplierId: sent.supplierId });
      if (typeof sent.received === 'string')
        return uploadSupplierOrder(ctx, { document: sent.received, format: 'peppol' });
      return uploadSupplierOrder(ctx, { document: sent.body, format: 'csv', supplierId: sent.supplierId });
    },
  }),
  defineCall({
    method: 'POST',
    path: '/suppliers/order/inbound',
    access: PUBLIC,
    input: z.object({ document: z.string().optional() }),
    // the secret before the body, as for supplier invoices
    receive: inboundXmlBody,
    summary:
      "An access point posts a Peppol Order Response (application/xml) with `Authorization: Bearer <the tenant's inbound secret>` (the supplier invoices' one) → {orders}; 401 INVALID_SESSION, 400 SUPPLIER_ORDER_INVALID, 409 SUPPLIER_ORDER_DUPLICATE",
    handler: (ctx, input, meta) => receiveInboundOrder(ctx, meta.token, (input as { received: unknown }).received),
  }),
  defineCall({
    method: 'POST',
    path: '/suppliers/order/:id/handle',
    access: SUPPLIER_ORDER_ACCESS.edit,
    input: asSent(ZSupplierOrderHandle),
    summary:
      'Re-handles an order in error against the open work order {workOrderTitle} names (its number, or the exact title of one open order): its rows are added there → {ok, workOrderId, workOrderNumber, rowsAdded}; 400 fields.workOrderTitle SUPPLIER_ORDER_WORK_ORDER_NOT_FOUND, 409 SUPPLIER_ORDER_NOT_IN_ERROR',
    handler: (ctx, input) => handleSupplierOrder(ctx, input),
  }),
  defineCall({
    method: 'POST',
    path: '/suppliers/order/:id/discard',
    access: SUPPLIER_ORDER_ACCESS.edit,
    input: byId,
    summary: 'Discards an order in error → {ok}; 409 SUPPLIER_ORDER_NOT_IN_ERROR',
    handler: (ctx, input) => discardSupplierOrder(ctx, input.id),
  }),
];
