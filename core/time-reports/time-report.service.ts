import { z } from 'zod';
import type { Ctx } from '~/core/context';
import { AppError, notFound, permissionDenied } from '~/core/errors/app-error';
import { isUuid, parseInput } from '~/core/errors/validation';
import { recordHistory } from '~/core/history/history';
import { hasAccess, requireAccess } from '~/core/permissions/access';
import { isoDayOfWeek, parsePlainDate } from '~/core/calendar/dates';
import { isDateLocked } from './period-lock';
import { timeLockState } from './period-lock.service';
import { rangeSetError } from './range-set';
import { assertDayWithin24Hours, assertTimeChangeable } from './time-guard.service';
import { reportTime, type TagType } from './time-report.rules';
import { parsePeriod, weekDates, zDate } from './period-input';

export { parsePeriod, weekDates };
import { timeReportSettings } from './time-settings.service';

/** History entity of a person's own time report. */
export const TIME_REPORT_ENTITY = 'time_report';

/** A person's own time report (spec section 3: id, tagId, userId, date, comment, startTime, endTime, reportedHours, reportedMinutes, reportedDistanceKm). */
export interface TimeReport {
  id: string;
  tagId: string;
  tagCode: string;
  tagName: string | null;
  tagType: TagType;
  userId: string;
  date: string;
  comment: string | null;
  startTime: string | null;
  endTime: string | null;
  minutes: number;
  reportedHours: number;
  reportedMinutes: number;
  reportedDistanceKm: number;
  locked: boolean;
}

type Row = Record<string, unknown>;

const hhmm = (v: unknown) => (v === null || v === undefined ? null : String(v).slice(0, 5));

export function toTimeReport(r: Row): TimeReport {
  const minutes = Number(r.minutes);
  return {
    id: r.id as string,
    tagId: r.tag_id as string,
    tagCode: r.tag_code as string,
    tagName: (r.tag_name as string | null) ?? null,
    tagType: r.tag_type as TagType,
    userId: r.user_id as string,
    date: r.date_text as string,
    comment: (r.comment as string | null) ?? null,
    startTime: hhmm(r.start_time),
    endTime: hhmm(r.end_time),
    minutes,
    reportedHours: Math.floor(minutes / 60),
    reportedMinutes: minutes % 60,
    reportedDistanceKm: Number(r.distance_km),
    locked: false,
  };
}

export const reportColumns = (ctx: Ctx) => [
  'r.id',
  'r.tag_id',
  't.code as tag_code',
  't.name as tag_name',
  't.type as tag_type',
  'r.user_id',
  ctx.trx.raw(`to_char(r.date, 'YYYY-MM-DD') as date_text`),
  'r.comment',
  ctx.trx.raw(`to_char(r.start_time, 'HH24:MI') as start_time`),
  ctx.trx.raw(`to_char(r.end_time, 'HH24:MI') as end_time`),
  'r.minutes',
  ctx.trx.raw('r.distance_km::text as distance_km'),
];

const own = (ctx: Ctx, userId: string) => ctx.auth!.user.id === userId;

/**
 * Reading a person's time: your own with timereports:read_own (or :read), anyone's with
 * timereports:read. An unknown user (or another tenant's) is 404.
 */
export async function requireTimeReader(ctx: Ctx, rawUserId: unknown): Promise<{ id: string; name: string }> {
  requireAccess(ctx.auth, { permission: 'signed-in' });
  const userId = rawUserId === undefined || rawUserId === null || rawUserId === '' ? ctx.auth.user.id : rawUserId;
  const mayOwn =
    hasAccess(ctx.auth, { permission: 'timereports:read_own' }) ||
    hasAccess(ctx.auth, { permission: 'timereports:read' });
  if (own(ctx, userId as string) ? !mayOwn : !hasAccess(ctx.auth, { permission: 'timereports:read' }))
    throw permissionDenied();
  return findUser(ctx, userId);
}

/** Writing a person's time: your own as a reader of it, anyone's with timereports:edit. */
async function requireTimeWriter(ctx: Ctx, rawUserId: unknown): Promise<{ id: string; name: string }> {
  const user = await requireTimeReader(ctx, rawUserId);
  if (!own(ctx, user.id) && !hasAccess(ctx.auth, { permission: 'timereports:edit' })) throw permissionDenied();
  return user;
}

