import {
  addDays,
  addMonthsToFirst,
  daysInMonth,
  formatPlainDate,
  isoWeek,
  parsePlainDate,
} from '~/core/calendar/dates';
import { LAST_DAY_OF_MONTH, type AgreementInterval } from './agreement-constants';

/*
 * Agreement period arithmetic (issue 16; spec section 9), pure and on plain dates (`YYYY-MM-DD`, no
 * time zone). A period always starts on the first of a month: quarters and half years on the
 * calendar's (1 January, 1 April, 1 July, 1 October; 1 January and 1 July), the other intervals on
 * any month. A period's work order or invoice is made on the generation day of its first month —
 * clamped to the month's length, 0 meaning its last day — so 31 is 28 February in 2027, 29 February
 * in 2028, and the next month is again the 31st (no drift: every date is computed from the period
 * start, never from the previous generation date).
 */

export const INTERVAL_MONTHS: Record<AgreementInterval, number> = {
  month_1: 1,
  month_2: 2,
  month_3: 3,
  month_4: 4,
  month_5: 5,
  month_6: 6,
  month_18: 18,
  year_1: 12,
  year_2: 24,
  year_3: 36,
  year_4: 48,
  quarter: 3,
  half_year: 6,
};

/** Calendar-aligned intervals: their periods start on these months (1-based) only. */
const ALIGNED: Partial<Record<AgreementInterval, readonly number[]>> = {
  quarter: [1, 4, 7, 10],
  half_year: [1, 7],
};

interface Ymd {
  y: number;
  m: number;
  d: number;
}

function parse(date: string): Ymd {
  const p = parsePlainDate(date);
  if (!p) throw new RangeError(`not a date: ${date}`);
  return { y: p.year, m: p.month, d: p.day };
}

/** Whether `date` can start a period of `interval`: the first of a month (of a quarter, a half year). */
export function isPeriodStart(interval: AgreementInterval, date: string): boolean {
  const { m, d } = parse(date);
  if (d !== 1) return false;
  const months = ALIGNED[interval];
  return !months || months.includes(m);
}

/** The first period start on or after `date` (an agreement starting mid-month is invoiced from the next month). */
export function firstPeriodStart(interval: AgreementInterval, date: string): string {
  let start = addMonthsToFirst(date, 0);
  if (start < date) start = addMonthsToFirst(date, 1);
  while (!isPeriodStart(interval, start)) start = addMonthsToFirst(start, 1);
  return start;
}

/** The start of the period after the one starting at `start`. */
export function nextPeriodStart(interval: AgreementInterval, start: string): string {
  return addMonthsToFirst(start, INTERVAL_MONTHS[interval]);
}

/** The last day of the period starting at `start`. */
export function periodEnd(interval: AgreementInterval, start: string): string {
  return addDays(nextPeriodStart(interval, start), -1);
}

/** The day the period starting at `start` is generated: `day` of its first month, clamped; 0 is the last day. */
export function generationDate(day: number, start: string): string {
  const { y, m } = parse(start);
  const last = daysInMonth(y, m);
  return formatPlainDate({
    year: y,
    month: m,
    day: day === LAST_DAY_OF_MONTH ? last : Math.min(Math.max(day, 1), last),
  });
}

export interface Period {
  from: string;
  to: string;
  /** When its work order or invoice is made. */
  generateOn: string;
}

export function periodAt(interval: AgreementInterval, day: number, start: string): Period {
  return { from: start, to: periodEnd(interval, start), generateOn: generationDate(day, start) };
}

/**
 * The periods from `start` whose generation day is on or before `until`, at most `max` of them: what
 * a run catches up on for one agreement.
 */
export function duePeriods(
  interval: AgreementInterval,
  day: number,
  start: string,
  until: string,
  max = 240,
): Period[] {
  const out: Period[] = [];
  let from = start;
  while (out.length < max) {
    const p = periodAt(interval, day, from);
    if (p.generateOn > until) break;
    out.push(p);
    from = nextPeriodStart(interval, from);
  }
  return out;
}

/** The periods generated between `from` and `to` (both inclusive): the scheduled view of the coming months. */
export function periodsGeneratedBetween(
  interval: AgreementInterval,
  day: number,
  start: string,
  from: string,
  to: string,
  max = 240,
): Period[] {
  return duePeriods(interval, day, start, to, max).filter((p) => p.generateOn >= from);
}

export type PeriodLabel =
  | { kind: 'month'; year: number; month: number }
  | { kind: 'quarter'; year: number; quarter: number }
  | { kind: 'half'; year: number; half: number }
  | { kind: 'year'; year: number }
  | { kind: 'range'; from: string; to: string };

/** What a period is called on an invoice and a work order: "November 2026", "Q4 2026", "H2 2026", "2026", or its dates. */
export function periodLabel(interval: AgreementInterval, start: string): PeriodLabel {
  const { y, m } = parse(start);
  if (interval === 'month_1') return { kind: 'month', year: y, month: m };
  if (interval === 'quarter' || (interval === 'month_3' && ALIGNED.quarter!.includes(m)))
    return { kind: 'quarter', year: y, quarter: (m - 1) / 3 + 1 };
  if (interval === 'half_year' || (interval === 'month_6' && ALIGNED.half_year!.includes(m)))
    return { kind: 'half', year: y, half: m === 1 ? 1 : 2 };
  if (interval === 'year_1' && m === 1) return { kind: 'year', year: y };
  return { kind: 'range', from: start, to: periodEnd(interval, start) };
}

/** The ISO week (and its year, which differs from the calendar year around New Year) a date falls in. */
export function weekOf(date: string): { year: number; week: number } {
  return isoWeek(date);
}
