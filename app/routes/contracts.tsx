import { useTranslation } from 'react-i18next';
import type { Route } from './+types/contracts';
import { guard, requireAuth, run } from '~/app/lib/guard.server';
import { useCan } from '~/app/lib/can';
import { formatMoney } from '~/app/components/articles/format';
import { CustomerPicker } from '~/app/components/inventory/pickers/customer-picker';
import {
  DateTime,
  LinkButton,
  ListFilters,
  ListPage,
  ListTable,
  pageFromUrl,
  Select,
  TextField,
  useListUrl,
  type SortDescriptor,
} from '~/app/components/ui';
import {
  CONTRACT_LIST_STATUSES,
  CONTRACT_SCOPES,
  CONTRACT_SORTS,
  type ContractListStatus,
  type ContractScope,
  type ContractSort,
} from '~/core/contracts/contract-constants';
import { contractOptions, contractSeesAll, listContracts, type Contract } from '~/core/contracts/contract.service';
import { isUuid } from '~/core/errors/validation';
import { pageTitle } from '~/app/lib/page-title';

/**
 * Contracts (spec section 2: /contracts, the CONTRACTS module): open ones unless the filter says
 * otherwise, one's own (sales user or creator) unless one may read all — then all, or only one's
 * own with the toggle; searched, by customer and sales user, those ending first, with each
 * contract's total value, cost and margin.
 */
export const middleware = guard({ permission: 'contracts:read', module: 'contracts' });

const oneOf = <T extends string>(list: readonly T[], value: string | null, fallback: T): T =>
  (list as readonly string[]).includes(value ?? '') ? (value as T) : fallback;

export async function loader({ request, context }: Route.LoaderArgs) {
  requireAuth(context);
  const params = new URL(request.url).searchParams;
  const page = pageFromUrl(params);
  const uuid = (key: string) => (isUuid(params.get(key)) ? (params.get(key) as string) : undefined);
  const filter = {
    q: params.get('q')?.trim().slice(0, 200) || undefined,
    status: oneOf<ContractListStatus>(CONTRACT_LIST_STATUSES, params.get('status'), 'open'),
    scope: oneOf<ContractScope>(CONTRACT_SCOPES, params.get('scope'), 'all'),
    customerId: uuid('customerId'),
    salesUserId: uuid('salesUserId'),
    sort: oneOf<ContractSort>(CONTRACT_SORTS, params.get('sort'), 'stopDate'),
    desc: params.get('desc') === 'true',
  };
  return run(context, async (ctx) => {
    const seesAll = contractSeesAll(ctx);
    const list = await listContracts(ctx, { ...filter, offset: page.offset, limit: page.limit });
    const options = await contractOptions(ctx, { customerId: filter.customerId });
    return { ...list, ...options, ...page, ...filter, scope: seesAll ? filter.scope : 'mine', seesAll };
  });
}

const ANY = 'any';

/** The page's `<title>` (app/lib/page-title.ts). */
export const handle = pageTitle('nav.contracts');

export default function Contracts({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('contracts');
  const can = useCan();
  const list = useListUrl();
  const { contracts, totalCount, offset, limit, users, customer, seesAll } = loaderData;
  const sort: SortDescriptor = {
    column: loaderData.sort,
    direction: loaderData.desc ? 'descending' : 'ascending',
  };
  const columns = [
    {
      id: 'number',
      header: t('col.number'),
      isRowHeader: true,
      allowsSorting: true,
      render: (c: Contract) => <span className="tabular-nums">{c.number}</span>,
    },
    { id: 'title', header: t('col.title'), render: (c: Contract) => c.title },
    { id: 'customer', header: t('col.customer'), allowsSorting: true, render: (c: Contract) => c.customerName },
    { id: 'salesUser', header: t('col.salesUser'), render: (c: Contract) => c.salesUserName ?? '—' },
    {
      id: 'stopDate',
      header: t('col.stopDate'),
      allowsSorting: true,
      render: (c: Contract) => (c.stopDate ? <DateTime iso={c.stopDate} withTime={false} /> : '—'),
    },
    { id: 'status', header: t('col.status'), render: (c: Contract) => t(`status.${c.status}`) },
    {
      id: 'totalValue',
      header: t('col.totalValue'),
      align: 'end' as const,
      render: (c: Contract) => <span className="tabular-nums">{formatMoney(c.totalValue)}</span>,
    },
    {
      id: 'totalCost',
      header: t('col.totalCost'),
      align: 'end' as const,
      render: (c: Contract) => <span className="tabular-nums">{formatMoney(c.totalCost)}</span>,
    },
    {
      id: 'margin',
      header: t('col.margin'),
      align: 'end' as const,
      render: (c: Contract) => <span className="tabular-nums">{formatMoney(c.margin)}</span>,
    },
  ];
  const filtered =
    list.isFiltered({ q: '', customerId: '', salesUserId: '', status: 'open' }) ||
    (seesAll && loaderData.scope === 'mine');
  return (
    <ListPage
      title={t('title')}
      deletedNotice={t('deleted')}
      actions={
        can('contracts:create', 'contracts') ? (
          <LinkButton href="/contracts/new" variant="primary">
            {t('new')}
          </LinkButton>
        ) : null
      }
    >
      <ListFilters layout="grid">
        <TextField
          name="q"
          type="search"
          label={t('filter.search')}
          description={t('filter.search.help')}
          defaultValue={loaderData.q ?? ''}
        />
        <Select
          name="status"
          label={t('filter.status')}
          defaultSelectedKey={loaderData.status}
          onSelectionChange={(key) => list.setFilter('status', String(key), 'open')}
          items={CONTRACT_LIST_STATUSES.map((s) => ({ id: s, label: t(`filter.status.${s}`) }))}
        />
        {seesAll ? (
          <Select
            name="scope"
            label={t('filter.scope')}
            defaultSelectedKey={loaderData.scope}
            onSelectionChange={(key) => list.setFilter('scope', String(key), 'all')}
            items={CONTRACT_SCOPES.map((s) => ({ id: s, label: t(`filter.scope.${s}`) }))}
          />
        ) : null}
        <CustomerPicker
          key={customer?.id ?? 'none'}
          name="customerId"
          label={t('filter.customer')}
          defaultSelected={customer}
          onSelectionChange={(o) => o?.id !== loaderData.customerId && list.setFilter('customerId', o?.id)}
        />
        <Select
          name="salesUserId"
          label={t('filter.salesUser')}
          defaultSelectedKey={loaderData.salesUserId ?? ANY}
          onSelectionChange={(key) => list.setFilter('salesUserId', String(key), ANY)}
          items={[{ id: ANY, label: t('filter.anyone') }, ...users.map((u) => ({ id: u.id, label: u.name }))]}
        />
      </ListFilters>
      <ListTable
        aria-label={t('title')}
        columns={columns}
        rows={contracts}
        sortDescriptor={sort}
        sortable
        getRowHref={(c) => `/contracts/${c.id}`}
        empty={{ empty: t('empty'), filtered: t('empty.filtered'), isFiltered: filtered }}
        totalCount={totalCount}
        offset={offset}
        limit={limit}
      />
    </ListPage>
  );
}
