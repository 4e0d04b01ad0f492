import { useEffect, useId, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useFetcher } from 'react-router';
import { ColumnChart } from '~/app/components/reports/bar-chart';
import {
  Button,
  buttonClass,
  DatePicker,
  DateTime,
  formatDate,
  formatNumber,
  Spinner,
  dateValueOf,
  useTenantClock,
  useToast,
} from '~/app/components/ui';
import { cx } from '~/app/components/ui/class-names';
import { useFetcherResult } from '~/app/lib/use-fetcher-result';
import type { CostsActionResult, CostsLoaderResult } from '~/app/routes/projects.$id.costs';
import type { ProjectCosts, ProjectCostSnapshot, ProjectTimeReports } from '~/core/projects/project-costs.service';
import { endOfMonth, startOfMonth } from '~/core/calendar/dates';
import { formatDuration } from '~/core/work-orders/time-rules';

export interface CostsPanelProps {
  projectId: string;
  /** projects:edit: may take cost snapshots (a closed project takes none either way). */
  canEdit: boolean;
}

/** The costs tab's resource route (app/routes/projects.$id.costs.tsx). */
export const costsUrl = (projectId: string) => `/projects/${encodeURIComponent(projectId)}/costs`;
/** The project report's download (app/routes/projects.$id.pdf.tsx). */
export const projectPdfUrl = (projectId: string, details: boolean) =>
  `/projects/${encodeURIComponent(projectId)}/pdf${details ? '?details=1' : ''}`;

/** Money as the spec prints it ("1 250,50") from exact decimal text. */
export const money = (v: string | null | undefined) => (v == null ? '—' : formatNumber(Number(v)));

/** "jan. 2026" / "jan." for a YYYY-MM, in the page's language. */
export function monthName(month: string, lang: string, withYear: boolean): string {
  return new Intl.DateTimeFormat(lang, {
    month: 'short',
    ...(withYear ? { year: 'numeric' } : {}),
    timeZone: 'UTC',
  }).format(new Date(`${month}-01T00:00:00Z`));
}

/** The first and last day of the month `today` (YYYY-MM-DD) falls in. */
export function monthPeriod(today: string): { from: string; to: string } {
  return { from: startOfMonth(today), to: endOfMonth(today) };
}

/** A figure on a card: what it is, the value, and a line under it. */
export function Figure({
  label,
  value,
  note,
  tone,
}: {
  label: string;
  value: ReactNode;
  note?: ReactNode;
  tone?: 'bad' | 'good';
}) {
  return (
    <div className="rounded-lg border border-slate-200 bg-white p-3">
      <dt className="text-sm text-slate-600">{label}</dt>
      <dd
        className={cx(
          'mt-1 text-xl font-semibold tabular-nums',
          tone === 'bad' ? 'text-red-800' : tone === 'good' ? 'text-green-800' : 'text-slate-900',
        )}
      >
        {value}
      </dd>
      {note ? <dd className="mt-1 text-sm text-slate-600">{note}</dd> : null}
    </div>
  );
}

/**
 * The project's costs menu (issue 18; spec section 2 "costs", section 9 the cost reset day): what
 * the project has cost — time at its hourly cost, articles at purchase price — in all and since
 * the last reset day, against the estimate; a bar per month of the last 12, a row per person, the
 * cost snapshots (with "Take snapshot" for editors of an ongoing project) and the project's time
 * reports of a chosen period (this month first). Loads and posts through /projects/:id/costs.
 */
