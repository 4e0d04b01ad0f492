import type { Ctx } from '~/core/context';
import { AppError, notFound } from '~/core/errors/app-error';
import { preparedInTenant } from '~/core/db/with-tenant';
import { recordHistory } from '~/core/history/history';
import { requireAccess } from '~/core/permissions/access';
import { inUse, isForeignKeyViolation, uniqueViolation } from '~/core/registers/list-query';
import { parseSettingsPatch, type WorkOrderSettingsPatch } from './settings.rules';

import {
  REQUIRED_FIELDS,
  type Tag,
  type WorkOrderMode,
  type WorkOrderSettings,
  type WorkOrderStatus,
  type WorkType,
} from './settings.types';

export {
  REQUIRED_FIELDS,
  WORK_ORDER_MODES,
  type RequiredField,
  type Tag,
  type WorkOrderMode,
  type WorkOrderSettings,
  type WorkOrderStatus,
  type WorkType,
} from './settings.types';

interface StatusRow {
  id: string;
  name: string;
  is_default: boolean;
  is_closing: boolean;
  sort_order: number;
}
interface TypeRow {
  id: string;
  name: string;
  is_default: boolean;
  sort_order: number;
}
interface OptionsRow {
  required_fields: string[];
  mode: WorkOrderMode;
  number_prefix: string;
  next_number: string | number;
  time_lock_day: number | null;
}

export async function readStatuses(ctx: Ctx): Promise<WorkOrderStatus[]> {
  const rows: StatusRow[] = await ctx
    .trx('work_order_statuses')
    .select('id', 'name', 'is_default', 'is_closing', 'sort_order')
    .orderBy([{ column: 'sort_order' }, { column: 'created_at' }, { column: 'id' }]);
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    isDefault: r.is_default,
    isClosing: r.is_closing,
    sortOrder: r.sort_order,
  }));
}

export async function readWorkTypes(ctx: Ctx): Promise<WorkType[]> {
  const rows: TypeRow[] = await ctx
    .trx('work_types')
    .select('id', 'name', 'is_default', 'sort_order')
    .orderBy([{ column: 'sort_order' }, { column: 'created_at' }, { column: 'id' }]);
  return rows.map((r) => ({ id: r.id, name: r.name, isDefault: r.is_default, sortOrder: r.sort_order }));
}

/**
 * The work-order configuration as columns of one select (statuses, types, tags as JSON arrays in
 * their order, the options row as an object), so that a page reads it with whatever else it needs
 * in one statement instead of four.
 */
export const SETTINGS_COLUMNS_SQL = `
  (select coalesce(json_agg(json_build_object('id', id, 'name', name, 'isDefault', is_default,
            'isClosing', is_closing, 'sortOrder', sort_order) order by sort_order, created_at, id), '[]')
     from work_order_statuses) as statuses,
  (select coalesce(json_agg(json_build_object('id', id, 'name', name, 'isDefault', is_default,
            'sortOrder', sort_order) order by sort_order, created_at, id), '[]')
     from work_types) as work_types,
  (select coalesce(json_agg(json_build_object('id', id, 'name', name, 'color', color)
            order by sort_order, created_at, id), '[]')
     from tags) as tags,
  (select row_to_json(o) from (select required_fields, mode, number_prefix, next_number, time_lock_day
     from work_order_settings limit 1) o) as options`;

export function settingsFromColumns(row: {
  statuses: WorkOrderStatus[];
  work_types: WorkType[];
  tags: Tag[];
  options: OptionsRow | null;
}): WorkOrderSettings {
  const o = row.options;
  const required = new Set(o?.required_fields ?? []);
  return {
    statuses: row.statuses,
    workTypes: row.work_types,
    tags: row.tags,
    requiredFields: REQUIRED_FIELDS.filter((f) => required.has(f)),
    mode: o?.mode ?? 'default',
    numberPrefix: o?.number_prefix ?? '',
    nextNumber: Number(o?.next_number ?? 1),
    timeLockDay: o?.time_lock_day ?? null,
  };
}

/** Every signed-in user may read the configuration: work-order forms need it. One statement. */
export async function getWorkOrderSettings(ctx: Ctx): Promise<WorkOrderSettings> {
  requireAccess(ctx.auth, { permission: 'signed-in' });
  const [row] = await preparedInTenant<Parameters<typeof settingsFromColumns>[0]>(
    ctx.trx,
    ctx.tenant,
    { name: 'work-order-settings', sql: `select ${SETTINGS_COLUMNS_SQL}` },
    [],
  );
  return settingsFromColumns(row!);
}

