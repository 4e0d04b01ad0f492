import { z } from 'zod';
import type { Ctx } from '~/core/context';
import { parseInput } from '~/core/errors/validation';
import { recordHistory } from '~/core/history/history';
import { requireAccess } from '~/core/permissions/access';
import { TIME_REPORT_MODES, type TimeReportMode } from './time-report.rules';

export { TIME_REPORT_MODES, type TimeReportMode };

/**
 * The time-report settings (spec section 9 "time-report modes default, hours, multi"; section 4
 * "time reports lock on a configured day of the next month"): how a person reports their own time,
 * the scheduled minutes Monday to Sunday a week is measured against, and the lock day. They live on
 * the one work_order_settings row, beside the work-order options. Anyone signed in reads them (the
 * time report needs them); instance:edit changes them.
 */

export interface TimeReportSettings {
  mode: TimeReportMode;
  /** Minutes Monday … Sunday (seven entries). */
  scheduledMinutes: number[];
  /** Day 1–31 of the next month on which a month locks (past a month's end: its last day); null: never by date. */
  lockDay: number | null;
}

export const DEFAULT_SCHEDULED_MINUTES = [480, 480, 480, 480, 480, 0, 0] as const;
const ENTITY = 'time_report_settings';

type Row = { time_report_mode: string | null; scheduled_minutes: unknown; time_lock_day: number | string | null };

/** A Postgres integer[] as the driver gives it: an array, or its text form '{480,480,…}'. */
function minutesOf(v: unknown): number[] {
  const list = Array.isArray(v) ? v : typeof v === 'string' ? v.replace(/[{}]/g, '').split(',').filter(Boolean) : [];
  const minutes = list.map(Number);
  return minutes.length === 7 && minutes.every(Number.isFinite) ? minutes : [...DEFAULT_SCHEDULED_MINUTES];
}

/** GET /timereports/conf/settings → {mode, scheduledMinutes, lockDay}. */
export async function timeReportSettings(ctx: Ctx): Promise<TimeReportSettings> {
  requireAccess(ctx.auth, { permission: 'signed-in' });
  const row = (await ctx.trx('work_order_settings').first('time_report_mode', 'scheduled_minutes', 'time_lock_day')) as
    Row | undefined;
  const mode = row?.time_report_mode;
  return {
    mode: (TIME_REPORT_MODES as readonly string[]).includes(mode ?? '') ? (mode as TimeReportMode) : 'default',
    scheduledMinutes: minutesOf(row?.scheduled_minutes),
    lockDay: row?.time_lock_day === null || row?.time_lock_day === undefined ? null : Number(row.time_lock_day),
  };
}

/**
 * A duration as people type it: "7:30" or "8" (hours), "7.5" or "7,5" (decimal hours). Minutes
 * 0–1440; null when it cannot be read.
 */
export function parseHoursMinutes(text: string): number | null {
  const v = text.trim();
  const clock = /^(\d{1,2}):([0-5]\d)$/.exec(v);
  const decimal = /^\d{1,2}([.,]\d{1,2})?$/.test(v) ? Number(v.replace(',', '.')) : null;
  const minutes = clock ? Number(clock[1]) * 60 + Number(clock[2]) : decimal === null ? null : Math.round(decimal * 60);
  return minutes !== null && minutes <= 1440 ? minutes : null;
}

/** A day's scheduled time: whole minutes as a number, or hours[:minutes] as text (the settings form). */
const zMinutes = z.preprocess(
  (v) => (typeof v === 'string' ? (parseHoursMinutes(v) ?? Number.NaN) : v),
  z
    .number({ error: 'ERROR_INVALID_VALUE' })
    .int('ERROR_INVALID_VALUE')
    .min(0, 'ERROR_INVALID_VALUE')
    .max(1440, 'ERROR_INVALID_VALUE'),
);

/** PUT: any of the three; what is left out stays. */
export const ZTimeReportSettings = z
  .object({
    mode: z.enum(TIME_REPORT_MODES, { error: 'ERROR_INVALID_VALUE' }).optional(),
    scheduledMinutes: z.array(zMinutes, { error: 'ERROR_INVALID_VALUE' }).length(7, 'ERROR_INVALID_VALUE').optional(),
    lockDay: z
      .preprocess(
        (v) => (v === '' ? null : v),
        z.coerce
          .number({ error: 'ERROR_INVALID_VALUE' })
          .int('ERROR_INVALID_VALUE')
          .min(1, 'ERROR_INVALID_VALUE')
          .max(31, 'ERROR_INVALID_VALUE')
          .nullable(),
      )
      .optional(),
  })
  .strict();

/**
 * PUT /timereports/conf/settings {mode?, scheduledMinutes?: seven minutes (or "H:MM" texts), lockDay?: 1–31 | null}.
 */
export async function saveTimeReportSettings(ctx: Ctx, raw: unknown): Promise<TimeReportSettings> {
  requireAccess(ctx.auth, { permission: 'instance:edit' });
  const input = parseInput(ZTimeReportSettings, raw);
  const changes: Record<string, unknown> = {};
  if (input.mode) changes.time_report_mode = input.mode;
  // An array literal of whole numbers: the same on pg and PGlite.
  if (input.scheduledMinutes)
    changes.scheduled_minutes = ctx.trx.raw('?::integer[]', [`{${input.scheduledMinutes.join(',')}}`]);
  if (input.lockDay !== undefined) changes.time_lock_day = input.lockDay;
  if (Object.keys(changes).length) {
    await ctx.trx('work_order_settings').update({ ...changes, updated_at: ctx.now });
    await recordHistory(ctx, { entity: ENTITY, entityId: ctx.tenant.id, action: 'edit', data: input });
  }
  return timeReportSettings(ctx);
}
