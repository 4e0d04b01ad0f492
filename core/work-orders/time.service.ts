import { tenantTimeZone } from '~/core/i18n/number-format';
import { z } from 'zod';
import type { Ctx } from '~/core/context';
import { AppError, notFound, permissionDenied } from '~/core/errors/app-error';
import { isUuid, parseInput } from '~/core/errors/validation';
import { recordHistory } from '~/core/history/history';
import { hasAccess, requireAccess } from '~/core/permissions/access';
import { dateIn, spanMinutes, toMinutes } from './time-rules';
import { lockedSql, type LockState } from '~/core/time-reports/period-lock';
import { timeLockState } from '~/core/time-reports/period-lock.service';
import { assertDayWithin24Hours, assertTimeChangeable } from '~/core/time-reports/time-guard.service';
import { loadChangeable, loadWorkOrder, WO_ENTITY, type WorkOrder } from './work-order-read';
import { activeUserChoices } from '~/core/users/active-users';

/** One person's time on a work order. */
export interface TimeRow {
  id: string;
  userId: string;
  userName: string;
  /** The day the time belongs to, YYYY-MM-DD. */
  date: string;
  /** Start and end (ISO) when reported as a span; null when reported as hours and minutes. */
  startTs: string | null;
  endTs: string | null;
  workMinutes: number;
  travelMinutes: number;
  distanceKm: number;
  comment: string | null;
  /** In a locked period: cannot be changed or deleted. */
  locked: boolean;
}

export interface TimePanelData {
  rows: TimeRow[];
  totals: { workMinutes: number; travelMinutes: number; distanceKm: number };
  /** Who time may be reported for: yourself, or every active user with workorders:timereports_select. */
  users: { id: string; name: string }[];
  /** workorders:report on an open, unlocked order. */
  canReport: boolean;
}

type Row = Record<string, unknown>;
type Fields = Record<string, string[]>;

