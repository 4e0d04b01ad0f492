import { z } from 'zod';
import { listLockMonths, setMonthLocked, ZLockMonth } from '~/core/time-reports/period-lock.service';
import {
  copyPreviousWeek,
  createTimeParent,
  deleteTimeParent,
  getTimeParent,
  setMonthApproval,
  updateTimeParent,
  ZCreateTimeParent,
  ZUpdateTimeParent,
} from '~/core/time-reports/time-parent.service';
import { ZIsoWeek, ZLockYear, ZPersonPeriod, ZYearMonth } from '~/core/time-reports/period-input';
import {
  deleteTimeReport,
  listTimeReports,
  saveTimeReport,
  ZTimeReport,
} from '~/core/time-reports/time-report.service';
import {
  timeMonth,
  timeWeek,
  timeWeekByType,
  timeWeekWorkOrders,
  timeWeekWorkOrdersAll,
  listPersonWorkOrderTime,
} from '~/core/time-reports/time-week.service';
import { asSent, defineCall, type ApiCall } from '../define-call';

/*
 * A person's own time (api-calls.md "Time, distance and compensation reports"): the week and its
 * variants, the month, own reports by tag, the office's parent reports (approval) and month locks.
 * Reading your own needs timereports:read_own (or :read), anyone's :read; writing anyone's :edit —
 * the services check whose time it is, so the calls declare signed-in.
 */

/** Path parameters are text; the service answers 404 for one that names nothing. */
const byId = z.object({ id: z.string() });
/** `?userId`: whose time (the asker's when left out); the service checks who may read it. */
const forPerson = { userId: z.string().nullish() };
/** The month view's approve/reopen: a month that is in range, named by `month` when not (as the service). */
const ZMonthApproval = z
  .object({
    userId: z.string({ error: 'ERROR_REQUIRED_FIELD' }),
    year: z.union([z.number(), z.string()]),
    month: z.union([z.number(), z.string()]),
    approved: z.boolean({ error: 'ERROR_INVALID_VALUE' }).optional(),
  })
  .refine((v) => ZYearMonth.safeParse(v).success, { path: ['month'], message: 'ERROR_INVALID_VALUE' });
type Input = Record<string, unknown>;
const SIGNED_IN = { permission: 'signed-in' } as const;
const REPORT_FIELDS =
  'tagId, userId, date, comment, startTime, endTime, reportedHours, reportedMinutes, reportedDistanceKm';

