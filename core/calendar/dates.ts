import { TZDate } from '@date-fns/tz';
// one module per function: the package's index evaluates all of date-fns (about 6 s of CPU on
// this machine, paid by every process and test file that reaches this module)
import { addDays as fnsAddDays } from 'date-fns/addDays';
import { addMonths as fnsAddMonths } from 'date-fns/addMonths';
import { addWeeks } from 'date-fns/addWeeks';
import { differenceInCalendarDays } from 'date-fns/differenceInCalendarDays';
import { formatISO } from 'date-fns/formatISO';
import { getDaysInMonth } from 'date-fns/getDaysInMonth';
import { getISODay } from 'date-fns/getISODay';
import { getISOWeek } from 'date-fns/getISOWeek';
import { getISOWeeksInYear } from 'date-fns/getISOWeeksInYear';
import { getISOWeekYear } from 'date-fns/getISOWeekYear';
import { startOfISOWeek } from 'date-fns/startOfISOWeek';
import { startOfISOWeekYear } from 'date-fns/startOfISOWeekYear';

/*
 * Every calendar computation in Ordo goes through this module (decision 042), which wraps date-fns
 * and @date-fns/tz. Two kinds of value, never mixed:
 *
 * - A calendar date: `YYYY-MM-DD` text (or a `PlainDate`), with no time and no zone. Its arithmetic
 *   (days, months with month-end clamping, ISO weeks) runs on a TZDate in UTC, where every day has
 *   24 hours.
 * - An instant: a `Date`. The tenant's calendar day of an instant, and the instants a tenant's day,
 *   week or month starts and ends at, are computed in the tenant's IANA zone, so a day in
 *   Europe/Stockholm is 23 hours on the last Sunday of March and 25 on the last Sunday of October.
 */

/** A calendar date without time or time zone; month is 1-12. */
export interface PlainDate {
  year: number;
  month: number;
  day: number;
}

export interface IsoWeek {
  /** The ISO week-numbering year, which differs from the calendar year around New Year. */
  year: number;
  /** 1-53. */
  week: number;
}

/** A span of instants, `end` exclusive. */
export interface InstantRange {
  start: Date;
  end: Date;
}

const PLAIN_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

// ---------------------------------------------------------------------------------------------
// Calendar dates

function utc(d: PlainDate): TZDate {
  return new TZDate(d.year, d.month - 1, d.day, 'UTC');
}

function plainOf(d: Date): PlainDate {
  return { year: d.getFullYear(), month: d.getMonth() + 1, day: d.getDate() };
}

function toPlain(date: string | PlainDate): PlainDate {
  if (typeof date !== 'string') return date;
  const p = parsePlainDate(date);
  if (!p) throw new RangeError(`not a date: ${date}`);
  return p;
}

/** A YYYY-MM-DD text as a date (null when it is not a real date). */
export function parsePlainDate(text: string | null | undefined): PlainDate | null {
  const m = PLAIN_DATE.exec(text ?? '');
  if (!m) return null;
  const d = { year: Number(m[1]), month: Number(m[2]), day: Number(m[3]) };
  return d.month >= 1 && d.month <= 12 && d.day >= 1 && d.day <= daysInMonth(d.year, d.month) ? d : null;
}

/** Whether a text is a real `YYYY-MM-DD` date. */
export function isPlainDate(text: string | null | undefined): text is string {
  return parsePlainDate(text) !== null;
}

/** YYYY-MM-DD. */
export function formatPlainDate(d: PlainDate): string {
  return formatISO(utc(d), { representation: 'date' });
}

/** The number of days in a month (month 1-12): 28, 29, 30 or 31. */
export function daysInMonth(year: number, month: number): number {
  return getDaysInMonth(new TZDate(year, month - 1, 1, 'UTC'));
}

/** The date `days` after (or before) a date. */
export function addDays(date: string, days: number): string;
export function addDays(date: PlainDate, days: number): PlainDate;
export function addDays(date: string | PlainDate, days: number): string | PlainDate {
  const next = plainOf(fnsAddDays(utc(toPlain(date)), days));
  return typeof date === 'string' ? formatPlainDate(next) : next;
}

/**
 * The date `months` after (or before) a date, clamped to the end of a shorter month: 31 January
 * plus one month is 28 February (29 in a leap year).
 */
export function addMonths(date: string, months: number): string;
export function addMonths(date: PlainDate, months: number): PlainDate;
export function addMonths(date: string | PlainDate, months: number): string | PlainDate {
  const next = plainOf(fnsAddMonths(utc(toPlain(date)), months));
  return typeof date === 'string' ? formatPlainDate(next) : next;
}

/** The first day of the date's month. */
export function startOfMonth(date: string): string;
export function startOfMonth(date: PlainDate): PlainDate;
export function startOfMonth(date: string | PlainDate): string | PlainDate {
  const p = toPlain(date);
  const first = { year: p.year, month: p.month, day: 1 };
  return typeof date === 'string' ? formatPlainDate(first) : first;
}

/** The last day of the date's month. */
export function endOfMonth(date: string): string;
export function endOfMonth(date: PlainDate): PlainDate;
export function endOfMonth(date: string | PlainDate): string | PlainDate {
  const p = toPlain(date);
  const last = { year: p.year, month: p.month, day: daysInMonth(p.year, p.month) };
  return typeof date === 'string' ? formatPlainDate(last) : last;
}

/** The first of the month `months` after the date's month (months may be negative). */
export function addMonthsToFirst(date: string, months: number): string;
export function addMonthsToFirst(date: PlainDate, months: number): PlainDate;
export function addMonthsToFirst(date: string | PlainDate, months: number): string | PlainDate {
  const first = addMonths(startOfMonth(toPlain(date)), months);
  return typeof date === 'string' ? formatPlainDate(first) : first;
}

