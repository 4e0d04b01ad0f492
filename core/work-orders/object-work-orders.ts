import type { Ctx } from '~/core/context';
import { notFound } from '~/core/errors/app-error';
import { isUuid } from '~/core/errors/validation';
import { requireAccess } from '~/core/permissions/access';
import { applyLimit } from './work-order-read';

/** How many open and how many closed orders the object page lists (the rest are counted). */
export const OBJECT_WORK_ORDERS_SHOWN = 10;

export interface ObjectWorkOrder {
  id: string;
  number: string;
  title: string;
  statusName: string;
  intakeTs: string;
  closedAt: string | null;
}

export interface ObjectWorkOrders {
  open: { workOrders: ObjectWorkOrder[]; totalCount: number };
  closed: { workOrders: ObjectWorkOrder[]; totalCount: number };
}

interface Row {
  id: string;
  number: string;
  title: string;
  status_name: string;
  intake_ts: Date | string;
  closed_at: Date | string | null;
  is_closed: boolean;
  total: string | number;
}

const iso = (v: Date | string) => (v instanceof Date ? v : new Date(v)).toISOString();

/**
 * An object's work orders for its page (a scanned QR label lands there, spec section 2): the
 * newest open ones (by intake) and the most recently closed ones, `size` of each, with the count
 * of each. Orders in the recycle bin are left out; the user's work-order limit applies. One
 * statement on the object index (a window numbers and counts each half).
 */
export async function listObjectWorkOrders(
  ctx: Ctx,
  businessObjectId: unknown,
  size = OBJECT_WORK_ORDERS_SHOWN,
): Promise<ObjectWorkOrders> {
  requireAccess(ctx.auth, { permission: 'workorders:read' });
  if (!isUuid(businessObjectId)) throw notFound();
  const half = '(w.closed_at is not null)';
  const inner = applyLimit(
    ctx,
    ctx
      .trx('work_orders as w')
      .join('work_order_statuses as s', 's.id', 'w.status_id')
      .where('w.business_object_id', businessObjectId)
      .whereNull('w.deleted_at')
      .select(
        'w.id',
        'w.number',
        'w.title',
        's.name as status_name',
        'w.intake_ts',
        'w.closed_at',
        ctx.trx.raw(`${half} as is_closed`),
        ctx.trx.raw(
          `row_number() over (partition by ${half} order by coalesce(w.closed_at, w.intake_ts) desc, w.id desc) as rn`,
        ),
        ctx.trx.raw(`count(*) over (partition by ${half}) as total`),
      ),
  );
  const rows: Row[] = await ctx.trx
    .from(inner.as('x'))
    .where('x.rn', '<=', size)
    .orderBy([{ column: 'x.is_closed' }, { column: 'x.rn' }])
    .select('*');
  const result: ObjectWorkOrders = {
    open: { workOrders: [], totalCount: 0 },
    closed: { workOrders: [], totalCount: 0 },
  };
  for (const r of rows) {
    const half = r.is_closed ? result.closed : result.open;
    half.totalCount = Number(r.total);
    half.workOrders.push({
      id: r.id,
      number: r.number,
      title: r.title,
      statusName: r.status_name,
      intakeTs: iso(r.intake_ts),
      closedAt: r.closed_at === null ? null : iso(r.closed_at),
    });
  }
  return result;
}

/** What a new work order's form starts with when opened from an object (`?businessObjectId=…&customerId=…`). */
export interface WorkOrderPrefill {
  customerId: string | null;
  customerName: string | null;
  businessObjectId: string | null;
  businessObjectSerialCode: string | null;
}

/**
 * Reads the object and customer a new order's address names, in this tenant, so the form shows
 * them chosen. The object's own customer wins over the one in the address; an unknown (or
 * another tenant's) id is left out rather than refused: the form then starts empty there.
 */
export async function workOrderPrefill(
  ctx: Ctx,
  input: { businessObjectId?: unknown; customerId?: unknown },
): Promise<WorkOrderPrefill> {
  requireAccess(ctx.auth, { permission: 'workorders:create' });
  const out: WorkOrderPrefill = {
    customerId: null,
    customerName: null,
    businessObjectId: null,
    businessObjectSerialCode: null,
  };
  let customerId = isUuid(input.customerId) ? input.customerId : null;
  if (isUuid(input.businessObjectId)) {
    const bo = (await ctx
      .trx('business_objects')
      .where({ id: input.businessObjectId })
      .first('id', 'serial_code', 'customer_id')) as
      { id: string; serial_code: string; customer_id: string | null } | undefined;
    if (bo) {
      out.businessObjectId = bo.id;
      out.businessObjectSerialCode = bo.serial_code;
      customerId = bo.customer_id;
    }
  }
  if (customerId) {
    const c = (await ctx.trx('customers').where({ id: customerId }).first('id', 'name')) as
      { id: string; name: string } | undefined;
    if (c) {
      out.customerId = c.id;
      out.customerName = c.name;
    }
  }
  return out;
}
