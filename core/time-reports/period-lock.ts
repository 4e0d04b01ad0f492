import { addMonthsToFirst, daysInMonth, formatPlainDate, parsePlainDate } from '~/core/calendar/dates';
/**
 * Which days of time are locked (spec section 4: "Time reports lock on a configured day of the
 * next month"), as pure rules. A month is locked by the lock-day rule once the boundary has passed
 * it, unless the office unlocked it by hand; the office may also lock a month by hand before its
 * lock day. Everything is whole months: the boundary is always a month's first day.
 */
export interface LockState {
  /** The first day the lock-day rule leaves open (null: the rule locks nothing). */
  boundary: string | null;
  /** Months (YYYY-MM-01) locked by hand. */
  locked: readonly string[];
  /** Months (YYYY-MM-01) unlocked by hand after their lock day. */
  unlocked: readonly string[];
}

/** The first day (YYYY-MM-01) of a date's month. */
export const monthOf = (date: string): string => `${date.slice(0, 7)}-01`;

/** Whether time on a day (YYYY-MM-DD) is locked. */
export function isDateLocked(state: LockState, date: string): boolean {
  const month = monthOf(date);
  if (state.locked.includes(month)) return true;
  if (state.unlocked.includes(month)) return false;
  return state.boundary !== null && date < state.boundary;
}

/** Whether a month (any day of it) is locked; how: by the lock day or by hand. */
export function monthLock(state: LockState, date: string): { locked: boolean; byHand: boolean } {
  const month = monthOf(date);
  if (state.locked.includes(month)) return { locked: true, byHand: true };
  if (state.unlocked.includes(month)) return { locked: false, byHand: true };
  return { locked: state.boundary !== null && month < state.boundary, byHand: false };
}

/** The day a month locks by the rule: the lock day of the next month, clamped to its last day. */
export function lockDateOf(month: string, lockDay: number | null): string | null {
  if (lockDay === null) return null;
  const next = parsePlainDate(addMonthsToFirst(`${month.slice(0, 7)}-01`, 1))!;
  return formatPlainDate({ ...next, day: Math.min(lockDay, daysInMonth(next.year, next.month)) });
}

/**
 * The same rule as SQL over a date column, for lists that mark or filter locked rows in one query:
 * returns the expression and its bindings.
 */
export function lockedSql(state: LockState, column: string): { sql: string; bindings: string[] } {
  const month = `date_trunc('month', ${column})::date`;
  const inList = (months: readonly string[]) => months.map(() => 'cast(? as date)').join(', ');
  const parts: string[] = [];
  const bindings: string[] = [];
  if (state.locked.length) {
    parts.push(`${month} in (${inList(state.locked)})`);
    bindings.push(...state.locked);
  }
  if (state.boundary !== null) {
    const exceptUnlocked = state.unlocked.length ? ` and ${month} not in (${inList(state.unlocked)})` : '';
    parts.push(`(${column} < cast(? as date)${exceptUnlocked})`);
    bindings.push(state.boundary, ...state.unlocked);
  }
  return { sql: parts.length ? `(${parts.join(' or ')})` : 'false', bindings };
}
