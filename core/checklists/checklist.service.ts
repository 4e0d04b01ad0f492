import { randomUUID } from 'node:crypto';
import type { Ctx } from '~/core/context';
import type { DocumentChecklist } from '~/core/documents/work-order-document';
import { AppError, notFound } from '~/core/errors/app-error';
import { isUuid, parseInput } from '~/core/errors/validation';
import { recordHistory } from '~/core/history/history';
import type { Access } from '~/core/permissions/access';
import { hasAccess, requireAccess } from '~/core/permissions/access';
import { isForeignKeyViolation, uniqueViolation } from '~/core/registers/list-query';
import { loadChangeable, loadWorkOrder, WO_ENTITY, type WorkOrder } from '~/core/work-orders/work-order-read';
import {
  parseChecklistValues,
  ZChecklistsOfWorkType,
  ZFillChecklist,
  ZSaveChecklist,
  type Checklist,
  type ChecklistItem,
  type ChecklistValue,
} from './checklist.schema';

export type { Checklist, ChecklistItem, ChecklistItemType, ChecklistValue } from './checklist.types';

/*
 * Checklists (issue 6 item 6; spec sections 2 and 3, app module `checklists`). Templates are kept
 * in the settings (read: settings:read, change: instance:edit, as the work-order settings); a
 * template applies to one or more work types. On an order of such a work type technicians fill it
 * in (workorders:report) while the order is open and unlocked. A template with filled checklists
 * cannot be deleted (409 CHECKLIST_IN_USE): the filled values stay readable on their orders and
 * documents, and the template can still be renamed or moved to other work types.
 */

const MODULE = 'checklists' as const;
export const CHECKLIST_ACCESS = {
  settingsRead: { permission: 'settings:read', module: MODULE },
  settingsEdit: { permission: 'instance:edit', module: MODULE },
  read: { permission: 'workorders:read', module: MODULE },
  fill: { permission: 'workorders:report', module: MODULE },
} as const satisfies Record<string, Access>;

/** History rows of templates are entity 'checklist'. */
export const CHECKLIST_ENTITY = 'checklist';

type Row = Record<string, unknown>;
const json = <T>(v: unknown, fallback: T): T =>
  v === null || v === undefined ? fallback : ((typeof v === 'string' ? JSON.parse(v) : v) as T);
const iso = (v: unknown) => (v === null || v === undefined ? null : v instanceof Date ? v.toISOString() : String(v));

function toChecklist(r: Row): Checklist {
  return {
    id: r.id as string,
    title: r.title as string,
    workTypeIds: json<string[]>(r.work_type_ids, []),
    items: json<ChecklistItem[]>(r.items, []),
    updatedAt: iso(r.updated_at)!,
  };
}

/** Templates with their work types, one statement; `where` narrows them. */
function selectChecklists(ctx: Ctx) {
  return ctx
    .trx('checklists as c')
    .select(
      'c.id',
      'c.title',
      'c.items',
      'c.updated_at',
      ctx.trx.raw(
        `coalesce((select json_agg(l.work_type_id order by t.sort_order, t.id) from checklist_work_types l
           join work_types t on t.id = l.work_type_id where l.checklist_id = c.id), '[]') as work_type_ids`,
      ),
    )
    .orderByRaw('lower(c.title), c.id');
}

async function readChecklist(ctx: Ctx, id: unknown): Promise<Checklist> {
  if (!isUuid(id)) throw notFound();
  const row = (await selectChecklists(ctx).where('c.id', id).first()) as Row | undefined;
  if (!row) throw notFound();
  return toChecklist(row);
}

export interface ChecklistSettings {
  checklists: Checklist[];
  /** The work types a template can apply to, in the settings' order. */
  workTypes: { id: string; name: string }[];
}

/** GET /instance/checklist: every template with its work types and items (settings:read). */
export async function listChecklists(ctx: Ctx): Promise<ChecklistSettings> {
  requireAccess(ctx.auth, CHECKLIST_ACCESS.settingsRead);
  const rows = (await selectChecklists(ctx)) as Row[];
  const workTypes = (await ctx
    .trx('work_types')
    .orderBy([{ column: 'sort_order' }, { column: 'created_at' }, { column: 'id' }])
    .select('id', 'name')) as { id: string; name: string }[];
  return { checklists: rows.map(toChecklist), workTypes };
}

