import { ExportLink } from '~/app/components/inventory/export-link';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Form, Link, useNavigation, useSearchParams } from 'react-router';
import type { Route } from './+types/inventory.customers';
import { guard, requireAuth, run } from '~/app/lib/guard.server';
import {
  Button,
  LinkButton,
  Select,
  SortableTable,
  Spinner,
  TextField,
  type SortDescriptor,
} from '~/app/components/ui';
import { SEARCH_DEBOUNCE_MS } from '~/app/components/ui/entity-picker';
import { cx } from '~/app/components/ui/class-names';
import { hasAccess } from '~/core/permissions/access';
import { listCustomers, type CustomerListItem } from '~/core/customers/customer.service';
import { pageTitle } from '~/app/lib/page-title';

/** Inventory → customers (spec section 2): search as you type, filters, sort and pages, all in SQL. */
export const middleware = guard({ permission: 'customers:read' });

const PAGE_SIZES = [20, 50, 100] as const;

/** The list's state lives in the URL, so a search can be bookmarked and Back works. */
function listState(params: URLSearchParams) {
  const size = PAGE_SIZES.find((s) => String(s) === params.get('size')) ?? 20;
  const page = Math.max(1, Math.trunc(Number(params.get('page')) || 1));
  return {
    q: params.get('q') ?? '',
    status: params.get('status') ?? 'active',
    type: params.get('type') ?? 'all',
    potential: params.get('potential') ?? 'all',
    sort: params.get('sort') === 'customerId' ? 'customerId' : 'name',
    dir: params.get('dir') === 'desc' ? 'desc' : 'asc',
    size,
    page,
  };
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const auth = requireAuth(context);
  const s = listState(new URL(request.url).searchParams);
  const list = await run(context, (ctx) =>
    listCustomers(ctx, {
      q: s.q || undefined,
      status: s.status,
      type: s.type,
      potential: s.potential === 'all' ? undefined : s.potential,
      sort: s.sort,
      dir: s.dir,
      limit: s.size,
      offset: (s.page - 1) * s.size,
    }),
  );
  return {
    ...list,
    canCreate:
      hasAccess(auth, { permission: 'customers:create' }) ||
      hasAccess(auth, { permission: 'customers:create_potential' }),
  };
}

/** The page's `<title>` (app/lib/page-title.ts). */
export const handle = pageTitle('title.customers');

