/**
 * The pure rules of time on a work order (no database): a row is either a start–end span or hours
 * and minutes; spans are at most 60 days (spec section 9); minutes are 0–59. The service applies
 * them; unit tests pin them.
 */
import {
  addMonthsToFirst,
  dateInZone,
  endOfMonth,
  formatPlainDate,
  wallClockParts,
  zonedInstant,
} from '~/core/calendar/dates';

/** Spec section 9: a time report spans at most 60 days. */
export const MAX_SPAN_DAYS = 60;
const MINUTE_MS = 60_000;
const MAX_SPAN_MS = MAX_SPAN_DAYS * 24 * 60 * MINUTE_MS;

/** Hours and minutes as minutes. */
export function toMinutes(hours: number, minutes: number): number {
  return hours * 60 + minutes;
}

/** Minutes as whole hours and the minutes left over (the form's two fields). */
export function splitMinutes(total: number): { hours: number; minutes: number } {
  const t = Math.max(0, Math.trunc(total));
  return { hours: Math.floor(t / 60), minutes: t % 60 };
}

export type SpanError = 'ERROR_END_BEFORE_START' | 'ERROR_TIME_SPAN_TOO_LONG';

/**
 * The minutes between start and end, rounded to whole minutes; an end not after the start is
 * ERROR_END_BEFORE_START, a span over 60 days ERROR_TIME_SPAN_TOO_LONG.
 */
export function spanMinutes(start: Date, end: Date): { ok: true; minutes: number } | { ok: false; error: SpanError } {
  const ms = end.getTime() - start.getTime();
  if (!(ms > 0)) return { ok: false, error: 'ERROR_END_BEFORE_START' };
  if (ms > MAX_SPAN_MS) return { ok: false, error: 'ERROR_TIME_SPAN_TOO_LONG' };
  return { ok: true, minutes: Math.round(ms / MINUTE_MS) };
}

/** The calendar date (YYYY-MM-DD) a moment falls on in a time zone. */
export function dateIn(moment: Date, timeZone: string): string {
  return dateInZone(moment, timeZone);
}

/** "2 h 05 min" style pieces for a duration in minutes: `{hours, minutes}` with minutes padded. */
export function formatDuration(total: number): string {
  const { hours, minutes } = splitMinutes(total);
  return `${hours}:${String(minutes).padStart(2, '0')}`;
}

const WALL_CLOCK = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/;

/**
 * A wall-clock value in `timeZone` as an ISO instant: "2026-03-05T08:30" (a native `datetime-local`)
 * or "2026-03-05T08:30:00" (what the kit's DatePicker posts). Blank is null and anything else is
 * returned as it is (the service refuses it).
 */
export function wallClockToIso(value: string, timeZone: string): string | null {
  const v = value.trim();
  if (!v) return null;
  const m = WALL_CLOCK.exec(v);
  if (!m) return v;
  const wall = {
    year: Number(m[1]),
    month: Number(m[2]),
    day: Number(m[3]),
    hour: Number(m[4]),
    minute: Number(m[5]),
    second: Number(m[6] ?? 0),
  };
  return zonedInstant(wall, timeZone).toISOString();
}

/** An ISO instant as a `datetime-local` value in `timeZone`; null is "". */
export function isoToWallClock(iso: string | null, timeZone: string): string {
  if (!iso) return '';
  const t = new Date(iso).getTime();
  if (Number.isNaN(t)) return '';
  const p = wallClockParts(t, timeZone);
  return `${formatPlainDate(p)}T${String(p.hour).padStart(2, '0')}:${String(p.minute).padStart(2, '0')}`;
}

/**
 * The first day not yet locked, for time reports that lock on day `lockDay` of the next month
 * (spec section 4): from that day of this month on, everything before this month is locked;
 * before it, everything before last month. A lock day past the month's end is its last day (a lock
 * day of 30 locks January on 28 February, or the 29th in a leap year), so every month locks. Null
 * when nothing locks by date.
 */
export function lockedBefore(today: string, lockDay: number | null): string | null {
  if (!lockDay) return null;
  const day = Number(today.slice(8, 10));
  const lastDay = Number(endOfMonth(today).slice(8, 10));
  return addMonthsToFirst(today, day >= Math.min(lockDay, lastDay) ? 0 : -1);
}
