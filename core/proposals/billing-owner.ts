/**
 * One billing owner for a proposal's rows (issue 28 item 1, decision 031). A proposal's rows reach
 * a sales order (accept), a work order (accept and create work order) or a work order made from
 * that sales order; these orders share the rows, so only one of them may put them on an invoice.
 * Closing any of them refuses with ORDER_ROWS_ALREADY_INVOICED while another one's invoice holds
 * the rows.
 */
import type { Ctx } from '~/core/context';
import { AppError } from '~/core/errors/app-error';

type Row = Record<string, unknown>;
export type OrderRef = { workOrderId: string } | { salesOrderId: string };

const ids = (rows: Row[], key: string) => rows.map((r) => r[key]).filter((v): v is string => typeof v === 'string');

/** The other orders (live work orders and sales orders) that carry the same proposal's rows as `order`. */
export async function ordersSharingRows(
  ctx: Ctx,
  order: OrderRef,
): Promise<{ workOrderIds: string[]; salesOrderIds: string[] }> {
  const salesOrders = new Set<string>();
  const proposals = new Set<string>();
  if ('salesOrderId' in order) salesOrders.add(order.salesOrderId);
  else {
    const wo: Row | undefined = await ctx.trx('work_orders').where({ id: order.workOrderId }).first('sales_order_id');
    if (wo?.sales_order_id) salesOrders.add(wo.sales_order_id as string);
    ids(await ctx.trx('proposals').where({ work_order_id: order.workOrderId }).select('id'), 'id').forEach((id) =>
      proposals.add(id),
    );
  }
  if (salesOrders.size) {
    const so = [...salesOrders];
    ids(await ctx.trx('sales_orders').whereIn('id', so).select('proposal_id'), 'proposal_id').forEach((id) =>
      proposals.add(id),
    );
    ids(await ctx.trx('proposals').whereIn('sales_order_id', so).select('id'), 'id').forEach((id) => proposals.add(id));
  }
  const workOrders = new Set<string>();
  if (proposals.size) {
    const linked: Row[] = await ctx
      .trx('proposals')
      .whereIn('id', [...proposals])
      .select('sales_order_id', 'work_order_id');
    ids(linked, 'sales_order_id').forEach((id) => salesOrders.add(id));
    ids(linked, 'work_order_id').forEach((id) => workOrders.add(id));
    ids(
      await ctx
        .trx('sales_orders')
        .whereIn('proposal_id', [...proposals])
        .select('id'),
      'id',
    ).forEach((id) => salesOrders.add(id));
  }
  if (salesOrders.size)
    ids(
      await ctx
        .trx('work_orders')
        .whereIn('sales_order_id', [...salesOrders])
        .whereNull('deleted_at')
        .select('id'),
      'id',
    ).forEach((id) => workOrders.add(id));
  const live = workOrders.size
    ? ids(
        await ctx
          .trx('work_orders')
          .whereIn('id', [...workOrders])
          .whereNull('deleted_at')
          .select('id'),
        'id',
      )
    : [];
  return {
    workOrderIds: live.filter((id) => !('workOrderId' in order) || id !== order.workOrderId),
    salesOrderIds: [...salesOrders].filter((id) => !('salesOrderId' in order) || id !== order.salesOrderId),
  };
}

/**
 * Refuses (409 ORDER_ROWS_ALREADY_INVOICED, with the invoice's number) when another order sharing
 * this order's proposal rows already has a current invoice: the rows would be billed twice.
 */
export async function requireRowsNotInvoicedElsewhere(ctx: Ctx, order: OrderRef): Promise<void> {
  const others = await ordersSharingRows(ctx, order);
  if (!others.workOrderIds.length && !others.salesOrderIds.length) return;
  const invoice: Row | undefined = await ctx
    .trx('invoices')
    .whereNull('unlinked_at')
    .whereNot('status', 'void')
    .where((q) => {
      if (others.workOrderIds.length) q.orWhereIn('work_order_id', others.workOrderIds);
      if (others.salesOrderIds.length) q.orWhereIn('sales_order_id', others.salesOrderIds);
    })
    .first('id', 'invoice_nr', 'work_order_id', 'sales_order_id');
  if (invoice)
    throw new AppError('ORDER_ROWS_ALREADY_INVOICED', 409, {
      invoiceId: invoice.id,
      invoiceNr: invoice.invoice_nr ?? null,
    });
}
