import { tenantTimeZone } from '~/core/i18n/number-format';
import { z } from 'zod';
import type { Ctx } from '~/core/context';
import { formatPlainDate, isoWeekStart, isoWeeksInYear, parsePlainDate, type PlainDate } from '~/core/calendar/dates';
import { AppError, notFound } from '~/core/errors/app-error';
import { isUuid, parseInput } from '~/core/errors/validation';
import { publishAfterCommit } from '~/core/events/board-events';
import { recordHistory } from '~/core/history/history';
import { requireAccess } from '~/core/permissions/access';
import {
  CALENDAR_PERIODS,
  CALENDAR_PERSPECTIVES,
  DEFAULT_PLAN_MINUTES,
  DEFAULT_START_MINUTES,
  formatClock,
  parseClock,
  PROJECT_STEPS,
  viewRange,
  type CalendarView,
} from './calendar-rules';
import { dateIn, spanMinutes, wallClockToIso } from './time-rules';
import { getUiPreference, setUiPreference } from './list-preferences';
import { applyLimit, loadActive, loadChangeable, WO_ENTITY } from './work-order-read';
import { activeUserChoices, type UserChoice } from '~/core/users/active-users';
import { dateTimeFormat } from '~/core/i18n/intl-cache';
import { notifyVisitPlanned } from '~/core/zone/zone-notify.service';

/**
 * Schedule reports (spec section 3): the plans that put a person on a work order for a span, and
 * the calendar that shows them. Planning needs workorders:edit and an open, unlocked order; one
 * person is planned on one order at most once a day (spec section 5); a plan changed by someone
 * else since it was read is refused (409 SCHEDULE_CHANGED) instead of overwritten. Every change
 * raises the tenant's board version and, after commit, tells the open boards.
 */

export interface ScheduleItem {
  id: string;
  workOrderId: string;
  userId: string;
  /** The local day the plan starts on, YYYY-MM-DD. */
  date: string;
  startTs: string;
  endTs: string;
  /** Local wall-clock start and end, "HH:MM". */
  startTime: string;
  endTime: string;
  /** Minutes past local midnight of `date` (for placing in a day view). */
  startMinutes: number;
  durationMinutes: number;
  version: number;
  number: string;
  title: string;
  customerName: string | null;
  status: string;
  priority: string;
  isClosed: boolean;
  projectId: string | null;
}

/** A plan as the board draws it: what it needs, no more (a month of 50 people is thousands). */
export type BoardItem = Omit<ScheduleItem, 'startTs' | 'endTs' | 'status'>;

/** A row of the board: an active user. */
export type BoardUser = UserChoice;

export interface UnscheduledOrder {
  id: string;
  number: string;
  title: string;
  customerName: string | null;
  priority: string;
  city: string | null;
}

/** A project the board's plans belong to, for the project perspective's rows ("1001 · Title"). */
export interface BoardProject {
  id: string;
  number: number;
  title: string;
}

export interface Board {
  from: string;
  to: string;
  users: BoardUser[];
  items: BoardItem[];
  /** The projects of `items`, by number (one statement for all of them, not one per plan). */
  projects: BoardProject[];
  unscheduled: UnscheduledOrder[];
  unscheduledCount: number;
  /** A full page: there are more than the count (search narrows them). */
  unscheduledCountCapped: boolean;
  holidays: { date: string; name: string }[];
  /** Today in the tenant's zone (YYYY-MM-DD): the board marks it and opens scrolled to it. */
  today: string;
  version: number;
  canPlan: boolean;
}

type Row = Record<string, unknown>;

/** How many unscheduled orders the side list shows at once (search narrows it). */
export const UNSCHEDULED_PAGE = 50;

const zone = (ctx: Ctx) => tenantTimeZone(ctx.tenant.config?.country);
const iso = (v: unknown) => (v instanceof Date ? v.toISOString() : new Date(String(v)).toISOString());

