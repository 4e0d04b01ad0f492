import { addDays, isPlainDate } from '~/core/calendar/dates';
import { formatNumber } from '~/core/i18n/number-format';
import type { InvoiceListItem, InvoiceStatus, InvoiceView } from '~/core/invoicing/invoice.service';

/*
 * What the invoice screens share and the browser may load: the list's filters, the ERP state as
 * the list and the screen show it, the order screens' invoice summary, links and money. Types only
 * from the core's invoice service (it is server code).
 */

export const STATUS_FILTERS = ['all', 'draft', 'finalized', 'void'] as const;
export type StatusFilter = (typeof STATUS_FILTERS)[number];
export const ERP_FILTERS = ['all', 'none', 'queued', 'delivered', 'failed'] as const;
export type ErpFilter = (typeof ERP_FILTERS)[number];

export interface InvoiceListFilters {
  status: StatusFilter;
  erp: ErpFilter;
  q: string;
  from: string;
  to: string;
}

/** A row of the list: GET /invoices' item and the link to its order. */
export interface InvoiceListRow extends InvoiceListItem {
  /** The order it was made from, as a link the viewer may open; null otherwise. */
  sourceHref: string | null;
}

/**
 * The ERP side of an invoice: nothing queued, on its way, in the ERP, failed (as GET /invoices
 * says); a delivery that needs checking at the vendor counts as failed, with its own message.
 */
export type ErpStatus = InvoiceListItem['erp'];

/** An invoice on the order screens (work order, sales order): its number, status and ERP state. */
export interface OrderInvoiceSummary {
  id: string;
  status: InvoiceStatus;
  invoiceNr: string | null;
  erp: ErpStatus;
  externalInvoiceNr: string | null;
  errorCode: string | null;
  erpName: string;
}

/** The ERP state of an invoice as read (the same rule as the list's SQL). */
export function erpStatusOf(invoice: Pick<InvoiceView, 'delivery' | 'erpReferenceId'>): ErpStatus {
  const status = invoice.delivery?.status;
  if (status === 'pending' || status === 'sending') return 'queued';
  if (status === 'delivered' || invoice.erpReferenceId) return 'delivered';
  // a delivery stopped for a person to check at the vendor needs the same attention as a failed one
  if (status === 'failed' || status === 'needs_checking') return 'failed';
  return 'none';
}

export function orderInvoiceSummary(invoice: InvoiceView): OrderInvoiceSummary {
  return {
    id: invoice.id,
    status: invoice.status,
    invoiceNr: invoice.invoiceNr,
    erp: erpStatusOf(invoice),
    externalInvoiceNr: invoice.externalInvoiceNr ?? invoice.delivery?.externalInvoiceNr ?? null,
    errorCode: erpStatusOf(invoice) === 'failed' ? (invoice.delivery?.errorCode ?? null) : null,
    erpName: invoice.erpName,
  };
}

export const invoiceHref = (id: string) => `/invoices/${encodeURIComponent(id)}`;

/** The order or project an invoice was made from, as a link target. */
export function sourceHref(source: { type: InvoiceView['source']['type']; id: string | null }): string | null {
  if (!source.id) return null;
  if (source.type === 'workOrder') return `/work-orders/${encodeURIComponent(source.id)}`;
  if (source.type === 'salesOrder') return `/sales/${encodeURIComponent(source.id)}`;
  if (source.type === 'project') return `/projects/${encodeURIComponent(source.id)}`;
  return null;
}

/** Money as people read it: "1 250,00". */
export const money = (value: string | null | undefined) => formatNumber(Number(value ?? 0));

/** `YYYY-MM-DD` plus whole days (a plain date has no zone); null when the date, the days or the sum are not real. */
export function addDaysTo(date: string, days: number): string | null {
  if (!isPlainDate(date) || !Number.isInteger(days)) return null;
  try {
    return addDays(date, days);
  } catch {
    return null; // beyond the years a Date holds
  }
}
