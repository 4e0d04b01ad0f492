import { z } from 'zod';
import { AppError } from '~/core/errors/app-error';
import { parseInput } from '~/core/errors/validation';
import {
  addDays,
  daysBetween,
  formatPlainDate,
  isoWeekStart,
  isoWeeksInYear,
  parsePlainDate,
} from '~/core/calendar/dates';
import { MAX_SPAN_DAYS } from '~/core/work-orders/time-rules';

/*
 * The periods the time calls take (pure): a span of days given as startTime/endTime, at most 60
 * days (spec section 5), and an ISO week given as year and week.
 */

/** A required YYYY-MM-DD that is a real date. */
export const zDate = () =>
  z.string({ error: 'ERROR_REQUIRED_FIELD' }).refine((v) => parsePlainDate(v) !== null, 'ERROR_INVALID_VALUE');

/** A date as a query gives it: its first ten characters must be a real YYYY-MM-DD (`parsePeriod`). */
const zDateOfQuery = () =>
  z
    .string({ error: 'ERROR_REQUIRED_FIELD' })
    .min(1, 'ERROR_REQUIRED_FIELD')
    .refine((v) => parsePlainDate(v.slice(0, 10)) !== null, 'ERROR_INVALID_VALUE');

/**
 * `?userId&startTime&endTime` of the period calls, as `parsePeriod` reads it (the span's length is
 * the service's check); no userId is the asker.
 */
export const ZPersonPeriod = z.object({
  userId: z.string().optional(),
  startTime: zDateOfQuery(),
  endTime: zDateOfQuery(),
});

const zYear = () =>
  z.coerce
    .number({ error: 'ERROR_INVALID_VALUE' })
    .int('ERROR_INVALID_VALUE')
    .min(2000, 'ERROR_INVALID_VALUE')
    .max(2100, 'ERROR_INVALID_VALUE');

/** An ISO week as the week calls take it (`weekDates`): year 2000–2100, a week that year has. */
export const ZIsoWeek = z
  .object({
    year: zYear(),
    week: z.coerce
      .number({ error: 'ERROR_INVALID_VALUE' })
      .int('ERROR_INVALID_VALUE')
      .min(1, 'ERROR_INVALID_VALUE')
      .max(53, 'ERROR_INVALID_VALUE'),
  })
  .refine((w) => w.week <= isoWeeksInYear(w.year), { path: ['week'], message: 'ERROR_INVALID_VALUE' });

/** A month as the month calls take it: year 2000–2100 and month 1–12. */
export const ZYearMonth = z.object({
  year: zYear(),
  month: z.coerce
    .number({ error: 'ERROR_INVALID_VALUE' })
    .int('ERROR_INVALID_VALUE')
    .min(1, 'ERROR_INVALID_VALUE')
    .max(12, 'ERROR_INVALID_VALUE'),
});

/** The lock list's `?year`: a year 2000–2100, this year when left out. */
export const ZLockYear = z.object({ year: zYear().optional() });

/**
 * A period of at most 60 days (spec section 5): 400 with ERROR_TIME_SPAN_TOO_LONG on endTime
 * beyond it, ERROR_END_BEFORE_START when it ends before it starts.
 */
export function parsePeriod(raw: { startTime?: unknown; endTime?: unknown }): { from: string; to: string } {
  const { startTime, endTime } = parseInput(z.object({ startTime: zDate(), endTime: zDate() }), {
    startTime: String(raw.startTime ?? '').slice(0, 10) || undefined,
    endTime: String(raw.endTime ?? '').slice(0, 10) || undefined,
  });
  const days = daysBetween(startTime, endTime);
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
