/**
 * Sales orders (issue 13; spec sections 3 and 4, api-calls.md "Sales orders"): open until closed
 * (invoiced) with the paid flag, and reopened. Their rows follow the proposal rows' rules
 * (`replaceRows`). The CRM module: salesorder:read, salesorder:edit, salesorder:delete.
 */
import { z } from 'zod';
import type { Ctx } from '~/core/context';
import { ACTIVE_USERS_WHERE, namedOptionsSql } from '~/core/db/json-options';
import { AppError, notFound } from '~/core/errors/app-error';
import { isUuid, parseInput } from '~/core/errors/validation';
import { recordHistory } from '~/core/history/history';
import { hasAccess, requireAccess, type Access } from '~/core/permissions/access';
import { formatDecimal } from '~/core/pricing';
import { createSalesOrderInvoice } from '~/core/invoicing/order-invoice';
import { detachOrderInvoices } from '~/core/invoicing/invoice-store';
import { createWorkOrder } from '~/core/work-orders/work-order.service';
import { requireRowsNotInvoicedElsewhere } from './billing-owner';
import {
  copyRowsToWorkOrder,
  openSalesOrderForWorkOrder,
  proposalSettings,
  readRows,
  replaceRows,
  ZRow,
  type ProposalRow,
} from './proposal.service';

export const SALES_ORDER_ENTITY = 'salesorder';
const READ: Access = { permission: 'salesorder:read', module: 'crm' };
const EDIT: Access = { permission: 'salesorder:edit', module: 'crm' };

type Row = Record<string, unknown>;

export interface SalesOrder {
  id: string;
  number: number;
  title: string;
  customerId: string | null;
  customerName: string | null;
  customerNumber: string | null;
  status: 'open' | 'closed';
  paid: boolean;
  referenceUserId: string | null;
  referenceUserName: string | null;
  departmentId: string | null;
  proposalId: string | null;
  /** The live work order made from this order, which bills its rows (decision 031). */
  workOrderId: string | null;
  workOrderNumber: number | null;
  /** The object of its proposal: the one its work order is made for unless another is chosen. */
  proposalObjectId: string | null;
  proposalObjectSerialCode: string | null;
  totalPrice: string;
  totalPurchasePrice: string;
  version: number;
  createTs: string;
  createUserId: string | null;
  closeTs: string | null;
  closeUserId: string | null;
  rows?: ProposalRow[];
}

function toSalesOrder(r: Row): SalesOrder {
  return {
    id: r.id as string,
    number: Number(r.number),
    title: r.title as string,
    customerId: (r.customer_id as string | null) ?? null,
    customerName: (r.customer_name as string | null) ?? null,
    customerNumber: (r.customer_number as string | null) ?? null,
    status: r.status as SalesOrder['status'],
    paid: Boolean(r.paid),
    referenceUserId: (r.reference_user_id as string | null) ?? null,
    referenceUserName: (r.reference_user_name as string | null) ?? null,
    departmentId: (r.department_id as string | null) ?? null,
    proposalId: (r.proposal_id as string | null) ?? null,
    workOrderId: (r.work_order_id as string | null) ?? null,
    workOrderNumber: r.work_order_number == null ? null : Number(r.work_order_number),
    proposalObjectId: (r.proposal_object_id as string | null) ?? null,
    proposalObjectSerialCode: (r.proposal_object_serial_code as string | null) ?? null,
    totalPrice: formatDecimal(String(r.total_price)),
    totalPurchasePrice: formatDecimal(String(r.total_purchase_price)),
    version: Number(r.version),
    createTs: new Date(r.create_ts as string).toISOString(),
    createUserId: (r.create_user_id as string | null) ?? null,
    closeTs: r.close_ts ? new Date(r.close_ts as string).toISOString() : null,
    closeUserId: (r.close_user_id as string | null) ?? null,
  };
}

