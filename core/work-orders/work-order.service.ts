import { setWorkOrderProject } from '~/core/projects/project.service';
import type { Ctx } from '~/core/context';
import { AppError, notFound, permissionDenied } from '~/core/errors/app-error';
import { isUuid, parseInput } from '~/core/errors/validation';
import { recordHistory } from '~/core/history/history';
import { hasAccess, requireAccess } from '~/core/permissions/access';
import { getWorkOrderSettings, nextWorkOrderNumber } from '~/core/work-orders/settings/settings.service';
import { z } from 'zod';
import { dispatchTarget } from './dispatch-rules.service';
import { placeWorkOrder } from './geocode';
import { lockedExpr, timeLockState } from '~/core/time-reports/period-lock.service';
import { loadActive, loadChangeable, loadWorkOrder, WO_ENTITY, type WorkOrder } from './work-order-read';
import { assigneeError, changedFields, requiredFieldErrors } from './work-order-rules';
import { planFromOrderFields, scheduledUserIds } from './schedule.service';
import { unwrapWorkOrder, ZCreateWorkOrder, ZEditWorkOrder, ZPage, type TWorkOrderFields } from './work-order.schema';

export { WO_ENTITY, type WorkOrder };

type Fields = Record<string, string[]>;

/** Input field → column, for the plain fields (references, lists and internal info apart). */
const COLUMNS: Record<string, string> = {
  title: 'title',
  description: 'description',
  internalInfo: 'internal_info',
  summary: 'summary',
  customerId: 'customer_id',
  businessObjectId: 'business_object_id',
  statusId: 'status_id',
  workTypeId: 'work_type_id',
  priority: 'priority',
  contactName: 'contact_name',
  contactEmail: 'contact_email',
  contactPhone: 'contact_phone',
  onSiteContactName: 'on_site_contact_name',
  onSiteContactPhone: 'on_site_contact_phone',
  street: 'street',
  postIndex: 'post_index',
  city: 'city',
  customerAddressId: 'customer_address_id',
  plannedStart: 'planned_start',
  plannedEnd: 'planned_end',
  customerOrderNumber: 'customer_order_number',
  invoiceMarking: 'invoice_marking',
  id06Code: 'id06_code',
};

/** The fields an `edit` history row lists with old and new values (internal info has its own event). */
const EDIT_FIELDS = [
  'title',
  'description',
  'summary',
  'status',
  'workType',
  'priority',
  'contactName',
  'contactEmail',
  'contactPhone',
  'onSiteContactName',
  'onSiteContactPhone',
  'street',
  'postIndex',
  'city',
  'customerAddressId',
  'plannedStart',
  'plannedEnd',
  'customerOrderNumber',
  'invoiceMarking',
  'id06Code',
  'projectId',
  'assignees',
  'tags',
] as const;

function columnsOf(input: TWorkOrderFields): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, column] of Object.entries(COLUMNS)) {
    const value = (input as Record<string, unknown>)[key];
    if (value !== undefined) out[column] = value;
  }
  return out;
}

interface Resolved {
  statusName?: string;
  workTypeName?: string;
  assigneeNames?: string[];
  tagNames?: string[];
}

/**
 * Checks what the order refers to, in this tenant: customer, object (of that customer), the
 * customer's address, status, work type, assignees (at least one, nobody twice, active users) and
 * tags. Adds field errors; answers the names history records.
 */
