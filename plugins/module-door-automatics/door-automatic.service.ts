import { deleteFilesOf } from '~/core/files/files.service';
import type { Ctx } from '~/core/context';
import { AppError, notFound } from '~/core/errors/app-error';
import { isUuid, parseInput } from '~/core/errors/validation';
import { recordHistory } from '~/core/history/history';
import { requireAccess } from '~/core/permissions/access';
import { containsPattern, duplicate, uniqueViolation } from '~/core/registers/list-query';
import { proposeNumber } from '~/core/registers/propose-id';
import { ENTITY, MODULE_ID } from './constants';
import {
  ZCreateDoorAutomatic,
  ZDoorAutomaticFilter,
  ZHistoryPage,
  ZProposeDoorAutomaticId,
  ZUpdateDoorAutomatic,
} from './door-automatic.schema';

const READ = { permission: 'doorautomatics:read', module: MODULE_ID } as const;
const EDIT = { permission: 'doorautomatics:edit', module: MODULE_ID } as const;
const DELETE = { permission: 'doorautomatics:delete', module: MODULE_ID } as const;

/** The indexed search expression of `door_automatics_search_idx`. */
const SEARCH = `d.search_text`;

export interface DoorAutomaticObject {
  id: string;
  serialCode: string;
  location: string | null;
  customerName: string | null;
}

