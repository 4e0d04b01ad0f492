import type { Ctx } from '~/core/context';
import { AppError } from '~/core/errors/app-error';
import { hasAccess, requireAccess } from '~/core/permissions/access';
import { daysInMonth, isoDayOfWeek, isoWeek, isoWeeksInYear, parsePlainDate } from '~/core/calendar/dates';
import { tenantToday } from '~/core/calendar/tenant-today';
import { activeUserChoices, type UserChoice } from '~/core/users/active-users';
import { isDateLocked } from './period-lock';
import { timeReportSettings } from './time-settings.service';
import { timeLockState } from './period-lock.service';
import {
  addTotals,
  dayTotals,
  ZERO_TOTALS,
  type DayTotals,
  type TagType,
  type TimeReportMode,
} from './time-report.rules';
import {
  parsePeriod,
  reportColumns,
  requireTimeReader,
  toTimeReport,
  weekDates,
  type TimeReport,
} from './time-report.service';

/** A person's time on a work order on one day, as the week shows it. */
export interface WeekWorkOrderTime {
  id: string;
  userId: string;
  workOrderId: string;
  workOrderNumber: string;
  workOrderTitle: string;
  date: string;
  startTs: string | null;
  endTs: string | null;
  workMinutes: number;
  travelMinutes: number;
  distanceKm: number;
}

export interface WeekDay {
  date: string;
  /** Monday 1 … Sunday 7. */
  weekday: number;
  holiday: string | null;
  /** What the day is measured against: the weekday's scheduled time, none on a company holiday. */
  scheduledMinutes: number;
  locked: boolean;
  approved: boolean;
  reports: TimeReport[];
  workOrderTime: WeekWorkOrderTime[];
  totals: DayTotals;
}

export interface TimeWeek {
  year: number;
  week: number;
  weeksInYear: number;
  user: { id: string; name: string };
  mode: TimeReportMode;
  days: WeekDay[];
  totals: DayTotals & { scheduled: number };
  /** Whose weeks the viewer may open (themselves only without timereports:read). */
  users: UserChoice[];
  /** Whether the viewer may change this person's time (days may still be locked or approved). */
  canEdit: boolean;
  /** The ISO week of the tenant's today, for the "this week" button. */
  thisWeek: { year: number; week: number };
}

type Row = Record<string, unknown>;

async function workOrderTimeOf(
  ctx: Ctx,
  userIds: string[] | null,
  from: string,
  to: string,
): Promise<WeekWorkOrderTime[]> {
  const q = ctx
    .trx('work_order_time as t')
    .join('work_orders as w', 'w.id', 't.work_order_id')
    .whereBetween('t.date', [from, to])
    .whereNull('w.deleted_at')
    .orderBy([{ column: 't.date' }, { column: 't.start_ts' }, { column: 't.created_at' }])
    .select(
      't.id',
      't.user_id',
      't.work_order_id',
      'w.number',
      'w.title',
      ctx.trx.raw(`to_char(t.date, 'YYYY-MM-DD') as date_text`),
      't.start_ts',
      't.end_ts',
      't.work_minutes',
      't.travel_minutes',
      ctx.trx.raw('t.distance_km::text as distance_km'),
    );
  if (userIds) void q.whereIn('t.user_id', userIds);
  const rows: Row[] = await q;
  return rows.map((r) => ({
    id: r.id as string,
    userId: r.user_id as string,
    workOrderId: r.work_order_id as string,
    workOrderNumber: r.number as string,
    workOrderTitle: r.title as string,
    date: r.date_text as string,
    startTs: r.start_ts ? new Date(r.start_ts as string).toISOString() : null,
    endTs: r.end_ts ? new Date(r.end_ts as string).toISOString() : null,
    workMinutes: Number(r.work_minutes),
    travelMinutes: Number(r.travel_minutes),
    distanceKm: Number(r.distance_km),
  }));
}

async function holidaysBetween(ctx: Ctx, from: string, to: string): Promise<Map<string, string>> {
  const rows: { d: string; name: string }[] = await ctx
    .trx('company_holidays')
    .whereBetween('date', [from, to])
    .select(ctx.trx.raw(`to_char(date, 'YYYY-MM-DD') as d`), 'name');
  return new Map(rows.map((r) => [r.d, r.name]));
}

