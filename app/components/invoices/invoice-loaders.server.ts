import type { Ctx } from '~/core/context';
import { isAppError } from '~/core/errors/app-error';
import { tenantErp } from '~/core/invoicing/erp-connection';
import { getInvoiceOf, INVOICE_READ, invoiceOrigins, listInvoices } from '~/core/invoicing/invoice.service';
import { hasAccess } from '~/core/permissions/access';
import {
  ERP_FILTERS,
  orderInvoiceSummary,
  STATUS_FILTERS,
  type InvoiceListFilters,
  type InvoiceListRow,
  type OrderInvoiceSummary,
} from './invoice-format';

/*
 * The invoice screens' reads for their route loaders: the list's page with its order links, and
 * the invoice of a closed order for the order screens.
 */

/** Invoices a page of the list shows, and how many "show more" adds. */
export const INVOICE_PAGE_SIZE = 50;

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** The list's filters from its address, made valid: an unknown value is "all", a bad date none. */
export function invoiceListFilters(query: URLSearchParams): InvoiceListFilters & { offset: number } {
  const pick = <T extends string>(values: readonly T[], value: string | null): T =>
    values.includes(value as T) ? (value as T) : values[0]!;
  const date = (key: string) => (DATE.test(query.get(key) ?? '') ? query.get(key)! : '');
  const offset = Math.trunc(Number(query.get('offset')));
  return {
    status: pick(STATUS_FILTERS, query.get('status')),
    erp: pick(ERP_FILTERS, query.get('erp')),
    q: (query.get('q') ?? '').trim().slice(0, 100),
    from: date('from'),
    to: date('to'),
    offset: Number.isFinite(offset) && offset > 0 ? offset : 0,
  };
}

/**
 * One page of the list (GET /invoices' service) with the link to each invoice's order, when the
 * viewer may read that kind of order, and the name of the tenant's ERP (the error messages name it).
 */
export async function invoiceListPage(
  ctx: Ctx,
  filters: InvoiceListFilters & { offset: number },
): Promise<{ invoices: InvoiceListRow[]; hasMore: boolean; erpName: string }> {
  const { invoices, hasMore } = await listInvoices(ctx, {
    status: filters.status,
    erp: filters.erp,
    q: filters.q || undefined,
    from: filters.from || undefined,
    to: filters.to || undefined,
    offset: filters.offset,
    size: INVOICE_PAGE_SIZE,
  });
  const ids = invoices.map((i) => i.id);
  const byId = await invoiceOrigins(ctx, ids);
  const readsOrders = hasAccess(ctx.auth, { permission: 'workorders:read' });
  const readsSales = hasAccess(ctx.auth, { permission: 'salesorder:read', module: 'crm' });
  const readsProjects = hasAccess(ctx.auth, { permission: 'projects:read', module: 'projects' });
  const erp = await tenantErp(ctx);
  return {
    hasMore,
    erpName: erp.displayName,
    invoices: invoices.map((i) => {
      const o = byId.get(i.id);
      const sourceHref =
        o?.workOrderId && readsOrders
          ? `/work-orders/${o.workOrderId}`
          : o?.salesOrderId && readsSales
            ? `/sales/${o.salesOrderId}`
            : o?.projectId && readsProjects
              ? `/projects/${o.projectId}`
              : null;
      return { ...i, sourceHref };
    }),
  };
}

/**
 * A closed order's invoice for its screen: null without invoices:read, or when the order has none
 * (never invoiced, or reopened). Read last in the loader's unit of work: a refusal is answered in
 * code, not by the database, so nothing after it is disturbed.
 */
export async function orderInvoiceOf(
  ctx: Ctx,
  source: 'workOrder' | 'salesOrder',
  orderId: string,
): Promise<OrderInvoiceSummary | null> {
  if (!hasAccess(ctx.auth, INVOICE_READ)) return null;
  try {
    return orderInvoiceSummary(await getInvoiceOf(ctx, source, orderId));
  } catch (e) {
    if (isAppError(e) && (e.status === 404 || e.status === 403)) return null;
    throw e;
  }
}
