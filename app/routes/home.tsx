import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { data, Link, redirect, useFetcher, useNavigation, type ShouldRevalidateFunctionArgs } from 'react-router';
import type { Route } from './+types/home';
import { tenantContext } from '~/app/context';
import { actionError } from '~/app/lib/action-error.server';
import { guard, requireAuth, run } from '~/app/lib/guard.server';
import { Button, DatePicker, NativeSelect, SearchInput, Spinner, dateValueOf } from '~/app/components/ui';
import { formatDateTime } from '~/core/i18n/number-format';
import { WorkOrderFilters } from '~/app/components/work-orders/list/filters';
import { listParams, WO_PAGE_SIZE } from '~/app/components/work-orders/list/list-params';
import { useListFilters } from '~/app/components/work-orders/list/use-list-filters';
import { WorkOrderRows } from '~/app/components/work-orders/list/rows';
import { useWorkOrderTabs } from '~/app/components/work-orders/tabs/tabs-context';
import { hasAccess, SIGNED_IN } from '~/core/permissions/access';
import { getListPreferences, saveListPreferences } from '~/core/work-orders/list-preferences';
import { listWorkOrders } from '~/core/work-orders/work-order-list.service';
import { getWorkOrderOptions } from '~/core/work-orders/work-order-options';
import { WORK_ORDER_LISTS, WORK_ORDER_SORTS } from '~/core/work-orders/work-order.constants';
import { pageTitle } from '~/app/lib/page-title';

/**
 * The work-order screen's list tab (spec sections 2 and 4): the six lists, every filter, the sort,
 * 50 orders at a time ("show more" appends the next offset), filters and sort remembered per user.
 * Also the deep links: `/?source=qr&id=` and `/?workOrderId=&workOrderTitle=&customerName=`.
 */
export const middleware = guard(SIGNED_IN);

