import { z } from 'zod';
import type { Ctx } from '~/core/context';
import { notFound } from '~/core/errors/app-error';
import { isUuid, parseInput } from '~/core/errors/validation';
import { recordHistory } from '~/core/history/history';
import { hasOneDecimal, nextTripDistance, totalKm, tripDistance } from './distance.rules';
import {
  expensesInSpan,
  expensesOfWeek,
  fieldError,
  zDate,
  zComment,
  zOptionalId,
  zTypedNumber,
} from './expense-common';
import { requireExpenseReader, requireExpenseWriter, requireRowWriter } from './expense-access';
import { isDateLocked } from './period-lock';
import { timeLockState } from './period-lock.service';
import { assertTimeChangeable } from './time-guard.service';

/**
 * Trips (spec section 3 "Distance report: id, userId, date, readingKm, reportedDistanceKm";
 * api-calls.md /timereports/distance…; the distance_reports app module). A trip is the odometer
 * at its end — its kilometres the reading less the previous reading of the same person and
 * vehicle, by date and then by when it was entered — or kilometres directly. Each reading's trip
 * is stored, so a reading put between two others, moved or deleted recomputes the next reading's
 * trip too; a reading below the previous (ERROR_READING_BELOW_PREVIOUS) or above the next
 * (ERROR_READING_ABOVE_NEXT) is refused. A trip in a locked month (or an approved period) cannot
 * be added, changed or deleted: 409 TIME_REPORT_LOCKED. History: entity `distance_report`.
 */

export const DISTANCE_REPORT_ENTITY = 'distance_report';

export interface DistanceReport {
  id: string;
  userId: string;
  date: string;
  /** Whose odometer: a registration number, '' for the person's usual vehicle. */
  vehicle: string;
  /** The odometer at the trip's end; null when the kilometres were given directly. */
  readingKm: number | null;
  /** The trip's kilometres: computed from the readings, or as given. */
  reportedDistanceKm: number;
  /** The reading before this one on the same vehicle (what the trip is measured from). */
  previousReadingKm: number | null;
  /** A distance compensation tag (821 …) the trip is paid by; null: none. */
  tagId: string | null;
  tagCode: string | null;
  comment: string | null;
  /** In a locked month: cannot change. */
  locked: boolean;
}

export interface LastReading {
  readingKm: number;
  date: string;
  vehicle: string;
}

type Row = Record<string, unknown>;
const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

/** A trip's position in its vehicle's chain: date, when entered, id. */
interface Position {
  userId: string;
  vehicle: string;
  date: string;
  createdAt: string;
  id: string;
}

const PREVIOUS_SQL = `(select p.reading_km::text from distance_reports p
   where p.user_id = d.user_id and p.vehicle = d.vehicle and p.reading_km is not null
     and (p.date, p.created_at, p.id) < (d.date, d.created_at, d.id)
   order by p.date desc, p.created_at desc, p.id desc limit 1)`;

const columns = (ctx: Ctx) => [
  'd.id',
  'd.user_id',
  ctx.trx.raw(`to_char(d.date, 'YYYY-MM-DD') as date_text`),
  'd.vehicle',
  ctx.trx.raw('d.reading_km::text as reading_km'),
  ctx.trx.raw('d.distance_km::text as distance_km'),
  ctx.trx.raw(`${PREVIOUS_SQL} as previous_reading_km`),
  'd.tag_id',
  't.code as tag_code',
  'd.comment',
  ctx.trx.raw(`to_char(d.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as created_text`),
];

const toReport = (r: Row): DistanceReport => ({
  id: r.id as string,
  userId: r.user_id as string,
  date: r.date_text as string,
  vehicle: r.vehicle as string,
  readingKm: num(r.reading_km),
  reportedDistanceKm: Number(r.distance_km),
  previousReadingKm: num(r.previous_reading_km),
  tagId: (r.tag_id as string | null) ?? null,
  tagCode: (r.tag_code as string | null) ?? null,
  comment: (r.comment as string | null) ?? null,
  locked: false,
});

const selectReports = (ctx: Ctx) =>
  ctx
    .trx('distance_reports as d')
    .leftJoin('compensation_tags as t', 't.id', 'd.tag_id')
    .select(columns(ctx))
    .orderBy([{ column: 'd.date' }, { column: 'd.created_at' }, { column: 'd.id' }]);

