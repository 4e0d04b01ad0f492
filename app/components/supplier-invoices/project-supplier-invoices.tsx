import { useEffect, useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useFetcher } from 'react-router';
import type { SupplierInvoiceListItem } from '~/core/supplier-invoices/supplier-invoice.service';
import { SupplierInvoiceTable } from './supplier-invoice-table';

/**
 * A project's supplier-invoice tab (spec section 2: projects' supplier-invoice menu; issue 33):
 * every invoice of the project whatever its state, loaded from the list route's loader.
 */
export function ProjectSupplierInvoices({ projectId }: { projectId: string }) {
  const { t } = useTranslation('supplierinvoices');
  const fetcher = useFetcher<{ invoices: SupplierInvoiceListItem[] }>();
  const headingId = useId();
  const url = `/supplierinvoices?status=all&projectId=${encodeURIComponent(projectId)}&limit=200`;
  useEffect(() => {
    void fetcher.load(url);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [url]);
  return (
    <section aria-labelledby={headingId} className="grid gap-3" data-testid="project-supplier-invoices">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id={headingId} className="text-lg font-semibold">
          {t('project.title')}
        </h2>
        <Link to={`/supplierinvoices?status=all&projectId=${encodeURIComponent(projectId)}`} className="text-sm text-brand-700 underline">
          {t('project.openAll')}
        </Link>
      </div>
      {fetcher.data ? <SupplierInvoiceTable invoices={fetcher.data.invoices} /> : <p className="text-sm text-slate-600">{t('loading')}</p>}
    </section>
  );
}
