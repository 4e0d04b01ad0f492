import { z } from 'zod';
import {
  broadcastWorkOrder,
  closeWorkOrder,
  copyWorkOrder,
  getCloseDefaults,
  reopenWorkOrder,
  setProjectExtraStatus,
  ZBroadcast,
  ZCloseWorkOrder,
  ZCopyWorkOrder,
  ZProjectExtra,
  ZReopenWorkOrder,
} from '~/core/work-orders/close.service';
import { asSent, defineCall, type ApiCall } from '../define-call';

/*
 * The end of a work order's life (api-calls.md "Work orders"): close with its invoice details
 * (POST /wo/close — the catalogue sends them with closing), reopen, copy (revisit), the
 * order-finish broadcast and the ATA status; and GET /wo/{id}/close, what the close dialog
 * proposes (not in the catalogue). Registered before work-orders.calls.ts so the fixed paths are
 * matched before any `/wo/:id`-style one. Services check access, the limit and validate.
 */

/** Path parameters are text; the service answers 404 for one that names nothing. */
const byId = z.object({ id: z.string() });

export const workOrderCloseCalls: ApiCall[] = [
  defineCall({
    method: 'POST',
    path: '/wo/close',
    access: { permission: 'workorders:close' },
    input: asSent(ZCloseWorkOrder),
    summary:
      'Closes a work order {workOrderId, statusId?, invoiceDate, deliveryDate, invoiceFee, ignoreReverseVAT} → {workOrder, invoice, warnings}; 409 CANNOT_CLOSE_WORK_ORDER_CUSTOMER_NUMBER_MISSING, WORK_ORDER_CLOSED, WORK_ORDER_LOCKED',
    handler: (ctx, input) => closeWorkOrder(ctx, input),
  }),
  defineCall({
    method: 'POST',
    path: '/wo/reopen',
    access: { permission: 'workorders:reopen' },
    input: asSent(ZReopenWorkOrder),
    summary:
      'Reopens a closed work order {workOrderId} → {workOrder, invoices: {deleted, kept}}; the draft invoice is deleted, one in the ERP kept',
    handler: (ctx, input) => reopenWorkOrder(ctx, input),
  }),
  defineCall({
    method: 'POST',
    path: '/wo/copy',
    access: { permission: 'workorders:copy', module: 'copy' },
    input: asSent(ZCopyWorkOrder),
    summary:
      'Copies a work order as a revisit {workOrderId, options: {scheduleReports, description, summary, articles, files}} → {workOrder, message: WORK_ORDER_REVISIT_SUCCESSFULLY_CREATED}',
    handler: (ctx, input) => copyWorkOrder(ctx, input),
  }),
  defineCall({
    method: 'POST',
    path: '/wo/broadcast',
    access: { permission: 'workorders:close', module: 'broadcast' },
    input: asSent(ZBroadcast),
    summary:
      "Sends or ignores the order-finish e-mail {workOrder: {id}, event: 'finished', status: 'send' | 'ignore'} → {message: EMAIL_SENT_TO, recipient} or {}",
    handler: (ctx, input) => broadcastWorkOrder(ctx, input),
  }),
  defineCall({
    method: 'POST',
    path: '/wo/projectextra',
    access: { permission: 'workorders:read' },
    input: asSent(ZProjectExtra),
    summary:
      'Sets the ATA status of a project work order {workOrderId, status: pending | accepted | declined} → {workOrder, projectExtraStatus}; pending needs workorders:create_project_extra_work, accepted and declined workorders:accept_project_extra_work',
    handler: (ctx, input) => setProjectExtraStatus(ctx, input),
  }),
  defineCall({
    method: 'GET',
    path: '/wo/:id/close',
    access: { permission: 'workorders:read' },
    input: byId,
    summary:
      'What the close dialog proposes and allows for a work order (invoice dates, fee, VAT warnings, closing statuses, reopen, copy, broadcast, ATA); not in the catalogue',
    handler: (ctx, input) => getCloseDefaults(ctx, input.id),
  }),
];