function salesOrderQuery(ctx: Ctx) {
  return ctx
    .trx('sales_orders as s')
    .leftJoin('customers as c', 'c.id', 's.customer_id')
    .leftJoin('users as u', 'u.id', 's.reference_user_id')
    .leftJoin('work_orders as w', (j) => j.on('w.sales_order_id', 's.id').andOnNull('w.deleted_at'))
    .leftJoin('proposals as p', 'p.id', 's.proposal_id')
    .leftJoin('business_objects as bo', 'bo.id', 'p.business_object_id')
    .select(
      's.*',
      'c.name as customer_name',
      'c.customer_id as customer_number',
      'u.name as reference_user_name',
      'w.id as work_order_id',
      'w.number as work_order_number',
      'bo.id as proposal_object_id',
      'bo.serial_code as proposal_object_serial_code',
    );
}

async function findSalesOrder(ctx: Ctx, id: unknown): Promise<SalesOrder> {
  if (!isUuid(id)) throw notFound();
  const row = (await salesOrderQuery(ctx).where('s.id', id).first()) as Row | undefined;
  if (!row) throw notFound();
  return toSalesOrder(row);
}

/** GET /salesorders/{id}: the order with its rows. */
export async function getSalesOrder(ctx: Ctx, id: unknown): Promise<SalesOrder> {
  requireAccess(ctx.auth, READ);
  const so = await findSalesOrder(ctx, id);
  return { ...so, rows: await readRows(ctx, { sales_order_id: so.id }) };
}

/** GET /salesorders/proposal/{id}: the sales order a proposal was accepted into. */
export async function salesOrderOfProposal(ctx: Ctx, proposalId: unknown): Promise<SalesOrder> {
  requireAccess(ctx.auth, READ);
  if (!isUuid(proposalId)) throw notFound();
  const row = (await ctx.trx('proposals').where({ id: proposalId }).first('sales_order_id')) as Row | undefined;
  if (!row?.sales_order_id) throw notFound();
  return getSalesOrder(ctx, row.sales_order_id);
}

