import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatNumber } from '~/core/i18n/number-format';
import type { SupplierInvoiceListItem } from '~/core/supplier-invoices/supplier-invoice.service';

export const money = (v: string | null | undefined) => (v == null ? '—' : formatNumber(Number(v)));

const STATUS_CLASS: Record<string, string> = {
  pending: 'bg-amber-100 text-amber-900',
  paymentPending: 'bg-sky-100 text-sky-900',
  approved: 'bg-green-100 text-green-900',
  declined: 'bg-slate-200 text-slate-800',
};

/** Where an invoice stands, in words: to approve, awaiting payment, approved or declined. */
export function statusKey(i: Pick<SupplierInvoiceListItem, 'status' | 'contentApproved'>): string {
  return i.status === 'pending' && i.contentApproved ? 'paymentPending' : i.status;
}

/** "From the ERP" beside an invoice fetched from the tenant's ERP (decision 054). */
export function SupplierInvoiceSource({ source }: { source: string }) {
  const { t } = useTranslation('supplierinvoices');
  if (source !== 'erp') return null;
  return (
    <span className="inline-flex rounded-full bg-violet-100 px-2 py-0.5 text-xs font-medium text-violet-900">
      {t('source.erp')}
    </span>
  );
}

export function SupplierInvoiceStatus({ invoice }: { invoice: Pick<SupplierInvoiceListItem, 'status' | 'contentApproved'> }) {
  const { t } = useTranslation('supplierinvoices');
  const key = statusKey(invoice);
  return (
    <span className={`inline-flex rounded-full px-2 py-0.5 text-xs font-medium ${STATUS_CLASS[key]}`}>
      {t(`status.${key}`)}
    </span>
  );
}

/**
 * Supplier invoices as a table on wide screens and as cards on a phone (390 px): number and
 * supplier, the order or project, who is responsible, the amount to pay and where it stands.
 */
export function SupplierInvoiceTable({ invoices }: { invoices: SupplierInvoiceListItem[] }) {
  const { t } = useTranslation('supplierinvoices');
  if (!invoices.length) return <p className="rounded-md bg-slate-50 p-4 text-sm text-slate-700">{t('empty')}</p>;
  const target = (i: SupplierInvoiceListItem) =>
    i.workOrderNumber ?? (i.projectNumber !== null ? `${i.projectNumber} · ${i.projectTitle ?? ''}` : null);
  return (
    <>
      <ul className="grid gap-2 md:hidden">
        {invoices.map((i) => (
          <li key={i.id} className="rounded-lg p-3 ring-1 ring-slate-200">
            <Link to={`/supplierinvoices/${i.id}`} className="font-medium text-brand-700 underline">
              {i.invoiceNumber} · {i.supplierName ?? '—'}
            </Link>
            <div className="mt-1 flex flex-wrap items-center justify-between gap-2 text-sm">
              <span>{target(i) ?? t('unmatched')}</span>
              <span className="tabular-nums">
                {money(i.total)} {i.currency}
              </span>
            </div>
            <div className="mt-1 flex flex-wrap gap-1">
              <SupplierInvoiceStatus invoice={i} />
              <SupplierInvoiceSource source={i.source} />
            </div>
          </li>
        ))}
      </ul>
      <div className="hidden overflow-x-auto md:block">
        <table className="w-full text-sm">
          <thead>
            <tr className="border-b border-slate-200 text-left text-slate-600">
              <th scope="col" className="py-2 pe-3 font-medium">
                {t('col.invoice')}
              </th>
              <th scope="col" className="py-2 pe-3 font-medium">
                {t('col.supplier')}
              </th>
              <th scope="col" className="py-2 pe-3 font-medium">
                {t('col.date')}
              </th>
              <th scope="col" className="py-2 pe-3 font-medium">
                {t('col.order')}
              </th>
              <th scope="col" className="py-2 pe-3 font-medium">
                {t('col.responsible')}
              </th>
              <th scope="col" className="py-2 pe-3 text-end font-medium">
                {t('col.total')}
              </th>
              <th scope="col" className="py-2 font-medium">
                {t('col.status')}
              </th>
            </tr>
          </thead>
          <tbody>
            {invoices.map((i) => (
              <tr key={i.id} className="border-b border-slate-100">
                <td className="py-2 pe-3">
                  <Link to={`/supplierinvoices/${i.id}`} className="font-medium text-brand-700 underline">
                    {i.invoiceNumber}
                  </Link>
                </td>
                <td className="py-2 pe-3">{i.supplierName ?? '—'}</td>
                <td className="py-2 pe-3 tabular-nums">{i.invoiceDate}</td>
                <td className="py-2 pe-3">{target(i) ?? <em>{t('unmatched')}</em>}</td>
                <td className="py-2 pe-3">{i.responsibleUserName ?? '—'}</td>
                <td className="py-2 pe-3 text-end tabular-nums">
                  {money(i.total)} {i.currency}
                </td>
                <td className="py-2">
                  <span className="flex flex-wrap gap-1">
                    <SupplierInvoiceStatus invoice={i} />
                    <SupplierInvoiceSource source={i.source} />
                  </span>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