async function findUser(ctx: Ctx, id: unknown): Promise<{ id: string; name: string }> {
  if (!isUuid(id)) throw notFound();
  const user = await ctx.trx('users').where({ id }).first('id', 'name');
  if (!user) throw notFound();
  return user as { id: string; name: string };
}

async function reportsOf(ctx: Ctx, userIds: string[] | null, from: string, to: string): Promise<TimeReport[]> {
  const q = ctx
    .trx('time_reports as r')
    .join('time_report_tags as t', 't.id', 'r.tag_id')
    .whereBetween('r.date', [from, to])
    .orderBy([{ column: 'r.date' }, { column: 'r.start_time' }, { column: 'r.created_at' }, { column: 'r.id' }])
    .select(reportColumns(ctx));
  if (userIds) void q.whereIn('r.user_id', userIds);
  const rows: Row[] = await q;
  const lock = await timeLockState(ctx);
  return rows.map((r) => {
    const report = toTimeReport(r);
    return { ...report, locked: isDateLocked(lock, report.date) };
  });
}

/** GET /timereports?userId&startTime&endTime: a person's own time reports over at most 60 days. */
export async function listTimeReports(ctx: Ctx, raw: Record<string, unknown>): Promise<{ timeReports: TimeReport[] }> {
  const user = await requireTimeReader(ctx, raw.userId);
  const { from, to } = parsePeriod(raw);
  return { timeReports: await reportsOf(ctx, [user.id], from, to) };
}

const emptyToUndefined = (v: unknown) => (v === '' || v === null ? undefined : v);
const zCount = (max: number, message = 'ERROR_INVALID_VALUE') =>
  z.preprocess(
    (v) => (typeof v === 'string' && v.trim() !== '' ? Number(v) : emptyToUndefined(v)),
    z
      .number({ error: 'ERROR_INVALID_VALUE' })
      .int('ERROR_INVALID_VALUE')
      .min(0, 'ERROR_INVALID_VALUE')
      .max(max, message)
      .optional(),
  );

export const ZTimeReport = z.object({
  id: z.preprocess(emptyToUndefined, z.string().optional()),
  tagId: z.string({ error: 'ERROR_REQUIRED_FIELD' }).min(1, 'ERROR_REQUIRED_FIELD'),
  userId: z.preprocess(emptyToUndefined, z.string().optional()),
  date: zDate(),
  comment: z.preprocess(emptyToUndefined, z.string().trim().max(2000, 'ERROR_MAX_LENGTH').optional()),
  startTime: z.preprocess(emptyToUndefined, z.string().max(10, 'ERROR_INVALID_TIME').optional()),
  endTime: z.preprocess(emptyToUndefined, z.string().max(10, 'ERROR_INVALID_TIME').optional()),
  reportedHours: zCount(24),
  reportedMinutes: zCount(59, 'ERROR_MINUTES_RANGE'),
  reportedDistanceKm: z.preprocess(
    (v) => (typeof v === 'string' && v.trim() !== '' ? Number(v.replace(',', '.')) : emptyToUndefined(v)),
    z
      .number({ error: 'ERROR_INVALID_VALUE' })
      .min(0, 'ERROR_NEGATIVE_AMOUNT')
      .max(99_999, 'ERROR_INVALID_VALUE')
      .optional(),
  ),
});

async function readReport(ctx: Ctx, id: unknown): Promise<TimeReport> {
  if (!isUuid(id)) throw notFound();
  const row: Row | undefined = await ctx
    .trx('time_reports as r')
    .join('time_report_tags as t', 't.id', 'r.tag_id')
    .where('r.id', id)
    .first(reportColumns(ctx));
  if (!row) throw notFound();
  return toTimeReport(row);
}

const historyOf = (r: TimeReport | null) =>
  r && {
    tag: r.tagCode,
    date: r.date,
    startTime: r.startTime,
    endTime: r.endTime,
    minutes: r.minutes,
    comment: r.comment,
  };

/**
 * POST /timereports (without id) and PUT /timereports (with id): a person's own time by tag.
 * Time is a span (startTime–endTime, past midnight allowed, an unreadable start is 09:00) or
 * reportedHours and reportedMinutes; an absence without either is the day's scheduled time and an
 * attendance its tag's default time. A day's spans must form a valid range set (spec section 5).
 * Locked months and approved periods refuse it (409). History: create/edit on the report.
 */