/** GET /wo/checklist?workType: the templates that apply to a work type (workorders:read). */
export async function listChecklistsForWorkType(ctx: Ctx, workTypeId: unknown): Promise<Checklist[]> {
  requireAccess(ctx.auth, CHECKLIST_ACCESS.read);
  const { workType } = parseInput(ZChecklistsOfWorkType, { workType: workTypeId });
  const rows = (await selectChecklists(ctx).whereExists(function () {
    this.select(ctx.trx.raw('1'))
      .from('checklist_work_types as l')
      .whereRaw('l.checklist_id = c.id')
      .andWhere('l.work_type_id', workType);
  })) as Row[];
  return rows.map(toChecklist);
}

/**
 * Items as saved: an item keeps its id (its filled values stay attached), a new one gets one. An
 * id that is not one of the template's items, or appears twice, is refused.
 */
function itemsToSave(input: TSaveItems, existing: ChecklistItem[]): ChecklistItem[] {
  const known = new Set(existing.map((i) => i.id));
  const seen = new Set<string>();
  const fields: Record<string, string[]> = {};
  const items = input.map((item, i) => {
    if (item.id && (!known.has(item.id) || seen.has(item.id))) fields[`items.${i}.id`] = ['ERROR_INVALID_VALUE'];
    const id = item.id ?? randomUUID();
    seen.add(id);
    return { id, label: item.label, type: item.type, required: item.required };
  });
  if (Object.keys(fields).length) throw new AppError('VALIDATION_FAILED', 400, { fields });
  return items;
}
type TSaveItems = ReturnType<typeof ZSaveChecklist.parse>['items'];

async function checkWorkTypes(ctx: Ctx, ids: string[]) {
  const found = (await ctx.trx('work_types').whereIn('id', ids).select('id')) as { id: string }[];
  if (found.length !== ids.length)
    throw new AppError('VALIDATION_FAILED', 400, { fields: { workTypeIds: ['ERROR_INVALID_VALUE'] } });
}

/** What a template's history row keeps. */
const summary = (c: Pick<Checklist, 'title' | 'workTypeIds' | 'items'>) => ({
  title: c.title,
  workTypeIds: c.workTypeIds,
  items: c.items.map((i) => ({ label: i.label, type: i.type, required: i.required })),
});

/**
 * POST /instance/checklist (no id) and PUT /instance/checklist (with id) {id?, title, workTypeIds,
 * items: [{id?, label, type, required}]}: saves a template whole, items in the given order
 * (instance:edit). A title is unique regardless of case (409 ERROR_DUPLICATE_NAME). Changing an
 * item's type keeps values already filled; they are checked again when the order is next saved.
 */
export async function saveChecklist(ctx: Ctx, raw: unknown): Promise<Checklist> {
  requireAccess(ctx.auth, CHECKLIST_ACCESS.settingsEdit);
  const input = parseInput(ZSaveChecklist, raw);
  const existing = input.id ? await readChecklist(ctx, input.id) : null;
  const items = itemsToSave(input.items, existing?.items ?? []);
  await checkWorkTypes(ctx, input.workTypeIds);
  let id = existing?.id;
  try {
    const values = { title: input.title, items: JSON.stringify(items), updated_at: ctx.now };
    if (id) await ctx.trx('checklists').where({ id }).update(values);
    else id = ((await ctx.trx('checklists').insert(values).returning('id')) as { id: string }[])[0]!.id;
  } catch (e) {
    if (uniqueViolation(e) !== null)
      throw new AppError('ERROR_DUPLICATE_NAME', 409, { fields: { title: ['ERROR_DUPLICATE_NAME'] } });
    throw e;
  }
  await ctx.trx('checklist_work_types').where({ checklist_id: id }).delete();
  await ctx
    .trx('checklist_work_types')
    .insert(input.workTypeIds.map((workTypeId) => ({ checklist_id: id, work_type_id: workTypeId })));
  const saved = await readChecklist(ctx, id);
  await recordHistory(ctx, {
    entity: CHECKLIST_ENTITY,
    entityId: saved.id,
    action: existing ? 'edit' : 'create',
    data: { old: existing ? summary(existing) : null, new: summary(saved) },
  });
  return saved;
}

