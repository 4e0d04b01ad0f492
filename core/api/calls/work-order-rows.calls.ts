import { z } from 'zod';
import { listWorkOrderArticles, saveWorkOrderArticles, ZSaveArticles } from '~/core/work-orders/articles.service';
import {
  deleteWorkOrderTime,
  listWorkOrderTime,
  saveWorkOrderTime,
  ZDeleteTime,
  ZSaveTime,
} from '~/core/work-orders/time.service';
import { asSent, defineCall, type ApiCall } from '../define-call';

/*
 * The rows reported on a work order (api-calls.md "Work orders"): its articles and each person's
 * time. Services check access, the work-order limit and validate; `access` here is the outer
 * gate. Fixed paths come before parameterised ones (`/wo/time` is never a work order's id).
 */

/** Path parameters are text; the service answers 404 for one that names nothing. */
const byId = z.object({ id: z.string() });

export const workOrderRowCalls: ApiCall[] = [
  defineCall({
    method: 'PUT',
    path: '/wo/time',
    access: { permission: 'workorders:report' },
    input: asSent(ZSaveTime),
    summary:
      "Creates (no id) or replaces one person's time on a work order {id?, workOrderId, userId, date?, startTs?, endTs?, hours?, minutes?, travelHours?, travelMinutes?, distanceKm?, comment?} → {id, data: {rows, totals, users, canReport}}; 409 TIME_REPORT_LOCKED",
    handler: (ctx, input) => saveWorkOrderTime(ctx, input),
  }),
  defineCall({
    method: 'DELETE',
    path: '/wo/time/:id',
    access: { permission: 'workorders:report' },
    input: asSent(ZDeleteTime),
    summary: 'Deletes a time row → {rows, totals, users, canReport}; 409 TIME_REPORT_LOCKED',
    handler: (ctx, input) => deleteWorkOrderTime(ctx, { id: input.id }),
  }),
  // ---- parameterised paths ----
  defineCall({
    method: 'GET',
    path: '/wo/:id/articles',
    access: { permission: 'workorders:read' },
    input: byId,
    summary:
      "A work order's article rows {rows, totals: {net, purchase, margin, marginPercent}, canReport, canReadCost}; purchase prices and margin only with workorders:read_cost",
    handler: (ctx, input) => listWorkOrderArticles(ctx, input.id),
  }),
  defineCall({
    method: 'PUT',
    path: '/wo/:id/articles',
    access: { permission: 'workorders:report_articles' },
    input: asSent(ZSaveArticles.omit({ workOrderId: true }).extend(byId.shape)),
    summary:
      "Replaces a work order's article rows {rows: [{id?, articleId?, supplierArticleId?, amount, price?, discount?, description?}]} → as GET; new rows without an article are dropped, new rows priced by the price lookup; a row with supplierArticleId (an id of /sbsc/products) is made from that supplier-catalogue article: its purchase price after discount, its recommended price as the price, and `ref` {type: supplier-inventory, supplierId, articleNumber, id} (at most 10 such rows a save; 400 SUPPLIER_CATALOGUE_ARTICLE_GONE); 400 AMOUNT_CANT_BE_NEGATIVE",
    handler: (ctx, input) => saveWorkOrderArticles(ctx, { rows: input.rows, workOrderId: input.id }),
  }),
  defineCall({
    method: 'GET',
    path: '/wo/:id/time',
    access: { permission: 'workorders:read' },
    input: byId,
    summary:
      "Each person's time on a work order {rows, totals: {workMinutes, travelMinutes, distanceKm}, users, canReport}",
    handler: (ctx, input) => listWorkOrderTime(ctx, input.id),
  }),
];