function toItem(r: Row): ScheduleItem {
  const startTime = r.start_time as string;
  return {
    id: r.id as string,
    workOrderId: r.work_order_id as string,
    userId: r.user_id as string,
    date: r.date_text as string,
    startTs: r.start_iso as string,
    endTs: r.end_iso as string,
    startTime,
    endTime: r.end_time as string,
    startMinutes: parseClock(startTime) ?? 0,
    durationMinutes: Number(r.duration_minutes),
    version: Number(r.version),
    number: r.number as string,
    title: r.title as string,
    customerName: (r.customer_name as string | null) ?? null,
    status: (r.status_name as string) ?? '',
    priority: r.priority as string,
    isClosed: r.is_closed === true,
    projectId: (r.project_id as string | null) ?? null,
  };
}

/** "HH:MM" of a moment in a time zone. */
function clockIn(moment: Date, timeZone: string): string {
  return dateTimeFormat('en-GB', { timeZone, hourCycle: 'h23', hour: '2-digit', minute: '2-digit' }).format(moment);
}

const ISO_UTC = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;

/** The schedule rows with what the board shows of their orders, under the user's work-order limit. */
function itemQuery(ctx: Ctx) {
  return applyLimit(
    ctx,
    ctx
      .trx('work_order_schedules as ws')
      .join('work_orders as w', 'w.id', 'ws.work_order_id')
      .join('work_order_statuses as s', 's.id', 'w.status_id')
      .leftJoin('customers as c', 'c.id', 'w.customer_id')
      .whereNull('w.deleted_at'),
  ).select(
    'ws.id',
    'ws.work_order_id',
    'ws.user_id',
    ctx.trx.raw(`to_char(ws.date, 'YYYY-MM-DD') as date_text`),
    // instants as ISO text and wall-clock times in the tenant's zone, written by the database for
    // every row at once (parsing and formatting thousands of dates in JavaScript cost more)
    ctx.trx.raw(`to_char(ws.start_ts at time zone 'UTC', ${ISO_UTC}) as start_iso`),
    ctx.trx.raw(`to_char(ws.end_ts at time zone 'UTC', ${ISO_UTC}) as end_iso`),
    // local wall-clock times in the tenant's zone, worked out by the database for every row at once
    ctx.trx.raw(`to_char(ws.start_ts at time zone ?, 'HH24:MI') as start_time`, [zone(ctx)]),
    ctx.trx.raw(`to_char(ws.end_ts at time zone ?, 'HH24:MI') as end_time`, [zone(ctx)]),
    ctx.trx.raw(`(extract(epoch from ws.end_ts - ws.start_ts) / 60)::int as duration_minutes`),
    'ws.version',
    'w.number',
    'w.title',
    'w.priority',
    ctx.trx.raw('w.closed_at is not null as is_closed'),
    'w.project_id',
    'c.name as customer_name',
    's.name as status_name',
  );
}

/** The local midnight starting a day, as an instant. */
function dayStart(ctx: Ctx, d: PlainDate): string {
  return wallClockToIso(`${formatPlainDate(d)}T00:00`, zone(ctx))!;
}

async function boardVersion(ctx: Ctx): Promise<number> {
  const row = await ctx.trx('schedule_board').first('version');
  return Number(row?.version ?? 0);
}

async function bumpBoard(ctx: Ctx, workOrderIds: string[]): Promise<number> {
  const [row] = await ctx.trx('schedule_board').increment('version', 1).returning('version');
  const version = Number((row as Row).version);
  publishAfterCommit(ctx.trx, { tenantId: ctx.tenant.id, version, userId: ctx.auth?.user.id ?? null, workOrderIds });
  return version;
}

// ---- the calendar ----

/** Period, perspective and project step from loose values: anything unknown is the default. */
const zPrefs = z.object({
  period: z.enum(CALENDAR_PERIODS).catch('month'),
  perspective: z.enum(CALENDAR_PERSPECTIVES).catch('technician'),
  step: z.coerce
    .number()
    .refine((n) => (PROJECT_STEPS as readonly number[]).includes(n))
    .catch(1),
});
/** GET /wo/calendar's query: the view, the day it shows (YYYY-MM-DD) and the unscheduled orders' search. */
export const ZCalendarView = zPrefs.extend({
  date: z.string({ error: 'ERROR_INVALID_VALUE' }).optional(),
  q: z.string({ error: 'ERROR_INVALID_VALUE' }).trim().max(200, 'ERROR_MAX_LENGTH').optional(),
});

