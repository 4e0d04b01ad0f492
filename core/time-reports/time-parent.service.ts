import { z } from 'zod';
import type { Ctx } from '~/core/context';
import { AppError, notFound } from '~/core/errors/app-error';
import { isUuid, parseInput } from '~/core/errors/validation';
import { recordHistory } from '~/core/history/history';
import { requireAccess } from '~/core/permissions/access';
import { addDays, daysInMonth, formatPlainDate, isoDayOfWeek, parsePlainDate } from '~/core/calendar/dates';
import { isDateLocked } from './period-lock';
import { timeLockState } from './period-lock.service';
import { requireTimeReader, weekDates } from './time-report.service';
import { zDate as zPlainDate } from './period-input';

/** History entity of a parent report (the office's approval of a person's period). */
export const TIME_PARENT_ENTITY = 'time_report_parent';

/** Spec section 3 "parent report": a person's period as the office approves it. */
export interface TimeReportParent {
  id: string;
  userId: string;
  userName: string;
  periodStart: string;
  periodEnd: string;
  status: 'open' | 'approved';
  comment: string | null;
  approvedBy: string | null;
  approvedAt: string | null;
}

type Row = Record<string, unknown>;

const columns = (ctx: Ctx) => [
  'p.id',
  'p.user_id',
  'u.name as user_name',
  ctx.trx.raw(`to_char(p.period_start, 'YYYY-MM-DD') as period_start`),
  ctx.trx.raw(`to_char(p.period_end, 'YYYY-MM-DD') as period_end`),
  'p.status',
  'p.comment',
  'a.name as approved_by',
  'p.approved_at',
];

const toParent = (r: Row): TimeReportParent => ({
  id: r.id as string,
  userId: r.user_id as string,
  userName: r.user_name as string,
  periodStart: r.period_start as string,
  periodEnd: r.period_end as string,
  status: r.status as 'open' | 'approved',
  comment: (r.comment as string | null) ?? null,
  approvedBy: (r.approved_by as string | null) ?? null,
  approvedAt: r.approved_at ? new Date(r.approved_at as string).toISOString() : null,
});

async function readParent(ctx: Ctx, id: unknown): Promise<TimeReportParent> {
  if (!isUuid(id)) throw notFound();
  const row: Row | undefined = await ctx
    .trx('time_report_parents as p')
    .join('users as u', 'u.id', 'p.user_id')
    .leftJoin('users as a', 'a.id', 'p.approved_by')
    .where('p.id', id)
    .first(columns(ctx));
  if (!row) throw notFound();
  return toParent(row);
}

/** GET /timereports/parent/{id}: a parent report (its person reads their own with :read_own, others need :read). */
export async function getTimeParent(ctx: Ctx, id: unknown): Promise<{ parent: TimeReportParent }> {
  requireAccess(ctx.auth, { permission: 'signed-in' });
  const parent = await readParent(ctx, id);
  await requireTimeReader(ctx, parent.userId);
  return { parent };
}

const zDate = zPlainDate();
const zStatus = z.enum(['open', 'approved'], { error: 'ERROR_INVALID_VALUE' });
const zComment = z.preprocess(
  (v) => (v === '' || v === null ? undefined : v),
  z.string().trim().max(2000, 'ERROR_MAX_LENGTH').optional(),
);
export const ZCreateTimeParent = z.object({
  userId: z.string({ error: 'ERROR_REQUIRED_FIELD' }),
  periodStart: zDate,
  periodEnd: zDate,
  status: zStatus.optional(),
  comment: zComment,
});
export const ZUpdateTimeParent = z.object({
  id: z.string({ error: 'ERROR_REQUIRED_FIELD' }),
  status: zStatus.optional(),
  comment: zComment,
});

const approvalColumns = (ctx: Ctx, status: 'open' | 'approved') =>
  status === 'approved'
    ? { status, approved_by: ctx.auth!.user.id, approved_at: ctx.now }
    : { status, approved_by: null, approved_at: null };