export function CostsPanel({ projectId, canEdit }: CostsPanelProps) {
  const { t } = useTranslation('projects');
  const { t: tc } = useTranslation();
  const toast = useToast();
  const summary = useFetcher<CostsLoaderResult>();
  const snapshot = useFetcher<CostsActionResult>();
  const headingId = useId();

  const url = costsUrl(projectId);
  useEffect(() => {
    void summary.load(url);
    // load once per project; reloads happen after a snapshot
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [url]);

  useFetcherResult(snapshot, (r) => {
    if (r.ok) {
      toast.show({ kind: 'success', message: t('costs.snapshotTaken') });
      void summary.load(url);
    } else toast.show({ kind: 'error', message: tc(r.code) });
  });

  const data = summary.data && summary.data.part === 'summary' ? summary.data : null;
  const busy = summary.state !== 'idle';

  return (
    <section aria-labelledby={headingId} className="grid gap-4" data-testid="project-costs">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id={headingId} className="text-lg font-semibold">
          {t('costs.title')}
        </h2>
        <div className="flex flex-wrap gap-2" role="group" aria-label={t('pdf.label')}>
          <a
            href={projectPdfUrl(projectId, false)}
            download
            className={buttonClass({ variant: 'secondary', size: 'sm', className: 'no-underline' })}
          >
            {t('pdf.download')}
          </a>
          <a
            href={projectPdfUrl(projectId, true)}
            download
            className={buttonClass({ variant: 'secondary', size: 'sm', className: 'no-underline' })}
          >
            {t('pdf.downloadDetails')}
          </a>
        </div>
      </div>
      {busy && !data ? <Spinner label={t('costs.loading')} /> : null}
      {data ? (
        <CostsView
          projectId={projectId}
          canEdit={canEdit}
          costs={data.costs}
          snapshots={data.snapshots}
          isClosed={data.isClosed}
          snapshotBusy={snapshot.state !== 'idle'}
          onTakeSnapshot={() => snapshot.submit({ intent: 'snapshot' }, { method: 'post', action: url })}
        />
      ) : null}
    </section>
  );
}

export interface CostsViewProps {
  projectId: string;
  canEdit: boolean;
  costs: ProjectCosts;
  snapshots: ProjectCostSnapshot[];
  isClosed: boolean;
  snapshotBusy: boolean;
  onTakeSnapshot: () => void;
}

/** The costs tab once loaded: the summary, the chart, the people, the snapshots and the time reports. */
export function CostsView({
  projectId,
  canEdit,
  costs,
  snapshots,
  isClosed,
  snapshotBusy,
  onTakeSnapshot,
}: CostsViewProps) {
  return (
    <>
      <CostSummary costs={costs} />
      <MonthChart costs={costs} />
      <UserTable costs={costs} />
      <Snapshots
        snapshots={snapshots}
        canTake={canEdit && !isClosed}
        isClosed={isClosed}
        busy={snapshotBusy}
        onTake={onTakeSnapshot}
      />
      <TimeReports projectId={projectId} today={costs.today} />
    </>
  );
}

function CostSummary({ costs }: { costs: ProjectCosts }) {
  const { t } = useTranslation('projects');
  const clock = useTenantClock();
  const over = (v: string | null) => (v === null ? undefined : Number(v) < 0 ? 'bad' : 'good');
  return (
    <dl className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-3">
      <Figure
        label={t('costs.total')}
        value={money(costs.total)}
        note={t('costs.totalNoteSupplier', {
          time: money(costs.time.cost),
          articles: money(costs.articles.cost),
          supplierInvoices: money(costs.supplierInvoices.cost),
        })}
      />
      <Figure
        label={t('costs.ongoing')}
        value={money(costs.ongoing.cost)}
        note={t('costs.ongoingSince', { date: formatDate(costs.ongoing.since, clock.dateFormat) })}
      />
      <Figure
        label={t('costs.time')}
        value={money(costs.time.cost)}
        note={
          costs.time.travelMinutes
            ? t('costs.timeNoteTravel', {
                hours: formatNumber(Number(costs.time.hours)),
                travel: formatNumber(costs.time.travelMinutes / 60),
                rate: money(costs.hourlyCost),
              })
            : t('costs.timeNote', {
                hours: formatNumber(Number(costs.time.hours)),
                rate: money(costs.hourlyCost),
              })
        }
      />
      <Figure
        label={t('costs.articles')}
        value={money(costs.articles.cost)}
        note={t('costs.articlesNote', { count: costs.articles.count })}
      />
      <Figure
        label={t('costs.supplierInvoices')}
        value={money(costs.supplierInvoices.cost)}
        note={t('costs.supplierInvoicesCount', { count: costs.supplierInvoices.count })}
      />
      <Figure
        label={t('costs.estimatedCost')}
        value={costs.estimated.cost === null ? t('costs.noEstimate') : money(costs.estimated.cost)}
        note={
          costs.difference.cost === null
            ? undefined
            : Number(costs.difference.cost) < 0
              ? t('costs.overEstimate', { amount: money(String(-Number(costs.difference.cost))) })
              : t('costs.leftOfEstimate', { amount: money(costs.difference.cost) })
        }
        tone={over(costs.difference.cost)}
      />
      <Figure
        label={t('costs.estimatedHours')}
        value={costs.estimated.hours === null ? t('costs.noEstimate') : formatNumber(Number(costs.estimated.hours))}
        note={
          costs.difference.hours === null
            ? undefined
            : Number(costs.difference.hours) < 0
              ? t('costs.hoursOver', { hours: formatNumber(-Number(costs.difference.hours)) })
              : t('costs.hoursLeft', { hours: formatNumber(Number(costs.difference.hours)) })
        }
        tone={over(costs.difference.hours)}
      />
    </dl>
  );
}

function MonthChart({ costs }: { costs: ProjectCosts }) {
  const { t, i18n } = useTranslation('projects');
  return (
    <ColumnChart
      title={t('costs.byMonth')}
      bars={costs.byMonth.map((m) => ({
        id: m.month,
        label: monthName(m.month, i18n.language, m.month.endsWith('-01')),
        value: Number(m.total),
        valueText: money(m.total),
      }))}
    />
  );
}

function UserTable({ costs }: { costs: ProjectCosts }) {
  const { t } = useTranslation('projects');
  const id = useId();
  return (
    <section aria-labelledby={id} className="grid gap-2">
      <h3 id={id} className="text-base font-semibold">
        {t('costs.byUser')}
      </h3>
      {costs.byUser.length === 0 ? (
        <p className="text-sm text-slate-600">{t('costs.noTime')}</p>
      ) : (
        <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white">
          <table className="w-full text-sm">
            <caption className="sr-only">{t('costs.byUser')}</caption>
            <thead className="border-b border-slate-200 bg-slate-50 text-slate-700">
              <tr>
                <th scope="col" className="px-3 py-2 text-start">
                  {t('costs.person')}
                </th>
                <th scope="col" className="px-3 py-2 text-end">
                  {t('costs.hours')}
                </th>
                <th scope="col" className="px-3 py-2 text-end">
                  {t('costs.cost')}
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {costs.byUser.map((u) => (
                <tr key={u.userId}>
                  <th scope="row" className="px-3 py-2 text-start font-normal">
                    {u.name}
                  </th>
                  <td className="px-3 py-2 text-end tabular-nums">{formatNumber(Number(u.hours))}</td>
                  <td className="px-3 py-2 text-end tabular-nums">{money(u.cost)}</td>
                </tr>
              ))}
            </tbody>
            <tfoot className="border-t border-slate-200 bg-slate-50 font-semibold">
              <tr>
                <th scope="row" className="px-3 py-2 text-start">
                  {t('costs.sum')}
                </th>
                <td className="px-3 py-2 text-end tabular-nums">{formatNumber(Number(costs.time.hours))}</td>
                <td className="px-3 py-2 text-end tabular-nums">{money(costs.time.cost)}</td>
              </tr>
            </tfoot>
          </table>
        </div>
      )}
    </section>
  );
}

function Snapshots({
  snapshots,
  canTake,
  isClosed,
  busy,
  onTake,
}: {
  snapshots: ProjectCostSnapshot[];
  canTake: boolean;
  isClosed: boolean;
  busy: boolean;
  onTake: () => void;
}) {
  const { t } = useTranslation('projects');
  const clock = useTenantClock();
  const id = useId();
  return (
    <section aria-labelledby={id} className="grid gap-2">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 id={id} className="text-base font-semibold">
          {t('costs.snapshots')}
        </h3>
        {canTake ? (
          <Button size="sm" variant="secondary" onPress={onTake} isDisabled={busy}>
            {busy ? t('costs.takingSnapshot') : t('costs.takeSnapshot')}
          </Button>
        ) : null}
      </div>
      <p className="text-sm text-slate-600">{isClosed ? t('costs.snapshotsClosed') : t('costs.snapshotsHelp')}</p>
      {snapshots.length === 0 ? (
        <p className="text-sm text-slate-600">{t('costs.noSnapshots')}</p>
      ) : (
        <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white">
          <table className="w-full min-w-max text-sm">
            <caption className="sr-only">{t('costs.snapshots')}</caption>
            <thead className="border-b border-slate-200 bg-slate-50 text-slate-700">
              <tr>
                <th scope="col" className="px-3 py-2 text-start">
                  {t('costs.takenAt')}
                </th>
                <th scope="col" className="px-3 py-2 text-start">
                  {t('costs.periodStart')}
                </th>
                <th scope="col" className="px-3 py-2 text-end">
                  {t('costs.ongoing')}
                </th>
                <th scope="col" className="px-3 py-2 text-end">
                  {t('costs.total')}
                </th>
                <th scope="col" className="px-3 py-2 text-start">
                  {t('costs.takenBy')}
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {snapshots.map((s) => (
                <tr key={s.id}>
                  <td className="px-3 py-2">
                    <DateTime iso={s.createdAt} />
                  </td>
                  <td className="px-3 py-2 whitespace-nowrap">{formatDate(s.periodStart, clock.dateFormat)}</td>
                  <td className="px-3 py-2 text-end tabular-nums">{money(s.ongoingCost)}</td>
                  <td className="px-3 py-2 text-end tabular-nums">{money(s.totalCost)}</td>
                  <td className="px-3 py-2">{s.createUserName ?? '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

/** The project's time reports of a period (this month first), a page at a time. */
function TimeReports({ projectId, today }: { projectId: string; today: string }) {
  const { t } = useTranslation('projects');
  const { t: tc } = useTranslation();
  const clock = useTenantClock();
  const fetcher = useFetcher<CostsLoaderResult>();
  const id = useId();
  const initial = monthPeriod(today);
  const [from, setFrom] = useState(initial.from);
  const [to, setTo] = useState(initial.to);
  const [offset, setOffset] = useState(0);

  const load = (start: string, end: string, at: number) => {
    setOffset(at);
    const query = new URLSearchParams({ part: 'time', startTime: start, endTime: end });
    if (at) query.set('offset', String(at));
    void fetcher.load(`${costsUrl(projectId)}?${query}`);
  };
  useEffect(() => {
    load(initial.from, initial.to, 0);
    // the first period once; later ones when the person asks
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [projectId]);

  const answer = fetcher.data && fetcher.data.part === 'time' ? fetcher.data : null;
  const report: ProjectTimeReports | null = answer && 'time' in answer ? answer.time : null;
  const refusal = answer && 'code' in answer ? answer : null;
  const errors = refusal ? Object.values(refusal.fields ?? {}).flat() : [];
  const busy = fetcher.state !== 'idle';
  const date = (d: string) => formatDate(d, clock.dateFormat);

  return (
    <section aria-labelledby={id} className="grid gap-3">
      <h3 id={id} className="text-base font-semibold">
        {t('costs.timeReports')}
      </h3>
      <form
        role="search"
        aria-label={t('costs.periodLabel')}
        className="grid gap-3 sm:grid-cols-[1fr_1fr_auto] sm:items-end"
        onSubmit={(e) => {
          e.preventDefault();
          load(from, to, 0);
        }}
      >
        <DatePicker
          label={t('costs.from')}
          value={dateValueOf(from)}
          isRequired
          onChange={(v) => setFrom(v?.toString() ?? '')}
          isInvalid={errors.length > 0}
        />
        <DatePicker
          label={t('costs.to')}
          value={dateValueOf(to)}
          isRequired
          onChange={(v) => setTo(v?.toString() ?? '')}
          isInvalid={errors.length > 0}
        />
        <Button type="submit" variant="secondary" isDisabled={busy}>
          {t('costs.show')}
        </Button>
      </form>
      {refusal ? (
        <div role="alert" className="rounded-md bg-red-50 p-3 text-sm text-red-900">
          {(errors.length ? errors : [refusal.code]).map((code) => (
            <p key={code}>{tc(code)}</p>
          ))}
        </div>
      ) : null}
      {busy ? <Spinner label={t('costs.loading')} /> : null}
      {report ? (
        report.totalCount === 0 ? (
          <p className="text-sm text-slate-600">
            {t('costs.noTimeInPeriod', { from: date(report.period.from), to: date(report.period.to) })}
          </p>
        ) : (
          <>
            <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white">
              <table className="w-full min-w-max text-sm">
                <caption className="sr-only">
                  {t('costs.timeCaption', { from: date(report.period.from), to: date(report.period.to) })}
                </caption>
                <thead className="border-b border-slate-200 bg-slate-50 text-slate-700">
                  <tr>
                    <th scope="col" className="px-3 py-2 text-start">
                      {t('costs.date')}
                    </th>
                    <th scope="col" className="px-3 py-2 text-start">
                      {t('costs.person')}
                    </th>
                    <th scope="col" className="px-3 py-2 text-start">
                      {t('costs.workOrder')}
                    </th>
                    <th scope="col" className="px-3 py-2 text-end">
                      {t('costs.work')}
                    </th>
                    <th scope="col" className="px-3 py-2 text-end">
                      {t('costs.travel')}
                    </th>
                    <th scope="col" className="px-3 py-2 text-start">
                      {t('costs.comment')}
                    </th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-100">
                  {report.rows.map((r) => (
                    <tr key={r.id}>
                      <td className="px-3 py-2 whitespace-nowrap">{date(r.date)}</td>
                      <td className="px-3 py-2">{r.userName}</td>
                      <td className="px-3 py-2">
                        <Link
                          to={`/work-orders/${encodeURIComponent(r.workOrderId)}`}
                          className="text-blue-800 underline"
                        >
                          {r.workOrderNumber}
                        </Link>{' '}
                        <span className="text-slate-700">{r.workOrderTitle}</span>
                      </td>
                      <td className="px-3 py-2 text-end tabular-nums">{formatDuration(r.workMinutes)}</td>
                      <td className="px-3 py-2 text-end tabular-nums">{formatDuration(r.travelMinutes)}</td>
                      <td className="max-w-xs px-3 py-2 break-words text-slate-700">{r.comment}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <div className="flex flex-wrap items-center justify-between gap-2 text-sm">
              <p className="text-slate-700">
                {t('costs.rowsShown', {
                  first: report.offset + 1,
                  last: report.offset + report.rows.length,
                  total: report.totalCount,
                })}
              </p>
              <div className="flex gap-2">
                <Button
                  size="sm"
                  variant="secondary"
                  isDisabled={busy || report.offset === 0}
                  onPress={() => load(report.period.from, report.period.to, Math.max(0, offset - report.limit))}
                >
                  {t('costs.previous')}
                </Button>
                <Button
                  size="sm"
                  variant="secondary"
                  isDisabled={busy || report.offset + report.rows.length >= report.totalCount}
                  onPress={() => load(report.period.from, report.period.to, offset + report.limit)}
                >
                  {t('costs.next')}
                </Button>
              </div>
            </div>
            <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white">
              <table className="w-full text-sm">
                <caption className="px-3 py-2 text-start font-semibold text-slate-900">{t('costs.perPerson')}</caption>
                <thead className="border-b border-slate-200 bg-slate-50 text-slate-700">
                  <tr>
                    <th scope="col" className="px-3 py-2 text-start">
                      {t('costs.person')}
                    </th>
                    <th scope="col" className="px-3 py-2 text-end">
                      {t('costs.work')}
                    </th>
                    <th scope="col" className="px-3 py-2 text-end">
                      {t('costs.travel')}
                    </th>
                    <th scope="col" className="px-3 py-2 text-end">
                      {t('costs.hours')}
                    </th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-100">
                  {report.byUser.map((u) => (
                    <tr key={u.userId}>
                      <th scope="row" className="px-3 py-2 text-start font-normal">
                        {u.name}
                      </th>
                      <td className="px-3 py-2 text-end tabular-nums">{formatDuration(u.workMinutes)}</td>
                      <td className="px-3 py-2 text-end tabular-nums">{formatDuration(u.travelMinutes)}</td>
                      <td className="px-3 py-2 text-end tabular-nums">{formatNumber(Number(u.hours))}</td>
                    </tr>
                  ))}
                </tbody>
                <tfoot className="border-t border-slate-200 bg-slate-50 font-semibold">
                  <tr>
                    <th scope="row" className="px-3 py-2 text-start">
                      {t('costs.sum')}
                    </th>
                    <td className="px-3 py-2 text-end tabular-nums">{formatDuration(report.totals.workMinutes)}</td>
                    <td className="px-3 py-2 text-end tabular-nums">{formatDuration(report.totals.travelMinutes)}</td>
                    <td className="px-3 py-2 text-end tabular-nums">{formatNumber(Number(report.totals.hours))}</td>
                  </tr>
                </tfoot>
              </table>
            </div>
          </>
        )
      ) : null}
    </section>
  );
}
