import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useFetcher } from 'react-router';
import { formatMoney } from '~/app/components/articles/format';
import { InvoiceStatusBadge } from '~/app/components/invoices/invoice-badges';
import { NativeSelect, Spinner } from '~/app/components/ui';
import { useFetcherResult } from '~/app/lib/use-fetcher-result';
import type { AgreementLoaderResult, AgreementYear } from '~/app/routes/inventory.objects.$id.agreement';
import type { AgreementInterval } from '~/core/agreements/agreement-constants';
import type { YearPeriod } from '~/core/agreements/agreement-invoices.service';
import type { InvoiceStatus } from '~/core/invoicing/invoice.service';
import { agreementUrl, useAgreementDates } from './object-agreement-shared';

export interface AgreementInvoicesProps {
  boId: string;
  interval: AgreementInterval | null;
  validFrom: string;
  /** The tenant's date. */
  today: string;
  first: AgreementYear;
}

/** The years to choose from: the agreement's first to the one after this. */
export function yearChoices(validFrom: string, today: string, shown: number): number[] {
  const first = Math.min(Number(validFrom.slice(0, 4)), shown);
  const last = Math.max(Number(today.slice(0, 4)) + 1, shown);
  const years: number[] = [];
  for (let y = last; y >= first; y--) years.push(y);
  return years;
}

/**
 * One year of the agreement's invoicing (GET /invoice/agreement/{id}?year): every invoice period
 * with its invoice day, and the invoice made for it (number, amount, status) or "not yet invoiced".
 */
export function AgreementInvoices({ boId, interval, validFrom, today, first }: AgreementInvoicesProps) {
  const { t } = useTranslation('objectagreement');
  const { t: tc } = useTranslation();
  const headingId = useId();
  const dates = useAgreementDates();
  const loader = useFetcher<AgreementLoaderResult>();
  const [year, setYear] = useState(first.year);
  const [shown, setShown] = useState<AgreementYear>(first);
  const [error, setError] = useState<string | null>(null);

  useFetcherResult(loader, (r) => {
    if ('year' in r) {
      setShown(r.year);
      setError(null);
    } else if ('error' in r) setError(r.error);
  });

  // the first year follows the tab's reloads (after a save); another chosen year its own loads
  const periods: YearPeriod[] = (year === first.year ? first : shown).periods;

  function choose(value: string) {
    const y = Number(value);
    setYear(y);
    if (y !== first.year)
      void loader.load(`${agreementUrl(boId)}?${new URLSearchParams({ part: 'year', year: value })}`);
  }

  const invoiceCell = (p: YearPeriod) =>
    p.invoice ? (
      <span className="flex flex-wrap items-center gap-2">
        <Link to={`/invoices/${encodeURIComponent(p.invoice.id)}`} className="text-blue-800 underline">
          {p.invoice.invoiceNr ? t('invoices.number', { number: p.invoice.invoiceNr }) : t('invoices.draft')}
        </Link>
        <span className="tabular-nums">{formatMoney(p.invoice.totalPrice)}</span>
        <InvoiceStatusBadge status={p.invoice.status as InvoiceStatus} />
      </span>
    ) : (
      <span className="text-slate-600">{t('invoices.notYet')}</span>
    );

  const busy = loader.state !== 'idle';
  return (
    <section aria-labelledby={headingId} className="grid gap-3" data-testid="agreement-invoices">
      <div className="flex flex-wrap items-end justify-between gap-2">
        <h2 id={headingId} className="text-base font-semibold">
          {t('invoices.title')}
        </h2>
        <NativeSelect
          label={t('invoices.year')}
          items={yearChoices(validFrom, today, year).map((y) => ({ id: String(y), label: String(y) }))}
          value={String(year)}
          onChange={choose}
          className="w-32"
        />
      </div>
      {busy ? <Spinner label={t('loading')} /> : null}
      {error ? <p className="text-sm text-red-700">{tc(error)}</p> : null}
      {!interval ? (
        <p className="text-sm text-slate-600">{t('invoices.noInterval')}</p>
      ) : periods.length === 0 ? (
        <p className="text-sm text-slate-600">{t('invoices.none', { year })}</p>
      ) : (
        <>
          <ul
            className="divide-y divide-slate-100 rounded-lg border border-slate-200 sm:hidden"
            aria-label={t('invoices.title')}
          >
            {periods.map((p) => (
              <li key={p.from} className="grid gap-1 p-3 text-sm">
                <p className="font-medium">{dates.period(interval, p.from, p.to)}</p>
                <p className="text-xs text-slate-600">
                  {t('invoices.invoiceDayOn', { date: dates.date(p.generateOn) })}
                </p>
                {invoiceCell(p)}
              </li>
            ))}
          </ul>
          <div className="hidden overflow-x-auto rounded-lg border border-slate-200 sm:block">
            <table className="w-full text-left text-sm">
              <caption className="sr-only">{t('invoices.caption', { year })}</caption>
              <thead className="border-b border-slate-200 bg-slate-50 text-slate-700">
                <tr>
                  <th scope="col" className="px-3 py-2">
                    {t('invoices.period')}
                  </th>
                  <th scope="col" className="px-3 py-2">
                    {t('invoices.invoiceDay')}
                  </th>
                  <th scope="col" className="px-3 py-2">
                    {t('invoices.invoice')}
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {periods.map((p) => (
                  <tr key={p.from}>
                    <th scope="row" className="px-3 py-2 font-normal">
                      {dates.period(interval, p.from, p.to)}
                    </th>
                    <td className="px-3 py-2 whitespace-nowrap tabular-nums">{dates.date(p.generateOn)}</td>
                    <td className="px-3 py-2">{invoiceCell(p)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </section>
  );
}
