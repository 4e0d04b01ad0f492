import { z } from 'zod';
import type { Ctx } from '~/core/context';
import { tenantToday } from '~/core/calendar/tenant-today';
import { ACTIVE_USERS_WHERE, namedOptionsSql } from '~/core/db/json-options';
import { AppError, notFound } from '~/core/errors/app-error';
import { isUuid, parseInput } from '~/core/errors/validation';
import { recordHistory } from '~/core/history/history';
import { tenantTimeZone } from '~/core/i18n/number-format';
import { hasAccess, requireAccess, type Access } from '~/core/permissions/access';
import { dateIn } from '~/core/work-orders/time-rules';
import { listWindow, parseInstant, shiftError } from './on-call.rules';

/**
 * The on-call schedule (the ONCALL app module; spec section 2 "on-call schedule"): who is on call
 * when, as spans of instants per person. Anyone signed in with the module reads it;
 * oncallreports:edit plans it. One person's shifts never overlap (409 ON_CALL_OVERLAP); a shift
 * lasts at most 31 days and is given to an active user. Times travel as ISO instants; a wall-clock
 * time without a zone ("2026-03-05T17:00", what the page's inputs post) is the tenant's.
 */

export const ONCALL_ACCESS = {
  read: { permission: 'signed-in', module: 'oncall' },
  edit: { permission: 'oncallreports:edit', module: 'oncall' },
} as const satisfies Record<string, Access>;

/** History entity of a shift. */
export const ON_CALL_ENTITY = 'on_call_shift';

export interface OnCallShift {
  id: string;
  userId: string;
  userName: string;
  /** ISO instants; the shift covers [startTs, endTs). */
  startTs: string;
  endTs: string;
  comment: string | null;
  createUserId: string | null;
}

export interface OnCallList {
  /** The window listed, as ISO instants. */
  from: string;
  to: string;
  /** Shifts overlapping the window, by start, then person. */
  shifts: OnCallShift[];
  /** Company holidays on the window's days (the calendar marks them). */
  holidays: { date: string; name: string }[];
}

type Row = {
  id: string;
  user_id: string;
  user_name: string;
  start_ts: Date | string;
  end_ts: Date | string;
  comment: string | null;
  create_user_id: string | null;
};

const iso = (v: Date | string) => new Date(v).toISOString();
const toShift = (r: Row): OnCallShift => ({
  id: r.id,
  userId: r.user_id,
  userName: r.user_name,
  startTs: iso(r.start_ts),
  endTs: iso(r.end_ts),
  comment: r.comment,
  createUserId: r.create_user_id,
});

const zone = (ctx: Ctx) => tenantTimeZone(ctx.tenant.config?.country);

/** Shifts with their person's name; the caller adds the where. */
const shiftQuery = (ctx: Ctx) =>
  ctx
    .trx('on_call_shifts as s')
    .join('users as u', 'u.id', 's.user_id')
    .select('s.id', 's.user_id', 'u.name as user_name', 's.start_ts', 's.end_ts', 's.comment', 's.create_user_id');

/** GET /timereports/oncall's query: a day (YYYY-MM-DD) or an instant each; listWindow reads them. */
export const ZOnCallWindow = z.object({
  from: z.string({ error: 'ERROR_INVALID_VALUE' }).max(40, 'ERROR_INVALID_VALUE').nullish(),
  to: z.string({ error: 'ERROR_INVALID_VALUE' }).max(40, 'ERROR_INVALID_VALUE').nullish(),
});

/**
 * GET /timereports/oncall?from&to: the shifts overlapping the window (days in the tenant's zone,
 * or instants; the current month by default; at most 62 days), and the company holidays in it.
 * Two statements, both on indexes.
 */
