/**
 * The pure rules of time on a work order (no database): a row is either a start–end span or hours
 * and minutes; spans are at most 60 days (spec section 9); minutes are 0–59. The service applies
 * them; unit tests pin them.
 */

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

/** The time zone a tenant's country keeps (as the UI's formatting does). */
const ZONES: Record<string, string> = {
  SE: 'Europe/Stockholm',
  EE: 'Europe/Tallinn',
  LV: 'Europe/Riga',
  AU: 'Australia/Sydney',
};
export const zoneOf = (country: string | null | undefined): string => ZONES[country ?? ''] ?? 'Europe/Stockholm';

/** The calendar date (YYYY-MM-DD) a moment falls on in a time zone. */
export function dateIn(moment: Date, timeZone: string): string {
  // sv-SE writes dates as YYYY-MM-DD
  return new Intl.DateTimeFormat('sv-SE', { year: 'numeric', month: '2-digit', day: '2-digit', timeZone }).format(
    moment,
  );
}

/** "2 h 05 min" style pieces for a duration in minutes: `{hours, minutes}` with minutes padded. */
export function formatDuration(total: number): string {
  const { hours, minutes } = splitMinutes(total);
  return `${hours}:${String(minutes).padStart(2, '0')}`;
}