async function checkReferences(
  ctx: Ctx,
  wo: TWorkOrderFields,
  effectiveCustomerId: string | null,
  errors: Fields,
): Promise<Resolved> {
  const resolved: Resolved = {};
  const add = (field: string, key: string) => {
    const list = (errors[field] ??= []);
    if (!list.includes(key)) list.push(key);
  };
  if (wo.customerId && !(await ctx.trx('customers').where({ id: wo.customerId }).first('id')))
    add('customerId', 'ERROR_INVALID_VALUE');
  if (wo.businessObjectId) {
    const bo = await ctx.trx('business_objects').where({ id: wo.businessObjectId }).first('id', 'customer_id');
    if (!bo) add('businessObjectId', 'ERROR_INVALID_VALUE');
    else if (bo.customer_id && effectiveCustomerId && bo.customer_id !== effectiveCustomerId)
      add('businessObjectId', 'ERROR_BO_NOT_OF_CUSTOMER');
  }
  if (wo.customerAddressId) {
    const address = await ctx.trx('customer_addresses').where({ id: wo.customerAddressId }).first('customer_id');
    if (!address || address.customer_id !== effectiveCustomerId) add('customerAddressId', 'ERROR_INVALID_VALUE');
  }
  if (wo.statusId) {
    const s = await ctx.trx('work_order_statuses').where({ id: wo.statusId }).first('name');
    if (!s) add('statusId', 'ERROR_INVALID_VALUE');
    else resolved.statusName = s.name;
  }
  if (wo.workTypeId) {
    const t = await ctx.trx('work_types').where({ id: wo.workTypeId }).first('name');
    if (!t) add('workTypeId', 'ERROR_INVALID_VALUE');
    else resolved.workTypeName = t.name;
  }
  if (wo.assignees) {
    const problem = assigneeError(wo.assignees);
    if (problem) add('assignees', problem);
    else {
      const users: { id: string; name: string }[] = await ctx
        .trx('users')
        .whereIn('id', wo.assignees)
        .whereNot('status', 'inactive')
        .select('id', 'name');
      if (users.length !== wo.assignees.length) add('assignees', 'ERROR_INVALID_VALUE');
      resolved.assigneeNames = users.map((u) => u.name);
    }
  }
  if (wo.tags) {
    const unique = [...new Set(wo.tags)];
    const tags: { name: string }[] = await ctx.trx('tags').whereIn('id', unique).select('name');
    if (tags.length !== unique.length) add('tags', 'ERROR_INVALID_VALUE');
    resolved.tagNames = tags.map((t) => t.name);
  }
  return resolved;
}

const fail = (errors: Fields) => {
  if (Object.keys(errors).length) throw new AppError('VALIDATION_FAILED', 400, { fields: errors });
};

async function replaceAssignees(ctx: Ctx, id: string, users: readonly string[]) {
  await ctx.trx('work_order_assignees').where({ work_order_id: id }).delete();
  await ctx.trx('work_order_assignees').insert(users.map((user_id) => ({ work_order_id: id, user_id })));
}

async function replaceTags(ctx: Ctx, id: string, tags: readonly string[]) {
  await ctx.trx('work_order_tags').where({ work_order_id: id }).delete();
  const unique = [...new Set(tags)];
  if (unique.length) await ctx.trx('work_order_tags').insert(unique.map((tag_id) => ({ work_order_id: id, tag_id })));
}

const canEditInternal = (ctx: Ctx) => hasAccess(ctx.auth, { permission: 'workorders:edit_internal_info' });

/**
 * One address rule for every way an order is made (issue 28 item 11): an order for a customer
 * that names no address of its own takes the customer's primary address, as the order form does.
 */
async function primaryAddressOf(
  ctx: Ctx,
  wo: Pick<TWorkOrderFields, 'customerId' | 'customerAddressId' | 'street' | 'postIndex' | 'city'>,
): Promise<Partial<TWorkOrderFields>> {
  if (!wo.customerId || wo.customerAddressId || wo.street || wo.postIndex || wo.city) return {};
  const primary: Record<string, string | null> | undefined = await ctx
    .trx('customer_addresses')
    .where({ customer_id: wo.customerId, is_primary: true })
    .first('id', 'street', 'post_index', 'city');
  if (!primary) return {};
  return {
    customerAddressId: primary.id!,
    street: primary.street ?? undefined,
    postIndex: primary.post_index ?? undefined,
    city: primary.city ?? undefined,
  };
}

/**
 * POST /wo {workOrder}: a new order with the next number. Status and work type default to the
 * settings' defaults, priority to medium, assignees to the person of the dispatch rule whose window
 * holds this moment (module dispatch_rules; instead of the creator) or else to the creator; the settings' required fields
 * are enforced; internal info needs workorders:edit_internal_info (403 otherwise).
 */