export const timeReportCalls: ApiCall[] = [
  defineCall({
    method: 'GET',
    path: '/timereports/week/:year/:week',
    access: SIGNED_IN,
    input: asSent(ZIsoWeek.safeExtend(forPerson)),
    summary:
      "A person's ISO week ?userId (yourself by default): {year, week, weeksInYear, user, mode, days: [{date, weekday, holiday, scheduledMinutes, locked, approved, reports, workOrderTime, totals}], totals, users, canEdit}",
    handler: (ctx, input: Input) => timeWeek(ctx, input as { year: unknown; week: unknown; userId?: unknown }),
  }),
  defineCall({
    method: 'GET',
    path: '/timereports/week/wo/all/:year/:week',
    access: { permission: 'timereports:read' },
    input: asSent(ZIsoWeek),
    summary: "Everyone's work-order time in an ISO week: {workOrderTime: [...]}",
    handler: (ctx, input: Input) => timeWeekWorkOrdersAll(ctx, input as { year: unknown; week: unknown }),
  }),
  defineCall({
    method: 'GET',
    path: '/timereports/week/wo/:year/:week',
    access: SIGNED_IN,
    input: asSent(ZIsoWeek.safeExtend(forPerson)),
    summary:
      "A person's work-order time in an ISO week ?userId: {workOrderTime: [{workOrderId, workOrderNumber, date, workMinutes, travelMinutes, distanceKm}]}",
    handler: (ctx, input: Input) => timeWeekWorkOrders(ctx, input as { year: unknown; week: unknown }),
  }),
  defineCall({
    method: 'GET',
    path: '/timereports/week/absence/:year/:week',
    access: SIGNED_IN,
    input: asSent(ZIsoWeek.safeExtend(forPerson)),
    summary: "A person's absence in an ISO week ?userId: {timeReports}",
    handler: (ctx, input: Input) => timeWeekByType(ctx, 'absence', input as { year: unknown; week: unknown }),
  }),
  defineCall({
    method: 'GET',
    path: '/timereports/week/attend/:year/:week',
    access: SIGNED_IN,
    input: asSent(ZIsoWeek.safeExtend(forPerson)),
    summary: "A person's attendance in an ISO week ?userId: {timeReports}",
    handler: (ctx, input: Input) => timeWeekByType(ctx, 'attend', input as { year: unknown; week: unknown }),
  }),
  defineCall({
    method: 'POST',
    path: '/timereports/week/copy',
    access: SIGNED_IN,
    input: asSent(ZIsoWeek.safeExtend(forPerson)),
    summary:
      "Copies last week's own work and attendance reports onto this week {year, week, userId?}; days with reports, holidays, locked and approved days are skipped → {copied}",
    handler: (ctx, input) => copyPreviousWeek(ctx, input),
  }),
  defineCall({
    method: 'GET',
    path: '/timereports/month/:year/:month',
    access: SIGNED_IN,
    input: asSent(ZYearMonth.extend(forPerson)),
    summary:
      'A month per person ?userId (everyone with timereports:read): {year, month, dates, locked, people: [{userId, name, days: {date: {total, absence}}, totals, parent}]}',
    handler: (ctx, input: Input) => timeMonth(ctx, input as { year: unknown; month: unknown; userId?: unknown }),
  }),
  defineCall({
    method: 'POST',
    path: '/timereports/month/approval',
    access: { permission: 'timereports:read' },
    input: asSent(ZMonthApproval),
    summary: "Approves (or reopens) a person's month {userId, year, month, approved} → {parent}",
    handler: (ctx, input: Input) =>
      setMonthApproval(ctx, {
        userId: input.userId,
        year: input.year,
        month: input.month,
        approved: input.approved === true,
      }),
  }),
  defineCall({
    method: 'GET',
    path: '/timereports',
    access: SIGNED_IN,
    input: asSent(ZPersonPeriod),
    summary: "A person's own time reports ?userId&startTime&endTime (at most 60 days): {timeReports}",
    handler: (ctx, input: Input) => listTimeReports(ctx, input),
  }),
  defineCall({
    method: 'GET',
    path: '/timereports/wo',
    access: SIGNED_IN,
    input: asSent(ZPersonPeriod),
    summary: "A person's work-order time ?userId&startTime&endTime (at most 60 days): {workOrderTime}",
    handler: (ctx, input: Input) => listPersonWorkOrderTime(ctx, input),
  }),
  defineCall({
    method: 'POST',
    path: '/timereports',
    access: SIGNED_IN,
    input: asSent(ZTimeReport),
    summary: `Reports own time {${REPORT_FIELDS}} → {timeReport}; 409 TIME_REPORT_LOCKED / TIME_REPORT_APPROVED`,
    handler: (ctx, input) => saveTimeReport(ctx, { ...(input as Input), id: undefined }),
  }),
  defineCall({
    method: 'PUT',
    path: '/timereports',
    access: SIGNED_IN,
    input: asSent(ZTimeReport),
    summary: `Changes a time report {id, ${REPORT_FIELDS}} → {timeReport}`,
    handler: (ctx, input: Input) => saveTimeReport(ctx, input, { update: true }),
  }),
  defineCall({
    method: 'DELETE',
    path: '/timereports/:id',
    access: SIGNED_IN,
    input: byId,
    summary: 'Deletes a time report; 409 in a locked or approved period',
    handler: async (ctx, input: Input) => {
      await deleteTimeReport(ctx, input.id);
      return { ok: true };
    },
  }),
  defineCall({
    method: 'GET',
    path: '/timereports/parent/:id',
    access: SIGNED_IN,
    input: byId,
    summary: 'A parent report (a person’s period as the office approves it): {parent}',
    handler: (ctx, input: Input) => getTimeParent(ctx, input.id),
  }),
  defineCall({
    method: 'POST',
    path: '/timereports/parent',
    access: { permission: 'timereports:read' },
    input: asSent(ZCreateTimeParent),
    summary:
      'Creates a parent report {userId, periodStart, periodEnd, status?: open|approved, comment?} → {parent}; 409 DUPLICATE_TIME_REPORT_PARENT',
    handler: (ctx, input) => createTimeParent(ctx, input),
  }),
  defineCall({
    method: 'PUT',
    path: '/timereports/parent',
    access: { permission: 'timereports:read' },
    input: asSent(ZUpdateTimeParent),
    summary: 'Approves, reopens or comments a parent report {id, status?, comment?} → {parent}',
    handler: (ctx, input) => updateTimeParent(ctx, input),
  }),
  defineCall({
    method: 'DELETE',
    path: '/timereports/parent/:id',
    access: { permission: 'timereports:read' },
    input: byId,
    summary: 'Deletes a parent report (and its approval)',
    handler: async (ctx, input: Input) => {
      await deleteTimeParent(ctx, input.id);
      return { ok: true };
    },
  }),
  defineCall({
    method: 'GET',
    path: '/timereports/lock',
    access: { permission: 'timereports:read' },
    input: asSent(ZLockYear),
    summary:
      "A year's months and their lock ?year: {year, lockDay, months: [{month, locked, byHand, lockDate, changedBy, changedAt}], history: [{month, action: lock|unlock, userName, at}]}",
    handler: (ctx, input: Input) => listLockMonths(ctx, input.year),
  }),
  defineCall({
    method: 'POST',
    path: '/timereports/lock',
    access: { permission: 'timereports:edit' },
    input: ZLockMonth,
    summary: 'Locks a month now {month: YYYY-MM, early?: true to lock a month that has not ended} → the month',
    handler: (ctx, input) => setMonthLocked(ctx, input, true),
  }),
  defineCall({
    method: 'POST',
    path: '/timereports/unlock',
    access: { permission: 'timereports:edit' },
    input: asSent(ZLockMonth),
    summary: 'Opens a locked month again {month: YYYY-MM} → the month',
    handler: (ctx, input) => setMonthLocked(ctx, input, false),
  }),
];
