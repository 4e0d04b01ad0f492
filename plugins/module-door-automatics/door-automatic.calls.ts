import { z } from 'zod';
import { defineCall, type ApiCall } from '~/core/api/define-call';
import { MODULE_ID } from './constants';
import {
  createDoorAutomatic,
  deleteDoorAutomatic,
  getDoorAutomatic,
  listDoorAutomaticHistory,
  listDoorAutomatics,
  proposeDoorAutomaticId,
  updateDoorAutomatic,
} from './door-automatic.service';
import { getWorkOrderDoorAutomatics, setWorkOrderDoorAutomatics } from './work-order-door-automatics.service';

const READ = { permission: 'doorautomatics:read', module: MODULE_ID } as const;
const EDIT = { permission: 'doorautomatics:edit', module: MODULE_ID } as const;

/**
 * The catalogue's door-automatic calls (api-calls.md "Door automatics"), served by the plugin. The
 * API router answers them with 404 while the tenant has the module off. /id/propose comes before
 * /:id so "id" is not read as one.
 */
export const doorAutomaticCalls: ApiCall[] = [
  defineCall({
    method: 'GET',
    path: '/doorautomatics',
    access: READ,
    input: z.unknown(),
    summary: 'Door automatics: ?businessObjectId, q, offset, limit → {doorAutomatics, totalCount}',
    handler: (ctx, input) => listDoorAutomatics(ctx, input),
  }),
  defineCall({
    method: 'GET',
    path: '/doorautomatics/id/propose',
    access: EDIT,
    input: z.unknown(),
    summary: 'The next free door automatic ID: <object serial>-<n> with ?relationId (the object), else ?length digits',
    handler: (ctx, input) => proposeDoorAutomaticId(ctx, input),
  }),
  defineCall({
    method: 'GET',
    path: '/doorautomatics/:id',
    access: READ,
    input: z.object({ id: z.string() }),
    summary: 'One door automatic with its object',
    handler: (ctx, input) => getDoorAutomatic(ctx, input.id),
  }),
  defineCall({
    method: 'GET',
    path: '/doorautomatics/:id/history',
    access: READ,
    input: z.object({ id: z.string() }).passthrough(),
    summary: 'A door automatic’s history, newest first: ?from, size → {history, totalCount}',
    handler: (ctx, input) => listDoorAutomaticHistory(ctx, input.id, input),
  }),
  defineCall({
    method: 'POST',
    path: '/doorautomatics',
    access: EDIT,
    input: z.unknown(),
    summary:
      'Creates a door automatic {title, businessObjectId, number?, serialCode, brand, model, location, warrantyUntil, sensor, notes, image}; 409 DUPLICATE_DOOR_AUTOMATIC_ID',
    handler: (ctx, input) => createDoorAutomatic(ctx, input),
  }),
  defineCall({
    method: 'PUT',
    path: '/doorautomatics',
    access: EDIT,
    input: z.unknown(),
    summary: 'Changes a door automatic {id, …fields to change}; 409 DUPLICATE_DOOR_AUTOMATIC_ID',
    handler: (ctx, input) => updateDoorAutomatic(ctx, input),
  }),
  defineCall({
    method: 'GET',
    path: '/wo/doorautomatics/:id',
    access: { permission: 'workorders:read', module: MODULE_ID },
    input: z.object({ id: z.string() }).passthrough(),
    summary: "A work order's door automatics, in order, each with its object → {doorAutomatics}",
    handler: (ctx, input) => getWorkOrderDoorAutomatics(ctx, input.id),
  }),
  defineCall({
    method: 'PUT',
    path: '/wo/doorautomatics/:id',
    access: { permission: 'workorders:edit_doorautomatics', module: MODULE_ID },
    input: z.object({ id: z.string() }).passthrough(),
    summary:
      "Replaces a work order's door automatics {doorAutomatics: [id or {id}, …]} (door automatics at the order's " +
      'object; 400 ERROR_DOOR_AUTOMATIC_NOT_AT_OBJECT otherwise) → {doorAutomatics}; 409 when the order is closed or locked',
    handler: (ctx, input) => setWorkOrderDoorAutomatics(ctx, input.id, input),
  }),
  defineCall({
    method: 'DELETE',
    path: '/doorautomatics/:id',
    access: { permission: 'doorautomatics:delete', module: MODULE_ID },
    input: z.object({ id: z.string() }),
    summary: 'Deletes a door automatic',
    async handler(ctx, input) {
      await deleteDoorAutomatic(ctx, input.id);
      return {};
    },
  }),
];
