import { z } from 'zod';
import {
  createWorkOrderReminder,
  deleteWorkOrderReminder,
  editWorkOrderReminder,
  listWorkOrderReminders,
} from '~/core/work-orders/reminders.service';
import { AppError, isAppError } from '~/core/errors/app-error';
import { defineCall, type ApiCall } from '../define-call';

/*
 * Reminders on a work order (api-calls.md "Work orders": POST and PUT /wo/{id}/reminder; DELETE
 * /wo/{id}/reminder/{rid}; GET /wo/{id}/reminder), the app module `reminders`. The services check
 * access, the work-order limit and validate; `access` here is the outer gate.
 */

const pass = z.object({}).passthrough();
type Input = Record<string, unknown>;

const PANEL =
  '{reminders: [{id, workOrderId, userId, userName, dueAt, message, createdBy, createdByName, createdAt, updatedAt, sentAt}], users, defaultUserId, canEdit}';

export const workOrderReminderCalls: ApiCall[] = [
  defineCall({
    method: 'GET',
    path: '/wo/:id/reminder',
    access: { permission: 'workorders:read', module: 'reminders' },
    input: pass,
    summary: `A work order's reminders, soonest first → ${PANEL}`,
    handler: (ctx, input: Input) => listWorkOrderReminders(ctx, input.id),
  }),
  defineCall({
    method: 'POST',
    path: '/wo/:id/reminder',
    access: { permission: 'workorders:edit', module: 'reminders' },
    input: pass,
    summary:
      'Adds a reminder {userId?, dueAt (ISO with offset), message?} → {id, data: panel}; mailed to the person once at dueAt; 400 ERROR_REMINDER_DUE_IN_PAST',
    handler: (ctx, input: Input) => createWorkOrderReminder(ctx, { ...input, workOrderId: input.id }),
  }),
  defineCall({
    method: 'PUT',
    path: '/wo/:id/reminder',
    access: { permission: 'workorders:edit', module: 'reminders' },
    input: pass,
    summary:
      'Replaces a reminder {reminderId, userId?, dueAt, message?} → {id, data: panel}; a sent reminder only takes a due time in the future (armed again), else 409 REMINDER_ALREADY_SENT',
    // the path's `id` names the order (path parameters win over the body), so the body names the reminder `reminderId`
    handler: (ctx, input: Input) =>
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
    input: pass,
    summary: 'Deletes a reminder → panel',
    handler: (ctx, input: Input) => deleteWorkOrderReminder(ctx, { workOrderId: input.id, id: input.rid }),
  }),
];
