import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ErpBadge, InvoiceStatusBadge } from './invoice-badges';
import { invoiceHref, type OrderInvoiceSummary } from './invoice-format';

/**
 * A closed order's invoice on the work-order and sales-order screens: a link to the invoice screen
 * with its number (or "Draft invoice"), its status and its ERP state.
 */
export function OrderInvoiceLink({ invoice }: { invoice: OrderInvoiceSummary }) {
  const { t } = useTranslation('invoices');
  return (
    <p className="flex flex-wrap items-center gap-2 text-sm" data-testid="order-invoice">
      <Link
        to={invoiceHref(invoice.id)}
        className="inline-flex min-h-10 items-center rounded-md border border-gray-300 bg-white px-3 font-medium text-blue-800 underline-offset-2 hover:underline"
      >
        {invoice.invoiceNr ? t('order.invoice', { number: invoice.invoiceNr }) : t('order.draft')}
      </Link>
      <InvoiceStatusBadge status={invoice.status} />
      <ErpBadge
        erp={invoice.erp}
        externalInvoiceNr={invoice.externalInvoiceNr}
        errorCode={invoice.errorCode}
        erpName={invoice.erpName}
      />
    </p>
  );
}
