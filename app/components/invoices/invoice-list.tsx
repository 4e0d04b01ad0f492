import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Form, Link, useFetcher, useNavigation, useSearchParams } from 'react-router';
import {
  Button,
  DatePicker,
  formatDate,
  NativeSelect,
  Spinner,
  dateValueOf,
  useTenantClock,
  type DateFormat,
} from '~/app/components/ui';
import { NATIVE_INPUT_CLASS, NativeField } from '~/app/components/ui/native-field';
import { cx } from '~/app/components/ui/class-names';
import { ErpBadge, InvoiceStatusBadge } from './invoice-badges';
import {
  ERP_FILTERS,
  invoiceHref,
  money,
  STATUS_FILTERS,
  type InvoiceListFilters,
  type InvoiceListRow,
} from './invoice-format';
import { SieExport, type SiePeriod } from './sie-export';

export interface InvoiceListData {
  invoices: InvoiceListRow[];
  hasMore: boolean;
  erpName: string;
  filters: InvoiceListFilters;
  offset: number;
  /** The period the SIE export offers (this month); absent on a "show more" page. */
  siePeriod?: SiePeriod;
}

const date = (value: string | null, format: DateFormat) => (value ? formatDate(value, format) : '—');

function Badge({ row, erpName }: { row: InvoiceListRow; erpName: string }) {
  return (
    <ErpBadge erp={row.erp} externalInvoiceNr={row.externalInvoiceNr} errorCode={row.errorCode} erpName={erpName} />
  );
}

function InvoiceNumber({ row }: { row: InvoiceListRow }) {
  const { t } = useTranslation('invoices');
  return (
    <Link to={invoiceHref(row.id)} className="font-medium text-blue-800 underline-offset-2 hover:underline">
      {row.invoiceNr ?? t('list.draft')}
    </Link>
  );
}

function Source({ row }: { row: InvoiceListRow }) {
  if (!row.source) return <>—</>;
  return row.sourceHref ? (
    <Link to={row.sourceHref} className="text-blue-800 underline-offset-2 hover:underline">
      {row.source}
    </Link>
  ) : (
    <>{row.source}</>
  );
}

/**
 * The list's rows: a table from 640 px up, cards on a phone. The invoice's number is its link;
 * the order it came from links to that order.
 */