export async function listOnCallShifts(ctx: Ctx, raw: unknown = {}): Promise<OnCallList> {
  requireAccess(ctx.auth, ONCALL_ACCESS.read);
  const q = parseInput(ZOnCallWindow, raw ?? {});
  const window = listWindow(q, tenantToday(ctx), zone(ctx));
  if (!window.ok) throw new AppError('VALIDATION_FAILED', 400, { fields: { [window.field]: [window.error] } });
  const { from, to } = window;
  const rows = (await shiftQuery(ctx)
    .where('s.start_ts', '<', to)
    .andWhere('s.end_ts', '>', from)
    .orderBy([{ column: 's.start_ts' }, { column: 'u.name' }, { column: 's.id' }])) as Row[];
  const holidays = (await ctx
    .trx('company_holidays')
    .where('date', '>=', dateIn(from, zone(ctx)))
    .andWhere('date', '<=', dateIn(new Date(to.getTime() - 1), zone(ctx)))
    .orderBy('date')
    .select(ctx.trx.raw(`to_char(date, 'YYYY-MM-DD') as date`), 'name')) as { date: string; name: string }[];
  return { from: from.toISOString(), to: to.toISOString(), shifts: rows.map(toShift), holidays };
}

/**
 * Who is on call right now (the dashboard's "on call now"): the shifts running at `ctx.now`. Empty
 * when the tenant has the module off, so a page may ask without checking it first.
 */
export async function onCallNow(ctx: Ctx): Promise<OnCallShift[]> {
  requireAccess(ctx.auth, { permission: 'signed-in' });
  if (!hasAccess(ctx.auth, ONCALL_ACCESS.read)) return [];
  const rows = (await shiftQuery(ctx)
    .where('s.start_ts', '<=', ctx.now)
    .andWhere('s.end_ts', '>', ctx.now)
    .orderBy([{ column: 's.start_ts' }, { column: 'u.name' }])) as Row[];
  return rows.map(toShift);
}

/** The people a shift may be given to: active users, by name (the page's picker). */
export async function listOnCallPeople(ctx: Ctx): Promise<{ id: string; name: string }[]> {
  requireAccess(ctx.auth, ONCALL_ACCESS.edit);
  const { rows } = (await ctx.trx.raw(`select ${namedOptionsSql('users', ACTIVE_USERS_WHERE)} as users`)) as {
    rows: { users: { id: string; name: string }[] }[];
  };
  return rows[0]?.users ?? [];
}

const zId = z.string({ error: 'ERROR_REQUIRED_FIELD' }).refine(isUuid, 'ERROR_INVALID_VALUE');
const zMoment = z.string({ error: 'ERROR_REQUIRED_FIELD' }).trim().min(1, 'ERROR_REQUIRED_FIELD');
export const ZShift = z.object({
  userId: zId,
  startTs: zMoment,
  endTs: zMoment,
  comment: z
    .string({ error: 'ERROR_INVALID_VALUE' })
    .trim()
    .max(500, 'ERROR_MAX_LENGTH')
    .nullish()
    .transform((v) => v || null),
});
export const ZEditShift = ZShift.extend({ id: z.string({ error: 'ERROR_REQUIRED_FIELD' }) });

interface ShiftInput {
  userId: string;
  start: Date;
  end: Date;
  comment: string | null;
}

/** The shape, the times and their rules: 400 with the field at fault. */
function parseShift(ctx: Ctx, input: z.infer<typeof ZShift>): ShiftInput {
  const fields: Record<string, string[]> = {};
  const start = parseInstant(input.startTs, zone(ctx));
  const end = parseInstant(input.endTs, zone(ctx));
  if (!start) fields.startTs = ['ERROR_INVALID_VALUE'];
  if (!end) fields.endTs = ['ERROR_INVALID_VALUE'];
  if (start && end) {
    const error = shiftError(start, end);
    if (error) fields.endTs = [error];
  }
  if (Object.keys(fields).length) throw new AppError('VALIDATION_FAILED', 400, { fields });
  return { userId: input.userId, start: start!, end: end!, comment: input.comment };
}

/**
 * The person must be an active user; their row is locked for the rest of the unit of work, so two
 * requests planning the same person one after the other see each other's shift.
 */
async function checkPerson(ctx: Ctx, userId: string): Promise<void> {
  const user = (await ctx.trx('users').where({ id: userId }).forUpdate().first('status')) as
    { status: string } | undefined;
  if (!user || user.status !== 'active')
    throw new AppError('VALIDATION_FAILED', 400, {
      fields: { userId: [user ? 'ERROR_USER_INACTIVE' : 'ERROR_INVALID_VALUE'] },
    });
}

