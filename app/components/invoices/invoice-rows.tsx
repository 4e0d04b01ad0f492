import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { invoiceRowType } from '~/core/invoicing/invoice-math';
import type { InvoiceRowView } from '~/core/invoicing/invoice.service';
import { discountOf } from '~/core/pricing';
import { usePrintDiscount } from '~/app/lib/use-currency';
import { formatQuantity } from '~/app/components/articles/format';
import { money } from './invoice-format';

const amountText = (r: InvoiceRowView) => `${formatQuantity(r.amount)}${r.unit ? ` ${r.unit}` : ''}`;

/**
 * A final invoice's rows as read: a table from 640 px up, cards on a phone; each with its VAT rate
 * (0 under reverse VAT) and its type (labour, material, fee, travel, part payment).
 */
export function InvoiceRows({ rows, reverseVat }: { rows: InvoiceRowView[]; reverseVat: boolean }) {
  const { t } = useTranslation('invoices');
  const id = useId();
  const printDiscount = usePrintDiscount();
  const discountText = (r: InvoiceRowView) => printDiscount(discountOf(r.discountType, r.discountValue), r.unit) || '—';
  const vat = (r: InvoiceRowView) => t('row.vatRate', { percent: reverseVat ? '0' : r.vatPercent });
  const work = (r: InvoiceRowView) => t(`rowType.${invoiceRowType(r.kind, r.work)}`);
  return (
    <section
      aria-labelledby={id}
      className="rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6"
      data-testid="invoice-rows"
    >
      <h2 id={id} className="mb-3 text-base font-semibold">
        {t('section.rows')}
      </h2>
      {rows.length === 0 ? (
        <p className="text-sm text-slate-600">{t('row.none')}</p>
      ) : (
        <>
          <ul className="divide-y divide-slate-100 sm:hidden" aria-label={t('section.rows')}>
            {rows.map((r) =>
              r.isText ? (
                <li key={r.id} className="py-2 text-sm text-slate-800 italic">
                  {r.articleTitle}
                </li>
              ) : (
                <li key={r.id} className="space-y-0.5 py-2 text-sm">
                  <p className="flex justify-between gap-2">
                    <span className="font-medium">{r.articleTitle}</span>
                    <span className="tabular-nums">{money(r.totalPrice)}</span>
                  </p>
                  {r.articleDescription ? <p className="text-slate-700">{r.articleDescription}</p> : null}
                  <p className="text-xs text-slate-600">
                    {amountText(r)} × {money(r.price)}
                    {r.discountType ? ` · ${t('row.discount')} ${discountText(r)}` : ''} · {vat(r)} · {work(r)}
                  </p>
                </li>
              ),
            )}
          </ul>
          <div className="hidden overflow-x-auto sm:block">
            <table className="w-full text-left text-sm">
              <caption className="sr-only">{t('section.rows')}</caption>
              <thead className="border-b border-slate-200 text-slate-700">
                <tr>
                  <th scope="col" className="px-2 py-2">
                    {t('row.title')}
                  </th>
                  <th scope="col" className="px-2 py-2 text-end">
                    {t('row.amount')}
                  </th>
                  <th scope="col" className="px-2 py-2 text-end">
                    {t('row.price')}
                  </th>
                  <th scope="col" className="px-2 py-2 text-end">
                    {t('row.discount')}
                  </th>
                  <th scope="col" className="px-2 py-2 text-end">
                    {t('row.vat')}
                  </th>
                  <th scope="col" className="px-2 py-2">
                    {t('row.workShort')}
                  </th>
                  <th scope="col" className="px-2 py-2 text-end">
                    {t('row.total')}
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {rows.map((r) =>
                  r.isText ? (
                    <tr key={r.id}>
                      <td colSpan={7} className="px-2 py-2 text-slate-800 italic">
                        {r.articleTitle}
                      </td>
                    </tr>
                  ) : (
                    <tr key={r.id} data-testid="invoice-row">
                      <td className="px-2 py-2">
                        <span className="font-medium">{r.articleTitle}</span>
                        {r.articleNumber ? (
                          <span className="ms-2 text-xs text-slate-600">{r.articleNumber}</span>
                        ) : null}
                        {r.articleDescription ? (
                          <span className="block text-xs text-slate-700">{r.articleDescription}</span>
                        ) : null}
                      </td>
                      <td className="px-2 py-2 text-end whitespace-nowrap tabular-nums">{amountText(r)}</td>
                      <td className="px-2 py-2 text-end whitespace-nowrap tabular-nums">{money(r.price)}</td>
                      <td className="px-2 py-2 text-end whitespace-nowrap tabular-nums">{discountText(r)}</td>
                      <td className="px-2 py-2 text-end whitespace-nowrap tabular-nums">{vat(r)}</td>
                      <td className="px-2 py-2 whitespace-nowrap">{work(r)}</td>
                      <td className="px-2 py-2 text-end whitespace-nowrap tabular-nums">{money(r.totalPrice)}</td>
                    </tr>
                  ),
                )}
              </tbody>
            </table>
          </div>
        </>
      )}
    </section>
  );
}
