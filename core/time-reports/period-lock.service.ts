import { z } from 'zod';
import type { Ctx } from '~/core/context';
import { AppError } from '~/core/errors/app-error';
import { parseInput } from '~/core/errors/validation';
import { recordHistory } from '~/core/history/history';
import { requireAccess } from '~/core/permissions/access';
import { endOfMonth } from '~/core/calendar/dates';
import { tenantToday } from '~/core/calendar/tenant-today';
import { lockedBefore } from '~/core/work-orders/time-rules';
import { isDateLocked, lockDateOf, lockedSql, monthLock, monthOf, type LockState } from './period-lock';

/** History entity of a month's lock (entity id: the month, YYYY-MM-01). */
export const TIME_PERIOD_ENTITY = 'time_period';

const ymd = (v: unknown) =>
  v instanceof Date
    ? `${v.getFullYear()}-${String(v.getMonth() + 1).padStart(2, '0')}-${String(v.getDate()).padStart(2, '0')}`
    : String(v).slice(0, 10);

async function lockDay(ctx: Ctx): Promise<number | null> {
  const row = await ctx.trx('work_order_settings').first('time_lock_day');
  return row?.time_lock_day === null || row?.time_lock_day === undefined ? null : Number(row.time_lock_day);
}

/** The tenant's lock state today: the lock-day rule's boundary and the months set by hand. */
export async function timeLockState(ctx: Ctx): Promise<LockState> {
  const day = await lockDay(ctx);
  const rows: { month: unknown; locked: boolean }[] = await ctx
    .trx('time_period_locks')
    .select(ctx.trx.raw(`to_char(month, 'YYYY-MM-DD') as month`), 'locked');
  return {
    boundary: lockedBefore(tenantToday(ctx), day),
    locked: rows.filter((r) => r.locked).map((r) => ymd(r.month)),
    unlocked: rows.filter((r) => !r.locked).map((r) => ymd(r.month)),
  };
}

/** A raw SQL expression (for select or where) true when the date column lies in a locked month. */
export function lockedExpr(ctx: Ctx, state: LockState, column: string) {
  const { sql, bindings } = lockedSql(state, column);
  return ctx.trx.raw(sql, bindings);
}

/** 409 TIME_REPORT_LOCKED when any of the days lies in a locked month. */
export async function assertTimeOpen(ctx: Ctx, ...dates: string[]): Promise<void> {
  const state = await timeLockState(ctx);
  if (dates.some((d) => isDateLocked(state, d))) throw new AppError('TIME_REPORT_LOCKED', 409);
}

export interface LockMonth {
  month: string;
  locked: boolean;
  /** Set by hand (locked early, or unlocked after its lock day). */
  byHand: boolean;
  /** When the lock-day rule locks it (null: no lock day configured). */
  lockDate: string | null;
  changedBy: string | null;
  changedAt: string | null;
}

/** A lock or unlock by hand, as the history keeps it. */
export interface LockChange {
  month: string;
  action: 'lock' | 'unlock';
  userName: string | null;
  at: string;
}

/**
 * GET /timereports/lock?year: the year's months with their lock state, how it came about and who
 * set it by hand, and the year's locks and unlocks by hand, newest first (timereports:read).
 */