/** 409 ON_CALL_OVERLAP when the person has another shift overlapping this one. */
async function checkOverlap(ctx: Ctx, shift: ShiftInput, exceptId?: string): Promise<void> {
  const q = ctx
    .trx('on_call_shifts')
    .where({ user_id: shift.userId })
    .andWhere('start_ts', '<', shift.end)
    .andWhere('end_ts', '>', shift.start);
  if (exceptId) q.andWhereNot({ id: exceptId });
  const clash = (await q.orderBy('start_ts').first('id', 'start_ts', 'end_ts')) as
    { id: string; start_ts: Date | string; end_ts: Date | string } | undefined;
  if (clash)
    throw new AppError('ON_CALL_OVERLAP', 409, {
      overlapping: { id: clash.id, startTs: iso(clash.start_ts), endTs: iso(clash.end_ts) },
    });
}

async function shiftById(ctx: Ctx, id: string): Promise<OnCallShift> {
  const row = (await shiftQuery(ctx).where('s.id', id).first()) as Row | undefined;
  if (!row) throw notFound();
  return toShift(row);
}

const historyData = (s: ShiftInput) => ({
  userId: s.userId,
  startTs: s.start.toISOString(),
  endTs: s.end.toISOString(),
  comment: s.comment,
});

/** POST /timereports/oncall {userId, startTs, endTs, comment}: plans a shift. */
export async function createOnCallShift(ctx: Ctx, raw: unknown): Promise<{ shift: OnCallShift }> {
  requireAccess(ctx.auth, ONCALL_ACCESS.edit);
  const shift = parseShift(ctx, parseInput(ZShift, raw));
  await checkPerson(ctx, shift.userId);
  await checkOverlap(ctx, shift);
  const [row] = (await ctx
    .trx('on_call_shifts')
    .insert({
      user_id: shift.userId,
      start_ts: shift.start,
      end_ts: shift.end,
      comment: shift.comment,
      create_user_id: ctx.auth.user.id,
    })
    .returning('id')) as { id: string }[];
  await recordHistory(ctx, { entity: ON_CALL_ENTITY, entityId: row!.id, action: 'add', data: historyData(shift) });
  return { shift: await shiftById(ctx, row!.id) };
}

/** PUT /timereports/oncall {id, userId, startTs, endTs, comment}: moves, hands over or re-comments a shift. */
export async function updateOnCallShift(ctx: Ctx, raw: unknown): Promise<{ shift: OnCallShift }> {
  requireAccess(ctx.auth, ONCALL_ACCESS.edit);
  const input = parseInput(ZEditShift, raw);
  if (!isUuid(input.id)) throw notFound();
  const shift = parseShift(ctx, input);
  const before = await ctx.trx('on_call_shifts').where({ id: input.id }).forUpdate().first('id');
  if (!before) throw notFound();
  await checkPerson(ctx, shift.userId);
  await checkOverlap(ctx, shift, input.id);
  await ctx
    .trx('on_call_shifts')
    .where({ id: input.id })
    .update({ user_id: shift.userId, start_ts: shift.start, end_ts: shift.end, comment: shift.comment });
  await recordHistory(ctx, { entity: ON_CALL_ENTITY, entityId: input.id, action: 'edit', data: historyData(shift) });
  return { shift: await shiftById(ctx, input.id) };
}

/** DELETE /timereports/oncall/{id}. */
export async function deleteOnCallShift(ctx: Ctx, id: unknown): Promise<void> {
  requireAccess(ctx.auth, ONCALL_ACCESS.edit);
  if (!isUuid(id)) throw notFound();
  const [row] = (await ctx
    .trx('on_call_shifts')
    .where({ id })
    .delete()
    .returning(['user_id', 'start_ts', 'end_ts', 'comment'])) as Omit<Row, 'id' | 'user_name' | 'create_user_id'>[];
  if (!row) throw notFound();
  await recordHistory(ctx, {
    entity: ON_CALL_ENTITY,
    entityId: id,
    action: 'delete',
    data: { userId: row.user_id, startTs: iso(row.start_ts), endTs: iso(row.end_ts), comment: row.comment },
  });
}