export async function createWorkOrder(ctx: Ctx, raw: unknown): Promise<{ workOrder: WorkOrder }> {
  requireAccess(ctx.auth, { permission: 'workorders:create' });
  const wo = parseInput(ZCreateWorkOrder, unwrapWorkOrder(raw));
  if (wo.internalInfo && !canEditInternal(ctx)) throw permissionDenied();
  const settings = await getWorkOrderSettings(ctx);
  const input: TWorkOrderFields = {
    ...wo,
    priority: wo.priority ?? 'medium',
    statusId: wo.statusId ?? settings.statuses.find((s) => s.isDefault)?.id ?? null,
    workTypeId: wo.workTypeId ?? settings.workTypes.find((t) => t.isDefault)?.id ?? null,
    // no assignees chosen: a dispatch rule's person if one matches now, otherwise the creator
    assignees: wo.assignees ?? [(await dispatchTarget(ctx)) ?? ctx.auth.user.id],
    tags: wo.tags ?? [],
    ...(await primaryAddressOf(ctx, wo)),
  };
  const errors = requiredFieldErrors(settings.requiredFields, wo as Record<string, unknown>, 'create');
  if (!input.statusId) errors.statusId = ['ERROR_REQUIRED_FIELD'];
  if (!input.workTypeId) errors.workTypeId = ['ERROR_REQUIRED_FIELD'];
  const closing = settings.statuses.find((s) => s.id === input.statusId)?.isClosing;
  if (closing) errors.statusId = ['ERROR_INVALID_VALUE'];
  await checkReferences(ctx, input, input.customerId ?? null, errors);
  fail(errors);

  const number = await nextWorkOrderNumber(ctx);
  const [row] = await ctx
    .trx('work_orders')
    .insert({
      ...columnsOf(input),
      number,
      intake_ts: ctx.now,
      update_ts: ctx.now,
      create_user_id: ctx.auth.user.id,
    })
    .returning('id');
  const id = row.id as string;
  await replaceAssignees(ctx, id, input.assignees!);
  await replaceTags(ctx, id, input.tags!);
  if (input.plannedStart)
    await planFromOrderFields(ctx, id, { start: input.plannedStart, end: input.plannedEnd ?? null }, input.assignees!);
  if (input.street || input.postIndex || input.city)
    await placeWorkOrder(ctx, id, {
      street: input.street ?? null,
      postIndex: input.postIndex ?? null,
      city: input.city ?? null,
    });
  if (input.projectId) {
    if (input.projectExtra) {
      requireAccess(ctx.auth, { permission: 'workorders:create_project_extra_work' });
      await ctx.trx('work_orders').where({ id }).update({ project_extra_status: 'pending' });
    }
    await setWorkOrderProject(ctx, id, input.projectId);
  }
  await recordHistory(ctx, {
    entity: WO_ENTITY,
    entityId: id,
    action: 'create',
    data: { number, title: input.title, ...(input.projectId ? { projectId: input.projectId } : {}) },
  });
  return { workOrder: await loadUnlimited(ctx, id) };
}

/** The creator may be outside their own limit (assigned others only); the answer still shows the order. */
async function loadUnlimited(ctx: Ctx, id: string): Promise<WorkOrder> {
  return loadWorkOrder({ ...ctx, auth: ctx.auth ? { ...ctx.auth, limit: 'none' } : null }, id);
}

/** GET /wo/{id}: the order (404 outside the user's limit) and its assignees as users. */
export async function getWorkOrder(
  ctx: Ctx,
  id: unknown,
): Promise<{
  workOrder: WorkOrder;
  users: { id: string; fullName: string; shortName: string | null; department: string | null }[];
}> {
  requireAccess(ctx.auth, { permission: 'workorders:read' });
  const workOrder = await loadWorkOrder(ctx, id);
  const users: Record<string, unknown>[] = await ctx
    .trx('work_order_assignees as a')
    .join('users as u', 'u.id', 'a.user_id')
    .leftJoin('departments as d', 'd.id', 'u.department_id')
    .where('a.work_order_id', workOrder.id)
    .orderByRaw('lower(u.name), u.id')
    .select('u.id', 'u.name', 'u.short_name', 'd.name as department');
  return {
    workOrder,
    users: users.map((u) => ({
      id: u.id as string,
      fullName: u.name as string,
      shortName: (u.short_name as string) ?? null,
      department: (u.department as string) ?? null,
    })),
  };
}

const snapshot = (wo: WorkOrder): Record<string, unknown> => ({
  ...wo,
  status: wo.statusName,
  workType: wo.workTypeName,
  assignees: wo.assignees.map((a) => a.name),
  tags: wo.tags.map((t) => t.name),
});