/** A view from loose query values: unknown periods fall back to the month, a bad date to today. */
export function parseView(ctx: Ctx, raw: Record<string, unknown>): CalendarView & { q: string } {
  // A date or search that is no text (`?q=a&q=b`) is a 400 naming it, not a thrown ZodError.
  const v = parseInput(ZCalendarView, raw);
  const anchor = parsePlainDate(v.date) ?? parsePlainDate(dateIn(ctx.now, zone(ctx)))!;
  return { period: v.period, perspective: v.perspective, anchor, step: v.step as CalendarView['step'], q: v.q ?? '' };
}

/**
 * The board for a view: the people (one row each), the plans in the period, company holidays,
 * the open orders nobody has planned (newest first, a page of them, searchable), and the board
 * version the live updates compare against. A fixed number of statements whatever the period.
 */
export async function loadBoard(ctx: Ctx, view: CalendarView & { q?: string }): Promise<Board> {
  requireAccess(ctx.auth, { permission: 'workorders:read' });
  const range = viewRange(view);
  // one after another: a transaction is one connection
  const users = await activeUserChoices(ctx.trx);
  const items = await plansBetween(ctx, range.from, range.to);
  const projects = await projectsOf(ctx, items);
  const unscheduled = await unscheduledOrders(ctx, view.q ?? '');
  const holidays = await ctx
    .trx('company_holidays')
    .where('date', '>=', formatPlainDate(range.from))
    .andWhere('date', '<', formatPlainDate(range.to))
    .orderBy('date')
    .select(ctx.trx.raw(`to_char(date, 'YYYY-MM-DD') as date`), 'name');
  const version = await boardVersion(ctx);
  return {
    from: formatPlainDate(range.from),
    to: formatPlainDate(range.to),
    users,
    items: items.map(({ startTs: _s, endTs: _e, status: _st, ...item }) => item),
    projects,
    unscheduled: unscheduled.rows,
    unscheduledCount: unscheduled.count,
    unscheduledCountCapped: unscheduled.capped,
    holidays: holidays as { date: string; name: string }[],
    today: dateIn(ctx.now, zone(ctx)),
    version,
    canPlan: Boolean(ctx.auth?.perms.has('workorders:edit')),
  };
}

/** The number and title of the projects the plans belong to, in one statement (none: no statement). */
async function projectsOf(ctx: Ctx, items: { projectId: string | null }[]): Promise<BoardProject[]> {
  const ids = [...new Set(items.map((i) => i.projectId).filter((id): id is string => id !== null))];
  if (!ids.length) return [];
  const rows = (await ctx
    .trx('projects')
    .whereRaw('id = any(?::uuid[])', [ids])
    .orderBy('number')
    .select('id', 'number', 'title')) as BoardProject[];
  return rows.map((p) => ({ id: p.id, number: Number(p.number), title: p.title }));
}

async function plansBetween(ctx: Ctx, from: PlainDate, to: PlainDate, userId?: string): Promise<ScheduleItem[]> {
  const qb = itemQuery(ctx)
    .where('ws.start_ts', '>=', dayStart(ctx, from))
    .andWhere('ws.start_ts', '<', dayStart(ctx, to))
    .orderBy('ws.start_ts')
    .orderBy('ws.id');
  if (userId) qb.andWhere('ws.user_id', userId);
  const rows: Row[] = await qb;
  return rows.map((r) => toItem(r));
}