/**
 * Takes and increments the next work-order number inside the caller's transaction (the
 * single settings row is locked until it ends), e.g. "WO-1042" with the prefix "WO-".
 */
export async function nextWorkOrderNumber(ctx: Ctx): Promise<string> {
  const rows: { number_prefix: string; taken: string | number }[] = await ctx.trx
    .raw(
      `update work_order_settings set next_number = next_number + 1
       returning number_prefix, next_number - 1 as taken`,
    )
    .then((r: { rows: { number_prefix: string; taken: string | number }[] }) => r.rows);
  const row = rows[0];
  if (!row) throw new Error('work_order_settings has no row');
  return `${row.number_prefix}${String(row.taken)}`;
}

/**
 * The instance's `workOrderConfiguration` of spec section 3 (statuses and work types with name
 * and default), for GET /instance.
 */
export async function getWorkOrderConfiguration(ctx: Ctx) {
  requireAccess(ctx.auth, { permission: 'signed-in' });
  const [statuses, workTypes] = [await readStatuses(ctx), await readWorkTypes(ctx)];
  return { statuses, workTypes };
}

type Section = 'statuses' | 'workTypes' | 'tags';
interface SetSpec {
  table: string;
  section: Section;
  /** Columns written from a row, with their SQL types for jsonb_to_recordset. */
  columns: Record<string, string>;
  hasDefault: boolean;
}
const SETS: Record<Section, SetSpec> = {
  statuses: {
    table: 'work_order_statuses',
    section: 'statuses',
    columns: { name: 'text', is_default: 'boolean', is_closing: 'boolean', sort_order: 'integer' },
    hasDefault: true,
  },
  workTypes: {
    table: 'work_types',
    section: 'workTypes',
    columns: { name: 'text', is_default: 'boolean', sort_order: 'integer' },
    hasDefault: true,
  },
  tags: {
    table: 'tags',
    section: 'tags',
    columns: { name: 'text', color: 'text', sort_order: 'integer' },
    hasDefault: false,
  },
};

function rowsFor(section: Section, patch: WorkOrderSettingsPatch) {
  if (section === 'statuses')
    return patch.statuses?.map((r, i) => ({
      id: r.id,
      name: r.name,
      is_default: r.isDefault,
      is_closing: r.isClosing,
      sort_order: i + 1,
    }));
  if (section === 'workTypes')
    return patch.workTypes?.map((r, i) => ({ id: r.id, name: r.name, is_default: r.isDefault, sort_order: i + 1 }));
  return patch.tags?.map((r, i) => ({ id: r.id, name: r.name, color: r.color, sort_order: i + 1 }));
}

/**
 * What still references rows of `table` (work orders, their tags, …), found through the
 * foreign keys pointing at it, so tables added later are covered too. One catalogue query plus
 * one count per referencing table.
 */
async function usedBy(ctx: Ctx, table: string, ids: string[]): Promise<Record<string, number>> {
  const refs: { rows: { ns: string; rel: string; col: string }[] } = await ctx.trx.raw(
    `select n.nspname as ns, cl.relname as rel, a.attname as col
       from pg_constraint c
       join pg_class cl on cl.oid = c.conrelid
       join pg_namespace n on n.oid = cl.relnamespace
       join pg_attribute a on a.attrelid = c.conrelid and a.attnum = c.conkey[1]
      where c.contype = 'f' and c.confrelid = to_regclass(?)`,
    [table],
  );
  const counts: Record<string, number> = {};
  for (const ref of refs.rows) {
    const row = (await ctx.trx.withSchema(ref.ns).from(ref.rel).whereIn(ref.col, ids).count({ n: '*' }).first()) as
      { n: string | number } | undefined;
    const kind = ref.rel.startsWith('work_order')
      ? 'workOrders'
      : ref.rel.replace(/_(\w)/g, (_, c: string) => c.toUpperCase());
    counts[kind] = (counts[kind] ?? 0) + Number(row?.n ?? 0);
  }
  return counts;
}

/**
 * Replaces one set (statuses, work types or tags) with the given rows in order: rows with an id
 * keep it (work orders reference them), rows without one are added, the rest are deleted unless
 * something uses them (409 IN_USE). Kept rows first get neutral names and no default, so that
 * swapping names or the default between rows does not trip the unique indexes on the way.
 */