/** Whole days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: string | PlainDate, to: string | PlainDate): number {
  return differenceInCalendarDays(utc(toPlain(to)), utc(toPlain(from)));
}

/** ISO day of week: Monday 1 … Sunday 7. */
export function isoDayOfWeek(date: string | PlainDate): number {
  return getISODay(utc(toPlain(date)));
}

/**
 * ISO 8601 week of a date. A week runs Monday to Sunday and belongs to the year that holds its
 * Thursday, so 1 January can be in week 52 or 53 of the previous year and 31 December in week 1 of
 * the next; years whose Thursday count is 53 have week 53 (spec section 9).
 */
export function isoWeek(date: string | PlainDate): IsoWeek {
  const d = utc(toPlain(date));
  return { year: getISOWeekYear(d), week: getISOWeek(d) };
}

/** The Monday that starts ISO week `week` of ISO year `year`. */
export function isoWeekStart(year: number, week: number): PlainDate {
  // 4 January is always in week 1
  return plainOf(addWeeks(startOfISOWeekYear(new TZDate(year, 0, 4, 'UTC')), week - 1));
}

/** The Monday of the ISO week a date falls in. */
export function startOfIsoWeek(date: string): string;
export function startOfIsoWeek(date: PlainDate): PlainDate;
export function startOfIsoWeek(date: string | PlainDate): string | PlainDate {
  const monday = plainOf(startOfISOWeek(utc(toPlain(date))));
  return typeof date === 'string' ? formatPlainDate(monday) : monday;
}

/** 52 or 53: a year has week 53 when 28 December (always in the last week) is in week 53. */
export function isoWeeksInYear(year: number): number {
  return getISOWeeksInYear(new TZDate(year, 11, 28, 'UTC'));
}

// ---------------------------------------------------------------------------------------------
// Instants in a time zone

/** The zone a tenant's clock shows when its country names none. */
export const DEFAULT_TIME_ZONE = 'Europe/Stockholm';

/** The zone a tenant's clock shows, by its country (spec: SE, EE, LV, AU); Stockholm otherwise. */
const TENANT_ZONES: Record<string, string> = {
  SE: 'Europe/Stockholm',
  EE: 'Europe/Tallinn',
  LV: 'Europe/Riga',
  AU: 'Australia/Sydney',
};

export function tenantTimeZone(country: string | null | undefined): string {
  return TENANT_ZONES[country ?? ''] ?? DEFAULT_TIME_ZONE;
}

/** The calendar date (YYYY-MM-DD) an instant falls on in the tenant's country. */
export function tenantDate(instant: Date | string | number, country: string | null | undefined): string {
  return dateInZone(instant, tenantTimeZone(country));
}

/** The calendar date (YYYY-MM-DD) an instant falls on in `timeZone`. */
export function dateInZone(instant: Date | string | number, timeZone: string): string {
  return formatISO(new TZDate(new Date(instant).getTime(), timeZone), { representation: 'date' });
}

/** Today's date in `timeZone`. */
export function todayInZone(timeZone: string, now: Date = new Date()): string {
  return dateInZone(now, timeZone);
}

/** The instant a calendar date's midnight is in `timeZone`. */
export function startOfDayInZone(date: string | PlainDate, timeZone: string): Date {
  const p = toPlain(date);
  return new Date(new TZDate(p.year, p.month - 1, p.day, timeZone).getTime());
}

/** The instants a calendar day starts and ends (exclusive: the next midnight) in `timeZone`. */
export function dayInZone(date: string | PlainDate, timeZone: string): InstantRange {
  return { start: startOfDayInZone(date, timeZone), end: startOfDayInZone(addDays(toPlain(date), 1), timeZone) };
}

/** The Monday-to-Sunday week holding `date`, as instants in `timeZone` (end exclusive). */
export function weekInZone(date: string | PlainDate, timeZone: string): InstantRange {
  const monday = startOfIsoWeek(toPlain(date));
  return { start: startOfDayInZone(monday, timeZone), end: startOfDayInZone(addDays(monday, 7), timeZone) };
}

/** The month holding `date`, as instants in `timeZone` (end exclusive). */
export function monthInZone(date: string | PlainDate, timeZone: string): InstantRange {
  const first = startOfMonth(toPlain(date));
  return { start: startOfDayInZone(first, timeZone), end: startOfDayInZone(addMonths(first, 1), timeZone) };
}

/** How many hours a calendar day lasts in `timeZone`: 24, or 23 and 25 on daylight-saving nights. */
export function hoursInDay(date: string | PlainDate, timeZone: string): number {
  const { start, end } = dayInZone(date, timeZone);
  return (end.getTime() - start.getTime()) / 3_600_000;
}

/** An instant as wall-clock parts in `timeZone`. */
export function wallClockParts(
  instant: Date | string | number,
  timeZone: string,
): PlainDate & { hour: number; minute: number; second: number } {
  const z = new TZDate(new Date(instant).getTime(), timeZone);
  return { ...plainOf(z), hour: z.getHours(), minute: z.getMinutes(), second: z.getSeconds() };
}

/**
 * The instant a wall-clock time in `timeZone` is (month 1-12). A time the spring-forward night skips
 * (02:30 in Stockholm on 29 March 2026) moves forward by the gap, as the clocks do.
 */
export function zonedInstant(
  wall: PlainDate & { hour?: number; minute?: number; second?: number },
  timeZone: string,
): Date {
  const z = new TZDate(
    wall.year,
    wall.month - 1,
    wall.day,
    wall.hour ?? 0,
    wall.minute ?? 0,
    wall.second ?? 0,
    timeZone,
  );
  return new Date(z.getTime());
}
