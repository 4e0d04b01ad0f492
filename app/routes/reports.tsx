import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Form, useNavigation, useSearchParams } from 'react-router';
import type { Route } from './+types/reports';
import { ColumnChart, HorizontalBarChart } from '~/app/components/reports/bar-chart';
import { CustomerPicker } from '~/app/components/inventory/pickers/customer-picker';
import {
  Button,
  buttonClass,
  DatePicker,
  DateTime,
  formatNumber,
  LinkButton,
  ListPager,
  pageFromUrl,
  SortableTable,
  Spinner,
  Tabs,
  TextField,
  dateValueOf,
} from '~/app/components/ui';
import { cx } from '~/app/components/ui/class-names';
import { NATIVE_INPUT_CLASS, NativeField } from '~/app/components/ui/native-field';
import { guard, requireAuth, run } from '~/app/lib/guard.server';
import { useCan } from '~/app/lib/can';
import { useTagLabel } from '~/app/lib/time-tag-label';
import { addDays } from '~/core/calendar/dates';
import { tenantToday } from '~/core/calendar/tenant-today';
import { isAppError } from '~/core/errors/app-error';
import { agreementInvoiceReport, type AgreementInvoiceReport } from '~/core/reports/agreement-invoices-report.service';
import {
  closedWorkOrderHistory,
  type ClosedHistory,
  type ClosedWorkOrder,
} from '~/core/reports/closed-work-orders.service';
import { reportOptions, type ReportOptions } from '~/core/reports/report-options';
import { monthOf, weekOf, type Period } from '~/core/reports/report-period';
import { TIME_GROUPINGS, timeRowLabel, type ReportKind } from '~/core/reports/report-constants';
import { timeReport, type TimeReport, type TimeReportRow } from '~/core/reports/time-report.service';
import { formatDuration } from '~/core/work-orders/time-rules';
import { pageTitle } from '~/app/lib/page-title';

/**
 * Reports (spec section 2 /reports, REPORTS_READ; issue 17 part 6): the work orders closed in a
 * period (this week by default) with their filters, page by page; the agreement invoices per type
 * and month (this month by default) with a bar per month; the time per person, project or work type
 * (this month by default) with a bar per group. Each downloads as CSV or XLSX (./reports.export.tsx)
 * with the same query.
 */
export const middleware = guard({ permission: 'reports:read' });

const TABS = ['closed', 'agreements', 'time'] as const;
type Tab = (typeof TABS)[number];

/** The report each tab downloads (core/reports/report-export REPORT_KINDS). */
const TAB_REPORT: Record<Tab, ReportKind> = {
  closed: 'closed-work-orders',
  agreements: 'agreement-invoices',
  time: 'time',
};

/** The filters each tab reads from the address (and passes on to its export). */
const TAB_PARAMS: Record<Tab, readonly string[]> = {
  closed: ['startTime', 'endTime', 'customerId', 'workType', 'title', 'createUserId', 'scheduledUserId'],
  agreements: ['startTime', 'endTime'],
  time: ['startTime', 'endTime', 'groupBy'],
};

/** The period buttons of each tab, from the tenant's today. */
function presetsOf(today: string): Record<Tab, { id: string; period: Period }[]> {
  const week = weekOf(today);
  const month = monthOf(today);
  const lastMonth = monthOf(addDays(month.from, -1));
  const year = { from: `${today.slice(0, 4)}-01-01`, to: `${today.slice(0, 4)}-12-31` };
  return {
    closed: [
      { id: 'thisWeek', period: week },
      { id: 'lastWeek', period: weekOf(addDays(week.from, -1)) },
      { id: 'thisMonth', period: month },
    ],
    agreements: [
      { id: 'thisMonth', period: month },
      { id: 'lastMonth', period: lastMonth },
      { id: 'thisYear', period: year },
    ],
    time: [
      { id: 'thisMonth', period: month },
      { id: 'lastMonth', period: lastMonth },
      { id: 'thisWeek', period: week },
    ],
  };
}

