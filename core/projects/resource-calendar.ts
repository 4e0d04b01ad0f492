import {
  addDays,
  addMonthsToFirst,
  daysBetween,
  formatPlainDate,
  isoDayOfWeek,
  isoWeek,
  parsePlainDate,
} from '~/core/calendar/dates';
import { PROJECT_STEPS, type ProjectStep } from '~/core/work-orders/calendar-rules';

/**
 * The resource planning calendar's pure rules (spec section 2 "Resource planning calendar",
 * "Project calendar steps 1, 3, 6 or 12 months"; section 9 "planning period week"): the calendar
 * shows whole ISO weeks (Monday to Sunday, 53-week years included) covering 1, 3, 6 or 12 months,
 * and a plan is a span of days [startDate, endDate], both inclusive, moved and stretched by whole
 * weeks. The server checks periods with it, the planner draws with it: one module, so they agree.
 */

export { PROJECT_STEPS as PLANNING_STEPS };
export type PlanningStep = ProjectStep;

/** The step a new calendar opens with (the planning period is the week: 3 months of weeks). */
export const DEFAULT_PLANNING_STEP: PlanningStep = 3;

/** A period asked for may span at most 12 months and a week (the 12-month step in whole weeks). */
export const MAX_PLANNING_MONTHS = 12;
export const MAX_PLANNING_EXTRA_DAYS = 7;

export interface PlanningWeek {
  /** ISO week-numbering year (differs from the calendar year around New Year). */
  year: number;
  week: number;
  /** The Monday, YYYY-MM-DD. */
  start: string;
}

const DAY_MS = 86_400_000;

/** The Monday of the ISO week holding `date`. */
export function mondayOf(date: string): string {
  const d = parsePlainDate(date)!;
  return formatPlainDate(addDays(d, 1 - isoDayOfWeek(d)));
}

/** Whether `step` is one of the calendar's steps. */
export function isPlanningStep(step: unknown): boolean {
  return (PROJECT_STEPS as readonly number[]).includes(Number(step));
}

/** A step from a loose value (a URL's ?step=): anything else is the default. */
export function planningStep(raw: unknown): PlanningStep {
  return isPlanningStep(raw) ? (Number(raw) as PlanningStep) : DEFAULT_PLANNING_STEP;
}

/**
 * The days a calendar of `step` months from `anchor`'s month shows: from the Monday of the week
 * holding the month's first day to the Sunday of the week holding the last month's last day
 * (`to` inclusive).
 */
export function planningRange(anchor: string, step: PlanningStep): { from: string; to: string } {
  const a = parsePlainDate(anchor)!;
  const first = { year: a.year, month: a.month, day: 1 };
  const last = addDays(addMonthsToFirst(first, step), -1);
  const from = mondayOf(formatPlainDate(first));
  const to = addDays(mondayOf(formatPlainDate(last)), 6);
  return { from, to };
}

/** The first of the month `step` months before (-1) or after (+1) the anchor's. */
export function shiftAnchor(anchor: string, step: PlanningStep, direction: -1 | 1): string {
  return formatPlainDate(addMonthsToFirst(parsePlainDate(anchor)!, direction * step));
}

/** The ISO weeks (Monday starts) that cover [from, to], in order. */
export function planningWeeks(from: string, to: string): PlanningWeek[] {
  const weeks: PlanningWeek[] = [];
  for (let monday = mondayOf(from); monday <= to; monday = addDays(monday, 7)) {
    const w = isoWeek(parsePlainDate(monday)!);
    weeks.push({ year: w.year, week: w.week, start: monday });
  }
  return weeks;
}

/**
 * A calendar's days by number, for code that walks many of them (a period's clashes): the day
 * `n` days after `from` and back, and the ISO week holding a day, without parsing dates again and
 * again. Days outside the weeks covering [from, to] have no week.
 */
