import { useEffect, useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useFetcher } from 'react-router';
import { formatNumber, Spinner } from '~/app/components/ui';
import { cx } from '~/app/components/ui/class-names';
import type { StatisticsLoaderResult } from '~/app/routes/projects.$id.statistics';
import type { Progress, ProjectStatistics } from '~/core/projects/project-statistics.service';
import { Figure, money } from './costs-panel';

export interface StatisticsPanelProps {
  projectId: string;
}

/** The statistics tab's resource route (app/routes/projects.$id.statistics.tsx). */
export const statisticsUrl = (projectId: string) => `/projects/${encodeURIComponent(projectId)}/statistics`;

/** A bar's fill in percent (0–100) for a share that may pass 100. */
export function barWidth(percent: string | null): number {
  if (percent === null) return 0;
  const p = Number(percent);
  return Number.isFinite(p) ? Math.min(100, Math.max(0, p)) : 0;
}

/**
 * One progress bar with its words: what is measured, "6 of 10" and the share; red once past the
 * estimate. Without an estimate there is no bar, only the figure.
 */
export function ProgressBar({
  label,
  valueText,
  percent,
  noEstimate,
}: {
  label: string;
  valueText: string;
  percent: string | null;
  noEstimate: string;
}) {
  const id = useId();
  const over = percent !== null && Number(percent) > 100;
  const percentText = percent === null ? null : `${formatNumber(Number(percent), { decimals: 1 })} %`;
  return (
    <div className="grid gap-1">
      <div className="flex flex-wrap items-baseline justify-between gap-x-3 text-sm">
        <span id={id} className="font-medium text-slate-900">
          {label}
        </span>
        <span className={cx('tabular-nums', over ? 'text-red-800' : 'text-slate-700')}>
          {valueText}
          {percentText ? ` (${percentText})` : ''}
        </span>
      </div>
      {percent === null ? (
        <p className="text-sm text-slate-600">{noEstimate}</p>
      ) : (
        <div
          role="progressbar"
          aria-labelledby={id}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={Math.round(barWidth(percent))}
          aria-valuetext={`${valueText} (${percentText})`}
          className="h-3 overflow-hidden rounded-full bg-slate-200"
        >
          <div
            className={cx('h-full rounded-full', over ? 'bg-red-700' : 'bg-blue-700')}
            style={{ width: `${barWidth(percent)}%` }}
          />
        </div>
      )}
    </div>
  );
}

/**
 * The project's statistics menu (issue 18; spec section 2 "statistics"): hours and cost against
 * the estimate as progress bars, what the work is worth against what it cost (the margin), what is
 * invoiced of the contract sum, and how far the work orders, extra work and activities have come.
 * Loads from /projects/:id/statistics.
 */
export function StatisticsPanel({ projectId }: StatisticsPanelProps) {
  const { t } = useTranslation('projects');
  const fetcher = useFetcher<StatisticsLoaderResult>();
  const headingId = useId();
  const url = statisticsUrl(projectId);
  useEffect(() => {
    void fetcher.load(url);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [url]);

  const s = fetcher.data?.statistics ?? null;

  return (
    <section aria-labelledby={headingId} className="grid gap-4" data-testid="project-statistics">
      <h2 id={headingId} className="text-lg font-semibold">
        {t('statistics.title')}
      </h2>
      {!s ? <Spinner label={t('statistics.loading')} /> : <StatisticsView statistics={s} />}
    </section>
  );
}

/** The statistics once loaded: progress against the estimate, the money and the counts. */
export function StatisticsView({ statistics: s }: { statistics: ProjectStatistics }) {
  const { t } = useTranslation('projects');
  const of = (p: Progress, format: (v: string) => string) =>
    p.estimated === null
      ? format(p.actual)
      : t('statistics.ofEstimate', { actual: format(p.actual), estimated: format(p.estimated) });
  const hours = (v: string) => formatNumber(Number(v));
  return (
    <>
      <div className="grid gap-4 rounded-lg border border-slate-200 bg-white p-3">
        <ProgressBar
          label={t('statistics.hours')}
          valueText={of(s.hours, hours)}
          percent={s.hours.percent}
          noEstimate={t('statistics.noEstimatedHours')}
        />
        {Number(s.hours.travel) > 0 ? (
          <p className="-mt-3 text-sm text-slate-600">{t('figure.travel', { hours: hours(s.hours.travel) })}</p>
        ) : null}
        <ProgressBar
          label={t('statistics.cost')}
          valueText={of(s.cost, money)}
          percent={s.cost.percent}
          noEstimate={t('statistics.noEstimatedCost')}
        />
        <ProgressBar
          label={t('statistics.activities')}
          valueText={t('statistics.activitiesDone', { done: s.activities.done, total: s.activities.total })}
          percent={s.activities.total ? String((s.activities.done / s.activities.total) * 100) : null}
          noEstimate={t('statistics.noActivities')}
        />
      </div>
      <dl className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-3">
        <Figure
          label={t('statistics.revenue')}
          value={money(s.revenue.total)}
          note={t('statistics.revenueNote', {
            labour: money(s.revenue.labour),
            articles: money(s.revenue.articles),
            rate: money(s.revenue.hourlyPrice),
          })}
        />
        <Figure
          label={t('statistics.margin')}
          value={money(s.margin.amount)}
          note={
            s.margin.percent === null
              ? undefined
              : t('statistics.marginPercent', { percent: formatNumber(Number(s.margin.percent), { decimals: 1 }) })
          }
          tone={Number(s.margin.amount) < 0 ? 'bad' : undefined}
        />
        <Figure
          label={t('statistics.invoiced')}
          value={money(s.invoiced)}
          note={t('statistics.invoicedNote', { amount: money(s.contractSum), left: money(s.leftToInvoice) })}
        />
        <Figure
          label={t('statistics.workOrders')}
          value={formatNumber(s.workOrders.total, { decimals: 0 })}
          note={t('statistics.workOrdersNote', { open: s.workOrders.open, closed: s.workOrders.closed })}
        />
        <Figure
          label={t('statistics.extraWork')}
          value={formatNumber(s.extraWork.pending + s.extraWork.accepted + s.extraWork.declined, { decimals: 0 })}
          note={t('statistics.extraWorkNote', {
            pending: s.extraWork.pending,
            accepted: s.extraWork.accepted,
            declined: s.extraWork.declined,
          })}
        />
      </dl>
    </>
  );
}