type Fields = Record<string, string[]>;

export async function loader({ request, context }: Route.LoaderArgs) {
  requireAuth(context);
  const params = new URL(request.url).searchParams;
  const wanted = params.get('tab');
  const tab: Tab = (TABS as readonly string[]).includes(wanted ?? '') ? (wanted as Tab) : 'closed';
  const query = Object.fromEntries(TAB_PARAMS[tab].map((k) => [k, params.get(k)?.trim().slice(0, 200) ?? '']));
  const page = pageFromUrl(params);
  return run(context, async (ctx) => {
    const presets = presetsOf(tenantToday(ctx))[tab];
    let closed: ClosedHistory | null = null;
    let agreements: AgreementInvoiceReport | null = null;
    let time: TimeReport | null = null;
    let options: ReportOptions | null = null;
    let errors: Fields | null = null;
    if (tab === 'closed') options = await reportOptions(ctx, { customerId: query.customerId });
    try {
      // a refused query (a period reversed or too long) is refused before any statement runs
      if (tab === 'closed') closed = await closedWorkOrderHistory(ctx, { ...query, ...page });
      else if (tab === 'agreements') agreements = await agreementInvoiceReport(ctx, query);
      else time = await timeReport(ctx, query);
    } catch (e) {
      if (!isAppError(e) || e.code !== 'VALIDATION_FAILED') throw e;
      errors = (e.details?.fields as Fields | undefined) ?? { _: ['VALIDATION_FAILED'] };
    }
    return {
      tab,
      query,
      presets,
      closed,
      agreements,
      time,
      options,
      errors,
      // a message key from ./reports.export.tsx (anything else in the address is ignored)
      exportError: /^[A-Z][A-Z0-9_]+$/.test(params.get('exportError') ?? '') ? params.get('exportError') : null,
      ...page,
    };
  });
}

type Data = Route.ComponentProps['loaderData'];

const money = (v: string | number) => formatNumber(Number(v));

function Empty({ children }: { children: ReactNode }) {
  return (
    <p className="rounded-lg border border-dashed border-gray-300 bg-white p-6 text-center text-gray-700">{children}</p>
  );
}

/** The chosen period: the report's when it ran, else what was typed. */
function periodOf(data: Data): Period {
  const report = data.closed ?? data.agreements ?? data.time;
  return report
    ? { from: report.startTime, to: report.endTime }
    : { from: data.query.startTime ?? '', to: data.query.endTime ?? '' };
}

/** The messages of a refused query, translated, for the filter form. */
function FieldErrors({ errors }: { errors: Fields | null }) {
  const { t } = useTranslation();
  if (!errors) return null;
  return (
    <div role="alert" className="rounded-md bg-red-50 p-3 text-sm text-red-900">
      {Object.values(errors)
        .flat()
        .map((code) => (
          <p key={code}>{t(code)}</p>
        ))}
    </div>
  );
}

/** The period fields, with the tab's other filters as children; a GET form, so it works before hydration. */
function FilterForm({ data, children }: { data: Data; children?: ReactNode }) {
  const { t } = useTranslation('reports');
  const period = periodOf(data);
  const key = `${data.tab}|${period.from}|${period.to}`;
  const invalid = (field: string) => Boolean(data.errors?.[field]);
  return (
    <Form
      method="get"
      role="search"
      aria-label={t('filter.label')}
      className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4 lg:items-end"
    >
      <input type="hidden" name="tab" value={data.tab} />
      <DatePicker
        label={t('filter.from')}
        key={`from-${key}`}
        name="startTime"
        defaultValue={dateValueOf(period.from)}
        isInvalid={invalid('startTime')}
      />
      <DatePicker
        label={t('filter.to')}
        key={`to-${key}`}
        name="endTime"
        defaultValue={dateValueOf(period.to)}
        isInvalid={invalid('endTime')}
      />
      {children}
      <div className="flex items-end">
        <Button type="submit" variant="secondary">
          {t('filter.apply')}
        </Button>
      </div>
    </Form>
  );
}

