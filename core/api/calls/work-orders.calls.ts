import { z } from 'zod';
import { listWorkOrders, myWorkOrders, searchWorkOrders } from '~/core/work-orders/work-order-list.service';
import {
  unwrapWorkOrder,
  ZCreateWorkOrder,
  ZEditWorkOrder,
  ZPage,
  ZWorkOrderListQuery,
  ZWorkOrderSearch,
} from '~/core/work-orders/work-order.schema';
import {
  createWorkOrder,
  deleteWorkOrder,
  editWorkOrder,
  getWorkOrder,
  listWorkOrderHistory,
  restoreWorkOrder,
  setWorkOrderCustomer,
  setWorkOrderId06,
  setWorkOrderIntake,
  setWorkOrderLocked,
  setWorkOrderObject,
  ZId06Code,
  ZIntake,
  ZSetCustomer,
  ZSetObject,
  ZWorkOrderId,
} from '~/core/work-orders/work-order.service';
import { exportId06Register, ZId06Export } from '~/core/work-orders/id06.service';
import {
  getWorkOrderSignatures,
  removeWorkOrderSignature,
  signWorkOrder,
  SIGNATURE_ACCESS,
  ZSignWorkOrder,
} from '~/core/work-orders/signature.service';
import { asSent, defineCall, type ApiCall } from '../define-call';
import { fileReply } from './work-order-documents.calls';

/*
 * The work-order calls of the catalogue (api-calls.md "Work orders") built so far: list, search,
 * my orders, create, get, edit, customer and object, history, delete, lock and unlock, plus
 * POST /wo/restore (recycle bin; not in the catalogue). Services check access, the work-order
 * limit and validate; `access` here is the outer gate. Fixed paths come before parameterised ones.
 */

/** Path parameters are text; the service answers 404 for one that names nothing. */
const byId = z.object({ id: z.string() });
/** A body `{workOrder: {…}}`, checked as the service unwraps it so the errors name the order's fields. */
const inWorkOrder = <S extends z.ZodType>(schema: S) =>
  asSent(z.object({ workOrder: schema }), z.preprocess(unwrapWorkOrder, schema));
const ok = async (p: Promise<unknown>) => {
  await p;
  return {};
};

const SIGNATURES_SHAPE =
  '{current: {id, signedName, signature, signedAt, technicianName} | null, earlier: [{…, clearedAt, clearedReason: reopened | removed, clearedByName}], canSign}';

const READ = { permission: 'workorders:read' } as const;
const EDIT = { permission: 'workorders:edit' } as const;

