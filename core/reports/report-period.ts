import { z } from 'zod';
import {
  addDays,
  addMonthsToFirst,
  daysBetween,
  endOfMonth,
  parsePlainDate,
  startOfIsoWeek,
  startOfMonth,
} from '~/core/calendar/dates';
import { AppError } from '~/core/errors/app-error';
import { parseInput } from '~/core/errors/validation';

/*
 * The period of a report (issue 17 part 6): two calendar days in the tenant's zone, the first and
 * the last included, at most REPORT_MAX_DAYS apart. Each report has its default period (spec section
 * 9: closed work orders this week; agreement invoices and time reports this month). Pure, so the
 * page can compute the presets the way the service does.
 */

/** The longest period one report covers: a leap year. */
export const REPORT_MAX_DAYS = 366;

export type PeriodError = 'ERROR_REPORT_PERIOD_REVERSED' | 'ERROR_REPORT_PERIOD_TOO_LONG';

export interface Period {
  from: string;
  to: string;
}

/** How many days a period holds, both ends included. */
export function periodDays(from: string, to: string): number {
  return daysBetween(from, to) + 1;
}

/** Why a period of two real days is refused (a message key), or null when it is fine. */
export function periodError(from: string, to: string): PeriodError | null {
  if (to < from) return 'ERROR_REPORT_PERIOD_REVERSED';
  if (periodDays(from, to) > REPORT_MAX_DAYS) return 'ERROR_REPORT_PERIOD_TOO_LONG';
  return null;
}

/** The ISO week (Monday to Sunday) `today` falls in. */
export function weekOf(today: string): Period {
  const monday = startOfIsoWeek(today);
  return { from: monday, to: addDays(monday, 6) };
}

/** The calendar month `today` falls in. */
export function monthOf(today: string): Period {
  return { from: startOfMonth(today), to: endOfMonth(today) };
}

/** The months (`YYYY-MM`) a period touches, in order. */
export function monthsOf({ from, to }: Period): string[] {
  const months: string[] = [];
  for (let first = startOfMonth(from); first <= to; first = addMonthsToFirst(first, 1)) months.push(first.slice(0, 7));
  return months;
}

/** A day written YYYY-MM-DD that exists; an empty value is no value (a form's blank field). */
export const zReportDay = () =>
  z.preprocess(
    (v) => (v === '' || v === null ? undefined : v),
    z
      .string({ error: 'ERROR_INVALID_DATE' })
      .refine((v) => parsePlainDate(v) !== null, 'ERROR_INVALID_DATE')
      .optional(),
  );

export const ZReportPeriod = z.object({ startTime: zReportDay(), endTime: zReportDay() });

/**
 * The period a report input asks for (`startTime`, `endTime`), each end defaulting to the default
 * period's; 400 VALIDATION_FAILED with the reason on `endTime` when it is reversed or too long.
 */
export function reportPeriod(raw: unknown, fallback: Period): Period {
  const f = parseInput(ZReportPeriod, raw);
  const period = { from: f.startTime ?? fallback.from, to: f.endTime ?? fallback.to };
  const error = periodError(period.from, period.to);
  if (error) throw new AppError('VALIDATION_FAILED', 400, { fields: { endTime: [error] } });
  return period;
}