/** Approved periods of people overlapping [from, to]. */
async function approvedPeriods(ctx: Ctx, userIds: string[] | null, from: string, to: string) {
  const q = ctx
    .trx('time_report_parents')
    .where({ status: 'approved' })
    .andWhere('period_start', '<=', to)
    .andWhere('period_end', '>=', from)
    .select(
      'user_id',
      ctx.trx.raw(`to_char(period_start, 'YYYY-MM-DD') as s`),
      ctx.trx.raw(`to_char(period_end, 'YYYY-MM-DD') as e`),
    );
  if (userIds) void q.whereIn('user_id', userIds);
  const rows: { user_id: string; s: string; e: string }[] = await q;
  return (userId: string, date: string) => rows.some((r) => r.user_id === userId && r.s <= date && r.e >= date);
}

const totalsOf = (reports: TimeReport[], woTime: WeekWorkOrderTime[]) =>
  dayTotals(
    reports,
    woTime.reduce((s, w) => s + w.workMinutes + w.travelMinutes, 0),
  );

/** The days of a person between two dates (inclusive), with their reports and work-order time. */
async function personDays(ctx: Ctx, userId: string, dates: string[]) {
  const from = dates[0]!;
  const to = dates[dates.length - 1]!;
  const lock = await timeLockState(ctx);
  const { mode, scheduledMinutes } = await timeReportSettings(ctx);
  const holidays = await holidaysBetween(ctx, from, to);
  const rows: Row[] = await ctx
    .trx('time_reports as r')
    .join('time_report_tags as t', 't.id', 'r.tag_id')
    .where('r.user_id', userId)
    .whereBetween('r.date', [from, to])
    .orderBy([{ column: 'r.date' }, { column: 'r.start_time' }, { column: 'r.created_at' }, { column: 'r.id' }])
    .select(reportColumns(ctx));
  const reports = rows.map(toTimeReport);
  const woTime = await workOrderTimeOf(ctx, [userId], from, to);
  const approved = await approvedPeriods(ctx, [userId], from, to);
  const days: WeekDay[] = dates.map((date) => {
    const weekday = isoDayOfWeek(parsePlainDate(date)!);
    const locked = isDateLocked(lock, date);
    const dayReports = reports.filter((r) => r.date === date).map((r) => ({ ...r, locked }));
    const dayWo = woTime.filter((w) => w.date === date);
    const holiday = holidays.get(date) ?? null;
    return {
      date,
      weekday,
      holiday,
      scheduledMinutes: holiday ? 0 : (scheduledMinutes[weekday - 1] ?? 0),
      locked,
      approved: approved(userId, date),
      reports: dayReports,
      workOrderTime: dayWo,
      totals: totalsOf(dayReports, dayWo),
    };
  });
  const totals = days.reduce((t, d) => addTotals(t, d.totals), ZERO_TOTALS);
  return { mode, days, totals: { ...totals, scheduled: days.reduce((s, d) => s + d.scheduledMinutes, 0) } };
}

function canWrite(ctx: Ctx, userId: string) {
  return ctx.auth!.user.id === userId || hasAccess(ctx.auth, { permission: 'timereports:edit' });
}

async function viewableUsers(ctx: Ctx, self: { id: string; name: string }): Promise<UserChoice[]> {
  return hasAccess(ctx.auth, { permission: 'timereports:read' })
    ? activeUserChoices(ctx.trx)
    : [{ id: self.id, name: self.name } as UserChoice];
}

/**
 * GET /timereports/week/{year}/{week}?userId: a person's ISO week — each day's own reports,
 * work-order time, company holiday, scheduled time, lock and approval, with totals per day and
 * week against the scheduled time. Your own with timereports:read_own, anyone's with :read.
 */
export async function timeWeek(ctx: Ctx, raw: { year: unknown; week: unknown; userId?: unknown }): Promise<TimeWeek> {
  const user = await requireTimeReader(ctx, raw.userId);
  const { year, week, dates } = weekDates(raw.year, raw.week);
  const { mode, days, totals } = await personDays(ctx, user.id, dates);
  const me = ctx.auth!.user;
  return {
    year,
    week,
    weeksInYear: isoWeeksInYear(year),
    user,
    mode,
    days,
    totals,
    users: await viewableUsers(ctx, user.id === me.id ? user : { id: me.id, name: me.fullName }),
    canEdit: canWrite(ctx, user.id),
    thisWeek: isoWeek(parsePlainDate(tenantToday(ctx))!),
  };
}