export async function listLockMonths(
  ctx: Ctx,
  rawYear: unknown,
): Promise<{ year: number; lockDay: number | null; months: LockMonth[]; history: LockChange[] }> {
  requireAccess(ctx.auth, { permission: 'timereports:read' });
  const year = Number(rawYear ?? tenantToday(ctx).slice(0, 4));
  if (!Number.isInteger(year) || year < 2000 || year > 2100)
    throw new AppError('VALIDATION_FAILED', 400, { fields: { year: ['ERROR_INVALID_VALUE'] } });
  const state = await timeLockState(ctx);
  const day = await lockDay(ctx);
  const set: { month: unknown; changed_at: Date | null; name: string | null }[] = await ctx
    .trx('time_period_locks as l')
    .leftJoin('users as u', 'u.id', 'l.changed_by')
    .whereRaw(`extract(year from l.month) = ?`, [year])
    .select(ctx.trx.raw(`to_char(l.month, 'YYYY-MM-DD') as month`), 'l.changed_at', 'u.name');
  const byMonth = new Map(set.map((r) => [ymd(r.month), r]));
  const months = Array.from({ length: 12 }, (_, i) => {
    const month = `${year}-${String(i + 1).padStart(2, '0')}-01`;
    const hand = byMonth.get(month);
    return {
      month,
      ...monthLock(state, month),
      lockDate: lockDateOf(month, day),
      changedBy: hand?.name ?? null,
      changedAt: hand?.changed_at ? new Date(hand.changed_at).toISOString() : null,
    };
  });
  const changes: { entity_id: string; action: 'lock' | 'unlock'; name: string | null; at: Date }[] = await ctx
    .trx('history as h')
    .leftJoin('users as u', 'u.id', 'h.user_id')
    .where('h.entity', TIME_PERIOD_ENTITY)
    .andWhere('h.entity_id', 'like', `${year}-%`)
    .orderBy([
      { column: 'h.at', order: 'desc' },
      { column: 'h.id', order: 'desc' },
    ])
    .limit(50)
    .select('h.entity_id', 'h.action', 'u.name', 'h.at');
  const history = changes.map((c) => ({
    month: c.entity_id,
    action: c.action,
    userName: c.name,
    at: new Date(c.at).toISOString(),
  }));
  return { year, lockDay: day, months, history };
}

const ZMonth = z.object({
  month: z
    .string({ error: 'ERROR_REQUIRED_FIELD' })
    .regex(/^\d{4}-\d{2}(-\d{2})?$/, 'ERROR_INVALID_VALUE')
    .refine((m) => !Number.isNaN(Date.parse(`${m.slice(0, 7)}-01T00:00:00Z`)), 'ERROR_INVALID_VALUE'),
});

/** The lock call's input: the month, and `early: true` to lock a month that has not ended yet. */
export const ZLockMonth = ZMonth.extend({
  early: z.preprocess((v) => (v === 'true' ? true : v === 'false' || v === '' ? false : v), z.boolean()).optional(),
});

/**
 * POST /timereports/lock {month, early?} and POST /timereports/unlock {month} (timereports:edit):
 * lock a month by hand before its lock day, or open one again after it. A month that has not
 * ended (its last day is today or later in the company's time zone) is locked only when asked
 * explicitly (`early: true`), else 409 TIME_MONTH_NOT_ENDED: people are still reporting its last
 * days (issue 28 item 2). A month the rule would give the same state needs no row, so setting it
 * back removes the hand-set row. History: `lock` or `unlock` on the month.
 */
export async function setMonthLocked(ctx: Ctx, raw: unknown, locked: boolean): Promise<LockMonth> {
  requireAccess(ctx.auth, { permission: 'timereports:edit' });
  const input = parseInput(ZLockMonth, raw);
  const month = monthOf(input.month);
  if (locked && !input.early && endOfMonth(month) >= tenantToday(ctx))
    throw new AppError('TIME_MONTH_NOT_ENDED', 409, { month: month.slice(0, 7) });
  const state = await timeLockState(ctx);
  const byRule = state.boundary !== null && month < state.boundary;
  const current = monthLock(state, month).locked;
  if (byRule === locked) await ctx.trx('time_period_locks').where({ month }).delete();
  else
    await ctx
      .trx('time_period_locks')
      .insert({ month, locked, changed_by: ctx.auth.user.id, changed_at: ctx.now })
      .onConflict('month')
      .merge();
  if (current !== locked)
    await recordHistory(ctx, { entity: TIME_PERIOD_ENTITY, entityId: month, action: locked ? 'lock' : 'unlock' });
  const { months } = await listLockMonths(ctx, month.slice(0, 4));
  return months.find((m) => m.month === month)!;
}