export const workOrderCalls: ApiCall[] = [
  defineCall({
    method: 'GET',
    path: '/wo',
    access: READ,
    input: asSent(ZWorkOrderListQuery),
    summary:
      'A page of a list {workOrders, totalCount}: ?list=open|closed|recentlyClosed|ata|history|recycleBin, ?sort=intake|updated|number|title|customer|plannedStart, ?from, ?size, filters ?search, ?workTypes (or workType), ?tags, ?status, ?assignees (or assignee), ?departments, ?ignoredUsers, ?onlyMine, ?unassigned, ?createUserId, ?customerType, ?scheduleStatus=both|notScheduled|scheduled, ?includeScheduled, ?showRegular, ?showPotential (true by default), ?project, ?region (by the region of the object; all for every one; by default the session region), ?closedFrom, ?closedTo (closed list; this ISO week by default)',
    handler: (ctx, input) => listWorkOrders(ctx, input),
  }),
  defineCall({
    method: 'POST',
    path: '/wo',
    access: { permission: 'workorders:create' },
    input: inWorkOrder(ZCreateWorkOrder),
    summary:
      'Creates a work order {workOrder: {title, …}} → {workOrder}; status, work type, priority and assignees default; required fields from the settings',
    handler: (ctx, input) => createWorkOrder(ctx, input),
  }),
  defineCall({
    method: 'PATCH',
    path: '/wo',
    access: EDIT,
    input: inWorkOrder(ZEditWorkOrder),
    summary: 'Changes the fields given {workOrder: {id, …}} → {locationLat, locationLng, workOrder}',
    handler: (ctx, input) => editWorkOrder(ctx, input),
  }),
  defineCall({
    method: 'GET',
    path: '/wo/my',
    access: READ,
    input: z.object({}),
    summary: "The signed-in user's open work orders {workOrders, totalCount}",
    handler: (ctx) => myWorkOrders(ctx),
  }),
  defineCall({
    method: 'GET',
    path: '/wo/q',
    access: READ,
    input: asSent(ZWorkOrderSearch),
    summary: 'Searches number, title, address, customer and object serial ?q, ?size → {workOrders, totalCount}',
    handler: (ctx, input) => searchWorkOrders(ctx, input),
  }),
  defineCall({
    method: 'GET',
    path: '/wo/history/:id',
    access: READ,
    input: asSent(ZPage.extend(byId.shape)),
    summary: 'The history of a work order {rows: [{userName, action, timestamp, data}], totalCount}; ?from, ?size',
    handler: (ctx, input) => listWorkOrderHistory(ctx, input.id, input),
  }),
  defineCall({
    method: 'POST',
    path: '/wo/lock',
    access: { permission: 'workorders:lock' },
    input: asSent(ZWorkOrderId),
    summary: 'Locks a work order {workOrderId}',
    handler: (ctx, input) => setWorkOrderLocked(ctx, input, true),
  }),
  defineCall({
    method: 'POST',
    path: '/wo/unlock',
    access: { permission: 'workorders:lock' },
    input: asSent(ZWorkOrderId),
    summary: 'Unlocks a work order {workOrderId}',
    handler: (ctx, input) => setWorkOrderLocked(ctx, input, false),
  }),
  defineCall({
    method: 'POST',
    path: '/wo/restore',
    access: { permission: 'workorders:delete' },
    input: asSent(ZWorkOrderId),
    summary: 'Restores a work order from the recycle bin {workOrderId} → {workOrder} (not in the catalogue)',
    handler: (ctx, input) => restoreWorkOrder(ctx, input),
  }),
  defineCall({
    method: 'POST',
    path: '/wo/id06',
    access: { permission: 'workorders:id06', module: 'id06' },
    input: asSent(ZId06Export),
    summary:
      "A construction site's attendance register (personalliggare) for one day {id06Code, timestamp (YYYY-MM-DD, " +
      'milliseconds or an ISO date-time: its day in the tenant zone)} → a CSV attachment, one row per time report on ' +
      "the code's work orders (employer, name, personal identity number, start, end, hours, order); 404 ID06_CODE_NOT_FOUND",
    handler: async (ctx, input) => fileReply(await exportId06Register(ctx, input)),
  }),
  // ---- parameterised paths ----
  defineCall({
    method: 'PUT',
    path: '/wo/id06/:id',
    access: { permission: 'workorders:id06', module: 'id06' },
    input: asSent(ZId06Code.extend(byId.shape)),
    summary: "Sets a work order's ID06 code {id06Code} → {workOrder}",
    handler: (ctx, input) => setWorkOrderId06(ctx, input.id, input),
  }),
  defineCall({
    method: 'GET',
    path: '/wo/:id',
    access: READ,
    input: byId,
    summary: 'A work order and its assignees {workOrder, users}',
    handler: (ctx, input) => getWorkOrder(ctx, input.id),
  }),
  defineCall({
    method: 'PATCH',
    path: '/wo/:id',
    access: EDIT,
    input: asSent(ZIntake.extend(byId.shape)),
    summary: "Moves a work order's intake time {intakeTs} → {workOrder}",
    handler: (ctx, input) => setWorkOrderIntake(ctx, input.id, input),
  }),
  defineCall({
    method: 'DELETE',
    path: '/wo/:id',
    access: { permission: 'workorders:delete' },
    input: byId,
    summary: 'Moves a work order to the recycle bin; 409 WORK_ORDER_HAS_LOCKED_TIME_REPORTS',
    handler: (ctx, input) => ok(deleteWorkOrder(ctx, input.id)),
  }),
  defineCall({
    method: 'PUT',
    path: '/wo/:id/customer',
    access: EDIT,
    input: asSent(ZSetCustomer.extend(byId.shape)),
    summary: "Changes a work order's customer {customerId} → {workOrder}",
    handler: (ctx, input) => setWorkOrderCustomer(ctx, input.id, input),
  }),
  defineCall({
    method: 'PUT',
    path: '/wo/:id/bo',
    access: EDIT,
    input: asSent(ZSetObject.extend(byId.shape)),
    summary: "Changes a work order's object {bo} → {workOrder}; 400 ERROR_BO_NOT_OF_CUSTOMER",
    handler: (ctx, input) => setWorkOrderObject(ctx, input.id, input),
  }),
  // the work-order signature module (spec section 6; not in the catalogue)
  defineCall({
    method: 'GET',
    path: '/wo/:id/signature',
    access: SIGNATURE_ACCESS.read,
    input: byId,
    summary: `The customer's signature of a work order ${SIGNATURES_SHAPE}`,
    handler: (ctx, input) => getWorkOrderSignatures(ctx, input.id),
  }),
  defineCall({
    method: 'POST',
    path: '/wo/:id/signature',
    access: SIGNATURE_ACCESS.sign,
    input: asSent(ZSignWorkOrder),
    summary: `The customer signs an open work order {name (printed), image (PNG data URL, optional)}; the technician and time are recorded and the work-order document prints it → ${SIGNATURES_SHAPE}; 409 WORK_ORDER_SIGNED, WORK_ORDER_CLOSED, WORK_ORDER_LOCKED`,
    handler: (ctx, input) => signWorkOrder(ctx, input),
  }),
  defineCall({
    method: 'DELETE',
    path: '/wo/:id/signature',
    access: SIGNATURE_ACCESS.sign,
    input: byId,
    summary: `Removes the signature of an open work order (kept among the earlier ones; reopening a closed order clears it the same way) → ${SIGNATURES_SHAPE}; 409 WORK_ORDER_NOT_SIGNED`,
    handler: (ctx, input) => removeWorkOrderSignature(ctx, input.id),
  }),
];