/** GET /timereports/week/wo/{year}/{week}?userId: a person's work-order time in the week. */
export async function timeWeekWorkOrders(ctx: Ctx, raw: { year: unknown; week: unknown; userId?: unknown }) {
  const user = await requireTimeReader(ctx, raw.userId);
  const { dates } = weekDates(raw.year, raw.week);
  return { workOrderTime: await workOrderTimeOf(ctx, [user.id], dates[0]!, dates[6]!) };
}

/** GET /timereports/wo?userId&startTime&endTime: a person's work-order time over at most 60 days. */
export async function listPersonWorkOrderTime(ctx: Ctx, raw: Record<string, unknown>) {
  const user = await requireTimeReader(ctx, raw.userId);
  const { from, to } = parsePeriod(raw);
  return { workOrderTime: await workOrderTimeOf(ctx, [user.id], from, to) };
}

/** GET /timereports/week/wo/all/{year}/{week}: everyone's work-order time in the week (timereports:read). */
export async function timeWeekWorkOrdersAll(ctx: Ctx, raw: { year: unknown; week: unknown }) {
  requireAccess(ctx.auth, { permission: 'timereports:read' });
  const { dates } = weekDates(raw.year, raw.week);
  return { workOrderTime: await workOrderTimeOf(ctx, null, dates[0]!, dates[6]!) };
}

/** GET /timereports/week/absence|attend/{year}/{week}?userId: a person's reports of one tag type in the week. */
export async function timeWeekByType(ctx: Ctx, type: TagType, raw: { year: unknown; week: unknown; userId?: unknown }) {
  const user = await requireTimeReader(ctx, raw.userId);
  const { dates } = weekDates(raw.year, raw.week);
  const rows: Row[] = await ctx
    .trx('time_reports as r')
    .join('time_report_tags as t', 't.id', 'r.tag_id')
    .where({ 'r.user_id': user.id, 't.type': type })
    .whereBetween('r.date', [dates[0]!, dates[6]!])
    .orderBy([{ column: 'r.date' }, { column: 'r.start_time' }])
    .select(reportColumns(ctx));
  const lock = await timeLockState(ctx);
  return { timeReports: rows.map(toTimeReport).map((r) => ({ ...r, locked: isDateLocked(lock, r.date) })) };
}

export interface MonthPerson {
  userId: string;
  name: string;
  /** Per day (YYYY-MM-DD) what counts against the schedule, and the absence in it. */
  days: Record<string, { total: number; absence: number }>;
  totals: DayTotals & { scheduled: number };
  /** The month's parent report, when the office has one. */
  parent: { id: string; status: 'open' | 'approved' } | null;
}

export interface TimeMonth {
  year: number;
  month: number;
  dates: { date: string; weekday: number; holiday: string | null; scheduledMinutes: number }[];
  locked: boolean;
  people: MonthPerson[];
}

function monthDates(rawYear: unknown, rawMonth: unknown): { year: number; month: number; dates: string[] } {
  const year = Number(rawYear);
  const month = Number(rawMonth);
  const fields: Record<string, string[]> = {};
  if (!Number.isInteger(year) || year < 2000 || year > 2100) fields.year = ['ERROR_INVALID_VALUE'];
  if (!Number.isInteger(month) || month < 1 || month > 12) fields.month = ['ERROR_INVALID_VALUE'];
  if (Object.keys(fields).length) throw new AppError('VALIDATION_FAILED', 400, { fields });
  const last = daysInMonth(year, month);
  const mm = String(month).padStart(2, '0');
  return {
    year,
    month,
    dates: Array.from({ length: last }, (_, i) => `${year}-${mm}-${String(i + 1).padStart(2, '0')}`),
  };
}

/**
 * GET /timereports/month/{year}/{month}?userId: the month per person — every day's time against
 * the schedule, the absence, totals and the month's parent report (approval). Without userId it
 * is everyone (timereports:read); with it, that person (their own with :read_own). One grouped
 * query over own time and work-order time, whatever the number of people.
 */