/** This week, last week, this month…: links that set the period and keep the other filters. */
function Presets({ data }: { data: Data }) {
  const { t } = useTranslation('reports');
  const [params] = useSearchParams();
  const period = periodOf(data);
  return (
    <div className="flex flex-wrap gap-2" role="group" aria-label={t('filter.quick')}>
      {data.presets.map((p) => {
        const next = new URLSearchParams(params);
        next.set('tab', data.tab);
        next.set('startTime', p.period.from);
        next.set('endTime', p.period.to);
        next.delete('offset');
        next.delete('exportError');
        const current = p.period.from === period.from && p.period.to === period.to;
        return (
          <LinkButton
            key={p.id}
            href={`?${next}`}
            size="sm"
            variant={current ? 'primary' : 'secondary'}
            aria-current={current ? 'true' : undefined}
          >
            {t(`preset.${p.id}`)}
          </LinkButton>
        );
      })}
    </div>
  );
}

/** CSV and XLSX of the report as shown: plain links, so the router leaves the download to the browser. */
function ExportLinks({ data }: { data: Data }) {
  const { t } = useTranslation('reports');
  const { t: tc } = useTranslation();
  const period = periodOf(data);
  const query = new URLSearchParams({ report: TAB_REPORT[data.tab], tab: data.tab });
  for (const [k, v] of Object.entries(data.query)) if (v) query.set(k, v);
  query.set('startTime', period.from);
  query.set('endTime', period.to);
  return (
    <div className="space-y-2">
      <div className="flex flex-wrap items-center gap-2" role="group" aria-label={t('export.label')}>
        {(['csv', 'xlsx'] as const).map((format) => (
          <a
            key={format}
            href={`/reports/export?${query}&format=${format}`}
            download
            data-export={format}
            className={buttonClass({ variant: 'secondary', size: 'sm', className: 'no-underline' })}
          >
            {t(`export.${format}`)}
          </a>
        ))}
      </div>
      {data.exportError ? (
        <p role="alert" className="rounded-md bg-red-50 p-3 text-sm text-red-900">
          {tc(data.exportError)}
        </p>
      ) : null}
    </div>
  );
}

