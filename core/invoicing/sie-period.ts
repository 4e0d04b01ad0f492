/*
 * The period of an SIE export (issue 15 item 3), shared by the service and the list's export form
 * (pure, so the browser checks a period the way the server will): at most SIE_MAX_MONTHS, not
 * ending before it starts, this month by default.
 */

/** The longest period one file covers. */
export const SIE_MAX_MONTHS = 12;

/** Whether `value` is a real day written YYYY-MM-DD. */
export function isIsoDay(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const [y, m, d] = value.split('-').map(Number);
  return new Date(Date.UTC(y!, m! - 1, d!)).toISOString().slice(0, 10) === value;
}

/** The last day a period starting on `from` may end on: a day short of SIE_MAX_MONTHS later. */
export function lastDayOfPeriod(from: string): string {
  const [y, m, d] = from.split('-').map(Number);
  return new Date(Date.UTC(y!, m! - 1 + SIE_MAX_MONTHS, d! - 1)).toISOString().slice(0, 10);
}

/** Why a period of two real days is refused (a message key), or null when it is fine. */
export function siePeriodError(from: string, to: string): 'SIE_PERIOD_REVERSED' | 'SIE_PERIOD_TOO_LONG' | null {
  if (to < from) return 'SIE_PERIOD_REVERSED';
  if (to > lastDayOfPeriod(from)) return 'SIE_PERIOD_TOO_LONG';
  return null;
}

/** The calendar month `today` (YYYY-MM-DD) falls in. */
export function monthOf(today: string): { from: string; to: string } {
  const [y, m] = today.split('-').map(Number);
  return { from: `${today.slice(0, 7)}-01`, to: new Date(Date.UTC(y!, m!, 0)).toISOString().slice(0, 10) };
}