export async function timeMonth(
  ctx: Ctx,
  raw: { year: unknown; month: unknown; userId?: unknown },
): Promise<TimeMonth> {
  const single = raw.userId !== undefined && raw.userId !== null && raw.userId !== '';
  const only = single ? await requireTimeReader(ctx, raw.userId) : null;
  if (!single) requireAccess(ctx.auth, { permission: 'timereports:read' });
  const { year, month, dates } = monthDates(raw.year, raw.month);
  const from = dates[0]!;
  const to = dates[dates.length - 1]!;
  const lock = await timeLockState(ctx);
  const { scheduledMinutes } = await timeReportSettings(ctx);
  const holidays = await holidaysBetween(ctx, from, to);
  const dayInfo = dates.map((date) => {
    const weekday = isoDayOfWeek(parsePlainDate(date)!);
    const holiday = holidays.get(date) ?? null;
    return { date, weekday, holiday, scheduledMinutes: holiday ? 0 : (scheduledMinutes[weekday - 1] ?? 0) };
  });
  const scheduled = dayInfo.reduce((s, d) => s + d.scheduledMinutes, 0);

  const sums: { user_id: string; d: string; kind: string; minutes: string | number }[] = await ctx.trx
    .select(
      'x.user_id',
      ctx.trx.raw(`to_char(x.date, 'YYYY-MM-DD') as d`),
      'x.kind',
      ctx.trx.raw('sum(x.minutes)::int as minutes'),
    )
    .from(
      ctx.trx
        .select('r.user_id', 'r.date', 't.type as kind', 'r.minutes')
        .from('time_reports as r')
        .join('time_report_tags as t', 't.id', 'r.tag_id')
        .whereBetween('r.date', [from, to])
        .modify((q) => void (only ? q.where('r.user_id', only.id) : q))
        .unionAll((u) =>
          u
            .select(
              'w.user_id',
              'w.date',
              ctx.trx.raw(`'wo' as kind`),
              ctx.trx.raw('w.work_minutes + w.travel_minutes'),
            )
            .from('work_order_time as w')
            .join('work_orders as o', 'o.id', 'w.work_order_id')
            .whereNull('o.deleted_at')
            .whereBetween('w.date', [from, to])
            .modify((q) => void (only ? q.where('w.user_id', only.id) : q)),
        )
        .as('x'),
    )
    .groupBy('x.user_id', 'x.date', 'x.kind');
  const parents: { id: string; user_id: string; status: 'open' | 'approved' }[] = await ctx
    .trx('time_report_parents')
    .where({ period_start: from, period_end: to })
    .modify((q) => void (only ? q.where('user_id', only.id) : q))
    .select('id', 'user_id', 'status');
  const people: { id: string; name: string }[] = only
    ? [only]
    : await ctx
        .trx('users')
        .where('status', 'active')
        .orWhereIn('id', [...new Set(sums.map((s) => s.user_id))])
        .orderBy([{ column: 'name' }, { column: 'id' }])
        .select('id', 'name');

  const byUser = new Map<string, MonthPerson>(
    people.map((p) => [
      p.id,
      { userId: p.id, name: p.name, days: {}, totals: { ...ZERO_TOTALS, scheduled }, parent: null },
    ]),
  );
  // Per day first: work-order time is part of the worked time (workedMinutes), not on top of it.
  const perDay = new Map<
    string,
    { userId: string; d: string; wo: number; work: number; absence: number; attend: number }
  >();
  for (const s of sums) {
    const key = `${s.user_id}|${s.d}`;
    const e = perDay.get(key) ?? { userId: s.user_id, d: s.d, wo: 0, work: 0, absence: 0, attend: 0 };
    const minutes = Number(s.minutes);
    if (s.kind === 'wo') e.wo += minutes;
    else if (s.kind === 'work') e.work += minutes;
    else if (s.kind === 'absence') e.absence += minutes;
    else e.attend += minutes;
    perDay.set(key, e);
  }
  for (const e of perDay.values()) {
    const person = byUser.get(e.userId);
    if (!person) continue;
    const totals = dayTotals(
      [
        { tagType: 'work', minutes: e.work },
        { tagType: 'absence', minutes: e.absence },
        { tagType: 'attend', minutes: e.attend },
      ],
      e.wo,
    );
    person.days[e.d] = { total: totals.total, absence: totals.absence };
    person.totals = { ...addTotals(person.totals, totals), scheduled };
  }
  for (const p of parents) {
    const person = byUser.get(p.user_id);
    if (person) person.parent = { id: p.id, status: p.status };
  }
  return { year, month, dates: dayInfo, locked: isDateLocked(lock, from), people: [...byUser.values()] };
}
