import { z } from 'zod';
import {
  createTimeReportTag,
  deleteTimeReportTag,
  listTimeReportTags,
  updateTimeReportTag,
  ZEditTag,
  ZTag,
} from '~/core/time-reports/tags.service';
import {
  saveTimeReportSettings,
  timeReportSettings,
  ZTimeReportSettings,
} from '~/core/time-reports/time-settings.service';
import { asSent, defineCall, type ApiCall } from '../define-call';

/**
 * Time-report tags (api-calls.md: /timereports/conf/tags) and the time-report settings (mode,
 * scheduled minutes per weekday, lock day): anyone signed in reads them, instance:edit changes them.
 */
export const timeTagCalls: ApiCall[] = [
  defineCall({
    method: 'GET',
    path: '/timereports/conf/tags',
    access: { permission: 'signed-in' },
    input: z.object({ includeInactive: z.enum(['true', 'false', '1', '0']).optional() }).passthrough(),
    summary:
      'Time-report tags by sort order → {tags: [{id, code, name (null: the code’s translated label), type ' +
      'work|absence|attend, defaultStart, defaultEnd (HH:MM, attend only), payrollCode, active, sortOrder}]}; ' +
      'the active ones unless ?includeInactive=true',
    handler: async (ctx, input) => ({
      tags: await listTimeReportTags(ctx, {
        includeInactive: input.includeInactive === 'true' || input.includeInactive === '1',
      }),
    }),
  }),
  defineCall({
    method: 'POST',
    path: '/timereports/conf/tags',
    access: { permission: 'instance:edit' },
    input: asSent(ZTag),
    summary:
      'Adds a tag {code (2–10 capital letters or digits), name, type, defaultStart, defaultEnd (both required for ' +
      'attend), payrollCode, active, sortOrder} → {tag}; 409 DUPLICATE_TIME_REPORT_TAG',
    handler: (ctx, input) => createTimeReportTag(ctx, input),
  }),
  defineCall({
    method: 'PUT',
    path: '/timereports/conf/tags',
    access: { permission: 'instance:edit' },
    input: asSent(ZEditTag),
    summary:
      'Changes a tag {id, code, name, type, defaultStart, defaultEnd, payrollCode, active, sortOrder} → {tag}; ' +
      '409 DUPLICATE_TIME_REPORT_TAG; 409 IN_USE when the type of a tag time reports use changes',
    handler: (ctx, input) => updateTimeReportTag(ctx, input),
  }),
  defineCall({
    method: 'DELETE',
    path: '/timereports/conf/tags/:id',
    access: { permission: 'instance:edit' },
    input: z.object({ id: z.string() }),
    summary: 'Deletes a tag no time report uses; 409 IN_USE {usedBy: {timeReports}} otherwise (set it inactive)',
    handler: async (ctx, input) => {
      await deleteTimeReportTag(ctx, input.id);
      return { ok: true };
    },
  }),
  defineCall({
    method: 'GET',
    path: '/timereports/conf/settings',
    access: { permission: 'signed-in' },
    // Takes nothing; other query parameters are let through.
    input: z.object({}).passthrough(),
    summary:
      'The time-report settings → {mode default|hours|multi, scheduledMinutes: [Mon … Sun], lockDay 1–31 | null}',
    handler: (ctx) => timeReportSettings(ctx),
  }),
  defineCall({
    method: 'PUT',
    path: '/timereports/conf/settings',
    access: { permission: 'instance:edit' },
    input: asSent(ZTimeReportSettings),
    summary:
      'Changes any of {mode, scheduledMinutes: seven whole minutes 0–1440, lockDay: 1–31 (past a month’s end: ' +
      'its last day) or null} → the settings',
    handler: (ctx, input) => saveTimeReportSettings(ctx, input),
  }),
];