const iso = (v: unknown) => (v === null || v === undefined ? null : v instanceof Date ? v.toISOString() : String(v));
const ymd = (v: unknown) => (v instanceof Date ? dateOnly(v) : String(v).slice(0, 10));
/** A `date` column read by pg as a local-midnight Date: its local calendar day. */
const dateOnly = (d: Date) =>
  `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;

const canSelect = (ctx: Ctx) => hasAccess(ctx.auth, { permission: 'workorders:timereports_select' });
const changeable = (wo: WorkOrder) => !wo.isClosed && !wo.isLocked && !wo.deletedAt;

function toTimeRow(r: Row): TimeRow {
  return {
    id: r.id as string,
    userId: r.user_id as string,
    userName: (r.user_name as string) ?? '',
    date: ymd(r.date_text ?? r.date),
    startTs: iso(r.start_ts),
    endTs: iso(r.end_ts),
    workMinutes: Number(r.work_minutes),
    travelMinutes: Number(r.travel_minutes),
    distanceKm: Number(r.distance_km),
    comment: (r.comment as string | null) ?? null,
    locked: Boolean(r.locked),
  };
}

const timeColumns = (ctx: Ctx, lock: LockState) => [
  't.id',
  't.user_id',
  'u.name as user_name',
  ctx.trx.raw(`to_char(t.date, 'YYYY-MM-DD') as date_text`),
  't.start_ts',
  't.end_ts',
  't.work_minutes',
  't.travel_minutes',
  ctx.trx.raw('t.distance_km::text as distance_km'),
  't.comment',
  // a row is locked by its own flag or by lying in a locked period
  ctx.trx.raw(`(t.locked or ${lockedSql(lock, 't.date').sql}) as locked`, lockedSql(lock, 't.date').bindings),
  't.work_order_id',
];

async function panelOf(ctx: Ctx, wo: WorkOrder): Promise<TimePanelData> {
  const rows: Row[] = await ctx
    .trx('work_order_time as t')
    .join('users as u', 'u.id', 't.user_id')
    .where('t.work_order_id', wo.id)
    .orderBy([{ column: 't.date' }, { column: 't.start_ts' }, { column: 't.created_at' }, { column: 't.id' }])
    .select(timeColumns(ctx, await timeLockState(ctx)));
  const timeRows = rows.map(toTimeRow);
  const me = ctx.auth!.user;
  const users: { id: string; name: string }[] = canSelect(ctx)
    ? await activeUserChoices(ctx.trx)
    : [{ id: me.id, name: me.fullName }];
  // tenths of a kilometre as integers, so the sum stays exact
  const tenths = timeRows.reduce((s, r) => s + Math.round(r.distanceKm * 10), 0);
  return {
    rows: timeRows,
    totals: {
      workMinutes: timeRows.reduce((s, r) => s + r.workMinutes, 0),
      travelMinutes: timeRows.reduce((s, r) => s + r.travelMinutes, 0),
      distanceKm: tenths / 10,
    },
    users,
    canReport: hasAccess(ctx.auth, { permission: 'workorders:report' }) && changeable(wo),
  };
}

/**
 * GET /wo/{id}/time: each person's time on the order with totals, and whom the user may report
 * time for (workorders:read; 404 outside the user's limit).
 */
export async function listWorkOrderTime(ctx: Ctx, workOrderId: unknown): Promise<TimePanelData> {
  requireAccess(ctx.auth, { permission: 'workorders:read' });
  const wo = await loadWorkOrder(ctx, workOrderId);
  return panelOf(ctx, wo);
}

const emptyToUndefined = (v: unknown) => (v === '' || v === null ? undefined : v);
const zInt = (max: number, message: string) =>
  z.preprocess(
    (v) => (typeof v === 'string' && v.trim() !== '' ? Number(v) : emptyToUndefined(v)),
    z
      .number({ error: 'ERROR_INVALID_VALUE' })
      .int('ERROR_INVALID_VALUE')
      .min(0, 'ERROR_INVALID_VALUE')
      .max(max, message)
      .optional(),
  );
const zMoment = () =>
  z.preprocess(
    (v) => {
      const e = emptyToUndefined(v);
      return typeof e === 'string' || typeof e === 'number' ? new Date(e) : e;
    },
    z.date({ error: 'ERROR_INVALID_VALUE' }).optional(),
  );

/** PUT /wo/time: one person's time on an order (a new row without id). */
export const ZSaveTime = z.object({
  id: z.preprocess(emptyToUndefined, z.string().optional()),
  workOrderId: z.string({ error: 'ERROR_REQUIRED_FIELD' }),
  userId: z.preprocess(emptyToUndefined, z.string().optional()),
  date: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/, 'ERROR_INVALID_VALUE')
      .refine((d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)), 'ERROR_INVALID_VALUE')
      .optional(),
  ),
  startTs: zMoment(),
  endTs: zMoment(),
  hours: zInt(24 * 60, 'ERROR_INVALID_VALUE'),
  minutes: zInt(59, 'ERROR_MINUTES_RANGE'),
  travelHours: zInt(24 * 60, 'ERROR_INVALID_VALUE'),
  travelMinutes: zInt(59, 'ERROR_MINUTES_RANGE'),
  distanceKm: z.preprocess(
    (v) => (typeof v === 'string' && v.trim() !== '' ? Number(v.replace(',', '.')) : emptyToUndefined(v)),
    z
      .number({ error: 'ERROR_INVALID_VALUE' })
      .min(0, 'ERROR_NEGATIVE_AMOUNT')
      .max(9_999_999, 'ERROR_INVALID_VALUE')
      .refine((n) => Math.abs(n * 10 - Math.round(n * 10)) < 1e-9, 'ERROR_INVALID_VALUE')
      .optional(),
  ),
  comment: z.preprocess(emptyToUndefined, z.string().trim().max(2000, 'ERROR_MAX_LENGTH').optional()),
});

/** What history records of a time row. */
const summary = (r: TimeRow | null) =>
  r && {
    userName: r.userName,
    date: r.date,
    startTs: r.startTs,
    endTs: r.endTs,
    workMinutes: r.workMinutes,
    travelMinutes: r.travelMinutes,
    distanceKm: r.distanceKm,
  };

async function readTimeRow(ctx: Ctx, id: unknown): Promise<TimeRow & { workOrderId: string }> {
  if (!isUuid(id)) throw notFound();
  const row: Row | undefined = await ctx
    .trx('work_order_time as t')
    .join('users as u', 'u.id', 't.user_id')
    .where('t.id', id)
    .first(timeColumns(ctx, await timeLockState(ctx)));
  if (!row) throw notFound();
  return { ...toTimeRow(row), workOrderId: row.work_order_id as string };
}

/** A row of someone else needs workorders:timereports_select; a locked row cannot change (409). */
function checkRowAccess(ctx: Ctx, row: TimeRow) {
  if (row.userId !== ctx.auth!.user.id && !canSelect(ctx)) throw permissionDenied();
  if (row.locked) throw new AppError('TIME_REPORT_LOCKED', 409);
}

/**
 * PUT /wo/time {id?, workOrderId, userId, date?, startTs?, endTs?, hours?, minutes?, travelHours?,
 * travelMinutes?, distanceKm?, comment?}: one person's time on the order, created without `id` and
 * replaced with it. Work time is either a span (startTs–endTs: the end after the start, at most 60
 * days; the date defaults to the start's day in the tenant's zone) or hours and minutes (0–59) on a
 * date (today by default). Needs workorders:report; time of another user needs
 * workorders:timereports_select (403); a locked row is 409 TIME_REPORT_LOCKED; the order must be
 * open and unlocked. History: `edit` with field "time" (old and new). Answers the row's id and
 * the panel's data.
 */
export async function saveWorkOrderTime(ctx: Ctx, raw: unknown): Promise<{ id: string; data: TimePanelData }> {
  requireAccess(ctx.auth, { permission: 'workorders:report' });
  const input = parseInput(ZSaveTime, raw);
  const me = ctx.auth.user.id;
  const userId = input.userId ?? me;
  if (userId !== me && !canSelect(ctx)) throw permissionDenied();
  const existing = input.id !== undefined ? await readTimeRow(ctx, input.id) : null;
  const wo = await loadChangeable(ctx, input.workOrderId);
  if (existing && existing.workOrderId !== wo.id) throw notFound();
  if (existing) checkRowAccess(ctx, existing);

  const errors: Fields = {};
  const add = (field: string, key: string) => (errors[field] ??= []).push(key);
  let workMinutes = 0;
  let startTs: Date | null = null;
  let endTs: Date | null = null;
  if (input.startTs || input.endTs) {
    if (!input.startTs) add('startTs', 'ERROR_REQUIRED_FIELD');
    if (!input.endTs) add('endTs', 'ERROR_REQUIRED_FIELD');
    if (input.startTs && input.endTs) {
      const span = spanMinutes(input.startTs, input.endTs);
      if (span.ok) {
        workMinutes = span.minutes;
        startTs = input.startTs;
        endTs = input.endTs;
      } else add('endTs', span.error);
    }
  } else workMinutes = toMinutes(input.hours ?? 0, input.minutes ?? 0);
  const travelMinutes = toMinutes(input.travelHours ?? 0, input.travelMinutes ?? 0);
  const distanceKm = input.distanceKm ?? 0;
  if (!startTs && !errors.startTs && !errors.endTs && workMinutes === 0 && travelMinutes === 0 && distanceKm === 0)
    add('hours', 'ERROR_REQUIRED_FIELD');
  if (userId !== me) {
    const user = isUuid(userId) ? await ctx.trx('users').where({ id: userId, status: 'active' }).first('id') : null;
    if (!user) add('userId', 'ERROR_INVALID_VALUE');
  }
  if (Object.keys(errors).length) throw new AppError('VALIDATION_FAILED', 400, { fields: errors });

  const date = input.date ?? dateIn(startTs ?? ctx.now, tenantTimeZone(ctx.tenant.config?.country));
  // nobody reports new time into a locked period either
  await assertTimeChangeable(ctx, userId, date, ...(existing ? [existing.date] : []));
  const values = {
    user_id: userId,
    date,
    start_ts: startTs,
    end_ts: endTs,
    work_minutes: workMinutes,
    travel_minutes: travelMinutes,
    distance_km: distanceKm,
    comment: input.comment ?? null,
  };
  let id: string;
  if (existing) {
    id = existing.id;
    await ctx.trx('work_order_time').where({ id }).update(values);
  } else {
    const [row] = await ctx
      .trx('work_order_time')
      .insert({ ...values, work_order_id: wo.id, created_at: ctx.now })
      .returning('id');
    id = row.id as string;
  }
  await assertDayWithin24Hours(ctx, userId, date, 'hours');
  const saved = await readTimeRow(ctx, id);
  await ctx.trx('work_orders').where({ id: wo.id }).update({ update_ts: ctx.now });
  await recordHistory(ctx, {
    entity: WO_ENTITY,
    entityId: wo.id,
    action: 'edit',
    data: { changes: [{ field: 'time', old: summary(existing), new: summary(saved) }] },
  });
  return { id, data: await panelOf(ctx, wo) };
}

/** DELETE /wo/time/{id}. */
export const ZDeleteTime = z.object({ id: z.string({ error: 'ERROR_REQUIRED_FIELD' }) });

/**
 * DELETE /wo/time/{id}: removes a time row (workorders:report; another user's row needs
 * workorders:timereports_select; a locked row is 409 TIME_REPORT_LOCKED; the order must be open and
 * unlocked). History: `edit` with field "time" (old, new null). Answers the panel's data.
 */
export async function deleteWorkOrderTime(ctx: Ctx, raw: unknown): Promise<TimePanelData> {
  requireAccess(ctx.auth, { permission: 'workorders:report' });
  const { id } = parseInput(ZDeleteTime, raw);
  const existing = await readTimeRow(ctx, id);
  const wo = await loadChangeable(ctx, existing.workOrderId);
  checkRowAccess(ctx, existing);
  await assertTimeChangeable(ctx, existing.userId, existing.date);
  await ctx.trx('work_order_time').where({ id: existing.id }).delete();
  await ctx.trx('work_orders').where({ id: wo.id }).update({ update_ts: ctx.now });
  await recordHistory(ctx, {
    entity: WO_ENTITY,
    entityId: wo.id,
    action: 'edit',
    data: { changes: [{ field: 'time', old: summary(existing), new: null }] },
  });
  return panelOf(ctx, wo);
}
