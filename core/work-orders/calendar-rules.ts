import {
  addDays,
  addMonthsToFirst,
  formatPlainDate,
  isoDayOfWeek,
  isoWeek,
  startOfMonth,
  type PlainDate,
} from '~/core/calendar/dates';

/**
 * The calendar tab's pure rules (spec sections 2 and 9): which days a period covers, how its
 * columns divide it, and how the arrows step through time. The server uses them to know what to
 * read, the board to draw it; both agree because it is one module.
 */

export const CALENDAR_PERIODS = ['month', 'week', 'day', 'quarter', 'half_year', 'year'] as const;
export type CalendarPeriod = (typeof CALENDAR_PERIODS)[number];
export const CALENDAR_PERSPECTIVES = ['technician', 'project'] as const;
export type CalendarPerspective = (typeof CALENDAR_PERSPECTIVES)[number];
/** The project perspective steps through 1, 3, 6 or 12 months at a time. */
export const PROJECT_STEPS = [1, 3, 6, 12] as const;
export type ProjectStep = (typeof PROJECT_STEPS)[number];

/** Spec section 9: the calendar's default period, and its fetch debounce. */
export const DEFAULT_PERIOD: CalendarPeriod = 'month';
export const CALENDAR_DEBOUNCE_MS = 250;
/** Spec section 9: "date picker default time 12:00, sets 08:00 when none": a drop on a day plans 08:00. */
export const DEFAULT_START_MINUTES = 8 * 60;
/** How long a plan made by dropping an order on a day lasts. */
export const DEFAULT_PLAN_MINUTES = 120;
/** The day view's hours (a plan outside them sits at the nearest edge). */
export const DAY_FIRST_HOUR = 6;
export const DAY_LAST_HOUR = 20;
/** Resizing and the keyboard move in steps of this many minutes. */
export const RESIZE_STEP_MINUTES = 30;

export interface CalendarView {
  period: CalendarPeriod;
  perspective: CalendarPerspective;
  /** Any day inside the period. */
  anchor: PlainDate;
  /** Months shown by the project perspective. */
  step: ProjectStep;
}

/** A span of days, `to` exclusive. */
export interface DayRange {
  from: PlainDate;
  to: PlainDate;
}

export type CalendarColumn =
  | { kind: 'day'; key: string; date: PlainDate; weekday: number; week: number }
  | { kind: 'hour'; key: string; date: PlainDate; hour: number }
  | { kind: 'week'; key: string; from: PlainDate; to: PlainDate; year: number; week: number };

/** Months each period spans (the month-based ones), for ranges and the arrows. */
const MONTHS: Partial<Record<CalendarPeriod, number>> = { month: 1, quarter: 3, half_year: 6, year: 12 };

/** The days a view covers. */
export function viewRange(view: CalendarView): DayRange {
  const a = view.anchor;
  if (view.perspective === 'project') {
    const from = startOfMonth(a);
    return { from, to: addMonthsToFirst(from, view.step) };
  }
  switch (view.period) {
    case 'day':
      return { from: a, to: addDays(a, 1) };
    case 'week': {
      const from = addDays(a, 1 - isoDayOfWeek(a));
      return { from, to: addDays(from, 7) };
    }
    default: {
      const months = MONTHS[view.period]!;
      // quarters and half years start on January, April, July, October (or January, July)
      const startMonth = Math.floor((a.month - 1) / months) * months + 1;
      const from = { year: a.year, month: startMonth, day: 1 };
      return { from, to: addMonthsToFirst(from, months) };
    }
  }
}

/** The columns of a view: hours for a day, days for a week or month, ISO weeks for longer spans. */
export function viewColumns(view: CalendarView): CalendarColumn[] {
  const { from, to } = viewRange(view);
  if (view.perspective === 'technician' && view.period === 'day') {
    const cols: CalendarColumn[] = [];
    for (let hour = DAY_FIRST_HOUR; hour < DAY_LAST_HOUR; hour++)
      cols.push({ kind: 'hour', key: `h${hour}`, date: from, hour });
    return cols;
  }
  if (view.perspective === 'technician' && (view.period === 'week' || view.period === 'month')) {
    const cols: CalendarColumn[] = [];
    for (let d = from; formatPlainDate(d) < formatPlainDate(to); d = addDays(d, 1))
      cols.push({ kind: 'day', key: formatPlainDate(d), date: d, weekday: isoDayOfWeek(d), week: isoWeek(d).week });
    return cols;
  }
  const cols: CalendarColumn[] = [];
  let monday = addDays(from, 1 - isoDayOfWeek(from));
  while (formatPlainDate(monday) < formatPlainDate(to)) {
    const w = isoWeek(monday);
    cols.push({ kind: 'week', key: `w${w.year}-${w.week}`, from: monday, to: addDays(monday, 7), ...w });
    monday = addDays(monday, 7);
  }
  return cols;
}

/** The anchor one period earlier (-1) or later (+1). */
export function shiftView(view: CalendarView, direction: -1 | 1): PlainDate {
  const a = view.anchor;
  if (view.perspective === 'project') return addMonthsToFirst(a, direction * view.step);
  if (view.period === 'day') return addDays(a, direction);
  if (view.period === 'week') return addDays(a, direction * 7);
  return addMonthsToFirst(a, direction * MONTHS[view.period]!);
}

/**
 * The column a plan starting on `date` (at `minutes` past local midnight) falls in, or -1 outside
 * the view. Day views place it by hour, clamped to the shown hours.
 */
export function columnIndex(columns: readonly CalendarColumn[], date: string, minutes: number): number {
  return columns.findIndex((c) => {
    if (c.kind === 'day') return c.key === date;
    if (c.kind === 'week') return formatPlainDate(c.from) <= date && date < formatPlainDate(c.to);
    if (formatPlainDate(c.date) !== date) return false;
    const hour = Math.min(Math.max(Math.floor(minutes / 60), DAY_FIRST_HOUR), DAY_LAST_HOUR - 1);
    return c.hour === hour;
  });
}

/** "HH:MM" → minutes past midnight; null when not a 24-hour time. */
export function parseClock(text: string): number | null {
  const m = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(text);
  return m ? Number(m[1]) * 60 + Number(m[2]) : null;
}

/** Minutes past midnight → "HH:MM" (24 h and beyond wrap). */
export function formatClock(minutes: number): string {
  const m = ((Math.round(minutes) % 1440) + 1440) % 1440;
  return `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
}