async function unscheduledOrders(
  ctx: Ctx,
  q: string,
): Promise<{ rows: UnscheduledOrder[]; count: number; capped: boolean }> {
  const base = applyLimit(
    ctx,
    ctx
      .trx('work_orders as w')
      .whereNull('w.closed_at')
      .whereNull('w.deleted_at')
      .whereNotExists(function () {
        this.select(ctx.trx.raw('1')).from('work_order_schedules as x').whereRaw('x.work_order_id = w.id');
      }),
  );
  if (q) base.andWhere('w.search_text', 'like', `%${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
  const rows: Row[] = await base
    .clone()
    .leftJoin('customers as c', 'c.id', 'w.customer_id')
    .orderBy('w.intake_ts', 'desc')
    .orderBy('w.id', 'desc')
    .limit(UNSCHEDULED_PAGE)
    .select('w.id', 'w.number', 'w.title', 'w.priority', 'w.city', 'c.name as customer_name');
  return {
    rows: rows.map((r) => ({
      id: r.id as string,
      number: r.number as string,
      title: r.title as string,
      customerName: (r.customer_name as string | null) ?? null,
      priority: r.priority as string,
      city: (r.city as string | null) ?? null,
    })),
    count: rows.length,
    // a full page: there are more (not counted: counting every open order unplanned costs more than the page)
    capped: rows.length === UNSCHEDULED_PAGE,
  };
}

/** A whole number from a path or query (text), from `min` to `max`; anything else is invalid. */
const zWhole = (min: number, max: number) =>
  z.coerce
    .number({ error: 'ERROR_INVALID_VALUE' })
    .int('ERROR_INVALID_VALUE')
    .min(min, 'ERROR_INVALID_VALUE')
    .max(max, 'ERROR_INVALID_VALUE');

/** GET /wo/month/{year}/{month}: year 1970–9999, month 1–12. */
export const ZCalendarMonth = z.object({ year: zWhole(1970, 9999), month: zWhole(1, 12) });

/** GET /wo/week/{year}/{week}: an ISO week the year has (53-week years included). */
export const ZCalendarWeek = z
  .object({ year: zWhole(1970, 9999), week: zWhole(1, 53) })
  .refine((v) => v.week <= isoWeeksInYear(v.year), { path: ['week'], message: 'ERROR_INVALID_VALUE' });

/** GET /wo/month/{year}/{month}: the month's plans with their orders. */
export async function monthCalendar(ctx: Ctx, year: unknown, month: unknown) {
  requireAccess(ctx.auth, { permission: 'workorders:read' });
  const { year: y, month: m } = parseInput(ZCalendarMonth, { year, month });
  const view: CalendarView = {
    period: 'month',
    perspective: 'technician',
    anchor: { year: y, month: m, day: 1 },
    step: 1,
  };
  const range = viewRange(view);
  const items = await plansBetween(ctx, range.from, range.to);
  const version = await boardVersion(ctx);
  return { from: formatPlainDate(range.from), to: formatPlainDate(range.to), workOrders: groupByOrder(items), version };
}

/** The plans grouped by order: each order once, with its scheduleReports. */
function groupByOrder(items: ScheduleItem[]) {
  const byOrder = new Map<
    string,
    {
      id: string;
      number: string;
      title: string;
      customerName: string | null;
      status: string;
      priority: string;
      isClosed: boolean;
      scheduleReports: Omit<
        ScheduleItem,
        'number' | 'title' | 'customerName' | 'status' | 'priority' | 'isClosed' | 'projectId'
      >[];
    }
  >();
  for (const it of items) {
    const { number, title, customerName, status, priority, isClosed, projectId: _p, ...report } = it;
    const order = byOrder.get(it.workOrderId) ?? {
      id: it.workOrderId,
      number,
      title,
      customerName,
      status,
      priority,
      isClosed,
      scheduleReports: [],
    };
    order.scheduleReports.push(report);
    byOrder.set(it.workOrderId, order);
  }
  return [...byOrder.values()];
}

/**
 * GET /wo/week/{year}/{week} (ISO week, 53-week years): per person, the orders planned that week
 * (`workOrdersForUser`) and the time they reported on orders (`timeReportsForUser`).
 */
export async function weekCalendar(ctx: Ctx, year: unknown, week: unknown) {
  requireAccess(ctx.auth, { permission: 'workorders:read' });
  const { year: y, week: w } = parseInput(ZCalendarWeek, { year, week });
  const from = isoWeekStart(y, w);
  const { to } = viewRange({ period: 'week', perspective: 'technician', anchor: from, step: 1 });
  const timeQuery = applyLimit(
    ctx,
    ctx
      .trx('work_order_time as t')
      .join('work_orders as w', 'w.id', 't.work_order_id')
      .whereNull('w.deleted_at')
      .where('t.date', '>=', formatPlainDate(from))
      .andWhere('t.date', '<', formatPlainDate(to)),
  )
    .orderBy('t.date')
    .orderBy('t.start_ts')
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
    );
  const users = await activeUserChoices(ctx.trx);
  const items = await plansBetween(ctx, from, to);
  const times: Row[] = await timeQuery;
  const version = await boardVersion(ctx);
  const workOrdersForUser: Record<string, ScheduleItem[]> = {};
  const timeReportsForUser: Record<string, unknown[]> = {};
  for (const u of users) {
    workOrdersForUser[u.id] = [];
    timeReportsForUser[u.id] = [];
  }
  for (const it of items) (workOrdersForUser[it.userId] ??= []).push(it);
  for (const t of times)
    (timeReportsForUser[t.user_id as string] ??= []).push({
      id: t.id,
      workOrderId: t.work_order_id,
      number: t.number,
      title: t.title,
      date: t.date_text,
      startTs: t.start_ts ? iso(t.start_ts) : null,
      endTs: t.end_ts ? iso(t.end_ts) : null,
      workMinutes: Number(t.work_minutes),
      travelMinutes: Number(t.travel_minutes),
    });
  return {
    year: y,
    week: w,
    from: formatPlainDate(from),
    to: formatPlainDate(to),
    users,
    workOrdersForUser,
    timeReportsForUser,
    version,
  };
}

// ---- planning ----

const zTime = z
  .string()
  .trim()
  .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'ERROR_INVALID_TIME');

/** POST /wo/schedule: who on which order, when. */
export const ZPlanWorkOrder = z.object({
  workOrderId: z.string({ error: 'ERROR_REQUIRED_FIELD' }),
  userId: z.string({ error: 'ERROR_REQUIRED_FIELD' }).refine(isUuid, 'ERROR_INVALID_VALUE'),
  /** A local day and times ("HH:MM"); or ISO instants. */
  date: z.string().optional(),
  startTime: zTime.optional(),
  endTime: zTime.optional(),
  startTs: z.string().optional(),
  endTs: z.string().optional(),
});

/** PUT /wo/schedule/{id}: what changes, and the plan's version the caller saw. */
export const ZMoveSchedule = ZPlanWorkOrder.omit({ workOrderId: true }).extend({
  userId: ZPlanWorkOrder.shape.userId.optional(),
  version: z.coerce.number({ error: 'ERROR_REQUIRED_FIELD' }).int(),
});

/**
 * The span a plan asks for: ISO instants as given, or a local day with start (default 08:00) and
 * end (default two hours later; an end before the start runs past midnight).
 */
function resolveSpan(
  ctx: Ctx,
  input: { date?: string; startTime?: string; endTime?: string; startTs?: string; endTs?: string },
  fallback?: { date: string; startMinutes: number; durationMinutes: number },
): { start: Date; end: Date } {
  const bad = (field: string, code = 'ERROR_INVALID_VALUE') =>
    new AppError('VALIDATION_FAILED', 400, { fields: { [field]: [code] } });
  let start: Date;
  let end: Date;
  if (input.startTs) {
    start = new Date(input.startTs);
    end = new Date(input.endTs ?? '');
    if (Number.isNaN(start.getTime())) throw bad('startTs');
    if (!input.endTs) end = new Date(start.getTime() + (fallback?.durationMinutes ?? DEFAULT_PLAN_MINUTES) * 60_000);
    if (Number.isNaN(end.getTime())) throw bad('endTs');
  } else {
    const date = input.date ?? fallback?.date;
    if (!date) throw bad('date', 'ERROR_REQUIRED_FIELD');
    if (!parsePlainDate(date)) throw bad('date');
    const startMinutes = input.startTime
      ? parseClock(input.startTime)!
      : (fallback?.startMinutes ?? DEFAULT_START_MINUTES);
    const tz = zone(ctx);
    start = new Date(wallClockToIso(`${date}T${formatClock(startMinutes)}`, tz)!);
    if (input.endTime) {
      const endMinutes = parseClock(input.endTime)!;
      end = new Date(wallClockToIso(`${date}T${input.endTime}`, tz)!);
      // an end at or before the start runs into the next day
      if (endMinutes <= startMinutes) end = new Date(end.getTime() + 24 * 3_600_000);
    } else {
      end = new Date(start.getTime() + (fallback?.durationMinutes ?? DEFAULT_PLAN_MINUTES) * 60_000);
    }
  }
  const span = spanMinutes(start, end);
  if (!span.ok) throw bad('endTime', span.error);
  return { start, end };
}

async function requireActiveUser(ctx: Ctx, userId: string): Promise<{ id: string; name: string }> {
  const user = await ctx.trx('users').where({ id: userId, status: 'active' }).first('id', 'name');
  if (!user) throw new AppError('VALIDATION_FAILED', 400, { fields: { userId: ['ERROR_INVALID_VALUE'] } });
  return user as { id: string; name: string };
}

/** 409 SCHEDULE_DATE_TAKEN when the person already has a plan on the order that day (other than `exceptId`). */
async function ensureDayFree(ctx: Ctx, workOrderId: string, userId: string, date: string, exceptId?: string) {
  const qb = ctx.trx('work_order_schedules').where({ work_order_id: workOrderId, user_id: userId, date });
  if (exceptId) qb.whereNot('id', exceptId);
  if (await qb.first('id')) throw new AppError('SCHEDULE_DATE_TAKEN', 409, { date });
}

/** The order's planned start and end follow its plans (none: unplanned). */
async function syncPlanned(ctx: Ctx, workOrderId: string) {
  const { rows } = (await ctx.trx.raw(
    `update work_orders w set planned_start = p.s, planned_end = p.e, update_ts = ?
       from (select min(start_ts) as s, max(end_ts) as e from work_order_schedules where work_order_id = ?) p
      where w.id = ?
      returning w.id, w.number, w.title, w.customer_id, w.planned_start, w.deleted_at`,
    [ctx.now, workOrderId, workOrderId],
  )) as { rows: Record<string, unknown>[] };
  // a visit planned at a customer's: its zone users are told (decision 063)
  const wo = rows[0];
  if (wo?.planned_start && wo.customer_id && !wo.deleted_at)
    await notifyVisitPlanned(
      ctx,
      {
        id: wo.id as string,
        number: String(wo.number),
        title: wo.title as string,
        plannedStart: new Date(wo.planned_start as string),
      },
      wo.customer_id as string,
    );
}

async function ensureAssignee(ctx: Ctx, workOrderId: string, userId: string) {
  await ctx
    .trx('work_order_assignees')
    .insert({ work_order_id: workOrderId, user_id: userId })
    .onConflict(['work_order_id', 'user_id'])
    .ignore();
}

async function insertPlan(
  ctx: Ctx,
  workOrderId: string,
  user: { id: string; name: string },
  span: { start: Date; end: Date },
) {
  const date = dateIn(span.start, zone(ctx));
  await ensureDayFree(ctx, workOrderId, user.id, date);
  const [row] = await ctx
    .trx('work_order_schedules')
    .insert({
      work_order_id: workOrderId,
      user_id: user.id,
      date,
      start_ts: span.start,
      end_ts: span.end,
      created_by: ctx.auth?.user.id ?? null,
      created_at: ctx.now,
      updated_at: ctx.now,
    })
    .returning('id');
  await ensureAssignee(ctx, workOrderId, user.id);
  await syncPlanned(ctx, workOrderId);
  await recordHistory(ctx, {
    entity: WO_ENTITY,
    entityId: workOrderId,
    action: 'schedule.add',
    data: { user: user.name, startTs: span.start.toISOString(), endTs: span.end.toISOString() },
  });
  return (row as Row).id as string;
}

async function readItem(ctx: Ctx, id: string): Promise<ScheduleItem> {
  const row = await itemQuery(ctx).where('ws.id', id).first();
  if (!row) throw notFound();
  return toItem(row as Row);
}

/** POST /wo/schedule: plans a person on an order → the plan and the board version. */
export async function planWorkOrder(ctx: Ctx, raw: unknown): Promise<{ schedule: ScheduleItem; version: number }> {
  requireAccess(ctx.auth, { permission: 'workorders:edit' });
  const input = parseInput(ZPlanWorkOrder, raw);
  const wo = await loadChangeable(ctx, input.workOrderId);
  const user = await requireActiveUser(ctx, input.userId);
  const span = resolveSpan(ctx, input);
  const id = await insertPlan(ctx, wo.id, user, span);
  const version = await bumpBoard(ctx, [wo.id]);
  return { schedule: await readItem(ctx, id), version };
}

/** The plan as the caller may see it, locked for the change (404 outside their limit or tenant). */
async function loadPlanForChange(ctx: Ctx, id: unknown, version: number) {
  if (!isUuid(id)) throw notFound();
  const row = (await ctx.trx('work_order_schedules').where({ id }).forUpdate().first()) as Row | undefined;
  if (!row) throw notFound();
  await loadChangeable(ctx, row.work_order_id);
  if (Number(row.version) !== version) throw new AppError('SCHEDULE_CHANGED', 409, { version: Number(row.version) });
  return row;
}

/**
 * PUT /wo/schedule/{id}: moves a plan to another person, day or time, or changes its length.
 * `version` is the plan's version the caller saw; a newer one means someone else changed it (409
 * SCHEDULE_CHANGED, nothing written).
 */
export async function moveSchedule(
  ctx: Ctx,
  id: unknown,
  raw: unknown,
): Promise<{ schedule: ScheduleItem; version: number }> {
  requireAccess(ctx.auth, { permission: 'workorders:edit' });
  const input = parseInput(ZMoveSchedule, raw);
  const row = await loadPlanForChange(ctx, id, input.version);
  const tz = zone(ctx);
  const start0 = new Date(iso(row.start_ts));
  const end0 = new Date(iso(row.end_ts));
  const user = input.userId ? await requireActiveUser(ctx, input.userId) : null;
  const userId = user?.id ?? (row.user_id as string);
  // what the change leaves out stays as it was: the day, the start, the length
  const span = resolveSpan(ctx, input, {
    date: dateIn(start0, tz),
    startMinutes: parseClock(clockIn(start0, tz)) ?? 0,
    durationMinutes: Math.round((end0.getTime() - start0.getTime()) / 60_000),
  });
  const date = dateIn(span.start, zone(ctx));
  const workOrderId = row.work_order_id as string;
  await ensureDayFree(ctx, workOrderId, userId, date, row.id as string);
  await ctx
    .trx('work_order_schedules')
    .where({ id: row.id as string })
    .update({
      user_id: userId,
      date,
      start_ts: span.start,
      end_ts: span.end,
      version: Number(row.version) + 1,
      updated_at: ctx.now,
    });
  if (user) await ensureAssignee(ctx, workOrderId, user.id);
  await syncPlanned(ctx, workOrderId);
  await recordHistory(ctx, {
    entity: WO_ENTITY,
    entityId: workOrderId,
    action: 'schedule.edit',
    data: { startTs: span.start.toISOString(), endTs: span.end.toISOString(), ...(user ? { user: user.name } : {}) },
  });
  const version = await bumpBoard(ctx, [workOrderId]);
  return { schedule: await readItem(ctx, row.id as string), version };
}

/** DELETE /wo/schedule/{id}?version=: the plan's version the caller saw. */
export const ZDeleteSchedule = z.object({ version: z.coerce.number({ error: 'ERROR_REQUIRED_FIELD' }).int() });

/** DELETE /wo/schedule/{id}?version=: takes a plan off the board (the person stays assigned). */
export async function deleteSchedule(ctx: Ctx, id: unknown, raw: unknown): Promise<{ version: number }> {
  requireAccess(ctx.auth, { permission: 'workorders:edit' });
  const input = parseInput(ZDeleteSchedule, raw);
  const row = await loadPlanForChange(ctx, id, input.version);
  const workOrderId = row.work_order_id as string;
  await ctx
    .trx('work_order_schedules')
    .where({ id: row.id as string })
    .delete();
  await syncPlanned(ctx, workOrderId);
  const user = await ctx
    .trx('users')
    .where({ id: row.user_id as string })
    .first('name');
  await recordHistory(ctx, {
    entity: WO_ENTITY,
    entityId: workOrderId,
    action: 'schedule.delete',
    data: { user: user?.name ?? null, startTs: iso(row.start_ts) },
  });
  return { version: await bumpBoard(ctx, [workOrderId]) };
}

/**
 * One notion of planned: the planned start and end typed on the order (form or API) are plans on
 * the board, one per assignee over that span (the default length from the start when no end is given), and
 * replace the order's plans; cleared, the order is unplanned. The order's planned start and end
 * then follow its plans, as after any change on the board.
 */
export async function planFromOrderFields(
  ctx: Ctx,
  workOrderId: string,
  span: { start: Date | null; end: Date | null },
  userIds: string[],
): Promise<void> {
  await ctx.trx('work_order_schedules').where({ work_order_id: workOrderId }).delete();
  if (span.start && userIds.length) {
    const start = span.start;
    const end = span.end && span.end > start ? span.end : new Date(start.getTime() + DEFAULT_PLAN_MINUTES * 60_000);
    const date = dateIn(start, zone(ctx));
    await ctx.trx('work_order_schedules').insert(
      [...new Set(userIds)].map((user_id) => ({
        work_order_id: workOrderId,
        user_id,
        date,
        start_ts: start,
        end_ts: end,
        created_by: ctx.auth?.user.id ?? null,
        created_at: ctx.now,
        updated_at: ctx.now,
      })),
    );
  }
  await syncPlanned(ctx, workOrderId);
  await bumpBoard(ctx, [workOrderId]);
}

/** GET /wo/{id}/schedule: an order's plans, earliest first. */
export async function listOrderSchedules(ctx: Ctx, workOrderId: unknown): Promise<{ scheduleReports: ScheduleItem[] }> {
  requireAccess(ctx.auth, { permission: 'workorders:read' });
  const wo = await loadActive(ctx, workOrderId);
  return { scheduleReports: await plansOfOrder(ctx, wo.id) };
}

/** An order's plans with who is planned, for a caller that has already read the order. */
export async function plansOfOrder(ctx: Ctx, workOrderId: string): Promise<(ScheduleItem & { userName: string })[]> {
  const rows: Row[] = await itemQuery(ctx)
    .join('users as pu', 'pu.id', 'ws.user_id')
    .select('pu.name as user_name')
    .where('ws.work_order_id', workOrderId)
    .orderBy('ws.start_ts');
  return rows.map((r) => ({ ...toItem(r), userName: r.user_name as string }));
}

/** The people planned on an order: they cannot be removed from its assignees (spec section 5). */
export async function scheduledUserIds(ctx: Ctx, workOrderId: string): Promise<Set<string>> {
  const rows: Row[] = await ctx.trx('work_order_schedules').where({ work_order_id: workOrderId }).distinct('user_id');
  return new Set(rows.map((r) => r.user_id as string));
}

// ---- the remembered view (spec section 9: "local persistence per user … calendar period") ----

export type CalendarPreferences = Pick<CalendarView, 'period' | 'perspective' | 'step'>;

/** The period, perspective and project step the person last used (month, technician, 1 by default). */
export async function getCalendarPreferences(ctx: Ctx): Promise<CalendarPreferences> {
  const stored = await getUiPreference(ctx, 'calendar');
  return zPrefs.parse(stored && typeof stored === 'object' ? stored : {}) as CalendarPreferences;
}

/** Remembers the calendar's period, perspective and project step. */
export async function saveCalendarPreferences(ctx: Ctx, raw: unknown): Promise<void> {
  const prefs = zPrefs.parse(raw && typeof raw === 'object' ? raw : {});
  await setUiPreference(ctx, 'calendar', prefs);
}