async function readRow(ctx: Ctx, id: unknown): Promise<{ report: DistanceReport; position: Position }> {
  if (!isUuid(id)) throw notFound();
  const row = (await selectReports(ctx).where('d.id', id).first()) as Row | undefined;
  if (!row) throw notFound();
  const report = toReport(row);
  return {
    report,
    position: {
      userId: report.userId,
      vehicle: report.vehicle,
      date: report.date,
      createdAt: row.created_text as string,
      id: report.id,
    },
  };
}

async function withLocks(ctx: Ctx, reports: DistanceReport[]): Promise<DistanceReport[]> {
  if (!reports.length) return reports;
  const lock = await timeLockState(ctx);
  return reports.map((r) => ({ ...r, locked: isDateLocked(lock, r.date) }));
}

async function reportsBetween(ctx: Ctx, userId: string, from: string, to: string): Promise<DistanceReport[]> {
  const rows = (await selectReports(ctx).where('d.user_id', userId).whereBetween('d.date', [from, to])) as Row[];
  return withLocks(ctx, rows.map(toReport));
}

const tripsKm = (reports: DistanceReport[]) => totalKm(reports.map((r) => ({ distanceKm: r.reportedDistanceKm })));

/** GET /timereports/distance?userId&startTime&endTime: a person's trips over at most 60 days. */
export async function listDistanceReports(
  ctx: Ctx,
  raw: Record<string, unknown>,
): Promise<{ distanceReports: DistanceReport[]; totalKm: number }> {
  const distanceReports = await expensesInSpan(ctx, 'distance', raw, reportsBetween);
  return { distanceReports, totalKm: tripsKm(distanceReports) };
}

