import { addMonthsToFirst, endOfMonth } from '~/core/calendar/dates';
import { isDateLocked, type LockState } from '../period-lock';

/** A payroll month, YYYY-MM. */
export const MONTH_PATTERN = /^(\d{4})-(0[1-9]|1[0-2])$/;

/** The month's first and last day (YYYY-MM-DD). */
export function monthRange(month: string): { from: string; to: string } {
  return { from: `${month}-01`, to: endOfMonth(`${month}-01`) };
}

/** The month `delta` months from `month` (YYYY-MM). */
export function addMonths(month: string, delta: number): string {
  return addMonthsToFirst(`${month}-01`, delta).slice(0, 7);
}

/** How far back the page looks for a locked month before it offers the previous one. */
const LOOK_BACK_MONTHS = 24;

/**
 * The month the payroll page opens on: the latest locked month up to this one, or, when none in
 * the last two years is locked, the previous month (the one payroll is usually run for).
 */
export function defaultPayrollMonth(state: LockState, today: string): string {
  const current = today.slice(0, 7);
  for (let i = 0; i <= LOOK_BACK_MONTHS; i++) {
    const month = addMonths(current, -i);
    if (isDateLocked(state, `${month}-01`)) return month;
  }
  return addMonths(current, -1);
}