/**
 * DELETE /instance/checklist/{id} (instance:edit): removes a template no order has filled in; one
 * that is filled on any order is refused with 409 CHECKLIST_IN_USE and the number of orders.
 */
export async function deleteChecklist(ctx: Ctx, id: unknown): Promise<{ id: string }> {
  requireAccess(ctx.auth, CHECKLIST_ACCESS.settingsEdit);
  const existing = await readChecklist(ctx, id);
  const used = (await ctx
    .trx('work_order_checklists')
    .where({ checklist_id: existing.id })
    .count({ n: '*' })
    .first()) as { n: string | number } | undefined;
  const workOrders = Number(used?.n ?? 0);
  if (workOrders > 0) throw new AppError('CHECKLIST_IN_USE', 409, { usedBy: { workOrders } });
  try {
    await ctx.trx('checklists').where({ id: existing.id }).delete();
  } catch (e) {
    // filled in by someone else between the count and the delete
    if (isForeignKeyViolation(e)) throw new AppError('CHECKLIST_IN_USE', 409, { usedBy: { workOrders: 1 } });
    throw e;
  }
  await recordHistory(ctx, {
    entity: CHECKLIST_ENTITY,
    entityId: existing.id,
    action: 'delete',
    data: { old: summary(existing), new: null },
  });
  return { id: existing.id };
}

/** A template on one order: its items and what has been filled in. */
export interface WorkOrderChecklist {
  id: string;
  title: string;
  items: ChecklistItem[];
  /** Values by item id; an item without a value is not filled in yet. */
  values: Record<string, ChecklistValue>;
  /** Null until someone saves it on this order. */
  updatedAt: string | null;
  updatedByName: string | null;
}

export interface WorkOrderChecklistsData {
  workOrderId: string;
  checklists: WorkOrderChecklist[];
  /** workorders:report on an open, unlocked order that is not in the recycle bin. */
  canFill: boolean;
}

const changeable = (wo: WorkOrder) => !wo.isClosed && !wo.isLocked && !wo.deletedAt;

/**
 * The templates an order shows: those of its work type, and any already filled on it (the work type
 * may have changed since, or the template moved to other work types). One statement.
 */
async function orderChecklists(ctx: Ctx, wo: WorkOrder, checklistId?: string): Promise<WorkOrderChecklist[]> {
  const q = ctx
    .trx('checklists as c')
    .leftJoin('work_order_checklists as f', function () {
      this.on('f.checklist_id', 'c.id').andOn('f.work_order_id', ctx.trx.raw('?', [wo.id]));
    })
    .leftJoin('users as u', 'u.id', 'f.updated_by')
    .where(function () {
      this.whereNotNull('f.id').orWhereExists(function () {
        this.select(ctx.trx.raw('1'))
          .from('checklist_work_types as l')
          .whereRaw('l.checklist_id = c.id')
          .andWhere('l.work_type_id', wo.workTypeId);
      });
    })
    .orderByRaw('lower(c.title), c.id')
    .select('c.id', 'c.title', 'c.items', 'f.item_values', 'f.updated_at', 'u.name as updated_by_name');
  if (checklistId) void q.andWhere('c.id', checklistId);
  const rows = (await q) as Row[];
  return rows.map((r) => ({
    id: r.id as string,
    title: r.title as string,
    items: json<ChecklistItem[]>(r.items, []),
    values: json<Record<string, ChecklistValue>>(r.item_values, {}),
    updatedAt: iso(r.updated_at),
    updatedByName: (r.updated_by_name as string | null) ?? null,
  }));
}

function panelOf(ctx: Ctx, wo: WorkOrder, checklists: WorkOrderChecklist[]): WorkOrderChecklistsData {
  return { workOrderId: wo.id, checklists, canFill: hasAccess(ctx.auth, CHECKLIST_ACCESS.fill) && changeable(wo) };
}

/**
 * GET /wo/checklist/{id}?checklistId: an order's checklists with their values (workorders:read;
 * 404 outside the user's work-order limit). With `checklistId` only that one (404 when the order
 * does not show it).
 */
