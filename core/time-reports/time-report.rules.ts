/**
 * The pure rules of a person's own time report (issue 17; spec sections 3, 5 and 9): a report is
 * a span (start–end, wrapping past midnight) or hours and minutes; which the form asks for is the
 * tenant's mode (default: one span, hours: hours and minutes, multi: several spans a day), and the
 * API takes either. An absence without time is the day's scheduled time; an attendance without
 * time is its tag's default time. A start that cannot be read is 09:00 (spec section 5).
 */
import { DAY_MINUTES, formatClock, parseClock, startMinutes } from './range-set';

export const TIME_REPORT_MODES = ['default', 'hours', 'multi'] as const;
export type TimeReportMode = (typeof TIME_REPORT_MODES)[number];
export const TAG_TYPES = ['work', 'absence', 'attend'] as const;
export type TagType = (typeof TAG_TYPES)[number];

export interface ReportTimeInput {
  tagType: TagType;
  startTime?: string | null;
  endTime?: string | null;
  hours?: number | null;
  minutes?: number | null;
  /** The day's scheduled minutes (an absence without time takes them). */
  scheduledMinutes: number;
  /** An attendance tag's default time. */
  defaultStart?: string | null;
  defaultEnd?: string | null;
}

export type ReportTime =
  | { ok: true; startTime: string | null; endTime: string | null; minutes: number }
  | { ok: false; fields: Record<string, string[]> };

const blank = (v: string | null | undefined) => v === undefined || v === null || v.trim() === '';

/** The minutes of a span; an end at or before the start wraps past midnight. */
export function spanOf(start: number, end: number): number {
  return end > start ? end - start : end + DAY_MINUTES - start;
}

/** What a report's time comes to, or the fields that are wrong. */
export function reportTime(input: ReportTimeInput): ReportTime {
  let { startTime, endTime } = input;
  if (blank(startTime) && blank(endTime) && !input.hours && !input.minutes && input.tagType === 'attend') {
    startTime = input.defaultStart ?? null;
    endTime = input.defaultEnd ?? null;
  }
  if (!blank(startTime) || !blank(endTime)) {
    if (blank(endTime)) return { ok: false, fields: { endTime: ['ERROR_REQUIRED_FIELD'] } };
    const end = parseClock(endTime);
    if (end === null) return { ok: false, fields: { endTime: ['ERROR_INVALID_TIME'] } };
    const start = startMinutes(startTime);
    if (start === end) return { ok: false, fields: { endTime: ['ERROR_RANGE_START_EQUALS_END'] } };
    return { ok: true, startTime: formatClock(start), endTime: formatClock(end), minutes: spanOf(start, end) };
  }
  const minutes = (input.hours ?? 0) * 60 + (input.minutes ?? 0);
  if (minutes > DAY_MINUTES) return { ok: false, fields: { reportedHours: ['ERROR_INVALID_VALUE'] } };
  if (minutes > 0) return { ok: true, startTime: null, endTime: null, minutes };
  if (input.tagType === 'absence' && input.scheduledMinutes > 0)
    return { ok: true, startTime: null, endTime: null, minutes: input.scheduledMinutes };
  return { ok: false, fields: { reportedHours: ['ERROR_REQUIRED_FIELD'] } };
}

/**
 * A person's worked time on a day: work-order time is part of it, not on top of it. Own work rows
 * cover the day and the time on orders is done inside them; only the order time beyond the own work
 * (a technician who reports on orders only) adds to it. Decision 033.
 */
export const workedMinutes = (ownWork: number, workOrderMinutes: number) => Math.max(ownWork, workOrderMinutes);

/**
 * Whether a period's total is far beyond its schedule, so approving it deserves a second look
 * (issue 28 item 2: 333:30 h were approvable against 168): more than a quarter over the schedule,
 * and at least a working day (8 h) over it, so a short month's few extra hours do not warn.
 */
export const isFarBeyondSchedule = (totalMinutes: number, scheduledMinutes: number) =>
  totalMinutes - scheduledMinutes > Math.max(scheduledMinutes * 0.25, 8 * 60);

/** The day's totals: worked time (own work, work-order time inside it) and absence count against the schedule; attendance is shown apart. */
export interface DayTotals {
  workOrder: number;
  work: number;
  absence: number;
  attend: number;
  total: number;
}

export function dayTotals(
  reports: readonly { tagType: TagType; minutes: number }[],
  workOrderMinutes: number,
): DayTotals {
  const sum = (type: TagType) => reports.filter((r) => r.tagType === type).reduce((s, r) => s + r.minutes, 0);
  const work = sum('work');
  const absence = sum('absence');
  return {
    workOrder: workOrderMinutes,
    work,
    absence,
    attend: sum('attend'),
    total: workedMinutes(work, workOrderMinutes) + absence,
  };
}

export function addTotals(a: DayTotals, b: DayTotals): DayTotals {
  return {
    workOrder: a.workOrder + b.workOrder,
    work: a.work + b.work,
    absence: a.absence + b.absence,
    attend: a.attend + b.attend,
    total: a.total + b.total,
  };
}

export const ZERO_TOTALS: DayTotals = { workOrder: 0, work: 0, absence: 0, attend: 0, total: 0 };
