import { z } from 'zod';
import {
  createWorkOrderReminder,
  deleteWorkOrderReminder,
  editWorkOrderReminder,
  listWorkOrderReminders,
} from '~/core/work-orders/reminders.service';
import { ZCreateReminder, ZEditReminder } from '~/core/work-orders/reminders.schema';
import { AppError, isAppError } from '~/core/errors/app-error';
import { asSent, defineCall, type ApiCall } from '../define-call';

/*
 * Reminders on a work order (api-calls.md "Work orders": POST and PUT /wo/{id}/reminder; DELETE
 * /wo/{id}/reminder/{rid}; GET /wo/{id}/reminder), the app module `reminders`. The services check
 * access, the work-order limit and validate; `access` here is the outer gate.
 */

/** The order in the path (text; the service answers 404 for one that names nothing). */
const byId = z.object({ id: z.string() });
/** A reminder's fields as the service parses them; the order is the path's. */
const ZReminderBody = ZCreateReminder.omit({ workOrderId: true }).extend(byId.shape);

const PANEL =
  '{reminders: [{id, workOrderId, userId, userName, dueAt, message, createdBy, createdByName, createdAt, updatedAt, sentAt}], users, defaultUserId, canEdit}';

export const workOrderReminderCalls: ApiCall[] = [
  defineCall({
    method: 'GET',
    path: '/wo/:id/reminder',
    access: { permission: 'workorders:read', module: 'reminders' },
    input: byId,
    summary: `A work order's reminders, soonest first → ${PANEL}`,
    handler: (ctx, input) => listWorkOrderReminders(ctx, input.id),
  }),
  defineCall({
    method: 'POST',
    path: '/wo/:id/reminder',
    access: { permission: 'workorders:edit', module: 'reminders' },
    input: asSent(ZReminderBody),
    summary:
      'Adds a reminder {userId?, dueAt (ISO with offset), message?} → {id, data: panel}; mailed to the person once at dueAt; 400 ERROR_REMINDER_DUE_IN_PAST',
    handler: (ctx, input) => createWorkOrderReminder(ctx, { ...input, workOrderId: input.id }),
  }),
  defineCall({
    method: 'PUT',
    path: '/wo/:id/reminder',
    access: { permission: 'workorders:edit', module: 'reminders' },
    input: asSent(ZReminderBody.extend({ reminderId: ZEditReminder.shape.id })),
    summary:
      'Replaces a reminder {reminderId, userId?, dueAt, message?} → {id, data: panel}; a sent reminder only takes a due time in the future (armed again), else 409 REMINDER_ALREADY_SENT',
    // the path's `id` names the order (path parameters win over the body), so the body names the reminder `reminderId`
    handler: (ctx, input) =>
      editWorkOrderReminder(ctx, { ...input, id: input.reminderId, workOrderId: input.id }).catch((e: unknown) => {
        // the field error names the body's field, not the service's
        if (isAppError(e) && e.details?.fields?.id) {
          const { id, ...rest } = e.details.fields;
          throw new AppError(e.code, e.status, { fields: { ...rest, reminderId: id } });
        }
        throw e;
      }),
  }),
  defineCall({
    method: 'DELETE',
    path: '/wo/:id/reminder/:rid',
    access: { permission: 'workorders:edit', module: 'reminders' },
    input: byId.extend({ rid: z.string() }),
    summary: 'Deletes a reminder → panel',
    handler: (ctx, input) => deleteWorkOrderReminder(ctx, { workOrderId: input.id, id: input.rid }),
  }),
];