/**
 * PATCH /wo {workOrder: {id, …}}: changes the fields sent. History: `edit` with each changed
 * field's old and new value, `edit.internal` (no values) when internal info changed,
 * `edit.customer` / `edit.object` when those changed. Answers the geocoded position (null until a
 * geocoder is configured) and the order.
 */
export async function editWorkOrder(
  ctx: Ctx,
  raw: unknown,
): Promise<{ locationLat: number | null; locationLng: number | null; workOrder: WorkOrder }> {
  requireAccess(ctx.auth, { permission: 'workorders:edit' });
  const input = parseInput(ZEditWorkOrder, unwrapWorkOrder(raw));
  const { id, ...wo } = input;
  const before = await loadChangeable(ctx, id);
  if (wo.internalInfo !== undefined && wo.internalInfo !== before.internalInfo && !canEditInternal(ctx))
    throw permissionDenied();
  const settings = await getWorkOrderSettings(ctx);
  const errors = requiredFieldErrors(settings.requiredFields, wo as Record<string, unknown>, 'edit');
  if ('statusId' in wo && !wo.statusId) errors.statusId = ['ERROR_REQUIRED_FIELD'];
  if ('workTypeId' in wo && !wo.workTypeId) errors.workTypeId = ['ERROR_REQUIRED_FIELD'];
  if (wo.statusId && wo.statusId !== before.statusId && settings.statuses.find((s) => s.id === wo.statusId)?.isClosing)
    errors.statusId = ['ERROR_INVALID_VALUE'];
  // New planned times replace the order's plans (one per assignee): see planFromOrderFields.
  const time = (d: Date | string | null | undefined) => (d ? new Date(d).getTime() : null);
  const replan =
    (wo.plannedStart !== undefined && time(wo.plannedStart) !== time(before.plannedStart)) ||
    (wo.plannedEnd !== undefined && time(wo.plannedEnd) !== time(before.plannedEnd));
  // spec section 5: a scheduled assignee cannot be removed (take the plan off the board first)
  if (wo.assignees && !errors.assignees && !replan) {
    const planned = await scheduledUserIds(ctx, before.id);
    if ([...planned].some((u) => !wo.assignees!.includes(u)))
      errors.assignees = ['SCHEDULED_ASSIGNEE_CANNOT_BE_REMOVED'];
  }
  const customerId = wo.customerId !== undefined ? wo.customerId : before.customerId;
  // an object kept while the customer changes must still be the customer's
  const check = { ...wo };
  if (wo.customerId !== undefined && wo.businessObjectId === undefined && before.businessObjectId)
    check.businessObjectId = before.businessObjectId;
  const names = await checkReferences(ctx, check, customerId, errors);
  fail(errors);

  const columns = columnsOf(wo);
  // the old customer's address does not stay on the order when the customer changes
  if (wo.customerId !== undefined && wo.customerId !== before.customerId && wo.customerAddressId === undefined)
    columns.customer_address_id = null;
  await ctx
    .trx('work_orders')
    .where({ id: before.id })
    .update({ ...columns, update_ts: ctx.now });
  if (wo.assignees) await replaceAssignees(ctx, before.id, wo.assignees);
  if (wo.tags) await replaceTags(ctx, before.id, wo.tags);
  if (wo.projectId !== undefined && wo.projectId !== before.projectId) {
    requireAccess(ctx.auth, { permission: 'projects:edit', module: 'projects' });
    await setWorkOrderProject(ctx, before.id, wo.projectId);
  }
  if (replan)
    await planFromOrderFields(
      ctx,
      before.id,
      {
        start:
          wo.plannedStart !== undefined ? wo.plannedStart : before.plannedStart ? new Date(before.plannedStart) : null,
        end: wo.plannedEnd !== undefined ? wo.plannedEnd : before.plannedEnd ? new Date(before.plannedEnd) : null,
      },
      wo.assignees ?? before.assignees.map((a) => a.id),
    );
  // a changed address is placed again (the map of dispatch shows the result)
  const address = {
    street: wo.street !== undefined ? wo.street : before.street,
    postIndex: wo.postIndex !== undefined ? wo.postIndex : before.postIndex,
    city: wo.city !== undefined ? wo.city : before.city,
  };
  if (address.street !== before.street || address.postIndex !== before.postIndex || address.city !== before.city)
    await placeWorkOrder(ctx, before.id, address);

  const after: Record<string, unknown> = { ...wo };
  if (names.statusName !== undefined) after.status = names.statusName;
  if (names.workTypeName !== undefined) after.workType = names.workTypeName;
  if (names.assigneeNames) after.assignees = names.assigneeNames;
  if (names.tagNames) after.tags = names.tagNames;
  const changes = changedFields(snapshot(before), after, EDIT_FIELDS);
  if (changes.length)
    await recordHistory(ctx, { entity: WO_ENTITY, entityId: before.id, action: 'edit', data: { changes } });
  if (wo.internalInfo !== undefined && wo.internalInfo !== before.internalInfo)
    await recordHistory(ctx, {
      entity: WO_ENTITY,
      entityId: before.id,
      action: 'edit.internal',
      data: { fields: ['internalInfo'] },
    });
  if (wo.customerId !== undefined && wo.customerId !== before.customerId)
    await recordCustomerChange(ctx, before, wo.customerId);
  if (wo.businessObjectId !== undefined && wo.businessObjectId !== before.businessObjectId)
    await recordObjectChange(ctx, before, wo.businessObjectId);

  const workOrder = await loadUnlimited(ctx, before.id);
  return { locationLat: workOrder.locationLat, locationLng: workOrder.locationLng, workOrder };
}

