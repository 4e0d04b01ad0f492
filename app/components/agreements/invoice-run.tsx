import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { DateTime, formatDate, useTenantClock } from '~/app/components/ui';
import { isRunGoing, type InvoiceRunView } from './invoice-run-view';

export const objectAgreementHref = (businessObjectId: string) =>
  `/inventory/objects/${encodeURIComponent(businessObjectId)}?tab=agreement`;

function ObjectLink({ id, serial }: { id: string | null; serial: string }) {
  return id ? (
    <Link to={objectAgreementHref(id)} className="font-medium text-blue-800 underline-offset-2 hover:underline">
      {serial}
    </Link>
  ) : (
    <span className="font-medium">{serial}</span>
  );
}

/** What a run made, each one a link; what is beyond the listed lines is counted. */
function MadeList({
  title,
  items,
  count,
}: {
  title: string;
  items: { id: string; to: string; label: string }[];
  count: number;
}) {
  const { t } = useTranslation('agreementinvoices');
  if (!items.length) return null;
  return (
    <div>
      <h3 className="font-medium">{title}</h3>
      <ul className="mt-1 space-y-1 text-sm" aria-label={title}>
        {items.map((m) => (
          <li key={m.id} data-testid="run-made">
            <Link to={m.to} className="text-blue-800 underline-offset-2 hover:underline">
              {m.label}
            </Link>
          </li>
        ))}
      </ul>
      {count > items.length ? (
        <p className="mt-1 text-sm text-slate-600">{t('run.more', { count: count - items.length })}</p>
      ) : null}
    </div>
  );
}

/**
 * An agreement invoicing run (issue 16 item 4): while it is queued or running, a bar with how many
 * agreements are done and how many invoices were made; once over, the report — invoices made, the
 * agreements skipped with why (each linking to its object) and the warnings (a customer not sent to
 * the ERP). The page polls and hands the newest state in.
 */
export function InvoiceRunPanel({ run }: { run: InvoiceRunView }) {
  const { t } = useTranslation('agreementinvoices');
  const { t: tc } = useTranslation();
  const { dateFormat } = useTenantClock();
  const until = formatDate(run.untilDate, dateFormat);
  const going = isRunGoing(run);
  const percent = run.total > 0 ? Math.round((run.done / run.total) * 100) : going ? 0 : 100;
  return (
    <section
      aria-labelledby="invoice-run-title"
      className="space-y-3 rounded-lg border border-slate-200 bg-slate-50 p-4"
      data-testid="invoice-run"
    >
      <h2 id="invoice-run-title" className="text-lg font-semibold">
        {going ? t('run.goingTitle', { date: until }) : t('run.doneTitle', { date: until })}
      </h2>
      {going ? (
        <>
          <div
            role="progressbar"
            aria-label={t('run.progressLabel')}
            aria-valuemin={0}
            aria-valuemax={run.total}
            aria-valuenow={run.done}
            aria-valuetext={t('run.progress', { done: run.done, total: run.total })}
            className="h-3 w-full overflow-hidden rounded-full bg-slate-200"
          >
            <div className="h-full rounded-full bg-blue-700 transition-[width]" style={{ width: `${percent}%` }} />
          </div>
          <p className="text-sm text-slate-700" aria-live="polite">
            {run.status === 'queued'
              ? t('run.queued')
              : `${t('run.progress', { done: run.done, total: run.total })} · ${t('run.createdSoFar', { count: run.created })}`}
          </p>
        </>
      ) : (
        <>
          <p
            role="status"
            className={
              run.status === 'failed'
                ? 'rounded-md bg-red-50 p-3 text-sm text-red-900'
                : 'rounded-md bg-green-50 p-3 text-sm font-medium text-green-900'
            }
          >
            <span>
              {run.status === 'failed'
                ? t('run.failed', { count: run.created })
                : t('run.created', { count: run.created })}
            </span>
            <span>{` · ${t('run.workOrders', { count: run.workOrders })}`}</span>
          </p>
          <MadeList
            title={t('run.madeInvoices')}
            items={run.made.invoices.map((i) => ({
              id: i.id,
              to: `/invoices/${encodeURIComponent(i.id)}`,
              label: [i.invoiceNr ?? t('run.draft'), i.customerName].filter(Boolean).join(' · '),
            }))}
            count={run.created}
          />
          <MadeList
            title={t('run.madeWorkOrders')}
            items={run.made.workOrders.map((w) => ({
              id: w.id,
              to: `/work-orders/${encodeURIComponent(w.id)}`,
              label: `${w.number} · ${w.title}`,
            }))}
            count={run.workOrders}
          />
          <p className="text-sm text-slate-600">
            {run.finishedAt ? <DateTime iso={run.finishedAt} /> : null}
            {run.startedBy ? ` · ${t('run.startedBy', { name: run.startedBy })}` : null}
          </p>
          {run.skippedCount > 0 ? (
            <div>
              <h3 className="font-medium">{t('run.skippedTitle', { count: run.skippedCount })}</h3>
              <ul className="mt-1 space-y-1 text-sm" aria-label={t('run.skippedTitle', { count: run.skippedCount })}>
                {run.skipped.map((s) => (
                  <li key={`${s.objectAgreementId}-${s.periodFrom ?? ''}-${s.reason}`} data-testid="run-skipped">
                    <ObjectLink id={s.businessObjectId} serial={s.serialCode} />
                    {s.periodFrom ? ` · ${formatDate(s.periodFrom, dateFormat)}` : null}
                    {' — '}
                    {tc(`agreementSkip.${s.reason}`)}
                  </li>
                ))}
              </ul>
              {run.skippedCount > run.skipped.length ? (
                <p className="mt-1 text-sm text-slate-600">
                  {t('run.more', { count: run.skippedCount - run.skipped.length })}
                </p>
              ) : null}
            </div>
          ) : null}
          {run.warningCount > 0 ? (
            <div>
              <h3 className="font-medium">{t('run.warningsTitle', { count: run.warningCount })}</h3>
              <ul className="mt-1 space-y-1 text-sm" aria-label={t('run.warningsTitle', { count: run.warningCount })}>
                {run.warnings.map((w) => (
                  <li key={`${w.objectAgreementId}-${w.invoiceId}`} data-testid="run-warning">
                    <ObjectLink id={w.businessObjectId} serial={w.serialCode} />
                    {' — '}
                    {tc(`agreementWarning.${w.warning}`)}
                    {' · '}
                    <Link
                      to={`/invoices/${encodeURIComponent(w.invoiceId)}`}
                      className="text-blue-800 underline-offset-2 hover:underline"
                    >
                      {t('run.openInvoice')}
                    </Link>
                  </li>
                ))}
              </ul>
              {run.warningCount > run.warnings.length ? (
                <p className="mt-1 text-sm text-slate-600">
                  {t('run.more', { count: run.warningCount - run.warnings.length })}
                </p>
              ) : null}
            </div>
          ) : null}
        </>
      )}
    </section>
  );
}
