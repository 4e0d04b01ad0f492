import type { Knex } from 'knex';
import type { Ctx } from '~/core/context';
import { AppError, notFound } from '~/core/errors/app-error';
import { isUuid } from '~/core/errors/validation';
import { preparedInTenant } from '~/core/db/with-tenant';
import type { Priority } from './work-order.schema';

/** The history rows of a work order are entity 'work_order'. */
export const WO_ENTITY = 'work_order';

export interface WorkOrderUser {
  id: string;
  name: string;
}
export interface WorkOrderTag {
  id: string;
  name: string;
  color: string;
}

/** A work order as the API answers it (spec section 3). */
export interface WorkOrder {
  id: string;
  number: string;
  title: string;
  description: string | null;
  internalInfo: string | null;
  summary: string | null;
  customerId: string | null;
  customerName: string | null;
  customerNumber: string | null;
  businessObjectId: string | null;
  businessObjectSerialCode: string | null;
  statusId: string;
  statusName: string;
  workTypeId: string;
  workTypeName: string;
  priority: Priority;
  contactName: string | null;
  contactEmail: string | null;
  contactPhone: string | null;
  onSiteContactName: string | null;
  onSiteContactPhone: string | null;
  street: string | null;
  postIndex: string | null;
  city: string | null;
  customerAddressId: string | null;
  plannedStart: string | null;
  plannedEnd: string | null;
  scheduleStatus: 'scheduled' | 'notScheduled';
  customerOrderNumber: string | null;
  invoiceMarking: string | null;
  id06Code: string | null;
  intakeTs: string;
  updateTs: string;
  isClosed: boolean;
  closedAt: string | null;
  isLocked: boolean;
  deletedAt: string | null;
  projectId: string | null;
  /** "1001 · Title" of its project. */
  projectName: string | null;
  locationLat: number | null;
  locationLng: number | null;
  createUserId: string | null;
  createUserName: string | null;
  assignees: WorkOrderUser[];
  tags: WorkOrderTag[];
  /** Who asked for it in the customer zone (decision 064); null for an order the office made. */
  zoneRequestedBy?: string | null;
}

type Row = Record<string, unknown>;

const iso = (v: unknown) => (v === null || v === undefined ? null : v instanceof Date ? v.toISOString() : String(v));
const str = (v: unknown) => (v === null || v === undefined ? null : (v as string));
const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));

/**
 * The columns of a work order with its names, assignees and tags. Assignees and tags come from
 * correlated sub-selects (index lookups per row), so a page is one statement whatever its size.
 */
export function workOrderSelect(knex: Knex | Knex.Transaction): (string | Knex.Raw)[] {
  return [
    'w.*',
    'c.name as customer_name',
    'c.customer_id as customer_number',
    'b.serial_code as bo_serial_code',
    's.name as status_name',
    't.name as work_type_name',
    'cu.name as create_user_name',
    knex.raw(`case when pj.id is null then null else pj.number::text || ' · ' || pj.title end as project_name`),
    knex.raw(`coalesce((select json_agg(json_build_object('id', u.id, 'name', u.name) order by lower(u.name), u.id)
        from work_order_assignees a join users u on u.id = a.user_id where a.work_order_id = w.id), '[]') as assignee_list`),
    knex.raw(`coalesce((select json_agg(json_build_object('id', g.id, 'name', g.name, 'color', g.color) order by g.sort_order, lower(g.name))
        from work_order_tags wt join tags g on g.id = wt.tag_id where wt.work_order_id = w.id), '[]') as tag_list`),
  ];
}

let byIdsSql: string | undefined;

/** The text of workOrdersByIds's statement (one bind parameter, the ids), made once. */
export function workOrdersByIdsSql(trx: Knex.Transaction | Knex): string {
  byIdsSql ??= withNames(trx('work_orders as w'))
    .select(workOrderSelect(trx))
    .whereRaw('w.id = any(?::uuid[])', [[]])
    .toSQL().sql;
  return byIdsSql;
}

/**
 * Orders by id, in the order of `ids`, with their names, assignees and tags: one prepared
 * statement (its plan, the costly part, is made once per connection and tenant).
 */
export async function workOrdersByIds(ctx: Ctx, ids: string[]): Promise<WorkOrder[]> {
  if (!ids.length) return [];
  const rows = await preparedInTenant<Row>(
    ctx.trx,
    ctx.tenant,
    { name: 'work-orders-by-ids', sql: workOrdersByIdsSql(ctx.trx) },
    [ids],
  );
  const byId = new Map(rows.map((r) => [r.id as string, r]));
  return ids.flatMap((id) => {
    const r = byId.get(id);
    return r ? [toWorkOrder(r)] : [];
  });
}

/** work_orders as `w` joined to what its answer names. */
export function withNames(qb: Knex.QueryBuilder): Knex.QueryBuilder {
  return qb
    .leftJoin('customers as c', 'c.id', 'w.customer_id')
    .leftJoin('business_objects as b', 'b.id', 'w.business_object_id')
    .join('work_order_statuses as s', 's.id', 'w.status_id')
    .join('work_types as t', 't.id', 'w.work_type_id')
    .leftJoin('users as cu', 'cu.id', 'w.create_user_id')
    .leftJoin('projects as pj', 'pj.id', 'w.project_id');
}

