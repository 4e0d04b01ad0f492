import { addDays, formatPlainDate, isoDayOfWeek, isoWeek, parsePlainDate, type PlainDate } from '~/core/calendar/dates';
import { dateIn, wallClockToIso } from '~/core/work-orders/time-rules';

/**
 * The on-call schedule's pure rules (no database): what a shift's times mean in the tenant's zone,
 * how long a shift and a listed window may be, and the month calendar the schedule page draws.
 * A shift is a span of instants [start, end): it ends where the next may begin.
 */

/** At most this many days per shift. */
export const MAX_SHIFT_DAYS = 31;
/** A list covers at most this many days (a month's calendar, six weeks, fits). */
export const MAX_WINDOW_DAYS = 62;

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
const WALL_CLOCK = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/;
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:?\d{2})$/i;

/**
 * A moment as the API and the page send it: an ISO instant with its zone ("…Z", "+01:00"), or a
 * wall-clock time without one ("2026-03-05T17:00" from a `datetime-local` input, "2026-03-05T17:00:00"
 * from the kit's DatePicker), read in the tenant's zone. Null when it is neither.
 */
export function parseInstant(value: unknown, timeZone: string): Date | null {
  if (typeof value !== 'string') return null;
  const v = value.trim();
  // a real day and a real time of day (the Date parser would roll 30 February over into March)
  if (
    !parsePlainDate(v.slice(0, 10)) ||
    Number(v.slice(11, 13)) > 23 ||
    Number(v.slice(14, 16)) > 59 ||
    Number(v.slice(17, 19)) > 59
  )
    return null;
  if (WALL_CLOCK.test(v)) {
    const iso = wallClockToIso(v, timeZone);
    return iso && !Number.isNaN(Date.parse(iso)) ? new Date(iso) : null;
  }
  if (!INSTANT.test(v)) return null;
  const t = Date.parse(v);
  return Number.isNaN(t) ? null : new Date(t);
}

export type ShiftError = 'ERROR_END_BEFORE_START' | 'ERROR_ON_CALL_SHIFT_TOO_LONG';

/** A shift ends after it starts and lasts at most 31 days (a daylight-saving hour aside). */
export function shiftError(start: Date, end: Date): ShiftError | null {
  const ms = end.getTime() - start.getTime();
  if (!(ms > 0)) return 'ERROR_END_BEFORE_START';
  if (ms > MAX_SHIFT_DAYS * DAY_MS + HOUR_MS) return 'ERROR_ON_CALL_SHIFT_TOO_LONG';
  return null;
}

/** Two spans overlap when each starts before the other ends (touching ends do not). */
export function overlaps(a: { start: Date; end: Date }, b: { start: Date; end: Date }): boolean {
  return a.start.getTime() < b.end.getTime() && b.start.getTime() < a.end.getTime();
}

/** The first day (YYYY-MM-01) of the month after. */
export function nextMonth(month: string): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return m === 12 ? `${y + 1}-01-01` : `${y}-${String(m + 1).padStart(2, '0')}-01`;
}

/** The first day (YYYY-MM-01) of the month before. */
export function previousMonth(month: string): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return m === 1 ? `${y - 1}-12-01` : `${y}-${String(m - 1).padStart(2, '0')}-01`;
}

/**
 * The window a list covers, as instants: from the start of `from` to the end of `to` when they are
 * days (YYYY-MM-DD, in the tenant's zone), or the instants themselves. Without them, the month of
 * `today`. An error names the field at fault.
 */
export function listWindow(
  raw: { from?: unknown; to?: unknown },
  today: string,
  timeZone: string,
): { ok: true; from: Date; to: Date } | { ok: false; field: 'from' | 'to'; error: string } {
  const blank = (v: unknown) => v === undefined || v === null || v === '';
  const month = `${today.slice(0, 7)}-01`;
  const edge = (v: unknown, fallback: string, dayEnd: boolean): Date | null => {
    const text = blank(v) ? fallback : v;
    if (typeof text === 'string' && parsePlainDate(text)) {
      const day = dayEnd ? formatPlainDate(addDays(parsePlainDate(text)!, 1)) : text;
      return new Date(wallClockToIso(`${day}T00:00`, timeZone)!);
    }
    return parseInstant(text, timeZone);
  };
  const from = edge(raw.from, month, false);
  if (!from) return { ok: false, field: 'from', error: 'ERROR_INVALID_VALUE' };
  const lastOfMonth = formatPlainDate(addDays(parsePlainDate(nextMonth(month))!, -1));
  const to = edge(raw.to, blank(raw.from) ? lastOfMonth : dateIn(from, timeZone), true);
  if (!to) return { ok: false, field: 'to', error: 'ERROR_INVALID_VALUE' };
  if (to.getTime() <= from.getTime()) return { ok: false, field: 'to', error: 'ERROR_END_BEFORE_START' };
  if (to.getTime() - from.getTime() > MAX_WINDOW_DAYS * DAY_MS + HOUR_MS)
    return { ok: false, field: 'to', error: 'ERROR_ON_CALL_PERIOD_TOO_LONG' };
  return { ok: true, from, to };
}

/** The days (YYYY-MM-DD, in the zone) a shift touches: its start's day to the day of its last moment. */
export function shiftDays(start: string, end: string, timeZone: string): string[] {
  const first = parsePlainDate(dateIn(new Date(start), timeZone));
  const last = dateIn(new Date(new Date(end).getTime() - 1), timeZone);
  const days: string[] = [];
  for (let d = first; d && days.length <= MAX_SHIFT_DAYS + 1; d = addDays(d, 1)) {
    const text = formatPlainDate(d);
    if (text > last) break;
    days.push(text);
  }
  return days;
}

export interface CalendarWeek {
  /** ISO week number. */
  week: number;
  /** Monday to Sunday, YYYY-MM-DD. */
  days: string[];
}

/** A month's calendar: whole ISO weeks, Monday first, from the week of its 1st to the week of its last day. */
export function monthWeeks(month: string): CalendarWeek[] {
  const first = parsePlainDate(`${month.slice(0, 7)}-01`);
  if (!first) return [];
  const last = addDays(parsePlainDate(nextMonth(month))!, -1);
  const lastText = formatPlainDate(last);
  const weeks: CalendarWeek[] = [];
  for (let monday: PlainDate = addDays(first, 1 - isoDayOfWeek(first)); formatPlainDate(monday) <= lastText;) {
    weeks.push({
      week: isoWeek(monday).week,
      days: Array.from({ length: 7 }, (_, i) => formatPlainDate(addDays(monday, i))),
    });
    monday = addDays(monday, 7);
  }
  return weeks;
}