export function dayIndexer(from: string, to: string) {
  const weeks = planningWeeks(from, to);
  const base = Date.UTC(Number(from.slice(0, 4)), Number(from.slice(5, 7)) - 1, Number(from.slice(8, 10)));
  const firstMonday = weeks.length ? daysBetween(from, weeks[0]!.start) : 0;
  const index = (date: string) =>
    Math.round(
      (Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10))) - base) / DAY_MS,
    );
  return {
    weeks,
    /** Days from `from` to `date`. */
    index,
    /** The date `n` days after `from`. */
    date: (n: number) => new Date(base + n * DAY_MS).toISOString().slice(0, 10),
    /** The ISO week of the calendar holding `date`. */
    weekOf: (date: string): PlanningWeek | undefined => weeks[Math.floor((index(date) - firstMonday) / 7)],
  };
}

/**
 * Whether a period [from, to] may be asked for: real dates, `to` not before `from`, and no longer
 * than 12 months and a week (`to` before the day 12 months and 7 days after `from`).
 */
export function isPlanningPeriod(from: string, to: string): boolean {
  const f = parsePlainDate(from);
  if (!f || !parsePlainDate(to) || to < from) return false;
  const limit = formatPlainDate(addDays(addMonthsToFirst(f, MAX_PLANNING_MONTHS), f.day - 1 + MAX_PLANNING_EXTRA_DAYS));
  return to < limit;
}

export interface DaySpan {
  startDate: string;
  endDate: string;
}

/** A span moved by whole weeks (its length and weekdays kept). */
export function moveSpan(span: DaySpan, weeks: number): DaySpan {
  return { startDate: addDays(span.startDate, weeks * 7), endDate: addDays(span.endDate, weeks * 7) };
}

/**
 * A span whose end moved by whole weeks; it never ends before it starts (shrunk past its start,
 * it ends on its first day).
 */
export function resizeSpan(span: DaySpan, weeks: number): DaySpan {
  const endDate = addDays(span.endDate, weeks * 7);
  return { startDate: span.startDate, endDate: endDate < span.startDate ? span.startDate : endDate };
}

/** Whole weeks a pointer moved, from pixels and the width of a day (half a week rounds away). */
export function weeksMoved(pixels: number, dayWidth: number): number {
  if (!(dayWidth > 0)) return 0;
  const weeks = pixels / dayWidth / 7;
  return Math.sign(weeks) * Math.round(Math.abs(weeks));
}

/**
 * Where a span sits on a calendar [from, to]: its first day and number of days inside, as
 * fractions of the calendar's days (for left and width), and whether it runs on beyond either
 * edge. Null when it lies wholly outside.
 */
export function spanPlacement(
  span: DaySpan,
  from: string,
  to: string,
): { left: number; width: number; clippedStart: boolean; clippedEnd: boolean } | null {
  if (span.endDate < from || span.startDate > to) return null;
  const total = daysBetween(from, to) + 1;
  const start = span.startDate < from ? from : span.startDate;
  const end = span.endDate > to ? to : span.endDate;
  return {
    left: daysBetween(from, start) / total,
    width: (daysBetween(start, end) + 1) / total,
    clippedStart: span.startDate < from,
    clippedEnd: span.endDate > to,
  };
}

/**
 * Lanes so a person's overlapping spans sit one above the other: each span gets the first lane
 * whose last span ended before it starts. Returns lane per id and the number of lanes.
 */
export function spanLanes<T extends DaySpan & { id: string }>(
  spans: readonly T[],
): { lanes: Map<string, number>; count: number } {
  const lanes = new Map<string, number>();
  const ends: string[] = [];
  const sorted = [...spans].sort((a, b) =>
    a.startDate === b.startDate ? a.endDate.localeCompare(b.endDate) : a.startDate.localeCompare(b.startDate),
  );
  for (const s of sorted) {
    let lane = ends.findIndex((end) => end < s.startDate);
    if (lane < 0) lane = ends.length;
    ends[lane] = s.endDate;
    lanes.set(s.id, lane);
  }
  return { lanes, count: Math.max(1, ends.length) };
}
