import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { InvoiceView } from '~/core/invoicing/invoice.service';
import { money } from './invoice-format';

export type FiguresView = InvoiceView['figures'];

/**
 * The invoice's amounts: net, VAT per rate, the öre rounding, the total, a tax reduction and what
 * the customer pays. `unsaved` says the figures follow the editor, not what is stored.
 */
export function InvoiceFigures({
  figures,
  reverseVat,
  currency,
  unsaved = false,
}: {
  figures: FiguresView;
  reverseVat: boolean;
  currency: string;
  unsaved?: boolean;
}) {
  const { t } = useTranslation('invoices');
  const id = useId();
  const row = (label: string, value: string, opts: { strong?: boolean; testId?: string; note?: string } = {}) => (
    <div
      key={opts.testId ?? label}
      className={`flex justify-between gap-4 py-1 ${opts.strong ? 'font-semibold' : ''}`}
      data-testid={opts.testId}
    >
      <dt>
        {label}
        {opts.note ? <span className="block text-xs font-normal text-slate-600">{opts.note}</span> : null}
      </dt>
      <dd className="tabular-nums">{value}</dd>
    </div>
  );
  const reduction = figures.taxReduction;
  return (
    <section
      aria-labelledby={id}
      className="rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6"
      data-testid="invoice-figures"
    >
      <h2 id={id} className="mb-2 text-base font-semibold">
        {t('section.figures')}
      </h2>
      {unsaved ? (
        <p className="mb-2 text-sm text-amber-900" role="status">
          {t('figures.unsaved')}
        </p>
      ) : null}
      <dl className="max-w-md divide-y divide-slate-100 text-sm">
        {row(t('figures.net'), money(figures.net), { testId: 'figure-net' })}
        {figures.vat.map((v) =>
          row(t('figures.vat', { percent: v.percent, base: money(v.base) }), money(v.vat), {
            testId: `figure-vat-${v.percent}`,
          }),
        )}
        {figures.vat.length > 1 ? row(t('figures.vatTotal'), money(figures.vatTotal)) : null}
        {Number(figures.rounding) !== 0
          ? row(t('figures.rounding'), money(figures.rounding), { testId: 'figure-rounding' })
          : null}
        {row(t('figures.total', { currency }), money(figures.total), { strong: true, testId: 'figure-total' })}
        {reduction
          ? row(t(`figures.reduction.${reduction.kind}`), `−${money(reduction.amount)}`, {
              testId: 'figure-reduction',
              note: `${t('figures.reductionBase', { base: money(reduction.base) })}${reduction.capped ? ` ${t('figures.capped')}` : ''}`,
            })
          : null}
        {row(t('figures.toPay', { currency }), money(figures.toPay), { strong: true, testId: 'figure-to-pay' })}
      </dl>
      {reverseVat ? <p className="mt-2 text-sm text-slate-700">{t('figures.reverseVat')}</p> : null}
    </section>
  );
}
