import { z } from 'zod';
import {
  CHECKLIST_ACCESS,
  deleteChecklist,
  getWorkOrderChecklists,
  listChecklists,
  listChecklistsForWorkType,
  saveChecklist,
  saveWorkOrderChecklist,
} from '~/core/checklists/checklist.service';
import { ZChecklistsOfWorkType, ZFillChecklist, ZSaveChecklist } from '~/core/checklists/checklist.schema';
import { asSent, defineCall, type ApiCall } from '../define-call';

/*
 * Checklists (api-calls.md: "/instance/checklist" in the settings, and "GET /wo/checklist?workType;
 * PUT /wo/checklist {workOrderId, checklistId, values}; GET /wo/checklist/{id}?checklistId"), behind
 * the `checklists` app module. Services validate and check the work-order limit. These fixed
 * `/wo/checklist` paths are mounted before the work order's `/wo/:id`.
 */

/** Path parameters are text; the service answers 404 for one that names nothing. */
const byId = z.object({ id: z.string() });

export const checklistCalls: ApiCall[] = [
  defineCall({
    method: 'GET',
    path: '/instance/checklist',
    access: CHECKLIST_ACCESS.settingsRead,
    input: z.object({}),
    summary:
      'Checklist templates {checklists: [{id, title, workTypeIds, items: [{id, label, type: check|text|number, required}], updatedAt}], workTypes: [{id, name}]}',
    handler: (ctx) => listChecklists(ctx),
  }),
  defineCall({
    method: 'POST',
    path: '/instance/checklist',
    access: CHECKLIST_ACCESS.settingsEdit,
    input: asSent(ZSaveChecklist.omit({ id: true })),
    summary:
      'Creates a checklist template {title, workTypeIds, items: [{label, type, required}]} → the template; 409 ERROR_DUPLICATE_NAME',
    handler: (ctx, input) => saveChecklist(ctx, { ...input, id: undefined }),
  }),
  defineCall({
    method: 'PUT',
    path: '/instance/checklist',
    access: CHECKLIST_ACCESS.settingsEdit,
    input: asSent(ZSaveChecklist.extend({ id: ZSaveChecklist.shape.id.unwrap() })),
    summary:
      'Replaces a checklist template {id, title, workTypeIds, items: [{id?, label, type, required}]} in order; items keep their ids → the template',
    handler: (ctx, input) => saveChecklist(ctx, { ...input, id: input.id ?? '' }),
  }),
  defineCall({
    method: 'DELETE',
    path: '/instance/checklist/:id',
    access: CHECKLIST_ACCESS.settingsEdit,
    input: byId,
    summary: 'Deletes a checklist template → {id}; 409 CHECKLIST_IN_USE {usedBy: {workOrders}} when filled on an order',
    handler: (ctx, input) => deleteChecklist(ctx, input.id),
  }),
  defineCall({
    method: 'GET',
    path: '/wo/checklist',
    access: CHECKLIST_ACCESS.read,
    input: asSent(ZChecklistsOfWorkType),
    summary: 'The checklist templates of a work type (?workType=<work type id>) → [{id, title, workTypeIds, items}]',
    handler: (ctx, input) => listChecklistsForWorkType(ctx, input.workType),
  }),
  defineCall({
    method: 'PUT',
    path: '/wo/checklist',
    access: CHECKLIST_ACCESS.fill,
    input: asSent(ZFillChecklist),
    summary:
      "Saves one checklist on a work order {workOrderId, checklistId, values: {<itemId>: true|'text'|number}} → as GET /wo/checklist/{id}; 409 WORK_ORDER_CLOSED/LOCKED",
    handler: (ctx, input) => saveWorkOrderChecklist(ctx, input),
  }),
  defineCall({
    method: 'GET',
    path: '/wo/checklist/:id',
    access: CHECKLIST_ACCESS.read,
    input: byId.extend({ checklistId: z.string().optional() }),
    summary:
      "A work order's checklists (its work type's and any filled on it) {workOrderId, checklists: [{id, title, items, values, updatedAt, updatedByName}], canFill}; ?checklistId for one",
    handler: (ctx, input) => getWorkOrderChecklists(ctx, { workOrderId: input.id, checklistId: input.checklistId }),
  }),
];