export function toWorkOrder(r: Row): WorkOrder {
  const parse = <T>(v: unknown): T => (typeof v === 'string' ? JSON.parse(v) : v) as T;
  return {
    id: r.id as string,
    number: r.number as string,
    title: r.title as string,
    description: str(r.description),
    internalInfo: str(r.internal_info),
    summary: str(r.summary),
    customerId: str(r.customer_id),
    customerName: str(r.customer_name),
    customerNumber: str(r.customer_number),
    businessObjectId: str(r.business_object_id),
    businessObjectSerialCode: str(r.bo_serial_code),
    statusId: r.status_id as string,
    statusName: r.status_name as string,
    workTypeId: r.work_type_id as string,
    workTypeName: r.work_type_name as string,
    priority: r.priority as Priority,
    zoneRequestedBy: str(r.zone_requested_name),
    contactName: str(r.contact_name),
    contactEmail: str(r.contact_email),
    contactPhone: str(r.contact_phone),
    onSiteContactName: str(r.on_site_contact_name),
    onSiteContactPhone: str(r.on_site_contact_phone),
    street: str(r.street),
    postIndex: str(r.post_index),
    city: str(r.city),
    customerAddressId: str(r.customer_address_id),
    plannedStart: iso(r.planned_start),
    plannedEnd: iso(r.planned_end),
    scheduleStatus: r.planned_start ? 'scheduled' : 'notScheduled',
    customerOrderNumber: str(r.customer_order_number),
    invoiceMarking: str(r.invoice_marking),
    id06Code: str(r.id06_code),
    intakeTs: iso(r.intake_ts)!,
    updateTs: iso(r.update_ts)!,
    isClosed: r.closed_at !== null && r.closed_at !== undefined,
    closedAt: iso(r.closed_at),
    isLocked: Boolean(r.is_locked),
    deletedAt: iso(r.deleted_at),
    projectId: str(r.project_id),
    projectName: str(r.project_name),
    locationLat: num(r.location_lat),
    locationLng: num(r.location_lng),
    createUserId: str(r.create_user_id),
    createUserName: str(r.create_user_name),
    assignees: parse<WorkOrderUser[]>(r.assignee_list ?? []),
    tags: parse<WorkOrderTag[]>(r.tag_list ?? []),
  };
}

/**
 * The work-order limit of the user's access level (spec section 6): 'user' sees only orders
 * they are assigned to, 'user.created' only those they created, 'none' all. Applied to `w`
 * (lists); one loaded order is checked by withinLimit, the same rule on the row.
 */
export function applyLimit(ctx: Ctx, qb: Knex.QueryBuilder): Knex.QueryBuilder {
  const auth = ctx.auth;
  if (!auth || auth.limit === 'none') return qb;
  if (auth.limit === 'user.created') return qb.where('w.create_user_id', auth.user.id);
  return qb.whereExists(function () {
    this.select(ctx.trx.raw('1'))
      .from('work_order_assignees as la')
      .whereRaw('la.work_order_id = w.id')
      .andWhere('la.user_id', auth.user.id);
  });
}

/** applyLimit's rule on one loaded order (its assignees and creator are on the row). */
function withinLimit(ctx: Ctx, wo: WorkOrder): boolean {
  const auth = ctx.auth;
  if (!auth || auth.limit === 'none') return true;
  if (auth.limit === 'user.created') return wo.createUserId === auth.user.id;
  return wo.assignees.some((a) => a.id === auth.user.id);
}

/**
 * One work order the user may see under their limit, or 404 (also for another tenant's id).
 * Read by the prepared statement of workOrdersByIds: an order's page reads it from several
 * services, and planning the joined statement costs ten times what running it does.
 */
export async function loadWorkOrder(ctx: Ctx, id: unknown): Promise<WorkOrder> {
  if (!isUuid(id)) throw notFound();
  const [wo] = await workOrdersByIds(ctx, [id]);
  if (!wo || !withinLimit(ctx, wo)) throw notFound();
  return wo;
}

/** An order the user may act on: inside their limit and not in the recycle bin (404 otherwise). */
export async function loadActive(ctx: Ctx, id: unknown): Promise<WorkOrder> {
  const wo = await loadWorkOrder(ctx, id);
  if (wo.deletedAt) throw notFound();
  return wo;
}

/**
 * An order whose content may change (fields, customer, object, articles, time): active, open and
 * not locked. A closed order is reopened first (409 WORK_ORDER_CLOSED); a locked one unlocked
 * (409 WORK_ORDER_LOCKED).
 */
export async function loadChangeable(ctx: Ctx, id: unknown): Promise<WorkOrder> {
  const wo = await loadActive(ctx, id);
  if (wo.isClosed) throw new AppError('WORK_ORDER_CLOSED', 409);
  if (wo.isLocked) throw new AppError('WORK_ORDER_LOCKED', 409);
  return wo;
}
