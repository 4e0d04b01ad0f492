import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Form, Link, useFetcher, useNavigation, useRevalidator } from 'react-router';
import type { Route } from './+types/agreements.invoices';
import { AgreementsSubnav } from '~/app/components/agreements/agreements-subnav';
import { InvoiceRunPanel, objectAgreementHref } from '~/app/components/agreements/invoice-run';
import {
  invoiceRunView,
  isRunGoing,
  laterRun,
  RUN_POLL_MS,
  type InvoiceRunView,
} from '~/app/components/agreements/invoice-run-view';
import { InvoiceStatusBadge } from '~/app/components/invoices/invoice-badges';
import {
  Button,
  ConfirmDialog,
  DatePicker,
  formatDate,
  formatNumber,
  LinkButton,
  ListPager,
  pageFromUrl,
  SortableTable,
  Spinner,
  Tabs,
  TextField,
  dateValueOf,
  useTenantClock,
  useToast,
  type DateFormat,
} from '~/app/components/ui';
import { cx } from '~/app/components/ui/class-names';
import { actionError, type ActionError } from '~/app/lib/action-error.server';
import { guard, requireAuth, run } from '~/app/lib/guard.server';
import { useFetcherResult } from '~/app/lib/use-fetcher-result';
import {
  agreementInvoiceHistory,
  scheduledInvoices,
  upcomingInvoices,
  type AgreementInvoice,
  type UpcomingInvoice,
} from '~/core/agreements/agreement-invoices.service';
import { latestInvoiceRun, startInvoiceRun } from '~/core/agreements/agreement-runs';
import { tenantToday } from '~/core/agreements/generation.service';
import { addDays, addMonthsToFirst, isPlainDate } from '~/core/calendar/dates';
import type { InvoiceStatus } from '~/core/invoicing/invoice.service';
import { hasAccess } from '~/core/permissions/access';
import { pageTitle } from '~/app/lib/page-title';

/**
 * Agreements → agreement invoices (spec section 2 "agreement invoices (list and scheduled)", issue
 * 16 item 4): what is due in a period (this month by default) with why any is held back, and the
 * bulk run that invoices it, its bar polled every second and kept over a reload; what the next
 * twelve months will invoice; and the agreement invoices made, by period (invoices:read).
 */
export const middleware = guard({ permission: 'agreements:read' });

const TABS = ['upcoming', 'scheduled', 'history'] as const;
type Tab = (typeof TABS)[number];

/** A `YYYY-MM-DD` that exists, or nothing (a bad date in the address is no filter, not an error). */
function plainDate(params: URLSearchParams, key: string): string | undefined {
  const v = params.get(key) ?? '';
  return isPlainDate(v) ? v : undefined;
}

/** The period buttons: this month, the next, this quarter (the tenant's today). */
function periodPresets(today: string) {
  const month = (first: string) => ({ from: first, to: addDays(addMonthsToFirst(first, 1), -1) });
  const quarterStart = addMonthsToFirst(today, -((Number(today.slice(5, 7)) - 1) % 3));
  return {
    thisMonth: month(addMonthsToFirst(today, 0)),
    nextMonth: month(addMonthsToFirst(today, 1)),
    thisQuarter: { from: quarterStart, to: addDays(addMonthsToFirst(quarterStart, 3), -1) },
  };
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const auth = requireAuth(context);
  const params = new URL(request.url).searchParams;
  const canHistory = hasAccess(auth, { permission: 'invoices:read' });
  const wanted = params.get('tab');
  const tab: Tab = wanted === 'scheduled' ? 'scheduled' : wanted === 'history' && canHistory ? 'history' : 'upcoming';
  const page = pageFromUrl(params);
  return run(context, async (ctx) => {
    const common = {
      tab,
      canHistory,
      canRun: hasAccess(auth, { permission: 'agreements:edit' }),
      presets: periodPresets(tenantToday(ctx)),
      ...page,
    };
    if (tab === 'scheduled')
      return { ...common, scheduled: await scheduledInvoices(ctx), upcoming: null, history: null, run: null, q: '' };
    if (tab === 'history') {
      const history = await agreementInvoiceHistory(ctx, {
        startTime: plainDate(params, 'startTime'),
        endTime: plainDate(params, 'endTime'),
        ...page,
      });
      return { ...common, history, scheduled: null, upcoming: null, run: null, q: '' };
    }
    const q = params.get('q')?.trim().slice(0, 200) ?? '';
    const upcoming = await upcomingInvoices(ctx, {
      from: plainDate(params, 'from'),
      to: plainDate(params, 'to'),
      q: q || undefined,
      ...page,
    });
    const latest = await latestInvoiceRun(ctx);
    return { ...common, upcoming, q, run: invoiceRunView(latest.run), scheduled: null, history: null };
  });
}

