import { isDateLocked, type LockState } from '../period-lock';

/** A payroll month, YYYY-MM. */
export const MONTH_PATTERN = /^(\d{4})-(0[1-9]|1[0-2])$/;

/** The month's first and last day (YYYY-MM-DD). */
export function monthRange(month: string): { from: string; to: string } {
  const [y, m] = month.split('-').map(Number) as [number, number];
  const last = new Date(Date.UTC(y, m, 0)).getUTCDate();
  return { from: `${month}-01`, to: `${month}-${String(last).padStart(2, '0')}` };
}

/** The month `delta` months from `month` (YYYY-MM). */
export function addMonths(month: string, delta: number): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  const d = new Date(Date.UTC(y, m - 1 + delta, 1));
  return d.toISOString().slice(0, 7);
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