/** A table of sums: a row header, numbers right-aligned, a total row; scrolls sideways on a phone. */
function SumTable({
  label,
  head,
  rows,
  total,
}: {
  label: string;
  head: string[];
  rows: { id: string; cells: ReactNode[] }[];
  total?: ReactNode[];
}) {
  return (
    <div className="overflow-x-auto rounded-lg border border-gray-200 bg-white">
      <table className="w-full min-w-max text-sm" aria-label={label}>
        <thead className="border-b border-gray-200 bg-gray-50 text-gray-700">
          <tr>
            {head.map((h, i) => (
              <th key={h} scope="col" className={cx('px-3 py-2 font-semibold', i === 0 ? 'text-start' : 'text-end')}>
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-gray-100">
          {rows.map((r) => (
            <tr key={r.id}>
              {r.cells.map((c, i) =>
                i === 0 ? (
                  <th key={i} scope="row" className="px-3 py-2 text-start font-normal">
                    {c}
                  </th>
                ) : (
                  <td key={i} className="px-3 py-2 text-end whitespace-nowrap tabular-nums">
                    {c}
                  </td>
                ),
              )}
            </tr>
          ))}
        </tbody>
        {total ? (
          <tfoot className="border-t border-gray-200 bg-gray-50 font-semibold">
            <tr>
              {total.map((c, i) =>
                i === 0 ? (
                  <th key={i} scope="row" className="px-3 py-2 text-start">
                    {c}
                  </th>
                ) : (
                  <td key={i} className="px-3 py-2 text-end whitespace-nowrap tabular-nums">
                    {c}
                  </td>
                ),
              )}
            </tr>
          </tfoot>
        ) : null}
      </table>
    </div>
  );
}

// ---- closed work orders ----

const ANY = '';

function UserSelect({
  name,
  label,
  value,
  users,
}: {
  name: string;
  label: string;
  value: string;
  users: { id: string; name: string }[];
}) {
  const { t } = useTranslation('reports');
  return (
    <NativeField label={label}>
      {(id) => (
        <select id={id} name={name} defaultValue={value} className={cx(NATIVE_INPUT_CLASS, 'cursor-default')}>
          <option value={ANY}>{t('filter.anyone')}</option>
          {users.map((u) => (
            <option key={u.id} value={u.id}>
              {u.name}
            </option>
          ))}
        </select>
      )}
    </NativeField>
  );
}

function ClosedTab({ data }: { data: Data }) {
  const { t } = useTranslation('reports');
  const can = useCan();
  const options = data.options!;
  const history = data.closed;
  const q = data.query;
  const filtered = Boolean(q.customerId || q.workType || q.title || q.createUserId || q.scheduledUserId);
  const columns = [
    {
      id: 'number',
      header: t('col.number'),
      isRowHeader: true,
      render: (w: ClosedWorkOrder) => <span className="font-medium text-blue-800 tabular-nums">{w.number}</span>,
    },
    { id: 'title', header: t('col.title'), render: (w: ClosedWorkOrder) => w.title },
    { id: 'customer', header: t('col.customer'), render: (w: ClosedWorkOrder) => w.customerName ?? '—' },
    { id: 'workType', header: t('col.workType'), render: (w: ClosedWorkOrder) => w.workType },
    { id: 'closedAt', header: t('col.closedAt'), render: (w: ClosedWorkOrder) => <DateTime iso={w.closedAt} /> },
    {
      id: 'assignees',
      header: t('col.assignees'),
      render: (w: ClosedWorkOrder) => w.assignees.map((a) => a.name).join(', ') || '—',
    },
    {
      id: 'work',
      header: t('col.work'),
      align: 'end' as const,
      render: (w: ClosedWorkOrder) => <span className="tabular-nums">{formatDuration(w.workMinutes)}</span>,
    },
    {
      id: 'travel',
      header: t('col.travel'),
      align: 'end' as const,
      render: (w: ClosedWorkOrder) => <span className="tabular-nums">{formatDuration(w.travelMinutes)}</span>,
    },
    {
      id: 'price',
      header: t('col.price'),
      align: 'end' as const,
      render: (w: ClosedWorkOrder) => <span className="tabular-nums">{money(w.totalPrice)}</span>,
    },
  ];
  return (
    <div className="space-y-4">
      <FilterForm data={data}>
        {can('customers:read') ? (
          <CustomerPicker
            key={options.customer?.id ?? 'none'}
            name="customerId"
            label={t('filter.customer')}
            defaultSelected={options.customer}
          />
        ) : null}
        <NativeField label={t('filter.workType')}>
          {(id) => (
            <select
              id={id}
              name="workType"
              defaultValue={q.workType ?? ''}
              className={cx(NATIVE_INPUT_CLASS, 'cursor-default')}
            >
              <option value={ANY}>{t('filter.anyWorkType')}</option>
              {options.workTypes.map((w) => (
                <option key={w.id} value={w.id}>
                  {w.name}
                </option>
              ))}
            </select>
          )}
        </NativeField>
        <TextField name="title" type="search" label={t('filter.title')} defaultValue={q.title ?? ''} />
        <UserSelect
          name="createUserId"
          label={t('filter.createdBy')}
          value={q.createUserId ?? ''}
          users={options.users}
        />
        <UserSelect
          name="scheduledUserId"
          label={t('filter.scheduledUser')}
          value={q.scheduledUserId ?? ''}
          users={options.users}
        />
      </FilterForm>
      <Presets data={data} />
      <FieldErrors errors={data.errors} />
      {history ? (
        <>
          <div className="flex flex-wrap items-center justify-between gap-3">
            <p className="text-sm text-slate-700" aria-live="polite" data-testid="closed-summary">
              {t('closed.summary', {
                count: history.totalCount,
                work: formatDuration(history.totals.workMinutes),
                travel: formatDuration(history.totals.travelMinutes),
                price: money(history.totals.totalPrice),
              })}
            </p>
            {history.totalCount > 0 ? <ExportLinks data={data} /> : null}
          </div>
          <SortableTable
            aria-label={t('closed.label')}
            columns={columns}
            rows={history.workOrders}
            getRowHref={(w) => `/work-orders/${w.id}`}
            emptyState={filtered ? t('closed.emptyFiltered') : t('closed.empty')}
          />
          <ListPager totalCount={history.totalCount} offset={data.offset} limit={data.limit} />
        </>
      ) : null}
    </div>
  );
}

// ---- agreement invoices ----

function monthName(month: string, lang: string, withYear = true) {
  return new Intl.DateTimeFormat(lang, {
    month: 'short',
    ...(withYear ? { year: 'numeric' } : {}),
    timeZone: 'UTC',
  }).format(new Date(`${month}-01T00:00:00Z`));
}

function AgreementsTab({ data }: { data: Data }) {
  const { t, i18n } = useTranslation('reports');
  const report = data.agreements;
  const typeName = (r: { code: string | null; title: string | null }) =>
    r.title ? `${r.code} – ${r.title}` : t('agreements.noType');
  return (
    <div className="space-y-4">
      <FilterForm data={data} />
      <Presets data={data} />
      <FieldErrors errors={data.errors} />
      {report ? (
        report.count === 0 ? (
          <Empty>{t('agreements.empty')}</Empty>
        ) : (
          <>
            <div className="flex flex-wrap items-center justify-between gap-3">
              <p className="text-sm text-slate-700" aria-live="polite">
                {t('agreements.summary', {
                  count: report.count,
                  net: money(report.totalPrice),
                  gross: money(report.totalPriceVat),
                })}
              </p>
              <ExportLinks data={data} />
            </div>
            <ColumnChart
              title={t('agreements.chart')}
              bars={report.months.map((m) => ({
                id: m.month,
                label: monthName(m.month, i18n.language, report.months.length > 12 || m.month.endsWith('-01')),
                value: Number(m.totalPrice),
                valueText: money(m.totalPrice),
              }))}
            />
            <SumTable
              label={t('agreements.byMonth')}
              head={[t('col.month'), t('col.invoices'), t('col.net'), t('col.gross')]}
              rows={report.months.map((m) => ({
                id: m.month,
                cells: [monthName(m.month, i18n.language), m.count, money(m.totalPrice), money(m.totalPriceVat)],
              }))}
              total={[t('total'), report.count, money(report.totalPrice), money(report.totalPriceVat)]}
            />
            <h2 className="text-lg font-medium">{t('agreements.byTypeAndMonth')}</h2>
            <SumTable
              label={t('agreements.byTypeAndMonth')}
              head={[t('col.agreementType'), t('col.month'), t('col.invoices'), t('col.net'), t('col.gross')]}
              rows={report.rows.map((r) => ({
                id: `${r.agreementId ?? ''}|${r.month}`,
                cells: [
                  typeName(r),
                  monthName(r.month, i18n.language),
                  r.count,
                  money(r.totalPrice),
                  money(r.totalPriceVat),
                ],
              }))}
            />
            <h2 className="text-lg font-medium">{t('agreements.byType')}</h2>
            <SumTable
              label={t('agreements.byType')}
              head={[t('col.agreementType'), t('col.invoices'), t('col.net'), t('col.gross')]}
              rows={report.types.map((r) => ({
                id: r.agreementId ?? '',
                cells: [typeName(r), r.count, money(r.totalPrice), money(r.totalPriceVat)],
              }))}
              total={[t('total'), report.count, money(report.totalPrice), money(report.totalPriceVat)]}
            />
          </>
        )
      ) : null}
    </div>
  );
}

// ---- time ----

/** A time row's name as the table and the chart show it (the exports write the same). */
function useTimeLabel() {
  const { t } = useTranslation('reports');
  const tagLabel = useTagLabel();
  return (r: TimeReportRow) => timeRowLabel(r, (key, vars) => t(key, vars), tagLabel);
}

/** How many groups the chart draws; the table lists them all. */
const CHART_BARS = 20;

function TimeTab({ data }: { data: Data }) {
  const { t } = useTranslation('reports');
  const label = useTimeLabel();
  const report = data.time;
  const groupBy = report?.groupBy ?? (data.query.groupBy || 'person');
  const d = formatDuration;
  const charted = report ? [...report.rows].sort((a, b) => b.totalMinutes - a.totalMinutes).slice(0, CHART_BARS) : [];
  return (
    <div className="space-y-4">
      <FilterForm data={data}>
        <NativeField label={t('time.groupBy')} key={`g-${groupBy}`}>
          {(id) => (
            <select id={id} name="groupBy" defaultValue={groupBy} className={cx(NATIVE_INPUT_CLASS, 'cursor-default')}>
              {TIME_GROUPINGS.map((g) => (
                <option key={g} value={g}>
                  {t(`time.groupBy.${g}`)}
                </option>
              ))}
            </select>
          )}
        </NativeField>
      </FilterForm>
      <Presets data={data} />
      <FieldErrors errors={data.errors} />
      {report ? (
        report.rows.length === 0 ? (
          <Empty>{t('time.empty')}</Empty>
        ) : (
          <>
            <div className="flex flex-wrap items-center justify-between gap-3">
              <p className="text-sm text-slate-700" aria-live="polite">
                {t('time.summary', { total: d(report.totals.totalMinutes) })}
              </p>
              <ExportLinks data={data} />
            </div>
            <HorizontalBarChart
              title={t(report.rows.length > CHART_BARS ? 'time.chartTop' : 'time.chart', { count: CHART_BARS })}
              bars={charted.map((r) => ({
                id: r.id,
                label: label(r),
                value: r.totalMinutes,
                valueText: d(r.totalMinutes),
              }))}
            />
            <SumTable
              label={t(`time.table.${report.groupBy}`)}
              head={[
                t(`time.groupBy.${report.groupBy}`),
                t('col.work'),
                t('col.travel'),
                t('col.own'),
                t('col.absence'),
                t('col.total'),
              ]}
              rows={report.rows.map((r) => ({
                id: r.id,
                cells: [
                  label(r),
                  d(r.workMinutes),
                  d(r.travelMinutes),
                  d(r.ownMinutes),
                  d(r.absenceMinutes),
                  <strong key="total">{d(r.totalMinutes)}</strong>,
                ],
              }))}
              total={[
                t('total'),
                d(report.totals.workMinutes),
                d(report.totals.travelMinutes),
                d(report.totals.ownMinutes),
                d(report.totals.absenceMinutes),
                d(report.totals.totalMinutes),
              ]}
            />
            <p className="text-sm text-slate-600">{t('time.help')}</p>
          </>
        )
      ) : null}
    </div>
  );
}

/** The page's `<title>` (app/lib/page-title.ts). */
export const handle = pageTitle('nav.reports');

export default function Reports({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('reports');
  const navigation = useNavigation();
  const loading = navigation.state === 'loading' && navigation.location.pathname === '/reports';
  const tab = loaderData.tab;
  const content = (id: Tab) =>
    id !== tab ? null : id === 'closed' ? (
      <ClosedTab data={loaderData} />
    ) : id === 'agreements' ? (
      <AgreementsTab data={loaderData} />
    ) : (
      <TimeTab data={loaderData} />
    );
  const items = TABS.map((id) => ({
    id,
    label: t(`tab.${id}`),
    href: id === 'closed' ? '/reports' : `/reports?tab=${id}`,
    content: content(id),
  }));
  return (
    <section className="min-w-0 rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h1 className="text-2xl font-semibold">{t('title')}</h1>
        {loading ? <Spinner label={t('loading')} /> : null}
      </div>
      <Tabs aria-label={t('tab.label')} className="mt-4" items={items} selectedKey={tab} />
    </section>
  );
}