export interface DoorAutomatic {
  id: string;
  /** The door automatic ID people use. */
  number: string;
  title: string;
  businessObjectId: string;
  businessObject: DoorAutomaticObject;
  serialCode: string | null;
  brand: string | null;
  model: string | null;
  location: string | null;
  /** YYYY-MM-DD */
  warrantyUntil: string | null;
  sensor: string | null;
  notes: string | null;
  image: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface HistoryEntry {
  id: string;
  action: string;
  at: string;
  userId: string | null;
  userName: string | null;
  data: unknown;
}

type Row = Record<string, unknown>;

const iso = (v: unknown) => (v instanceof Date ? v.toISOString() : String(v));
const text = (v: unknown) => (v === null || v === undefined ? null : String(v));
/** A date column as YYYY-MM-DD, whether the driver gives a string or a Date (at local midnight). */
function day(v: unknown): string | null {
  if (v === null || v === undefined) return null;
  if (v instanceof Date) {
    const pad = (n: number) => String(n).padStart(2, '0');
    return `${v.getFullYear()}-${pad(v.getMonth() + 1)}-${pad(v.getDate())}`;
  }
  return String(v).slice(0, 10);
}

/** One statement: the door automatics with their object and its customer. */
export function selectDoorAutomatics(ctx: Ctx) {
  return ctx
    .trx('door_automatics as d')
    .join('business_objects as bo', 'bo.id', 'd.business_object_id')
    .leftJoin('customers as c', 'c.id', 'bo.customer_id')
    .select('d.*', 'bo.serial_code as bo_serial_code', 'bo.location as bo_location', 'c.name as customer_name');
}

export function toDoorAutomatic(r: Row): DoorAutomatic {
  return {
    id: r.id as string,
    number: r.number as string,
    title: r.title as string,
    businessObjectId: r.business_object_id as string,
    businessObject: {
      id: r.business_object_id as string,
      serialCode: r.bo_serial_code as string,
      location: text(r.bo_location),
      customerName: text(r.customer_name),
    },
    serialCode: text(r.serial_code),
    brand: text(r.brand),
    model: text(r.model),
    location: text(r.location),
    warrantyUntil: day(r.warranty_until),
    sensor: text(r.sensor),
    notes: text(r.notes),
    image: text(r.image),
    createdAt: iso(r.created_at),
    updatedAt: iso(r.updated_at),
  };
}

/**
 * GET /doorautomatics?businessObjectId&q&offset&limit: one object's door automatics, or all of
 * them, filtered by text with the trigram index, by ID. Two statements: the page and the count.
 */
export async function listDoorAutomatics(
  ctx: Ctx,
  raw: unknown = {},
): Promise<{ doorAutomatics: DoorAutomatic[]; totalCount: number }> {
  requireAccess(ctx.auth, READ);
  const f = parseInput(ZDoorAutomaticFilter, raw);
  if (f.businessObjectId && !isUuid(f.businessObjectId)) return { doorAutomatics: [], totalCount: 0 };
  const filtered = <Q extends ReturnType<Ctx['trx']>>(q: Q): Q => {
    if (f.businessObjectId) q.where('d.business_object_id', f.businessObjectId);
    if (f.q) q.whereRaw(`${SEARCH} like ?`, [containsPattern(f.q)]);
    return q;
  };
  const [{ n }] = (await filtered(ctx.trx('door_automatics as d')).count({ n: '*' })) as { n: string | number }[];
  const rows = (await filtered(selectDoorAutomatics(ctx))
    .orderByRaw('lower(d.number), d.id')
    .limit(f.limit)
    .offset(f.offset)) as Row[];
  return { doorAutomatics: rows.map(toDoorAutomatic), totalCount: Number(n) };
}

async function findRow(ctx: Ctx, id: unknown): Promise<Row> {
  if (!isUuid(id)) throw notFound();
  const row = (await selectDoorAutomatics(ctx).where('d.id', id).first()) as Row | undefined;
  if (!row) throw notFound();
  return row;
}

/** GET /doorautomatics/{id}. */
export async function getDoorAutomatic(ctx: Ctx, id: unknown): Promise<DoorAutomatic> {
  requireAccess(ctx.auth, READ);
  return toDoorAutomatic(await findRow(ctx, id));
}

/** The object a door automatic list is filtered by, as the picker shows it (null when unknown). */
export async function doorAutomaticObject(ctx: Ctx, id: unknown): Promise<DoorAutomaticObject | null> {
  requireAccess(ctx.auth, READ);
  if (!isUuid(id)) return null;
  const row = (await ctx
    .trx('business_objects as bo')
    .leftJoin('customers as c', 'c.id', 'bo.customer_id')
    .where('bo.id', id)
    .first('bo.id', 'bo.serial_code', 'bo.location', 'c.name as customer_name')) as Row | undefined;
  return row
    ? {
        id: row.id as string,
        serialCode: row.serial_code as string,
        location: text(row.location),
        customerName: text(row.customer_name),
      }
    : null;
}

/** An object id from a body: one of this tenant's objects, else a field error (not a 404: the door automatic is what is asked for). */
async function requireObject(ctx: Ctx, id: unknown): Promise<{ id: string; serialCode: string }> {
  const row = isUuid(id)
    ? ((await ctx.trx('business_objects').where({ id }).first('id', 'serial_code')) as Row | undefined)
    : undefined;
  if (!row) throw new AppError('VALIDATION_FAILED', 400, { fields: { businessObjectId: ['ERROR_INVALID_VALUE'] } });
  return { id: row.id as string, serialCode: row.serial_code as string };
}

/**
 * The next door automatic ID for an object: `<object serial>-<n>`, one more than the largest n
 * taken (padded to `length` digits when asked); without an object, the next all-digit ID of
 * `length` digits (5 unless told), like every register's proposal.
 */
async function nextId(ctx: Ctx, object: { serialCode: string } | null, length: number | undefined) {
  if (!object) return (await proposeNumber(ctx, 'door_automatics', 'number', { length: length ?? 5 })).id;
  const prefix = `${object.serialCode}-`;
  const rows = (await ctx
    .trx('door_automatics')
    .whereRaw('lower(number) like ?', [`${containsPattern(prefix).slice(1, -1)}%`])
    .select('number')) as { number: string }[];
  let max = 0n;
  for (const { number } of rows) {
    const suffix = number.slice(prefix.length);
    if (/^\d{1,18}$/.test(suffix) && BigInt(suffix) > max) max = BigInt(suffix);
  }
  return prefix + (max + 1n).toString().padStart(length ?? 1, '0');
}

/** GET /doorautomatics/id/propose?length&relationId: the next free ID, for an object when relationId names one. */
export async function proposeDoorAutomaticId(ctx: Ctx, raw: unknown): Promise<{ id: string }> {
  requireAccess(ctx.auth, EDIT);
  const q = parseInput(ZProposeDoorAutomaticId, raw);
  let object: { serialCode: string } | null = null;
  if (q.relationId) {
    if (!isUuid(q.relationId)) throw notFound();
    const row = (await ctx.trx('business_objects').where({ id: q.relationId }).first('serial_code')) as
      { serial_code: string } | undefined;
    if (!row) throw notFound();
    object = { serialCode: row.serial_code };
  }
  return { id: await nextId(ctx, object, q.length) };
}

/** Runs a write in a savepoint, so a taken ID answers 409 and the request's transaction stays usable. */
async function guarded<T>(ctx: Ctx, fn: (trx: Ctx['trx']) => Promise<T>): Promise<T> {
  try {
    return await ctx.trx.transaction((sp) => fn(sp));
  } catch (e) {
    if (uniqueViolation(e) === 'door_automatics_number_idx') throw duplicate('DUPLICATE_DOOR_AUTOMATIC_ID', 'number');
    throw e;
  }
}

/** The body as sent: `{doorAutomatic}` or the fields at the top level. */
function unwrap(raw: unknown): unknown {
  const body = raw as { doorAutomatic?: unknown } | null;
  return body && typeof body === 'object' && body.doorAutomatic && typeof body.doorAutomatic === 'object'
    ? body.doorAutomatic
    : raw;
}

const columns = (input: Partial<Record<string, unknown>>) => {
  const map: Record<string, string> = {
    number: 'number',
    title: 'title',
    businessObjectId: 'business_object_id',
    serialCode: 'serial_code',
    brand: 'brand',
    model: 'model',
    location: 'location',
    warrantyUntil: 'warranty_until',
    sensor: 'sensor',
    notes: 'notes',
    image: 'image',
  };
  return Object.fromEntries(
    Object.entries(input)
      .filter(([k, v]) => k in map && v !== undefined)
      .map(([k, v]) => [map[k]!, v]),
  );
};

/** POST /doorautomatics {title, businessObjectId, …}: 409 DUPLICATE_DOOR_AUTOMATIC_ID on a taken ID. */
export async function createDoorAutomatic(ctx: Ctx, raw: unknown): Promise<DoorAutomatic> {
  requireAccess(ctx.auth, EDIT);
  const input = parseInput(ZCreateDoorAutomatic, unwrap(raw));
  const object = await requireObject(ctx, input.businessObjectId);
  const number = input.number ?? (await nextId(ctx, object, undefined));
  const [row] = (await guarded(ctx, (trx) =>
    trx('door_automatics')
      .insert({ ...columns({ ...input, number }), created_at: ctx.now, updated_at: ctx.now })
      .returning('id'),
  )) as { id: string }[];
  await recordHistory(ctx, { entity: ENTITY, entityId: row!.id, action: 'create', data: { ...input, number } });
  return getDoorAutomatic(ctx, row!.id);
}

/** PUT /doorautomatics {id, …fields to change}. */
export async function updateDoorAutomatic(ctx: Ctx, raw: unknown): Promise<DoorAutomatic> {
  requireAccess(ctx.auth, EDIT);
  const { id, ...input } = parseInput(ZUpdateDoorAutomatic, unwrap(raw));
  const before = toDoorAutomatic(await findRow(ctx, id));
  if (input.businessObjectId !== undefined) await requireObject(ctx, input.businessObjectId);
  const changes = columns(input);
  await guarded(ctx, (trx) =>
    trx('door_automatics')
      .where({ id })
      .update({ ...changes, updated_at: ctx.now }),
  );
  const changed = Object.fromEntries(
    Object.entries(input).filter(
      ([k, v]) => v !== undefined && JSON.stringify((before as unknown as Row)[k]) !== JSON.stringify(v),
    ),
  );
  await recordHistory(ctx, { entity: ENTITY, entityId: id, action: 'edit', data: { changed } });
  return getDoorAutomatic(ctx, id);
}

/** DELETE /doorautomatics/{id}. */
export async function deleteDoorAutomatic(ctx: Ctx, id: unknown): Promise<void> {
  requireAccess(ctx.auth, DELETE);
  const row = await findRow(ctx, id);
  await ctx.trx('door_automatics').where({ id: row.id }).delete();
  await deleteFilesOf(ctx, 'doorautomatic', [row.id as string]);
  await recordHistory(ctx, {
    entity: ENTITY,
    entityId: row.id as string,
    action: 'delete',
    data: { number: row.number, title: row.title, businessObjectId: row.business_object_id },
  });
}

/** GET /doorautomatics/{id}/history?from&size: newest first, with who did it. */
export async function listDoorAutomaticHistory(
  ctx: Ctx,
  id: unknown,
  raw: unknown = {},
): Promise<{ history: HistoryEntry[]; totalCount: number }> {
  requireAccess(ctx.auth, READ);
  if (!isUuid(id)) throw notFound();
  const page = parseInput(ZHistoryPage, raw);
  const exists = await ctx.trx('door_automatics').where({ id }).first('id');
  if (!exists) throw notFound();
  const base = ctx.trx('history as h').where({ 'h.entity': ENTITY, 'h.entity_id': id });
  const [{ n }] = (await base.clone().count({ n: '*' })) as { n: string | number }[];
  const rows = (await base
    .clone()
    .leftJoin('users as u', 'u.id', 'h.user_id')
    .select('h.id', 'h.action', 'h.at', 'h.user_id', 'u.name as user_name', 'h.data')
    .orderBy([
      { column: 'h.at', order: 'desc' },
      { column: 'h.id', order: 'desc' },
    ])
    .limit(page.size)
    .offset(page.from)) as Row[];
  return {
    totalCount: Number(n),
    history: rows.map((r) => ({
      id: String(r.id),
      action: r.action as string,
      at: iso(r.at),
      userId: text(r.user_id),
      userName: text(r.user_name),
      data: r.data ?? null,
    })),
  };
}