async function recordCustomerChange(ctx: Ctx, before: WorkOrder, customerId: string | null) {
  const to = customerId ? await ctx.trx('customers').where({ id: customerId }).first('name', 'customer_id') : null;
  await recordHistory(ctx, {
    entity: WO_ENTITY,
    entityId: before.id,
    action: 'edit.customer',
    data: {
      old: before.customerId
        ? { id: before.customerId, name: before.customerName, customerId: before.customerNumber }
        : null,
      new: customerId ? { id: customerId, name: to?.name ?? null, customerId: to?.customer_id ?? null } : null,
    },
  });
}

async function recordObjectChange(ctx: Ctx, before: WorkOrder, boId: string | null) {
  const to = boId ? await ctx.trx('business_objects').where({ id: boId }).first('serial_code') : null;
  await recordHistory(ctx, {
    entity: WO_ENTITY,
    entityId: before.id,
    action: 'edit.object',
    data: {
      old: before.businessObjectId
        ? { id: before.businessObjectId, serialCode: before.businessObjectSerialCode }
        : null,
      new: boId ? { id: boId, serialCode: to?.serial_code ?? null } : null,
    },
  });
}

/** PUT /wo/{id}/customer. */
export const ZSetCustomer = z.object({ customerId: z.preprocess((v) => (v === '' ? null : v), z.string().nullish()) });
/** PUT /wo/{id}/bo: the object or its id. */
export const ZSetObject = z.object({
  bo: z
    .preprocess(
      (v) => (v && typeof v === 'object' ? (v as { id?: unknown }).id : v === '' ? null : v),
      z.string().nullish(),
    )
    .transform((v) => v ?? null),
});

/**
 * PUT /wo/{id}/customer {customerId}: changes the order's customer (null clears it). An object
 * of another customer is taken off the order (recorded as edit.object). 400 for an unknown customer.
 */
export async function setWorkOrderCustomer(ctx: Ctx, id: unknown, raw: unknown): Promise<{ workOrder: WorkOrder }> {
  requireAccess(ctx.auth, { permission: 'workorders:edit' });
  const { customerId = null } = parseInput(ZSetCustomer, raw);
  const before = await loadChangeable(ctx, id);
  if (
    customerId !== null &&
    (!isUuid(customerId) || !(await ctx.trx('customers').where({ id: customerId }).first('id')))
  )
    throw new AppError('VALIDATION_FAILED', 400, { fields: { customerId: ['ERROR_INVALID_VALUE'] } });
  if (customerId === before.customerId) return { workOrder: before };
  let clearObject = false;
  if (before.businessObjectId) {
    const bo = await ctx.trx('business_objects').where({ id: before.businessObjectId }).first('customer_id');
    clearObject = Boolean(bo?.customer_id) && bo?.customer_id !== customerId;
  }
  await ctx
    .trx('work_orders')
    .where({ id: before.id })
    .update({
      customer_id: customerId,
      customer_address_id: null,
      ...(clearObject ? { business_object_id: null } : {}),
      update_ts: ctx.now,
    });
  await recordCustomerChange(ctx, before, customerId);
  if (clearObject) await recordObjectChange(ctx, before, null);
  return { workOrder: await loadUnlimited(ctx, before.id) };
}