export const ZSalesOrderList = z.object({
  customerId: z.string().uuid().optional(),
  status: z.enum(['open', 'closed', 'all']).default('open'),
  departmentId: z.string().uuid().optional(),
  createUserId: z.string().uuid().optional(),
  offset: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

/** GET /salesorders: by customer, status (open unless told, spec section 9), department and creator; newest first. */
export async function listSalesOrders(
  ctx: Ctx,
  raw: unknown,
): Promise<{ salesOrders: SalesOrder[]; totalCount: number }> {
  requireAccess(ctx.auth, READ);
  const f = parseInput(ZSalesOrderList, raw);
  const base = ctx.trx('sales_orders as s');
  if (f.status !== 'all') base.where('s.status', f.status);
  if (f.customerId) base.where('s.customer_id', f.customerId);
  if (f.departmentId) base.where('s.department_id', f.departmentId);
  if (f.createUserId) base.where('s.create_user_id', f.createUserId);
  const [{ n }] = await base.clone().count({ n: '*' });
  const rows = (await salesOrderQuery(ctx)
    .whereIn('s.id', base.clone().select('s.id'))
    .orderBy([
      { column: 's.create_ts', order: 'desc' },
      { column: 's.number', order: 'desc' },
    ])
    .limit(f.limit)
    .offset(f.offset)) as Row[];
  return { salesOrders: rows.map(toSalesOrder), totalCount: Number(n) };
}

/** The next sales-order number (the settings row is locked for the rest of the transaction). */
export async function nextSalesOrderNumber(ctx: Ctx): Promise<number> {
  const [row] = (await ctx
    .trx('sales_order_settings')
    .update({ next_number: ctx.trx.raw('next_number + 1') })
    .returning('next_number')) as Row[];
  return Number(row!.next_number) - 1;
}

export const ZCreateSalesOrder = z.object({
  customerId: z.string().uuid().nullish(),
  title: z.string().trim().max(200, 'ERROR_MAX_LENGTH').optional(),
});

/** POST /salesorders {customerId}: a new open order, the asker its reference. */
export async function createSalesOrder(ctx: Ctx, raw: unknown): Promise<SalesOrder> {
  requireAccess(ctx.auth, EDIT);
  const { customerId, title } = parseInput(ZCreateSalesOrder, raw);
  if (customerId && !(await ctx.trx('customers').where({ id: customerId }).first('id'))) throw notFound();
  const number = await nextSalesOrderNumber(ctx);
  const [row] = (await ctx
    .trx('sales_orders')
    .insert({
      number,
      title: title ?? '',
      customer_id: customerId ?? null,
      reference_user_id: ctx.auth.user.id,
      create_user_id: ctx.auth.user.id,
      create_ts: ctx.now,
      update_ts: ctx.now,
    })
    .returning('id')) as Row[];
  await recordHistory(ctx, {
    entity: SALES_ORDER_ENTITY,
    entityId: row!.id as string,
    action: 'create',
    data: { number },
  });
  return getSalesOrder(ctx, row!.id);
}

export const ZSaveSalesOrder = z.object({
  id: z.string().uuid({ error: 'ERROR_REQUIRED_FIELD' }),
  version: z.coerce.number().int().min(1),
  title: z.string().trim().max(200, 'ERROR_MAX_LENGTH').optional(),
  customerId: z.string().uuid().nullish(),
  referenceUserId: z.string().uuid().nullish(),
  departmentId: z.string().uuid().nullish(),
  rows: z.array(ZRow).max(500, 'ERROR_MAX_LENGTH').optional(),
});

/**
 * PUT /salesorders {salesOrder}: the title, customer, reference person, department and rows of an open order,
 * naming the version it edited (409 SALES_ORDER_CHANGED when saved since; 409
 * SALES_ORDER_CLOSED once closed).
 */
export async function saveSalesOrder(ctx: Ctx, raw: unknown): Promise<SalesOrder> {
  requireAccess(ctx.auth, EDIT);
  const input = parseInput(ZSaveSalesOrder, (raw as { salesOrder?: unknown })?.salesOrder ?? raw);
  const locked = (await ctx
    .trx('sales_orders')
    .where({ id: input.id })
    .forUpdate()
    .first('id', 'version', 'status', 'customer_id')) as Row | undefined;
  if (!locked) throw notFound();
  if (locked.status !== 'open') throw new AppError('SALES_ORDER_CLOSED', 409);
  if (Number(locked.version) !== input.version) throw new AppError('SALES_ORDER_CHANGED', 409);
  if (input.customerId && !(await ctx.trx('customers').where({ id: input.customerId }).first('id'))) throw notFound();
  if (input.referenceUserId && !(await ctx.trx('users').where({ id: input.referenceUserId }).first('id')))
    throw notFound();
  if (input.departmentId && !(await ctx.trx('departments').where({ id: input.departmentId }).first('id')))
    throw notFound();
  const update: Row = { version: Number(locked.version) + 1, update_ts: ctx.now };
  if (input.title !== undefined) update.title = input.title;
  if (input.customerId !== undefined) update.customer_id = input.customerId;
  if (input.referenceUserId !== undefined) update.reference_user_id = input.referenceUserId;
  if (input.departmentId !== undefined) update.department_id = input.departmentId;
  if (input.rows) {
    const figures = await replaceRows(ctx, { sales_order_id: input.id }, input.rows, await proposalSettings(ctx), {
      customerId:
        input.customerId !== undefined ? (input.customerId ?? null) : ((locked.customer_id as string) ?? null),
      businessObjectId: null,
    });
    update.total_price = figures.totalPrice;
    update.total_purchase_price = figures.totalPurchasePrice;
  }
  await ctx.trx('sales_orders').where({ id: input.id }).update(update);
  await recordHistory(ctx, {
    entity: SALES_ORDER_ENTITY,
    entityId: input.id,
    action: 'edit',
    data: { fields: Object.keys(update) },
  });
  return getSalesOrder(ctx, input.id);
}

/** DELETE /salesorders/{id} (salesorder:delete): an open order and its rows. */
export async function deleteSalesOrder(ctx: Ctx, id: unknown): Promise<{ ok: true }> {
  requireAccess(ctx.auth, { permission: 'salesorder:delete', module: 'crm' });
  const so = await findSalesOrder(ctx, id);
  if (so.status !== 'open') throw new AppError('SALES_ORDER_CLOSED', 409);
  await ctx.trx('sales_orders').where({ id: so.id }).delete();
  await recordHistory(ctx, {
    entity: SALES_ORDER_ENTITY,
    entityId: so.id,
    action: 'delete',
    data: { number: so.number },
  });
  return { ok: true };
}

export const ZCloseSalesOrder = z.object({ paid: z.boolean().optional().default(false) });

/**
 * POST /salesorders/{id}/close {paid}: closed (invoiced), with the paid flag. Needs a reference
 * person (SALES_ORDER_REFERENCE_USER_MISSING) and a customer with a customer number
 * (SALES_ORDER_CUSTOMER_NUMBER_MISSING), spec section 5. An order with a work order is billed
 * through it (SALES_ORDER_BILLED_BY_WORK_ORDER); rows another order already invoiced are refused
 * (ORDER_ROWS_ALREADY_INVOICED).
 */
export async function closeSalesOrder(ctx: Ctx, id: unknown, raw: unknown): Promise<SalesOrder> {
  requireAccess(ctx.auth, EDIT);
  const { paid } = parseInput(ZCloseSalesOrder, raw);
  const so = await findSalesOrder(ctx, id);
  if (so.status !== 'open') throw new AppError('SALES_ORDER_CLOSED', 409);
  if (!so.referenceUserId) throw new AppError('SALES_ORDER_REFERENCE_USER_MISSING', 409);
  if (!so.customerNumber) throw new AppError('SALES_ORDER_CUSTOMER_NUMBER_MISSING', 409);
  // its work order bills the rows (decision 031): closing that one closes this one
  if (so.workOrderId) throw new AppError('SALES_ORDER_BILLED_BY_WORK_ORDER', 409, { workOrderId: so.workOrderId });
  await requireRowsNotInvoicedElsewhere(ctx, { salesOrderId: so.id });
  await ctx
    .trx('sales_orders')
    .where({ id: so.id })
    .update({
      status: 'closed',
      paid,
      close_ts: ctx.now,
      close_user_id: ctx.auth.user.id,
      version: so.version + 1,
      update_ts: ctx.now,
    });
  const invoice = await createSalesOrderInvoice(ctx, so.id);
  await recordHistory(ctx, {
    entity: SALES_ORDER_ENTITY,
    entityId: so.id,
    action: 'close',
    data: { paid, invoiceId: invoice.invoiceId, invoiceNr: invoice.invoiceNr },
  });
  return getSalesOrder(ctx, so.id);
}

/**
 * POST /salesorders/{id}/workorder {businessObjectId?} (salesorder:edit and workorders:create): the
 * work order that fulfils and bills this open order (decision 031): its article rows, its customer,
 * the object of its proposal unless one is chosen (CANNOT_CLOSE_PROPOSAL_WORKORDER_OBJECT_IS_MISSING
 * when neither). One per order (SALES_ORDER_HAS_WORK_ORDER); not when its rows are invoiced elsewhere.
 */
export async function createSalesOrderWorkOrder(
  ctx: Ctx,
  id: unknown,
  raw: unknown,
): Promise<{ workOrderId: string; salesOrder: SalesOrder }> {
  requireAccess(ctx.auth, EDIT);
  requireAccess(ctx.auth, { permission: 'workorders:create' });
  const { businessObjectId } = parseInput(z.object({ businessObjectId: z.string().uuid().nullish() }), raw ?? {});
  const so = await findSalesOrder(ctx, id);
  const source = await openSalesOrderForWorkOrder(ctx, so.id);
  await requireRowsNotInvoicedElsewhere(ctx, { salesOrderId: so.id });
  const proposal: Row | undefined = so.proposalId
    ? await ctx
        .trx('proposals')
        .where({ id: so.proposalId })
        .first('business_object_id', 'contact_name', 'contact_email', 'contact_phone', 'description')
    : undefined;
  const objectId = businessObjectId ?? (proposal?.business_object_id as string | null) ?? null;
  if (!objectId) throw new AppError('CANNOT_CLOSE_PROPOSAL_WORKORDER_OBJECT_IS_MISSING', 409);
  const { workOrder } = await createWorkOrder(ctx, {
    workOrder: {
      title: so.title || `#${so.number}`,
      customerId: so.customerId,
      businessObjectId: objectId,
      description: (proposal?.description as string) || undefined,
      contactName: (proposal?.contact_name as string) ?? undefined,
      contactEmail: (proposal?.contact_email as string) ?? undefined,
      contactPhone: (proposal?.contact_phone as string) ?? undefined,
    },
  });
  await ctx.trx('work_orders').where({ id: workOrder.id }).update({ sales_order_id: so.id });
  await copyRowsToWorkOrder(ctx, workOrder.id, source.rows);
  await recordHistory(ctx, {
    entity: SALES_ORDER_ENTITY,
    entityId: so.id,
    action: 'workorder',
    data: { workOrderId: workOrder.id, workOrderNumber: workOrder.number },
  });
  return { workOrderId: workOrder.id, salesOrder: await getSalesOrder(ctx, so.id) };
}

/** POST /salesorders/{id}/reopen: open again. */
export async function reopenSalesOrder(ctx: Ctx, id: unknown): Promise<SalesOrder> {
  requireAccess(ctx.auth, EDIT);
  const so = await findSalesOrder(ctx, id);
  if (so.status === 'open') throw new AppError('SALES_ORDER_NOT_CLOSED', 409);
  await ctx
    .trx('sales_orders')
    .where({ id: so.id })
    .update({
      status: 'open',
      paid: false,
      close_ts: null,
      close_user_id: null,
      version: so.version + 1,
      update_ts: ctx.now,
    });
  const invoices = await detachOrderInvoices(ctx, { sales_order_id: so.id });
  await recordHistory(ctx, { entity: SALES_ORDER_ENTITY, entityId: so.id, action: 'reopen', data: { invoices } });
  return getSalesOrder(ctx, so.id);
}

/** What the sales-order screens may do for this user (the buttons they show). */
export function salesOrderAbilities(ctx: Ctx) {
  return {
    edit: hasAccess(ctx.auth, EDIT),
    delete: hasAccess(ctx.auth, { permission: 'salesorder:delete', module: 'crm' }),
    createWorkOrder: hasAccess(ctx.auth, EDIT) && hasAccess(ctx.auth, { permission: 'workorders:create' }),
  };
}

export interface SalesOrderOptions {
  /** Active users by name: the reference person and the creator filter. */
  users: { id: string; name: string }[];
  departments: { id: string; name: string }[];
}

/** The people and departments the sales-order list and screen choose from, in one statement. */
export async function salesOrderOptions(ctx: Ctx): Promise<SalesOrderOptions> {
  requireAccess(ctx.auth, READ);
  const { rows } = (await ctx.trx.raw(
    `select ${namedOptionsSql('users', ACTIVE_USERS_WHERE)} as users, ${namedOptionsSql('departments')} as departments`,
  )) as { rows: SalesOrderOptions[] };
  return { users: rows[0]!.users, departments: rows[0]!.departments };
}