/**
 * POST /timereports/parent {userId, periodStart, periodEnd, status?, comment?} (timereports:read):
 * the office's parent report of a person's period; `approved` stops the person's time in it from
 * changing (409 TIME_REPORT_APPROVED) until it is set back to `open`. One per person and period
 * (409 DUPLICATE_TIME_REPORT_PARENT). History: create, approve.
 */
export async function createTimeParent(ctx: Ctx, raw: unknown): Promise<{ parent: TimeReportParent }> {
  requireAccess(ctx.auth, { permission: 'timereports:read' });
  const input = parseInput(ZCreateTimeParent, raw);
  if (input.periodEnd < input.periodStart)
    throw new AppError('VALIDATION_FAILED', 400, { fields: { periodEnd: ['ERROR_END_BEFORE_START'] } });
  const user = isUuid(input.userId) ? await ctx.trx('users').where({ id: input.userId }).first('id') : undefined;
  if (!user) throw new AppError('VALIDATION_FAILED', 400, { fields: { userId: ['ERROR_INVALID_VALUE'] } });
  const status = input.status ?? 'open';
  const inserted = await ctx
    .trx('time_report_parents')
    .insert({
      user_id: input.userId,
      period_start: input.periodStart,
      period_end: input.periodEnd,
      comment: input.comment ?? null,
      created_at: ctx.now,
      ...approvalColumns(ctx, status),
    })
    .onConflict(['user_id', 'period_start', 'period_end'])
    .ignore()
    .returning('id');
  if (!inserted.length) throw new AppError('DUPLICATE_TIME_REPORT_PARENT', 409);
  const id = inserted[0].id as string;
  await recordHistory(ctx, { entity: TIME_PARENT_ENTITY, entityId: id, action: 'create', data: { status } });
  if (status === 'approved') await recordHistory(ctx, { entity: TIME_PARENT_ENTITY, entityId: id, action: 'approve' });
  return { parent: await readParent(ctx, id) };
}

/** PUT /timereports/parent {id, status?, comment?} (timereports:read): approve, reopen or comment. History: approve / reopen. */
export async function updateTimeParent(ctx: Ctx, raw: unknown): Promise<{ parent: TimeReportParent }> {
  requireAccess(ctx.auth, { permission: 'timereports:read' });
  const input = parseInput(ZUpdateTimeParent, raw);
  const existing = await readParent(ctx, input.id);
  const status = input.status ?? existing.status;
  await ctx
    .trx('time_report_parents')
    .where({ id: existing.id })
    .update({
      ...(input.comment !== undefined || raw === null ? { comment: input.comment ?? null } : {}),
      ...(status !== existing.status ? approvalColumns(ctx, status) : {}),
    });
  if (status !== existing.status)
    await recordHistory(ctx, {
      entity: TIME_PARENT_ENTITY,
      entityId: existing.id,
      action: status === 'approved' ? 'approve' : 'reopen',
    });
  return { parent: await readParent(ctx, existing.id) };
}

/** DELETE /timereports/parent/{id} (timereports:read): removes it, and with it the approval. */
export async function deleteTimeParent(ctx: Ctx, id: unknown): Promise<void> {
  requireAccess(ctx.auth, { permission: 'timereports:read' });
  const existing = await readParent(ctx, id);
  await ctx.trx('time_report_parents').where({ id: existing.id }).delete();
  await recordHistory(ctx, { entity: TIME_PARENT_ENTITY, entityId: existing.id, action: 'delete', data: existing });
}

/**
 * The office's approve/reopen of a person's month (the month view's button): the month's parent
 * report, created when missing, set to the status.
 */
