import { z } from 'zod';
import {
  ONCALL_ACCESS,
  createOnCallShift,
  deleteOnCallShift,
  listOnCallShifts,
  updateOnCallShift,
  ZEditShift,
  ZOnCallWindow,
  ZShift,
} from '~/core/time-reports/on-call.service';
import { asSent, defineCall, type ApiCall } from '../define-call';

/**
 * The on-call schedule (the ONCALL app module): anyone signed in with the module reads it,
 * oncallreports:edit plans it. Times are ISO instants; one without a zone is the tenant's.
 */
export const onCallCalls: ApiCall[] = [
  defineCall({
    method: 'GET',
    path: '/timereports/oncall',
    access: ONCALL_ACCESS.read,
    input: asSent(ZOnCallWindow),
    summary:
      'On-call shifts overlapping ?from&to (days YYYY-MM-DD in the tenant’s zone, or ISO instants; the current ' +
      'month by default; at most 62 days) → {from, to, shifts: [{id, userId, userName, startTs, endTs, comment, ' +
      'createUserId}], holidays: [{date, name}]}',
    handler: (ctx, input) => listOnCallShifts(ctx, input),
  }),
  defineCall({
    method: 'POST',
    path: '/timereports/oncall',
    access: ONCALL_ACCESS.edit,
    input: asSent(ZShift),
    summary:
      'Plans a shift {userId (an active user), startTs, endTs (after the start, at most 31 days later), comment} → ' +
      '{shift}; 409 ON_CALL_OVERLAP when the person already has a shift in that time',
    handler: (ctx, input) => createOnCallShift(ctx, input),
  }),
  defineCall({
    method: 'PUT',
    path: '/timereports/oncall',
    access: ONCALL_ACCESS.edit,
    input: asSent(ZEditShift),
    summary: 'Changes a shift {id, userId, startTs, endTs, comment} → {shift}; 409 ON_CALL_OVERLAP',
    handler: (ctx, input) => updateOnCallShift(ctx, input),
  }),
  defineCall({
    method: 'DELETE',
    path: '/timereports/oncall/:id',
    access: ONCALL_ACCESS.edit,
    input: z.object({ id: z.string() }),
    summary: 'Deletes a shift',
    handler: async (ctx, input) => {
      await deleteOnCallShift(ctx, input.id);
      return { ok: true };
    },
  }),
];
