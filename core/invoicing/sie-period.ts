import { addDays, addMonths, endOfMonth, isPlainDate, startOfMonth } from '~/core/calendar/dates';

/*
 * The period of an SIE export (issue 15 item 3), shared by the service and the list's export form
 * (pure, so the browser checks a period the way the server will): at most SIE_MAX_MONTHS, not
 * ending before it starts, this month by default.
 */

/** The longest period one file covers. */
export const SIE_MAX_MONTHS = 12;

/** Whether `value` is a real day written YYYY-MM-DD. */
export function isIsoDay(value: string): boolean {
  return isPlainDate(value);
}

/**
 * The last day a period starting on `from` may end on: a day short of SIE_MAX_MONTHS later. From 29
 * February the same day does not come again, so the period runs to the end of February.
 */
export function lastDayOfPeriod(from: string): string {
  const later = addMonths(from, SIE_MAX_MONTHS);
  return later.slice(8) === from.slice(8) ? addDays(later, -1) : later;
}

/** Why a period of two real days is refused (a message key), or null when it is fine. */
export function siePeriodError(from: string, to: string): 'SIE_PERIOD_REVERSED' | 'SIE_PERIOD_TOO_LONG' | null {
  if (to < from) return 'SIE_PERIOD_REVERSED';
  if (to > lastDayOfPeriod(from)) return 'SIE_PERIOD_TOO_LONG';
  return null;
}

/** The calendar month `today` (YYYY-MM-DD) falls in. */
export function monthOf(today: string): { from: string; to: string } {
  return { from: startOfMonth(today), to: endOfMonth(today) };
}