export async function loader({ request, context }: Route.LoaderArgs) {
  const auth = requireAuth(context);
  const url = new URL(request.url);
  const query = url.searchParams;
  // Spec section 2: a scanned QR label opens /?source=qr&id=<ref>, which is the object's QR page.
  const qr = query.get('id');
  if (query.get('source') === 'qr' && qr) throw redirect(`/qr/${encodeURIComponent(qr)}`);
  const workOrderId = query.get('workOrderId');
  if (workOrderId) {
    const open = new URLSearchParams({ open: '1' });
    for (const k of ['workOrderTitle', 'customerName']) if (query.get(k)) open.set(k, query.get(k)!);
    throw redirect(`/work-orders/${encodeURIComponent(workOrderId)}?${open.toString()}`);
  }
  // Right after signing in: the person's start page (spec section 2), work orders or the dashboard.
  if (query.get('start')) {
    const dashboard = hasAccess(auth, { permission: 'dashboard:read', module: 'dashboard' });
    throw redirect(auth.user.startPage === 'dashboard' && dashboard ? '/dashboard' : '/');
  }
  if (!hasAccess(auth, { permission: 'workorders:read' })) return null;

  // No filters in the address: the person's remembered ones (in the same unit of work).
  const remembered = [...query.keys()].some((k) => k !== 'from' && k !== 'index');
  const from = Math.max(0, Math.trunc(Number(query.get('from')) || 0));
  const tenant = context.get(tenantContext);
  const [effective, list, options] = await run(context, async (ctx) => {
    const filters = remembered ? new URLSearchParams(query) : new URLSearchParams(await getListPreferences(ctx));
    return [
      filters,
      await listWorkOrders(ctx, { ...Object.fromEntries(filters), from, size: WO_PAGE_SIZE }),
      from === 0 ? await getWorkOrderOptions(ctx) : null,
    ] as const;
  });
  return {
    ...list,
    from,
    query: effective.toString(),
    options,
    config: { dateFormat: tenant.config.dateFormat, country: tenant.config.country },
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  try {
    await run(context, (ctx) => saveListPreferences(ctx, { query: String(form.get('query') ?? '') }));
    return data({ ok: true });
  } catch (e) {
    // spec section 8: preference-saving failures are only logged
    return actionError(e);
  }
}

/** Saving the remembered filters changes nothing on the page: no list reload for it. */
export function shouldRevalidate({ formAction, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  if (formAction === '/?index') return false;
  return defaultShouldRevalidate;
}

type ListData = NonNullable<Route.ComponentProps['loaderData']>;

/** The page's `<title>` (app/lib/page-title.ts). */
export const handle = pageTitle('nav.workOrders');

export default function WorkOrderList({ loaderData }: Route.ComponentProps) {
  if (!loaderData) return null;
  return <ListTab data={loaderData} />;
}

function ListTab({ data: d }: { data: ListData }) {
  const { t } = useTranslation('workorders');
  const navigation = useNavigation();
  const tabs = useWorkOrderTabs();
  const more = useFetcher<ListData>();
  const params = useMemo(() => new URLSearchParams(d.query), [d.query]);
  const p = listParams(params);
  const options = useRef(d.options);
  if (d.options) options.current = d.options;
  const loading = navigation.state === 'loading' && navigation.location.pathname === '/';

  // Offset 0 replaces, later offsets append (spec section 4).
  const [extra, setExtra] = useState<ListData['workOrders']>([]);
  useEffect(() => setExtra([]), [d]);
  useEffect(() => {
    if (more.data && more.state === 'idle') setExtra((rows) => [...rows, ...more.data!.workOrders]);
  }, [more.data, more.state]);
  const rows = [...d.workOrders, ...extra];

  useEffect(() => {
    if (tabs.ready && tabs.state.active !== 'list') tabs.showView('list');
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [tabs.ready]);

  const { update, text, search } = useListFilters(params, p.search, '/');

  const loadMore = () => {
    const next = new URLSearchParams(params);
    next.set('from', String(d.from + rows.length));
    if (!next.has('list')) next.set('list', p.list);
    void more.load(`/?index&${next.toString()}`);
  };

  return (
    <section aria-labelledby="wo-list-title" className="space-y-4">
      <h2 id="wo-list-title" className="sr-only">
        {t('list.title')}
      </h2>
      <nav aria-label={t('list.lists')} className="-mx-1 overflow-x-auto">
        <ul className="flex min-w-max gap-1 px-1">
          {WORK_ORDER_LISTS.map((list) => (
            <li key={list}>
              <Link
                to={`/?${new URLSearchParams({ ...Object.fromEntries(params), list }).toString()}`}
                onClick={(e) => {
                  e.preventDefault();
                  update({ list, closedFrom: null, closedTo: null });
                }}
                aria-current={p.list === list ? 'page' : undefined}
                className={
                  p.list === list
                    ? 'block rounded-full bg-slate-900 px-3 py-1.5 text-sm font-medium text-white'
                    : 'block rounded-full px-3 py-1.5 text-sm text-slate-700 ring-1 ring-slate-300 hover:bg-slate-100'
                }
              >
                {t(`list.name.${list}`)}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <div className="flex flex-wrap items-end gap-3">
        <SearchInput
          label={t('list.search')}
          value={text}
          onChange={search}
          placeholder={t('list.searchPlaceholder')}
          className="w-full sm:w-80"
        />
        <NativeSelect
          label={t('list.sort')}
          items={WORK_ORDER_SORTS.map((s) => ({ id: s, label: t(`list.sortBy.${s}`) }))}
          value={p.sort}
          onChange={(k) => update({ sort: k === 'intake' ? null : k })}
          className="w-full sm:w-56"
        />
        {p.list === 'closed' ? (
          <div className="flex gap-2">
            <DatePicker
              label={t('list.closedFrom')}
              value={dateValueOf(p.closedFrom)}
              onChange={(v) => update({ closedFrom: v?.toString() ?? null })}
            />
            <DatePicker
              label={t('list.closedTo')}
              value={dateValueOf(p.closedTo)}
              onChange={(v) => update({ closedTo: v?.toString() ?? null })}
            />
          </div>
        ) : null}
        {loading ? <Spinner label={t('list.loading')} /> : null}
      </div>
      {options.current ? <WorkOrderFilters params={params} options={options.current} onChange={update} /> : null}
      <p className="text-sm text-slate-600" role="status">
        {t('list.count', {
          shown: rows.length,
          // a very long list is counted up to a cap: "10000+"
          total: d.totalCountCapped ? `${d.totalCount}+` : d.totalCount,
        })}
      </p>
      {rows.length === 0 ? (
        <div className="rounded-xl border border-dashed border-slate-300 bg-white p-8 text-center text-slate-600">
          {p.filtered ? t('list.emptyFiltered') : t(`list.empty.${p.list}`)}
        </div>
      ) : (
        <WorkOrderRows rows={rows} format={(iso) => formatDateTime(iso, d.config)} />
      )}
      {rows.length < d.totalCount ? (
        <div className="flex justify-center">
          <Button onPress={loadMore} isDisabled={more.state !== 'idle'}>
            {more.state !== 'idle'
              ? t('list.loadingMore')
              : t('list.more', { count: Math.min(WO_PAGE_SIZE, d.totalCount - rows.length) })}
          </Button>
        </div>
      ) : null}
    </section>
  );
}