export default function Customers({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('customers');
  const [params, setParams] = useSearchParams();
  const navigation = useNavigation();
  const loading = navigation.state === 'loading' && navigation.location.pathname === '/inventory/customers';
  const s = listState(params);
  const { customers, totalCount } = loaderData;
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  // The search box is ours while typing; a search from elsewhere (Back, "clear filters") replaces it.
  const [text, setText] = useState(s.q);
  const sent = useRef(s.q);
  useEffect(() => {
    if (s.q !== sent.current) {
      sent.current = s.q;
      setText(s.q);
    }
  }, [s.q]);

  /** Changes some of the list's state; any change but paging starts again on page 1. */
  const update = (changes: Record<string, string | null>) =>
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        for (const [k, v] of Object.entries(changes)) {
          if (v === null || v === '') next.delete(k);
          else next.set(k, v);
        }
        if (!('page' in changes)) next.delete('page');
        return next;
      },
      { replace: true, preventScrollReset: true },
    );

  const search = (value: string) => {
    setText(value);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      sent.current = value.trim();
      update({ q: value.trim() });
    }, SEARCH_DEBOUNCE_MS);
  };

  const columns = [
    {
      id: 'customerId',
      header: t('col.customerId'),
      allowsSorting: true,
      render: (c: CustomerListItem) => c.customerId ?? '—',
    },
    {
      id: 'name',
      header: t('col.name'),
      isRowHeader: true,
      allowsSorting: true,
      render: (c: CustomerListItem) => (
        <span className="flex flex-wrap items-center gap-2">
          <span className="font-medium">{c.name}</span>
          {c.potential ? (
            <span className="rounded bg-amber-100 px-1.5 text-xs text-amber-900">{t('badge.potential')}</span>
          ) : null}
          {c.status === 'inactive' ? (
            <span className="rounded bg-slate-200 px-1.5 text-xs text-slate-700">{t('status.inactive')}</span>
          ) : null}
        </span>
      ),
    },
    { id: 'type', header: t('col.type'), render: (c: CustomerListItem) => t(`type.${c.type}`) },
    { id: 'address', header: t('col.address'), render: (c: CustomerListItem) => c.address ?? '—' },
    { id: 'phone', header: t('col.phone'), render: (c: CustomerListItem) => c.phone ?? '—' },
    {
      id: 'organizationalNumber',
      header: t('col.organizationalNumber'),
      render: (c: CustomerListItem) => c.organizationalNumber ?? '—',
    },
  ];
  const sortDescriptor: SortDescriptor = {
    column: s.sort,
    direction: s.dir === 'desc' ? 'descending' : 'ascending',
  };
  const first = totalCount === 0 ? 0 : (s.page - 1) * s.size + 1;
  const last = Math.min(totalCount, s.page * s.size);
  const pages = Math.max(1, Math.ceil(totalCount / s.size));
  const filtered = Boolean(s.q) || s.status !== 'active' || s.type !== 'all' || s.potential !== 'all';

  return (
    <section className="min-w-0 rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h1 className="text-2xl font-semibold">{t('title')}</h1>
        <div className="flex flex-wrap gap-2">
          <ExportLink register="customers" />
          {loaderData.canCreate ? (
            <LinkButton href="/inventory/customers/new" variant="primary">
              {t('new')}
            </LinkButton>
          ) : null}
        </div>
      </div>
      {params.get('deleted') ? (
        <p role="status" className="mt-3 rounded-md bg-green-50 p-3 text-sm text-green-900">
          {t('deleted')}
        </p>
      ) : null}
      <Form
        method="get"
        role="search"
        className="mt-4 grid grid-cols-2 items-end gap-3 lg:grid-cols-[minmax(14rem,2fr)_1fr_1fr_1fr_auto]"
        onSubmit={(e) => {
          e.preventDefault();
          clearTimeout(timer.current);
          sent.current = text.trim();
          update({ q: text.trim() });
        }}
      >
        <TextField
          name="q"
          type="search"
          label={t('filter.search')}
          placeholder={t('filter.search.help')}
          value={text}
          onChange={search}
          className="col-span-2 lg:col-span-1"
        />
        <Select
          label={t('filter.status')}
          selectedKey={s.status}
          onSelectionChange={(k) => update({ status: k === 'active' ? null : String(k) })}
          items={[
            { id: 'active', label: t('filter.status.active') },
            { id: 'inactive', label: t('filter.status.inactive') },
            { id: 'all', label: t('filter.all') },
          ]}
        />
        <Select
          label={t('filter.type')}
          selectedKey={s.type}
          onSelectionChange={(k) => update({ type: k === 'all' ? null : String(k) })}
          items={[
            { id: 'all', label: t('filter.all') },
            { id: 'company', label: t('type.company') },
            { id: 'private', label: t('type.private') },
          ]}
        />
        <Select
          label={t('filter.potential')}
          selectedKey={s.potential}
          onSelectionChange={(k) => update({ potential: k === 'all' ? null : String(k) })}
          items={[
            { id: 'all', label: t('filter.all') },
            { id: 'true', label: t('filter.potential.only') },
            { id: 'false', label: t('filter.potential.none') },
          ]}
        />
        {/* Keeps the list's other state when the form is sent without JavaScript. */}
        {(['status', 'type', 'potential', 'sort', 'dir', 'size'] as const).map((k) =>
          params.get(k) ? <input key={k} type="hidden" name={k} value={params.get(k)!} /> : null,
        )}
        <Button type="submit" variant="secondary">
          {t('filter.apply')}
        </Button>
      </Form>
      <div className="mt-2 flex min-h-8 flex-wrap items-center justify-between gap-2 text-sm text-slate-600">
        <div aria-live="polite" className="flex items-center gap-2">
          {loading ? <Spinner /> : null}
          <span>{totalCount === 0 ? t('count.none') : t('count.range', { first, last, total: totalCount })}</span>
        </div>
        {filtered ? (
          <Link to="/inventory/customers" className="text-blue-800 underline">
            {t('filter.clear')}
          </Link>
        ) : null}
      </div>
      <SortableTable
        aria-label={t('title')}
        className={cx('mt-2 transition-opacity', loading && 'opacity-60')}
        columns={columns}
        rows={customers}
        sortDescriptor={sortDescriptor}
        onSortChange={(d) => update({ sort: String(d.column), dir: d.direction === 'descending' ? 'desc' : null })}
        getRowHref={(c) => `/inventory/customers/${c.id}`}
        emptyState={filtered ? t('empty.filtered') : loaderData.canCreate ? t('empty.create') : t('empty.none')}
      />
      <nav aria-label={t('pages.label')} className="mt-4 flex flex-wrap items-center justify-between gap-3">
        <Select
          label={t('pages.size')}
          selectedKey={String(s.size)}
          onSelectionChange={(k) => update({ size: k === '20' ? null : String(k) })}
          items={PAGE_SIZES.map((n) => ({ id: String(n), label: String(n) }))}
          className="w-28"
        />
        <div className="flex items-center gap-2">
          <Button
            variant="secondary"
            size="sm"
            isDisabled={s.page <= 1}
            onPress={() => update({ page: s.page - 1 > 1 ? String(s.page - 1) : null })}
          >
            {t('pages.previous')}
          </Button>
          <span className="text-sm text-slate-700">{t('pages.of', { page: s.page, pages })}</span>
          <Button
            variant="secondary"
            size="sm"
            isDisabled={s.page >= pages}
            onPress={() => update({ page: String(s.page + 1) })}
          >
            {t('pages.next')}
          </Button>
        </div>
      </nav>
    </section>
  );
}