export async function saveTimeReport(
  ctx: Ctx,
  raw: unknown,
  opts: { update?: boolean } = {},
): Promise<{ timeReport: TimeReport }> {
  requireAccess(ctx.auth, { permission: 'signed-in' });
  const input = parseInput(ZTimeReport, raw);
  if (opts.update && input.id === undefined)
    throw new AppError('VALIDATION_FAILED', 400, { fields: { id: ['ERROR_REQUIRED_FIELD'] } });
  const existing = input.id !== undefined ? await readReport(ctx, input.id) : null;
  const user = await requireTimeWriter(ctx, input.userId ?? existing?.userId);
  if (existing && existing.userId !== user.id) {
    // moving a report to another person: both must be writable
    await requireTimeWriter(ctx, existing.userId);
  }
  const tag = isUuid(input.tagId)
    ? await ctx.trx('time_report_tags').where({ id: input.tagId }).first('id', 'type', 'active', 'code')
    : undefined;
  if (!tag || (!tag.active && tag.id !== existing?.tagId))
    throw new AppError('VALIDATION_FAILED', 400, { fields: { tagId: ['ERROR_INVALID_VALUE'] } });
  await assertTimeChangeable(ctx, user.id, input.date);
  if (existing) await assertTimeChangeable(ctx, existing.userId, existing.date);

  const { scheduledMinutes } = await timeReportSettings(ctx);
  const defaults =
    tag.type === 'attend'
      ? await ctx
          .trx('time_report_tags')
          .where({ id: tag.id })
          .first(ctx.trx.raw(`to_char(default_start, 'HH24:MI') as s, to_char(default_end, 'HH24:MI') as e`))
      : null;
  const time = reportTime({
    tagType: tag.type as TagType,
    startTime: input.startTime,
    endTime: input.endTime,
    hours: input.reportedHours,
    minutes: input.reportedMinutes,
    scheduledMinutes: scheduledMinutes[isoDayOfWeek(parsePlainDate(input.date)!) - 1] ?? 0,
    defaultStart: defaults?.s ?? null,
    defaultEnd: defaults?.e ?? null,
  });
  if (!time.ok) throw new AppError('VALIDATION_FAILED', 400, { fields: time.fields });
  if (time.startTime && time.endTime) {
    const others: { s: string; e: string }[] = await ctx
      .trx('time_reports')
      .where({ user_id: user.id, date: input.date })
      .whereNotNull('start_time')
      .modify((q) => void (existing ? q.whereNot('id', existing.id) : q))
      .select(ctx.trx.raw(`to_char(start_time, 'HH24:MI') as s, to_char(end_time, 'HH24:MI') as e`));
    const error = rangeSetError([
      ...others.map((o) => ({ start: o.s, end: o.e })),
      { start: time.startTime, end: time.endTime },
    ]);
    if (error) throw new AppError('VALIDATION_FAILED', 400, { fields: { startTime: [error] } });
  }
  const values = {
    user_id: user.id,
    tag_id: tag.id,
    date: input.date,
    start_time: time.startTime,
    end_time: time.endTime,
    minutes: time.minutes,
    distance_km: input.reportedDistanceKm ?? 0,
    comment: input.comment ?? null,
    updated_at: ctx.now,
  };
  let id: string;
  if (existing) {
    id = existing.id;
    await ctx.trx('time_reports').where({ id }).update(values);
  } else {
    const [row] = await ctx
      .trx('time_reports')
      .insert({ ...values, created_at: ctx.now })
      .returning('id');
    id = row.id as string;
  }
  await assertDayWithin24Hours(ctx, user.id, input.date, 'reportedHours');
  const saved = await readReport(ctx, id);
  await recordHistory(ctx, {
    entity: TIME_REPORT_ENTITY,
    entityId: id,
    action: existing ? 'edit' : 'create',
    data: { userId: user.id, old: historyOf(existing), new: historyOf(saved) },
  });
  return { timeReport: saved };
}

/** DELETE /timereports/{id}: as saving; a locked or approved day refuses it (409). */
export async function deleteTimeReport(ctx: Ctx, id: unknown): Promise<void> {
  requireAccess(ctx.auth, { permission: 'signed-in' });
  const existing = await readReport(ctx, id);
  await requireTimeWriter(ctx, existing.userId);
  await assertTimeChangeable(ctx, existing.userId, existing.date);
  await ctx.trx('time_reports').where({ id: existing.id }).delete();
  await recordHistory(ctx, {
    entity: TIME_REPORT_ENTITY,
    entityId: existing.id,
    action: 'delete',
    data: { userId: existing.userId, old: historyOf(existing) },
  });
}
