import type { Ctx } from '~/core/context';
import { createWorkOrderInvoice } from '~/core/invoicing/order-invoice';
import { tenantDate } from '~/core/calendar/dates';
import { loadWorkOrder } from '~/core/work-orders/work-order-read';

type Row = Record<string, unknown>;

/**
 * The invoices of the demo's closed work orders, made as a close makes them (core/invoicing): the
 * invoice list and an invoice's screen have something to show on first start. Idempotent: an order
 * that has an invoice is left alone. An order with no time and no articles stays without an invoice,
 * as a close leaves it: a fee alone is never invoiced (issue 28 item 6; #1499, #1500, #1444 and others).
 */
export async function seedDemoInvoices(ctx: Ctx): Promise<void> {
  const closed: Row[] = await ctx
    .trx('work_orders as w')
    .join('customers as c', 'c.id', 'w.customer_id')
    .whereNotNull('w.closed_at')
    .whereNotNull('c.customer_id')
    .whereNotExists(ctx.trx('invoices as i').whereRaw('i.work_order_id = w.id'))
    .orderBy('w.closed_at')
    .select('w.id', 'w.closed_at', 'c.id as customer_id');
  for (const r of closed) {
    const wo = await loadWorkOrder(ctx, r.id);
    const customer: Row = await ctx.trx('customers').where({ id: r.customer_id }).first();
    const day = tenantDate(new Date(r.closed_at as string), ctx.tenant.config.country);
    const termDays = typeof customer.payment_term_days === 'number' ? customer.payment_term_days : 30;
    await createWorkOrderInvoice(
      { ...ctx, now: new Date(r.closed_at as string) },
      {
        wo,
        customer,
        invoiceDate: day,
        deliveryDate: day,
        fee: '40.00',
        vat: '25',
        reverseVat: Boolean(customer.reverse_vat),
        ignoreReverseVat: false,
        termDays,
      },
    );
  }
}