export type RunActionResult = { ok: true; run: InvoiceRunView | null } | ActionError;

/** "Invoice this period": starts the run for the agreements due by `until` (agreements:edit). */
export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  try {
    const started = await run(context, (ctx) => startInvoiceRun(ctx, { until: form.get('until') }));
    return { ok: true as const, run: invoiceRunView(started.run) };
  } catch (e) {
    return actionError(e);
  }
}

const money = (v: string | number) => formatNumber(Number(v));
const day = (v: string, format: DateFormat) => formatDate(v, format);
const LINK = 'text-blue-800 underline-offset-2 hover:underline';

function Empty({ children }: { children: ReactNode }) {
  return (
    <p className="rounded-lg border border-dashed border-gray-300 bg-white p-6 text-center text-gray-700">{children}</p>
  );
}

// ---- upcoming ----

/** A skip reason reads as part of a sentence ("the object is inactive"); alone in a chip it starts a capital. */
const capitalized = (text: string) => text.charAt(0).toLocaleUpperCase() + text.slice(1);

function StatusChip({ reason }: { reason: UpcomingInvoice['skipReason'] }) {
  const { t } = useTranslation('agreementinvoices');
  const { t: tc } = useTranslation();
  return (
    <span
      className={cx(
        'inline-flex items-center rounded px-2 py-0.5 text-xs font-medium whitespace-nowrap',
        reason ? 'bg-amber-100 text-amber-900' : 'bg-green-100 text-green-900',
      )}
    >
      {reason ? capitalized(tc(`agreementSkip.${reason}`)) : t('status.willInvoice')}
    </span>
  );
}

function PeriodFilter({
  from,
  to,
  q,
  presets,
}: {
  from: string;
  to: string;
  q: string;
  presets: Route.ComponentProps['loaderData']['presets'];
}) {
  const { t } = useTranslation('agreementinvoices');
  const key = `${from}|${to}|${q}`;
  const presetHref = (p: { from: string; to: string }) => {
    const next = new URLSearchParams({ from: p.from, to: p.to });
    if (q) next.set('q', q);
    return `?${next}`;
  };
  return (
    <div className="space-y-3">
      <Form
        method="get"
        role="search"
        aria-label={t('filter.label')}
        className="grid gap-3 sm:grid-cols-2 lg:grid-cols-[repeat(3,minmax(0,1fr))_auto] lg:items-end"
      >
        <DatePicker label={t('filter.from')} key={`from-${key}`} name="from" defaultValue={dateValueOf(from)} />
        <DatePicker label={t('filter.to')} key={`to-${key}`} name="to" defaultValue={dateValueOf(to)} />
        <TextField key={`q-${key}`} name="q" type="search" label={t('filter.search')} defaultValue={q} />
        <Button type="submit" variant="secondary">
          {t('filter.apply')}
        </Button>
      </Form>
      <div className="flex flex-wrap gap-2" role="group" aria-label={t('filter.quick')}>
        {(['thisMonth', 'nextMonth', 'thisQuarter'] as const).map((name) => {
          const p = presets[name];
          const current = p.from === from && p.to === to;
          return (
            <LinkButton
              key={name}
              href={presetHref(p)}
              size="sm"
              variant={current ? 'primary' : 'secondary'}
              aria-current={current ? 'true' : undefined}
            >
              {t(`filter.${name}`)}
            </LinkButton>
          );
        })}
      </div>
    </div>
  );
}

