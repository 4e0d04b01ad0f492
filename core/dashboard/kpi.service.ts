import { agreementInvoicingThisMonth } from '~/core/agreements/agreement-invoices.service';
import type { Ctx } from '~/core/context';
import { requireAccess } from '~/core/permissions/access';

/** The dashboard's key figures that the product can already tell (spec section 2, dashboard KPI cards). */
export interface DashboardKpis {
  openWorkOrders: number;
  /** Closed orders whose invoice is still a draft in the product: count and total excl. VAT. */
  toInvoice: { count: number; total: string };
  /** Average days from intake to closing, over orders closed in the last 12 months (null: none). */
  leadTimeDays: number | null;
  /** Objects added in the last 12 months. */
  newObjects: number;
  /** Agreement invoicing this month: still to make (with what it comes to) and made, excl. VAT. */
  agreementInvoicing: { due: { count: number; amount: string }; invoiced: { count: number; amount: string } };
}

/** The company's figures (not limited to the person's own orders): one statement, and the agreements' card. */
export async function getDashboardKpis(ctx: Ctx): Promise<DashboardKpis> {
  requireAccess(ctx.auth, { permission: 'dashboard:read', module: 'dashboard' });
  const since = new Date(ctx.now.getTime() - 365 * 86_400_000);
  const { rows } = (await ctx.trx.raw(
    `select
       (select count(*) from work_orders where closed_at is null and deleted_at is null) as open_orders,
       (select count(*) from invoices where status = 'draft' and work_order_id is not null) as draft_count,
       (select coalesce(sum(total_price), 0)::numeric(14, 2)::text from invoices where status = 'draft' and work_order_id is not null)
         as draft_total,
       (select round(avg(extract(epoch from closed_at - intake_ts)) / 86400, 1)::float8 from work_orders
         where closed_at >= ? and deleted_at is null) as lead_days,
       (select count(*) from business_objects where created_at >= ?) as new_objects`,
    [since, since],
  )) as { rows: Record<string, unknown>[] };
  const r = rows[0]!;
  const agreementInvoicing = await agreementInvoicingThisMonth(ctx);
  return {
    openWorkOrders: Number(r.open_orders),
    toInvoice: { count: Number(r.draft_count), total: String(r.draft_total) },
    leadTimeDays: r.lead_days === null ? null : Number(r.lead_days),
    newObjects: Number(r.new_objects),
    agreementInvoicing,
  };
}