export async function setMonthApproval(
  ctx: Ctx,
  raw: { userId: unknown; year: unknown; month: unknown; approved: boolean },
): Promise<{ parent: TimeReportParent }> {
  requireAccess(ctx.auth, { permission: 'timereports:read' });
  const year = Number(raw.year);
  const month = Number(raw.month);
  if (!Number.isInteger(year) || !Number.isInteger(month) || month < 1 || month > 12 || year < 2000 || year > 2100)
    throw new AppError('VALIDATION_FAILED', 400, { fields: { month: ['ERROR_INVALID_VALUE'] } });
  const periodStart = `${year}-${String(month).padStart(2, '0')}-01`;
  const periodEnd = formatPlainDate({ year, month, day: daysInMonth(year, month) });
  const status = raw.approved ? 'approved' : 'open';
  const existing = isUuid(raw.userId)
    ? await ctx
        .trx('time_report_parents')
        .where({ user_id: raw.userId, period_start: periodStart, period_end: periodEnd })
        .first('id')
    : undefined;
  if (existing) return updateTimeParent(ctx, { id: existing.id, status });
  return createTimeParent(ctx, { userId: raw.userId, periodStart, periodEnd, status });
}

/**
 * POST /timereports/week/copy {year, week, userId?}: copies the person's own work and attendance
 * reports of the week before onto the same weekdays of this week. Days that already have own
 * reports, company holidays, locked days and approved days are left as they are. Answers how many
 * reports were copied.
 */
export async function copyPreviousWeek(ctx: Ctx, raw: Record<string, unknown>): Promise<{ copied: number }> {
  const user = await requireTimeReader(ctx, raw.userId);
  if (user.id !== ctx.auth!.user.id) requireAccess(ctx.auth, { permission: 'timereports:edit' });
  const { dates } = weekDates(raw.year, raw.week);
  const previous = dates.map((d) => formatPlainDate(addDays(parsePlainDate(d)!, -7)));
  const source: Row[] = await ctx
    .trx('time_reports as r')
    .join('time_report_tags as t', 't.id', 'r.tag_id')
    .where('r.user_id', user.id)
    .whereIn('t.type', ['work', 'attend'])
    .where('t.active', true)
    .whereBetween('r.date', [previous[0]!, previous[6]!])
    .select(
      'r.tag_id',
      ctx.trx.raw(`to_char(r.date, 'YYYY-MM-DD') as d`),
      'r.start_time',
      'r.end_time',
      'r.minutes',
      'r.distance_km',
      'r.comment',
    );
  const busy: { d: string }[] = await ctx
    .trx('time_reports')
    .where('user_id', user.id)
    .whereBetween('date', [dates[0]!, dates[6]!])
    .distinct(ctx.trx.raw(`to_char(date, 'YYYY-MM-DD') as d`));
  const holidays: { d: string }[] = await ctx
    .trx('company_holidays')
    .whereBetween('date', [dates[0]!, dates[6]!])
    .select(ctx.trx.raw(`to_char(date, 'YYYY-MM-DD') as d`));
  const approved: { s: string; e: string }[] = await ctx
    .trx('time_report_parents')
    .where({ user_id: user.id, status: 'approved' })
    .andWhere('period_start', '<=', dates[6]!)
    .andWhere('period_end', '>=', dates[0]!)
    .select(
      ctx.trx.raw(`to_char(period_start, 'YYYY-MM-DD') as s`),
      ctx.trx.raw(`to_char(period_end, 'YYYY-MM-DD') as e`),
    );
  const lock = await timeLockState(ctx);
  const closed = new Set([...busy.map((b) => b.d), ...holidays.map((h) => h.d)]);
  const rows = source
    .map((r) => ({ r, date: dates[isoDayOfWeek(parsePlainDate(r.d as string)!) - 1]! }))
    .filter(
      ({ date }) => !closed.has(date) && !isDateLocked(lock, date) && !approved.some((a) => a.s <= date && a.e >= date),
    )
    .map(({ r, date }) => ({
      user_id: user.id,
      tag_id: r.tag_id,
      date,
      start_time: r.start_time,
      end_time: r.end_time,
      minutes: r.minutes,
      distance_km: r.distance_km,
      comment: r.comment,
      created_at: ctx.now,
      updated_at: ctx.now,
    }));
  if (rows.length) {
    await ctx.trx('time_reports').insert(rows);
    await recordHistory(ctx, {
      entity: 'time_week',
      entityId: `${user.id}:${dates[0]}`,
      action: 'copy',
      data: { from: previous[0], copied: rows.length },
    });
  }
  return { copied: rows.length };
}