function Upcoming({ data }: { data: Route.ComponentProps['loaderData'] }) {
  const { t } = useTranslation('agreementinvoices');
  const { t: tc } = useTranslation();
  const { dateFormat } = useTenantClock();
  const toast = useToast();
  const revalidator = useRevalidator();
  const upcoming = data.upcoming!;
  const starter = useFetcher<RunActionResult>();
  const poll = useFetcher<{ run: InvoiceRunView | null }>();
  const [shown, setShown] = useState<InvoiceRunView | null>(data.run);
  const [confirming, setConfirming] = useState(false);

  // the loader, the start's answer and each poll all tell how the run goes: show the furthest
  useEffect(() => setShown((s) => laterRun(s, data.run)), [data.run]);
  useFetcherResult(starter, (r) => {
    if ('ok' in r) setShown((s) => laterRun(s, r.run));
    else toast.show({ kind: 'error', message: tc(r.code) });
  });
  useEffect(() => {
    if (poll.state === 'idle' && poll.data) setShown((s) => laterRun(s, poll.data!.run));
  }, [poll.state, poll.data]);

  // while a run is queued or running, ask every second how it goes (also after a reload)
  const going = isRunGoing(shown);
  const latestPoll = useRef(poll);
  latestPoll.current = poll;
  const runId = shown?.id;
  useEffect(() => {
    if (!going || !runId) return;
    const timer = setInterval(() => {
      if (latestPoll.current.state === 'idle' && document.visibilityState !== 'hidden')
        void latestPoll.current.load(`/agreements/invoices/run?id=${encodeURIComponent(runId)}`);
    }, RUN_POLL_MS);
    return () => clearInterval(timer);
  }, [going, runId]);
  // once it is over, the list (and the top bar's count) follow
  const wasGoing = useRef(going);
  useEffect(() => {
    if (wasGoing.current && !going) void revalidator.revalidate();
    wasGoing.current = going;
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [going]);

  const rows = upcoming.invoices.map((r) => ({ ...r, id: r.objectAgreementId }));
  const columns = [
    {
      id: 'object',
      header: t('col.object'),
      isRowHeader: true,
      render: (r: (typeof rows)[number]) => <span className="font-medium text-blue-800">{r.serialCode}</span>,
    },
    { id: 'customer', header: t('col.customer'), render: (r: (typeof rows)[number]) => r.customerName ?? '—' },
    {
      id: 'agreement',
      header: t('col.agreement'),
      render: (r: (typeof rows)[number]) => `${r.agreementCode} – ${r.agreementTitle}`,
    },
    {
      id: 'period',
      header: t('col.period'),
      render: (r: (typeof rows)[number]) => (
        <span className="whitespace-nowrap tabular-nums">
          {day(r.periodFrom, dateFormat)} – {day(r.periodTo, dateFormat)}
        </span>
      ),
    },
    {
      id: 'day',
      header: t('col.invoiceDay'),
      render: (r: (typeof rows)[number]) => <span className="tabular-nums">{day(r.generateOn, dateFormat)}</span>,
    },
    {
      id: 'amount',
      header: t('col.amount'),
      align: 'end' as const,
      render: (r: (typeof rows)[number]) => money(r.amount),
    },
    {
      id: 'status',
      header: t('col.status'),
      render: (r: (typeof rows)[number]) => <StatusChip reason={r.skipReason} />,
    },
  ];
  const filtered = Boolean(data.q);
  // the list counts up to its cap (10,000); beyond it, "10000+"
  const shownCount = upcoming.more ? `${upcoming.totalCount}+` : upcoming.totalCount;
  return (
    <div className="space-y-4">
      <PeriodFilter from={upcoming.from} to={upcoming.to} q={data.q} presets={data.presets} />
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="text-sm text-slate-700" aria-live="polite">
          {t('upcoming.count', { count: shownCount, date: day(upcoming.to, dateFormat) })}
        </p>
        {data.canRun ? (
          <Button
            variant="primary"
            onPress={() => setConfirming(true)}
            isDisabled={going || upcoming.totalCount === 0}
            isPending={starter.state !== 'idle'}
          >
            {t('run.start')}
          </Button>
        ) : null}
      </div>
      {shown ? <InvoiceRunPanel run={shown} /> : null}
      <SortableTable
        aria-label={t('upcoming.label')}
        columns={columns}
        rows={rows}
        getRowHref={(r) => objectAgreementHref(r.businessObjectId)}
        emptyState={filtered ? t('upcoming.emptyFiltered') : t('upcoming.empty')}
      />
      <ListPager totalCount={upcoming.totalCount} offset={data.offset} limit={data.limit} />
      <ConfirmDialog
        isOpen={confirming}
        onOpenChange={setConfirming}
        title={t('run.confirmTitle')}
        message={t('run.confirm', { date: day(upcoming.to, dateFormat), count: shownCount })}
        confirmLabel={t('run.confirmButton')}
        isPending={starter.state !== 'idle'}
        onConfirm={() => starter.submit({ until: upcoming.to }, { method: 'post' })}
      />
    </div>
  );
}

// ---- scheduled ----

function monthName(month: string, lang: string) {
  return new Intl.DateTimeFormat(lang, { month: 'short', year: 'numeric', timeZone: 'UTC' }).format(
    new Date(`${month}-01T00:00:00Z`),
  );
}

function Scheduled({ data }: { data: NonNullable<Route.ComponentProps['loaderData']['scheduled']> }) {
  const { t, i18n } = useTranslation('agreementinvoices');
  const max = Math.max(0, ...data.months.map((m) => Number(m.amount)));
  const total = data.months.reduce((s, m) => s + Number(m.amount), 0);
  const count = data.months.reduce((s, m) => s + m.count, 0);
  if (count === 0) return <Empty>{t('scheduled.empty')}</Empty>;
  return (
    <div className="space-y-4">
      <p className="text-sm text-slate-700">{t('scheduled.help')}</p>
      {/* the bars draw the table below, which says the same to a screen reader */}
      <figure className="rounded-lg border border-slate-200 bg-white p-3">
        <div aria-hidden="true" className="flex h-48 items-end gap-1 sm:gap-2">
          {data.months.map((m) => (
            <div key={m.month} className="flex h-full min-w-0 flex-1 flex-col items-center justify-end gap-1">
              <span className="text-[10px] text-slate-600 tabular-nums sm:text-xs">{m.count || ''}</span>
              <div
                className="w-full rounded-t bg-blue-700"
                style={{
                  height: `${max > 0 ? Math.max(Number(m.amount) > 0 ? 2 : 0, (Number(m.amount) / max) * 100) : 0}%`,
                }}
              />
            </div>
          ))}
        </div>
        <div aria-hidden="true" className="mt-1 flex gap-1 sm:gap-2">
          {data.months.map((m) => (
            <span key={m.month} className="min-w-0 flex-1 truncate text-center text-[10px] text-slate-600 sm:text-xs">
              {monthName(m.month, i18n.language).replace(/\s?\d{4}.*$/, '')}
            </span>
          ))}
        </div>
        <figcaption className="mt-2 text-sm text-slate-700">{t('scheduled.caption')}</figcaption>
      </figure>
      <div className="overflow-x-auto rounded-lg border border-gray-200 bg-white">
        <table className="w-full text-sm" aria-label={t('scheduled.label')}>
          <thead className="border-b border-gray-200 bg-gray-50 text-gray-700">
            <tr>
              <th scope="col" className="px-3 py-2 text-start">
                {t('col.month')}
              </th>
              <th scope="col" className="px-3 py-2 text-end">
                {t('col.invoices')}
              </th>
              <th scope="col" className="px-3 py-2 text-end">
                {t('col.amount')}
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-gray-100">
            {data.months.map((m) => (
              <tr key={m.month}>
                <th scope="row" className="px-3 py-2 text-start font-normal whitespace-nowrap">
                  {monthName(m.month, i18n.language)}
                </th>
                <td className="px-3 py-2 text-end tabular-nums">{m.count}</td>
                <td className="px-3 py-2 text-end tabular-nums">{money(m.amount)}</td>
              </tr>
            ))}
          </tbody>
          <tfoot className="border-t border-gray-200 bg-gray-50 font-semibold">
            <tr>
              <th scope="row" className="px-3 py-2 text-start">
                {t('total')}
              </th>
              <td className="px-3 py-2 text-end tabular-nums">{count}</td>
              <td className="px-3 py-2 text-end tabular-nums">{money(total)}</td>
            </tr>
          </tfoot>
        </table>
      </div>
    </div>
  );
}

// ---- history ----

function erpText(t: (key: string) => string, state: string | null) {
  return t(`erp.${state ?? 'none'}`);
}

function History({ data }: { data: Route.ComponentProps['loaderData'] }) {
  const { t } = useTranslation('agreementinvoices');
  const { dateFormat } = useTenantClock();
  const history = data.history!;
  const key = `${history.startTime}|${history.endTime}`;
  return (
    <div className="space-y-4">
      <Form
        method="get"
        role="search"
        aria-label={t('filter.label')}
        className="grid gap-3 sm:grid-cols-[repeat(2,minmax(0,1fr))_auto] sm:items-end"
      >
        <input type="hidden" name="tab" value="history" />
        <DatePicker
          label={t('filter.from')}
          key={`s-${key}`}
          name="startTime"
          defaultValue={dateValueOf(history.startTime)}
        />
        <DatePicker
          label={t('filter.to')}
          key={`e-${key}`}
          name="endTime"
          defaultValue={dateValueOf(history.endTime)}
        />
        <Button type="submit" variant="secondary">
          {t('filter.apply')}
        </Button>
      </Form>
      <p className="text-sm text-slate-700">{t('history.help')}</p>
      {history.invoices.length === 0 ? (
        <Empty>{t('history.empty')}</Empty>
      ) : (
        <div className="overflow-x-auto rounded-lg border border-gray-200 bg-white">
          <table className="w-full min-w-max text-sm" aria-label={t('history.label')}>
            <thead className="border-b border-gray-200 bg-gray-50 text-gray-700">
              <tr>
                {(['number', 'date', 'period', 'object', 'customer', 'agreement'] as const).map((c) => (
                  <th key={c} scope="col" className="px-3 py-2 text-start">
                    {t(`col.${c}`)}
                  </th>
                ))}
                <th scope="col" className="px-3 py-2 text-end">
                  {t('col.net')}
                </th>
                <th scope="col" className="px-3 py-2 text-end">
                  {t('col.gross')}
                </th>
                <th scope="col" className="px-3 py-2 text-start">
                  {t('col.erp')}
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-gray-100">
              {history.invoices.map((i: AgreementInvoice) => (
                <tr key={i.id} data-testid="history-row">
                  <th scope="row" className="px-3 py-2 text-start font-normal whitespace-nowrap">
                    <Link to={`/invoices/${encodeURIComponent(i.id)}`} className={cx(LINK, 'font-medium')}>
                      {i.invoiceNr ?? t('history.draft')}
                    </Link>{' '}
                    {i.status !== 'finalized' ? <InvoiceStatusBadge status={i.status as InvoiceStatus} /> : null}
                  </th>
                  <td className="px-3 py-2 whitespace-nowrap tabular-nums">{day(i.invoiceDate, dateFormat)}</td>
                  <td className="px-3 py-2 whitespace-nowrap tabular-nums">
                    {day(i.periodFrom, dateFormat)} – {day(i.periodTo, dateFormat)}
                  </td>
                  <td className="px-3 py-2 whitespace-nowrap">
                    {i.businessObjectId ? (
                      <Link to={objectAgreementHref(i.businessObjectId)} className={LINK}>
                        {i.serialCode}
                      </Link>
                    ) : (
                      (i.serialCode ?? '—')
                    )}
                  </td>
                  <td className="px-3 py-2">{i.customerName ?? '—'}</td>
                  <td className="px-3 py-2">{i.agreementTitle ?? '—'}</td>
                  <td className="px-3 py-2 text-end tabular-nums">{money(i.totalPrice)}</td>
                  <td className="px-3 py-2 text-end tabular-nums">{money(i.totalPriceVat)}</td>
                  <td className="px-3 py-2 whitespace-nowrap">{erpText(t, i.erpState)}</td>
                </tr>
              ))}
            </tbody>
            <tfoot className="border-t border-gray-200 bg-gray-50 font-semibold">
              <tr>
                <th scope="row" colSpan={6} className="px-3 py-2 text-start">
                  {t('history.total', { count: history.totalCount })}
                </th>
                <td className="px-3 py-2 text-end tabular-nums">{money(history.totalPrice)}</td>
                <td className="px-3 py-2 text-end tabular-nums">{money(history.totalPriceVat)}</td>
                <td />
              </tr>
            </tfoot>
          </table>
        </div>
      )}
      <ListPager totalCount={history.totalCount} offset={data.offset} limit={data.limit} />
    </div>
  );
}

/** The page's `<title>` (app/lib/page-title.ts). */
export const handle = pageTitle('title.agreementInvoices');

export default function AgreementInvoices({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('agreementinvoices');
  const navigation = useNavigation();
  const loading = navigation.state === 'loading' && navigation.location.pathname === '/agreements/invoices';
  const tab = loaderData.tab;
  const content = (id: Tab) =>
    id !== tab ? null : id === 'upcoming' ? (
      <Upcoming data={loaderData} />
    ) : id === 'scheduled' ? (
      <Scheduled data={loaderData.scheduled!} />
    ) : (
      <History data={loaderData} />
    );
  const items = TABS.filter((id) => id !== 'history' || loaderData.canHistory).map((id) => ({
    id,
    label: t(`tab.${id}`),
    href: id === 'upcoming' ? '/agreements/invoices' : `/agreements/invoices?tab=${id}`,
    content: content(id),
  }));
  return (
    <section className="min-w-0 rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6">
      <AgreementsSubnav className="mb-4" />
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h1 className="text-2xl font-semibold">{t('title')}</h1>
        {loading ? <Spinner label={t('loading')} /> : null}
      </div>
      <Tabs aria-label={t('tab.label')} className="mt-4" items={items} selectedKey={tab} />
    </section>
  );
}
