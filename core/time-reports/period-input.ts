import { z } from 'zod';
import { AppError } from '~/core/errors/app-error';
import { parseInput } from '~/core/errors/validation';
import { addDays, formatPlainDate, isoWeekStart, isoWeeksInYear, parsePlainDate } from '~/core/calendar/iso-week';
import { MAX_SPAN_DAYS } from '~/core/work-orders/time-rules';

/*
 * The periods the time calls take (pure): a span of days given as startTime/endTime, at most 60
 * days (spec section 5), and an ISO week given as year and week.
 */

const DAY_MS = 86_400_000;
/** A required YYYY-MM-DD that is a real date. */
export const zDate = () =>
  z.string({ error: 'ERROR_REQUIRED_FIELD' }).refine((v) => parsePlainDate(v) !== null, 'ERROR_INVALID_VALUE');

/**
 * A period of at most 60 days (spec section 5): 400 with ERROR_TIME_SPAN_TOO_LONG on endTime
 * beyond it, ERROR_END_BEFORE_START when it ends before it starts.
 */
export function parsePeriod(raw: { startTime?: unknown; endTime?: unknown }): { from: string; to: string } {
  const { startTime, endTime } = parseInput(z.object({ startTime: zDate(), endTime: zDate() }), {
    startTime: String(raw.startTime ?? '').slice(0, 10) || undefined,
    endTime: String(raw.endTime ?? '').slice(0, 10) || undefined,
  });
  const days = (Date.parse(`${endTime}T00:00:00Z`) - Date.parse(`${startTime}T00:00:00Z`)) / DAY_MS;
  if (days < 0) throw new AppError('VALIDATION_FAILED', 400, { fields: { endTime: ['ERROR_END_BEFORE_START'] } });
  if (days + 1 > MAX_SPAN_DAYS)
    throw new AppError('VALIDATION_FAILED', 400, { fields: { endTime: ['ERROR_TIME_SPAN_TOO_LONG'] } });
  return { from: startTime, to: endTime };
}

/** The seven dates of an ISO week; 400 for a week the year does not have. */
export function weekDates(rawYear: unknown, rawWeek: unknown): { year: number; week: number; dates: string[] } {
  const year = Number(rawYear);
  const week = Number(rawWeek);
  const fields: Record<string, string[]> = {};
  if (!Number.isInteger(year) || year < 2000 || year > 2100) fields.year = ['ERROR_INVALID_VALUE'];
  else if (!Number.isInteger(week) || week < 1 || week > isoWeeksInYear(year)) fields.week = ['ERROR_INVALID_VALUE'];
  if (Object.keys(fields).length) throw new AppError('VALIDATION_FAILED', 400, { fields });
  const monday = isoWeekStart(year, week);
  return { year, week, dates: Array.from({ length: 7 }, (_, i) => formatPlainDate(addDays(monday, i))) };
}
