/*
 * Time-range sets of a time report in "multi" mode (issue 17; spec section 5): a day's ranges such
 * as 07:00–11:30 and 12:00–16:00, pure. A set is valid when no range starts and ends at the same
 * minute and no range's start or end lies strictly inside another range; a range may wrap past
 * midnight (22:00–06:00). Ranges may touch (11:30–12:00 after 07:00–11:30). A start that cannot be
 * read is 09:00 (spec section 5).
 */

export const DAY_MINUTES = 24 * 60;
/** What an unreadable start time becomes (spec section 5). */
export const DEFAULT_START = '09:00';

export interface TimeRange {
  start: string;
  end: string;
}

export type RangeSetError = 'ERROR_RANGE_START_EQUALS_END' | 'ERROR_RANGES_OVERLAP' | 'ERROR_INVALID_TIME';

/** "HH:MM" (or "H:MM", "HHMM") as minutes after midnight, or null. */
export function parseClock(text: string | null | undefined): number | null {
  const m = /^\s*(\d{1,2}):?(\d{2})\s*$/.exec(text ?? '');
  if (!m) return null;
  const h = Number(m[1]);
  const min = Number(m[2]);
  if (h > 23 || min > 59) return null;
  return h * 60 + min;
}

/** A start time as minutes, 09:00 when it cannot be read. */
export function startMinutes(text: string | null | undefined): number {
  return parseClock(text) ?? parseClock(DEFAULT_START)!;
}

export function formatClock(minutes: number): string {
  const m = ((minutes % DAY_MINUTES) + DAY_MINUTES) % DAY_MINUTES;
  return `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
}

/** A range on a line of two days: [start, end) with end after start, wrapping past midnight. */
function span(r: { start: number; end: number }): [number, number] {
  return [r.start, r.end > r.start ? r.end : r.end + DAY_MINUTES];
}

/** Whether minute `p` (of a day) lies strictly inside the range, also on the day after. */
function strictlyInside(p: number, [s, e]: [number, number]): boolean {
  return (p > s && p < e) || (p + DAY_MINUTES > s && p + DAY_MINUTES < e);
}

/** The set's first problem, or null when it is valid. */
export function rangeSetError(ranges: readonly TimeRange[]): RangeSetError | null {
  const parsed = ranges.map((r) => ({ start: parseClock(r.start), end: parseClock(r.end) }));
  if (parsed.some((r) => r.start === null || r.end === null)) return 'ERROR_INVALID_TIME';
  const minutes = parsed as { start: number; end: number }[];
  if (minutes.some((r) => r.start === r.end)) return 'ERROR_RANGE_START_EQUALS_END';
  for (let i = 0; i < minutes.length; i++)
    for (let j = 0; j < minutes.length; j++) {
      if (i === j) continue;
      const other = span(minutes[j]!);
      if (strictlyInside(minutes[i]!.start, other) || strictlyInside(minutes[i]!.end, other))
        return 'ERROR_RANGES_OVERLAP';
      // the same range twice: neither end strictly inside, but the same minutes
      if (minutes[i]!.start === minutes[j]!.start && minutes[i]!.end === minutes[j]!.end) return 'ERROR_RANGES_OVERLAP';
    }
  return null;
}

/** The minutes a valid set covers (a wrapping range counts to its end the next morning). */
export function rangeSetMinutes(ranges: readonly TimeRange[]): number {
  return ranges.reduce((sum, r) => {
    const [s, e] = span({ start: parseClock(r.start) ?? 0, end: parseClock(r.end) ?? 0 });
    return sum + (e - s);
  }, 0);
}