/** The latest reading of a person (on one vehicle, or on any when none is named). */
async function latestReading(ctx: Ctx, userId: string, vehicle: string | undefined): Promise<LastReading | null> {
  const q = ctx
    .trx('distance_reports')
    .where({ user_id: userId })
    .whereNotNull('reading_km')
    .orderBy([
      { column: 'date', order: 'desc' },
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .first(
      ctx.trx.raw('reading_km::text as reading_km'),
      ctx.trx.raw(`to_char(date, 'YYYY-MM-DD') as date_text`),
      'vehicle',
    );
  if (vehicle !== undefined) void q.where({ vehicle });
  const row = (await q) as Row | undefined;
  return row
    ? { readingKm: Number(row.reading_km), date: row.date_text as string, vehicle: row.vehicle as string }
    : null;
}

/** A vehicle as typed: trimmed, single spaces, upper case (a registration number), at most 40. */
export const zVehicle = z.preprocess(
  (v) => (v === null || v === undefined ? '' : typeof v === 'string' ? v.trim().replace(/\s+/g, ' ').toUpperCase() : v),
  z.string({ error: 'ERROR_INVALID_VALUE' }).max(40, 'ERROR_MAX_LENGTH'),
);

/** POST /timereports/distance/last {userId, vehicle?}: the last odometer reading, to prefill the next. */
export async function lastDistanceReading(
  ctx: Ctx,
  raw: { userId?: unknown; vehicle?: unknown },
): Promise<{ lastReading: LastReading | null }> {
  const user = await requireExpenseReader(ctx, 'distance', raw.userId);
  const vehicle =
    raw.vehicle === undefined || raw.vehicle === null
      ? undefined
      : parseInput(z.object({ vehicle: zVehicle }), raw).vehicle;
  return { lastReading: await latestReading(ctx, user.id, vehicle) };
}

/** GET /timereports/distance/week/{year}/{week}?userId: the week's trips, their total and the last reading. */
export async function weekDistanceReports(
  ctx: Ctx,
  raw: { year?: unknown; week?: unknown; userId?: unknown },
): Promise<{
  year: number;
  week: number;
  days: string[];
  distanceReports: DistanceReport[];
  totalKm: number;
  lastReading: LastReading | null;
}> {
  const { year, week, days, userId, reports } = await expensesOfWeek(ctx, 'distance', raw, reportsBetween);
  return {
    year,
    week,
    days,
    distanceReports: reports,
    totalKm: tripsKm(reports),
    lastReading: await latestReading(ctx, userId, undefined),
  };
}

const zKm = (max: number) => zTypedNumber(max, hasOneDecimal);

export const ZTrip = z.object({
  id: zOptionalId(),
  userId: zOptionalId(),
  date: zDate(),
  vehicle: zVehicle,
  readingKm: zKm(999_999_999),
  reportedDistanceKm: zKm(9_999_999),
  tagId: zOptionalId(),
  comment: zComment(),
});

type TripInput = z.infer<typeof ZTrip>;

/** A distance tag to pay the trip by: it must be one, and active unless the trip already had it. */
async function checkTag(ctx: Ctx, tagId: string | undefined, keep: string | null): Promise<string | null> {
  if (!tagId) return null;
  const tag = isUuid(tagId)
    ? ((await ctx.trx('compensation_tags').where({ id: tagId }).first('type', 'active')) as Row | undefined)
    : undefined;
  if (!tag || tag.type !== 'distance') throw fieldError('tagId', 'ERROR_INVALID_VALUE');
  if (!tag.active && tagId !== keep) throw fieldError('tagId', 'ERROR_TAG_INACTIVE');
  return tagId;
}

/** The reading just before a place in a vehicle's chain, the trip itself left out. */
async function previousReading(
  ctx: Ctx,
  at: { userId: string; vehicle: string; date: string; createdAt: string | null; id: string | null },
): Promise<number | null> {
  const q = ctx
    .trx('distance_reports as p')
    .where({ 'p.user_id': at.userId, 'p.vehicle': at.vehicle })
    .whereNotNull('p.reading_km')
    .orderBy([
      { column: 'p.date', order: 'desc' },
      { column: 'p.created_at', order: 'desc' },
      { column: 'p.id', order: 'desc' },
    ])
    .first(ctx.trx.raw('p.reading_km::text as reading_km'));
  // a new trip comes after everything entered on its date
  if (at.createdAt === null || at.id === null) void q.where('p.date', '<=', at.date);
  else
    void q
      .whereRaw('(p.date, p.created_at, p.id) < (cast(? as date), cast(? as timestamptz), cast(? as uuid))', [
        at.date,
        at.createdAt,
        at.id,
      ])
      .whereNot('p.id', at.id);
  const row = (await q) as Row | undefined;
  return row ? Number(row.reading_km) : null;
}

/**
 * The first reading after a place in a vehicle's chain gets its trip again from the reading now
 * before it. When that would be negative the change is refused (`field` ERROR_READING_ABOVE_NEXT);
 * when its trip changes it must lie in an open period. Returns the trip changed, if any.
 */
async function rechainAfter(ctx: Ctx, at: Position): Promise<{ id: string; old: number; new: number } | null> {
  const next = (await ctx
    .trx('distance_reports as d')
    .where({ 'd.user_id': at.userId, 'd.vehicle': at.vehicle })
    .whereNotNull('d.reading_km')
    .whereRaw('(d.date, d.created_at, d.id) > (cast(? as date), cast(? as timestamptz), cast(? as uuid))', [
      at.date,
      at.createdAt,
      at.id,
    ])
    .orderBy([{ column: 'd.date' }, { column: 'd.created_at' }, { column: 'd.id' }])
    .first(
      'd.id',
      ctx.trx.raw(`to_char(d.date, 'YYYY-MM-DD') as date_text`),
      ctx.trx.raw('d.reading_km::text as reading_km'),
      ctx.trx.raw('d.distance_km::text as distance_km'),
      ctx.trx.raw(`${PREVIOUS_SQL} as previous_reading_km`),
    )) as Row | undefined;
  if (!next || next.previous_reading_km === null) return null;
  const km = nextTripDistance(Number(next.reading_km), Number(next.previous_reading_km));
  if (km === null) throw fieldError('readingKm', 'ERROR_READING_ABOVE_NEXT');
  const old = Number(next.distance_km);
  if (km === old) return null;
  await assertTimeChangeable(ctx, at.userId, next.date_text as string);
  await ctx.trx('distance_reports').where({ id: next.id }).update({ distance_km: km });
  return { id: next.id as string, old, new: km };
}

async function recordRechained(ctx: Ctx, changed: ({ id: string; old: number; new: number } | null)[]) {
  for (const c of changed)
    if (c)
      await recordHistory(ctx, {
        entity: DISTANCE_REPORT_ENTITY,
        entityId: c.id,
        action: 'edit',
        data: { reportedDistanceKm: { old: c.old, new: c.new }, reason: 'previous reading changed' },
      });
}

/** What history records of a trip. */
const summary = (r: DistanceReport) => ({
  userId: r.userId,
  date: r.date,
  vehicle: r.vehicle,
  readingKm: r.readingKm,
  reportedDistanceKm: r.reportedDistanceKm,
  tagId: r.tagId,
  comment: r.comment,
});

async function tripKm(
  ctx: Ctx,
  input: TripInput,
  at: { userId: string; createdAt: string | null; id: string | null },
): Promise<number> {
  const readingKm = input.readingKm ?? null;
  const previousReadingKm =
    readingKm === null ? null : await previousReading(ctx, { ...at, vehicle: input.vehicle, date: input.date });
  const trip = tripDistance({ readingKm, reportedDistanceKm: input.reportedDistanceKm ?? null, previousReadingKm });
  if (!trip.ok) throw fieldError(trip.field, trip.error);
  return trip.distanceKm;
}

/** A trip's columns as typed, with its kilometres and tag checked. */
const rowValues = (input: TripInput, km: number, tagId: string | null) => ({
  date: input.date,
  vehicle: input.vehicle,
  reading_km: input.readingKm ?? null,
  distance_km: km,
  tag_id: tagId,
  comment: input.comment ?? null,
});

/**
 * POST /timereports/distance {userId?, date, vehicle?, readingKm?, reportedDistanceKm?, tagId?,
 * comment?}: a trip of the asker (or of `userId`, with timereports:edit). → {distanceReport}
 */
export async function addDistanceReport(ctx: Ctx, raw: unknown): Promise<{ distanceReport: DistanceReport }> {
  const input = parseInput(ZTrip, raw);
  const user = await requireExpenseWriter(ctx, 'distance', input.userId);
  await assertTimeChangeable(ctx, user.id, input.date);
  const tagId = await checkTag(ctx, input.tagId, null);
  const km = await tripKm(ctx, input, { userId: user.id, createdAt: null, id: null });
  const [{ id }] = (await ctx
    .trx('distance_reports')
    .insert({ user_id: user.id, ...rowValues(input, km, tagId) })
    .returning('id')) as { id: string }[];
  const { report, position } = await readRow(ctx, id);
  const changed = input.readingKm === undefined ? null : await rechainAfter(ctx, position);
  await recordHistory(ctx, { entity: DISTANCE_REPORT_ENTITY, entityId: id, action: 'add', data: summary(report) });
  await recordRechained(ctx, [changed]);
  return { distanceReport: (await withLocks(ctx, [report]))[0]! };
}

/**
 * PUT /timereports/distance {id, …as POST}: changes a trip (its person stays); both its old and
 * its new date must be open. Moving a reading, changing or removing it recomputes the next reading's trip at both places.
 */
export async function editDistanceReport(ctx: Ctx, raw: unknown): Promise<{ distanceReport: DistanceReport }> {
  const input = parseInput(ZTrip, raw);
  const { report: before, position: was } = await readRow(ctx, input.id);
  requireRowWriter(ctx, 'distance', before.userId);
  // a trip stays its person's (a `userId` sent along changes nothing)
  const userId = before.userId;
  await assertTimeChangeable(ctx, userId, before.date, input.date);
  const tagId = await checkTag(ctx, input.tagId, before.tagId);
  const km = await tripKm(ctx, input, { userId, createdAt: was.createdAt, id: was.id });
  await ctx
    .trx('distance_reports')
    .where({ id: before.id })
    .update(rowValues(input, km, tagId));
  const { report, position } = await readRow(ctx, before.id);
  const changed = [];
  // the old place first: the reading that followed it measures from the one before it now
  if (before.readingKm !== null) changed.push(await rechainAfter(ctx, was));
  if (report.readingKm !== null) changed.push(await rechainAfter(ctx, position));
  await recordHistory(ctx, {
    entity: DISTANCE_REPORT_ENTITY,
    entityId: report.id,
    action: 'edit',
    data: { old: summary(before), new: summary(report) },
  });
  await recordRechained(ctx, changed);
  return { distanceReport: (await withLocks(ctx, [report]))[0]! };
}

/** DELETE /timereports/distance/{id}: the next reading's trip then measures from the one before. */
export async function deleteDistanceReport(ctx: Ctx, id: unknown): Promise<void> {
  const { report, position } = await readRow(ctx, id);
  requireRowWriter(ctx, 'distance', report.userId);
  await assertTimeChangeable(ctx, report.userId, report.date);
  await ctx.trx('distance_reports').where({ id: report.id }).delete();
  const changed = report.readingKm === null ? null : await rechainAfter(ctx, position);
  await recordHistory(ctx, {
    entity: DISTANCE_REPORT_ENTITY,
    entityId: report.id,
    action: 'delete',
    data: summary(report),
  });
  await recordRechained(ctx, [changed]);
}