export function InvoiceListRows({ rows, erpName }: { rows: InvoiceListRow[]; erpName: string }) {
  const { t } = useTranslation('invoices');
  const { dateFormat } = useTenantClock();
  return (
    <>
      <ul className="space-y-2 sm:hidden" aria-label={t('list.label')}>
        {rows.map((row) => (
          <li key={row.id} className="space-y-1 rounded-xl bg-white p-3 shadow-sm ring-1 ring-slate-200">
            <p className="flex items-baseline justify-between gap-2">
              <InvoiceNumber row={row} />
              <InvoiceStatusBadge status={row.status} />
            </p>
            <p className="text-sm text-slate-800">{row.customerName ?? '—'}</p>
            <p className="text-xs text-slate-600">
              {t('list.cardDates', {
                date: date(row.invoiceDate, dateFormat),
                due: date(row.paymentDueDate, dateFormat),
              })}
            </p>
            <p className="flex flex-wrap items-center justify-between gap-2 text-sm">
              <span className="text-slate-700">
                {t('col.source')}: <Source row={row} />
              </span>
              <span className="tabular-nums">{t('list.cardToPay', { amount: money(row.toPay) })}</span>
            </p>
            <Badge row={row} erpName={erpName} />
          </li>
        ))}
      </ul>
      <div className="hidden overflow-x-auto rounded-xl bg-white shadow-sm ring-1 ring-slate-200 sm:block">
        <table className="w-full text-left text-sm" aria-label={t('list.label')}>
          <thead className="border-b border-slate-200 bg-slate-50 text-slate-700">
            <tr>
              <th scope="col" className="px-3 py-2">
                {t('col.number')}
              </th>
              <th scope="col" className="px-3 py-2">
                {t('col.date')}
              </th>
              <th scope="col" className="hidden px-3 py-2 md:table-cell">
                {t('col.dueDate')}
              </th>
              <th scope="col" className="px-3 py-2">
                {t('col.customer')}
              </th>
              <th scope="col" className="px-3 py-2">
                {t('col.source')}
              </th>
              <th scope="col" className="px-3 py-2 text-end">
                {t('col.total')}
              </th>
              <th scope="col" className="hidden px-3 py-2 text-end lg:table-cell">
                {t('col.toPay')}
              </th>
              <th scope="col" className="px-3 py-2">
                {t('col.status')}
              </th>
              <th scope="col" className="px-3 py-2">
                {t('col.erp')}
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {rows.map((row) => (
              <tr key={row.id} className="hover:bg-slate-50" data-testid="invoice-row">
                <th scope="row" className="px-3 py-2 font-normal whitespace-nowrap">
                  <InvoiceNumber row={row} />
                </th>
                <td className="px-3 py-2 whitespace-nowrap">{date(row.invoiceDate, dateFormat)}</td>
                <td className="hidden px-3 py-2 whitespace-nowrap md:table-cell">
                  {date(row.paymentDueDate, dateFormat)}
                </td>
                <td className="px-3 py-2">{row.customerName ?? '—'}</td>
                <td className="px-3 py-2 whitespace-nowrap">
                  <Source row={row} />
                </td>
                <td className="px-3 py-2 text-end whitespace-nowrap tabular-nums">{money(row.totalPriceVat)}</td>
                <td className="hidden px-3 py-2 text-end whitespace-nowrap tabular-nums lg:table-cell">
                  {money(row.toPay)}
                </td>
                <td className="px-3 py-2">
                  <InvoiceStatusBadge status={row.status} />
                </td>
                <td className="min-w-40 px-3 py-2">
                  <Badge row={row} erpName={erpName} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

/**
 * The filters, all in the address (a plain GET form, so a filtered list can be shared and works
 * before the page's script loads): status and ERP state apply at once, the search and the period
 * with the Filter button or Enter.
 */
function Filters({ filters }: { filters: InvoiceListFilters }) {
  const { t } = useTranslation('invoices');
  const [params, setParams] = useSearchParams();
  // what the selects show at once, before the list has followed
  const [chosen, setChosen] = useState({ status: filters.status as string, erp: filters.erp as string });
  useEffect(() => setChosen({ status: filters.status, erp: filters.erp }), [filters.status, filters.erp]);
  // a select applies at once: the address changes, the list follows
  const choose = (key: 'status' | 'erp', value: string) => {
    setChosen((c) => ({ ...c, [key]: value }));
    const next = new URLSearchParams(params);
    if (value === 'all') next.delete(key);
    else next.set(key, value);
    next.delete('offset');
    setParams(next, { replace: true });
  };
  const hasFilters = filters.status !== 'all' || filters.erp !== 'all' || filters.q || filters.from || filters.to;
  // the text fields start over when the address changes (back, a cleared filter)
  const key = `${filters.q}|${filters.from}|${filters.to}`;
  return (
    <Form
      method="get"
      role="search"
      aria-label={t('filter.label')}
      className="grid gap-3 sm:grid-cols-2 lg:grid-cols-[repeat(5,minmax(0,1fr))_auto] lg:items-end"
    >
      <NativeSelect
        label={t('filter.status')}
        name="status"
        value={chosen.status}
        onChange={(v) => choose('status', v)}
        items={STATUS_FILTERS.map((s) => ({ id: s, label: s === 'all' ? t('filter.all') : t(`status.${s}`) }))}
      />
      <NativeSelect
        label={t('filter.erp')}
        name="erp"
        value={chosen.erp}
        onChange={(v) => choose('erp', v)}
        items={ERP_FILTERS.map((s) => ({ id: s, label: s === 'all' ? t('filter.all') : t(`erp.${s}`) }))}
      />
      <NativeField label={t('filter.search')} key={`q-${key}`}>
        {(id) => (
          <input
            id={id}
            type="search"
            name="q"
            defaultValue={filters.q}
            maxLength={100}
            placeholder={t('filter.searchPlaceholder')}
            className={cx(NATIVE_INPUT_CLASS, 'placeholder:text-gray-500')}
          />
        )}
      </NativeField>
      <DatePicker label={t('filter.from')} key={`from-${key}`} name="from" defaultValue={dateValueOf(filters.from)} />
      <DatePicker label={t('filter.to')} key={`to-${key}`} name="to" defaultValue={dateValueOf(filters.to)} />
      <div className="flex gap-2">
        <Button type="submit" variant="primary">
          {t('filter.apply')}
        </Button>
        {hasFilters ? (
          <Link
            to="/invoices"
            className="inline-flex min-h-11 items-center rounded-md px-3 text-sm text-blue-800 underline sm:pointer-fine:min-h-9"
          >
            {t('filter.clear')}
          </Link>
        ) : null}
      </div>
    </Form>
  );
}

/**
 * Invoices (issue 14 item 2): the newest first, filtered by status, ERP state, a search and a
 * period; 50 at a time, "show more" appends the next page.
 */
export function InvoiceListPage({ data }: { data: InvoiceListData }) {
  const { t } = useTranslation('invoices');
  const navigation = useNavigation();
  const more = useFetcher<InvoiceListData>();
  const [extra, setExtra] = useState<InvoiceListRow[]>([]);
  const [hasMore, setHasMore] = useState(data.hasMore);
  // a new first page (other filters) starts over
  useEffect(() => {
    setExtra([]);
    setHasMore(data.hasMore);
  }, [data]);
  useEffect(() => {
    if (more.state !== 'idle' || !more.data) return;
    const page = more.data;
    setExtra((rows) => [...rows, ...page.invoices.filter((r) => !rows.some((x) => x.id === r.id))]);
    setHasMore(page.hasMore);
  }, [more.data, more.state]);
  const rows = [...data.invoices, ...extra];
  const loadMore = () => {
    const p = new URLSearchParams();
    const f = data.filters;
    if (f.status !== 'all') p.set('status', f.status);
    if (f.erp !== 'all') p.set('erp', f.erp);
    for (const key of ['q', 'from', 'to'] as const) if (f[key]) p.set(key, f[key]);
    p.set('offset', String(data.offset + rows.length));
    void more.load(`/invoices?${p.toString()}`);
  };
  const loading = navigation.state === 'loading' && navigation.location.pathname === '/invoices';
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-semibold">{t('title')}</h1>
        {loading ? <Spinner label={t('list.loading')} /> : null}
      </div>
      <Filters filters={data.filters} />
      {data.siePeriod ? <SieExport period={data.siePeriod} /> : null}
      {rows.length === 0 ? (
        <p className="rounded-lg border border-dashed border-gray-300 bg-white p-6 text-center text-gray-700">
          {t('list.empty')}
        </p>
      ) : (
        <InvoiceListRows rows={rows} erpName={data.erpName} />
      )}
      {hasMore && rows.length > 0 ? (
        <Button variant="secondary" onPress={loadMore} isPending={more.state !== 'idle'}>
          {t('list.more')}
        </Button>
      ) : null}
    </div>
  );
}