/**
 * PUT /wo/{id}/bo {bo} (the object or its id; null clears it): the object must be the order's
 * customer's (400 ERROR_BO_NOT_OF_CUSTOMER); an order without a customer takes the object's.
 */
export async function setWorkOrderObject(ctx: Ctx, id: unknown, raw: unknown): Promise<{ workOrder: WorkOrder }> {
  requireAccess(ctx.auth, { permission: 'workorders:edit' });
  const { bo: boId } = parseInput(ZSetObject, raw);
  const before = await loadChangeable(ctx, id);
  let takeCustomer: string | null = null;
  if (boId !== null) {
    const bo = isUuid(boId) ? await ctx.trx('business_objects').where({ id: boId }).first('customer_id') : null;
    if (!bo) throw new AppError('VALIDATION_FAILED', 400, { fields: { bo: ['ERROR_INVALID_VALUE'] } });
    if (bo.customer_id && before.customerId && bo.customer_id !== before.customerId)
      throw new AppError('VALIDATION_FAILED', 400, { fields: { bo: ['ERROR_BO_NOT_OF_CUSTOMER'] } });
    if (bo.customer_id && !before.customerId) takeCustomer = bo.customer_id as string;
  }
  if (boId === before.businessObjectId) return { workOrder: before };
  await ctx
    .trx('work_orders')
    .where({ id: before.id })
    .update({ business_object_id: boId, ...(takeCustomer ? { customer_id: takeCustomer } : {}), update_ts: ctx.now });
  await recordObjectChange(ctx, before, boId);
  if (takeCustomer) await recordCustomerChange(ctx, before, takeCustomer);
  return { workOrder: await loadUnlimited(ctx, before.id) };
}

/** GET /wo/history/{id}: the order's history, newest first, with who did it. */
export async function listWorkOrderHistory(
  ctx: Ctx,
  id: unknown,
  raw: unknown = {},
): Promise<{
  rows: { userName: string | null; action: string; timestamp: string; data: unknown }[];
  totalCount: number;
}> {
  requireAccess(ctx.auth, { permission: 'workorders:read' });
  const wo = await loadWorkOrder(ctx, id);
  const page = parseInput(ZPage, raw);
  const base = ctx.trx('history as h').where({ 'h.entity': WO_ENTITY, 'h.entity_id': wo.id });
  const [{ n }] = await base.clone().count({ n: '*' });
  const rows: Record<string, unknown>[] = await base
    .clone()
    .leftJoin('users as u', 'u.id', 'h.user_id')
    .select('h.action', 'h.at', 'u.name as user_name', 'h.data')
    .orderBy([
      { column: 'h.at', order: 'desc' },
      { column: 'h.id', order: 'desc' },
    ])
    .limit(page.size)
    .offset(page.from);
  return {
    totalCount: Number(n),
    rows: rows.map((r) => ({
      userName: (r.user_name as string) ?? null,
      action: r.action as string,
      timestamp: r.at instanceof Date ? r.at.toISOString() : String(r.at),
      data: r.data ?? null,
    })),
  };
}

/**
 * DELETE /wo/{id}: to the recycle bin. Refused (409 WORK_ORDER_HAS_LOCKED_TIME_REPORTS) while
 * time reported on it lies in a locked period.
 */
export async function deleteWorkOrder(ctx: Ctx, id: unknown): Promise<void> {
  requireAccess(ctx.auth, { permission: 'workorders:delete' });
  const wo = await loadActive(ctx, id);
  const lock = await timeLockState(ctx);
  const locked = await ctx
    .trx('work_order_time')
    .where({ work_order_id: wo.id })
    .andWhere((q) => void q.where('locked', true).orWhere(lockedExpr(ctx, lock, 'date')))
    .first('id');
  if (locked) throw new AppError('WORK_ORDER_HAS_LOCKED_TIME_REPORTS', 409);
  await ctx.trx('work_orders').where({ id: wo.id }).update({ deleted_at: ctx.now, update_ts: ctx.now });
  await recordHistory(ctx, { entity: WO_ENTITY, entityId: wo.id, action: 'delete', data: { number: wo.number } });
}