export async function getWorkOrderChecklists(
  ctx: Ctx,
  input: { workOrderId: unknown; checklistId?: unknown },
): Promise<WorkOrderChecklistsData> {
  requireAccess(ctx.auth, CHECKLIST_ACCESS.read);
  const wo = await loadWorkOrder(ctx, input.workOrderId);
  const only = input.checklistId === undefined || input.checklistId === '' ? undefined : input.checklistId;
  if (only !== undefined && !isUuid(only)) throw notFound();
  const checklists = await orderChecklists(ctx, wo, only);
  if (only !== undefined && checklists.length === 0) throw notFound();
  return panelOf(ctx, wo, checklists);
}

/** A value as the history shows it. */
const shown = (v: ChecklistValue | undefined) => (v === undefined ? null : v);

/**
 * PUT /wo/checklist {workOrderId, checklistId, values}: saves one template's values on an order
 * (workorders:report). The order must be open and unlocked (409 WORK_ORDER_CLOSED / LOCKED) and the
 * template one the order shows (its work type's, or already filled on it). Values are keyed by
 * item id: unknown ids are refused, numbers must be numbers; required items may stay empty while
 * filling. The given values replace the saved ones. History: `edit` on the order, one change per
 * item whose value changed. Answers the order's checklists.
 */
export async function saveWorkOrderChecklist(ctx: Ctx, raw: unknown): Promise<WorkOrderChecklistsData> {
  requireAccess(ctx.auth, CHECKLIST_ACCESS.fill);
  const input = parseInput(ZFillChecklist, raw);
  const wo = await loadChangeable(ctx, input.workOrderId);
  if (!isUuid(input.checklistId)) throw notFound();
  const [current] = await orderChecklists(ctx, wo, input.checklistId);
  if (!current) {
    // a template of another work type: refused as a bad choice; one that does not exist: 404
    const exists = await ctx.trx('checklists').where({ id: input.checklistId }).first('id');
    if (!exists) throw notFound();
    throw new AppError('VALIDATION_FAILED', 400, { fields: { checklistId: ['ERROR_CHECKLIST_NOT_FOR_WORK_TYPE'] } });
  }
  const values = parseChecklistValues(current.items, input.values);
  await ctx.trx.raw(
    `insert into work_order_checklists (work_order_id, checklist_id, item_values, updated_by, updated_at)
     values (?, ?, ?::jsonb, ?, ?)
     on conflict (work_order_id, checklist_id)
     do update set item_values = excluded.item_values, updated_by = excluded.updated_by, updated_at = excluded.updated_at`,
    [wo.id, current.id, JSON.stringify(values), ctx.auth.user.id, ctx.now],
  );
  await ctx.trx('work_orders').where({ id: wo.id }).update({ update_ts: ctx.now });
  const changes = current.items
    .filter((item) => shown(current.values[item.id]) !== shown(values[item.id]))
    .map((item) => ({
      field: `${current.title}: ${item.label}`,
      old: shown(current.values[item.id]),
      new: shown(values[item.id]),
    }));
  await recordHistory(ctx, {
    entity: WO_ENTITY,
    entityId: wo.id,
    action: 'edit',
    data: { checklistId: current.id, checklist: current.title, changes },
  });
  return panelOf(ctx, wo, await orderChecklists(ctx, wo));
}

/**
 * The checklists filled in on an order as its documents print them (decision 011: raw values; a
 * number as decimal text), in title order; items removed from a template since are left out. One
 * statement. The caller has already checked access to the order.
 */
export async function filledChecklistsForDocument(ctx: Ctx, workOrderId: string): Promise<DocumentChecklist[]> {
  const rows = (await ctx
    .trx('work_order_checklists as f')
    .join('checklists as c', 'c.id', 'f.checklist_id')
    .where('f.work_order_id', workOrderId)
    .orderByRaw('lower(c.title), c.id')
    .select('c.title', 'c.items', 'f.item_values')) as Row[];
  return rows.map((r) => {
    const values = json<Record<string, ChecklistValue>>(r.item_values, {});
    return {
      title: r.title as string,
      items: json<ChecklistItem[]>(r.items, []).map((item) => {
        const v = values[item.id];
        return {
          label: item.label,
          type: item.type,
          isCheck: item.type === 'check',
          isNumber: item.type === 'number',
          checked: item.type === 'check' && v === true,
          value: item.type === 'check' || v === undefined ? null : String(v),
        };
      }),
    };
  });
}