async function replaceSet(ctx: Ctx, spec: SetSpec, rows: ({ id: string | null } & Record<string, unknown>)[]) {
  const existing = new Set(((await ctx.trx(spec.table).select('id').forUpdate()) as { id: string }[]).map((r) => r.id));
  const kept = rows.filter((r): r is typeof r & { id: string } => r.id !== null);
  for (const r of kept) if (!existing.has(r.id)) throw notFound();
  const keptIds = new Set(kept.map((r) => r.id));
  const removed = [...existing].filter((id) => !keptIds.has(id));
  if (removed.length) {
    const counts = await usedBy(ctx, spec.table, removed);
    if (Object.values(counts).some((n) => n > 0)) throw inUse(counts);
    await ctx.trx(spec.table).whereIn('id', removed).delete();
  }
  const columns = Object.keys(spec.columns);
  if (kept.length) {
    await ctx
      .trx(spec.table)
      .whereIn('id', [...keptIds])
      .update({ name: ctx.trx.raw(`'~' || id::text`), ...(spec.hasDefault ? { is_default: false } : {}) });
    const recordset = [`id uuid`, ...columns.map((c) => `${c} ${spec.columns[c]}`)].join(', ');
    await ctx.trx.raw(
      `update ?? as t set ${columns.map((c) => `${c} = v.${c}`).join(', ')}
         from jsonb_to_recordset(?::jsonb) as v(${recordset})
        where t.id = v.id`,
      [spec.table, JSON.stringify(kept)],
    );
  }
  const added = rows.filter((r) => r.id === null).map(({ id: _id, ...r }) => r);
  if (added.length) await ctx.trx(spec.table).insert(added);
}

/** Whether any work order exists yet (the work-order tables may not, while that area is built). */
async function workOrdersExist(ctx: Ctx): Promise<boolean> {
  const reg: { rows: { t: string | null }[] } = await ctx.trx.raw(`select to_regclass('work_orders')::text as t`);
  if (!reg.rows[0]?.t) return false;
  const any: { rows: { e: boolean }[] } = await ctx.trx.raw(`select exists (select 1 from work_orders) as e`);
  return any.rows[0]?.e === true;
}

/**
 * PATCH /instance/wo: saves any of statuses, work types, tags (each a whole set, replaced in
 * order) and the options (required fields, mode, numbering), under the rules of spec section 5,
 * in the caller's transaction with one history row. Answers the full settings.
 */
export async function updateWorkOrderSettings(ctx: Ctx, raw: unknown): Promise<WorkOrderSettings> {
  requireAccess(ctx.auth, { permission: 'instance:edit' });
  const patch = parseSettingsPatch(raw);
  try {
    for (const section of ['statuses', 'workTypes', 'tags'] as const) {
      const rows = rowsFor(section, patch);
      if (rows) await replaceSet(ctx, SETS[section], rows);
    }
  } catch (e) {
    if (uniqueViolation(e) !== null) throw new AppError('ERROR_DUPLICATE_NAME', 409);
    if (isForeignKeyViolation(e)) throw inUse({ workOrders: 1 });
    throw e;
  }
  const options: Record<string, unknown> = {};
  if (patch.requiredFields)
    // An array literal of fixed names: the same on pg and PGlite.
    options.required_fields = ctx.trx.raw('?::text[]', [`{${patch.requiredFields.join(',')}}`]);
  if (patch.mode) options.mode = patch.mode;
  if (patch.numberPrefix !== undefined) options.number_prefix = patch.numberPrefix;
  if (patch.nextNumber !== undefined) {
    const row = (await ctx.trx('work_order_settings').forUpdate().first('next_number')) as
      { next_number: string | number } | undefined;
    // Numbers already given out stay taken: once work orders exist the counter only moves up.
    if (row && patch.nextNumber < Number(row.next_number) && (await workOrdersExist(ctx)))
      throw new AppError('VALIDATION_FAILED', 400, { fields: { nextNumber: ['ERROR_NEXT_NUMBER_TOO_LOW'] } });
    options.next_number = patch.nextNumber;
  }
  if (patch.timeLockDay !== undefined) options.time_lock_day = patch.timeLockDay;
  if (Object.keys(options).length) await ctx.trx('work_order_settings').update({ ...options, updated_at: ctx.now });
  await recordHistory(ctx, { entity: 'work_order_settings', entityId: ctx.tenant.id, action: 'edit', data: patch });
  return getWorkOrderSettings(ctx);
}