/** POST /wo/restore, /wo/lock, /wo/unlock. */
export const ZWorkOrderId = z.object({ workOrderId: z.string({ error: 'ERROR_REQUIRED_FIELD' }) });

/** POST /wo/restore {workOrderId}: back from the recycle bin (not in the catalogue). */
export async function restoreWorkOrder(ctx: Ctx, raw: unknown): Promise<{ workOrder: WorkOrder }> {
  requireAccess(ctx.auth, { permission: 'workorders:delete' });
  const { workOrderId } = parseInput(ZWorkOrderId, raw);
  const wo = await loadWorkOrder(ctx, workOrderId);
  if (!wo.deletedAt) throw notFound();
  await ctx.trx('work_orders').where({ id: wo.id }).update({ deleted_at: null, update_ts: ctx.now });
  await recordHistory(ctx, { entity: WO_ENTITY, entityId: wo.id, action: 'restore' });
  return { workOrder: await loadUnlimited(ctx, wo.id) };
}

/** POST /wo/lock and /wo/unlock {workOrderId}: workorders:lock; history lock / unlock. */
export async function setWorkOrderLocked(ctx: Ctx, raw: unknown, locked: boolean): Promise<{ workOrder: WorkOrder }> {
  requireAccess(ctx.auth, { permission: 'workorders:lock' });
  const { workOrderId } = parseInput(ZWorkOrderId, raw);
  const wo = await loadActive(ctx, workOrderId);
  if (wo.isLocked !== locked) {
    await ctx.trx('work_orders').where({ id: wo.id }).update({ is_locked: locked, update_ts: ctx.now });
    await recordHistory(ctx, { entity: WO_ENTITY, entityId: wo.id, action: locked ? 'lock' : 'unlock' });
  }
  return { workOrder: await loadUnlimited(ctx, wo.id) };
}

/** PATCH /wo/{id}. */
export const ZIntake = z.object({
  intakeTs: z.preprocess(
    (v) => (typeof v === 'string' || typeof v === 'number' ? new Date(v) : v),
    z.date({ error: (issue) => (issue.input === undefined ? 'ERROR_REQUIRED_FIELD' : 'ERROR_INVALID_VALUE') }),
  ),
});

/** PATCH /wo/{id} {intakeTs}: moves the order's intake time (history: edit with old and new). */
export async function setWorkOrderIntake(ctx: Ctx, id: unknown, raw: unknown): Promise<{ workOrder: WorkOrder }> {
  requireAccess(ctx.auth, { permission: 'workorders:edit' });
  const { intakeTs } = parseInput(ZIntake, raw);
  const before = await loadChangeable(ctx, id);
  const changes = changedFields({ intakeTs: before.intakeTs }, { intakeTs }, ['intakeTs']);
  if (changes.length) {
    await ctx.trx('work_orders').where({ id: before.id }).update({ intake_ts: intakeTs, update_ts: ctx.now });
    await recordHistory(ctx, { entity: WO_ENTITY, entityId: before.id, action: 'edit', data: { changes } });
  }
  return { workOrder: await loadUnlimited(ctx, before.id) };
}

/** PUT /wo/id06/{id}. */
export const ZId06Code = z.object({
  id06Code: z
    .preprocess(
      (v) => (typeof v === 'string' && v.trim() === '' ? null : v),
      z.string().trim().max(100, 'ERROR_MAX_LENGTH').nullish(),
    )
    .transform((v) => v ?? null),
});

/** PUT /wo/id06/{id} {id06Code}: workorders:id06 with the ID06 module; history: edit. */
export async function setWorkOrderId06(ctx: Ctx, id: unknown, raw: unknown): Promise<{ workOrder: WorkOrder }> {
  requireAccess(ctx.auth, { permission: 'workorders:id06', module: 'id06' });
  const { id06Code } = parseInput(ZId06Code, raw);
  const before = await loadChangeable(ctx, id);
  const changes = changedFields({ id06Code: before.id06Code }, { id06Code }, ['id06Code']);
  if (changes.length) {
    await ctx.trx('work_orders').where({ id: before.id }).update({ id06_code: id06Code, update_ts: ctx.now });
    await recordHistory(ctx, { entity: WO_ENTITY, entityId: before.id, action: 'edit', data: { changes } });
  }
  return { workOrder: await loadUnlimited(ctx, before.id) };
}
