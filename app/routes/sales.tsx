import { useTranslation } from 'react-i18next';
import { Form, redirect, useNavigation } from 'react-router';
import type { Route } from './+types/sales';
import { customerNameOf } from '~/core/customers/customer.service';
import { actionError } from '~/app/lib/action-error.server';
import { guard, requireAuth, run } from '~/app/lib/guard.server';
import { useCan } from '~/app/lib/can';
import { CustomerPicker } from '~/app/components/inventory/pickers/customer-picker';
import { Button, DateTime, ListPage, ListTable, NativeSelect, pageFromUrl, useListUrl } from '~/app/components/ui';
import { isUuid } from '~/core/errors/validation';
import { formatNumber } from '~/core/i18n/number-format';
import { createSalesOrder, listSalesOrders, salesOrderOptions } from '~/core/proposals/sales-order.service';
import { pageTitle } from '~/app/lib/page-title';

/**
 * Sales orders (spec section 2: /sales, the CRM module and salesorder:read): open ones unless the
 * filter says otherwise (spec section 9), by customer, department and creator, newest first; a new
 * order opens at once.
 */
export const middleware = guard({ permission: 'salesorder:read', module: 'crm' });

const STATUSES = ['open', 'closed', 'all'] as const;
type Status = (typeof STATUSES)[number];

export async function loader({ request, context }: Route.LoaderArgs) {
  requireAuth(context);
  const url = new URL(request.url);
  const page = pageFromUrl(url.searchParams);
  const q = url.searchParams;
  const status: Status = (STATUSES as readonly string[]).includes(q.get('status') ?? '')
    ? (q.get('status') as Status)
    : 'open';
  const uuid = (key: string) => (isUuid(q.get(key)) ? (q.get(key) as string) : undefined);
  const filter = {
    customerId: uuid('customerId'),
    departmentId: uuid('departmentId'),
    createUserId: uuid('createUserId'),
  };
  return run(context, async (ctx) => {
    const list = await listSalesOrders(ctx, { status, ...filter, offset: page.offset, limit: page.limit });
    const options = await salesOrderOptions(ctx);
    const customerName = await customerNameOf(ctx, filter.customerId);
    return { ...list, ...options, ...page, status, ...filter, customerName };
  });
}

export async function action({ context }: Route.ActionArgs) {
  try {
    const made = await run(context, (ctx) => createSalesOrder(ctx, {}));
    return redirect(`/sales/${made.id}`);
  } catch (e) {
    return actionError(e);
  }
}

/** The page's `<title>` (app/lib/page-title.ts). */
export const handle = pageTitle('nav.sales');

type SalesOrderRow = Route.ComponentProps['loaderData']['salesOrders'][number];

export default function SalesOrders({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('sales');
  const can = useCan();
  const list = useListUrl();
  const navigation = useNavigation();
  const { salesOrders, totalCount, offset, limit, status, users, departments } = loaderData;
  const any = { id: '', label: t('filter.any') };
  const columns = [
    { id: 'number', header: t('field.number'), render: (so: SalesOrderRow) => so.number },
    {
      id: 'title',
      header: t('field.title'),
      isRowHeader: true,
      render: (so: SalesOrderRow) => (
        <span className="font-medium text-blue-700 underline">{so.title || t('untitled', { number: so.number })}</span>
      ),
    },
    { id: 'customer', header: t('field.customer'), render: (so: SalesOrderRow) => so.customerName ?? '—' },
    {
      id: 'status',
      header: t('field.status'),
      render: (so: SalesOrderRow) => (
        <>
          {t(`status.${so.status}`)}
          {so.status === 'closed' && so.paid && ` · ${t('field.paid')}`}
        </>
      ),
    },
    {
      id: 'total',
      header: t('field.total'),
      align: 'end' as const,
      render: (so: SalesOrderRow) => <span className="tabular-nums">{formatNumber(Number(so.totalPrice))}</span>,
    },
    {
      id: 'created',
      header: t('field.created'),
      render: (so: SalesOrderRow) => <DateTime iso={so.createTs} withTime={false} />,
    },
  ];
  return (
    <ListPage
      title={t('title')}
      actions={
        can('salesorder:edit', 'crm') ? (
          <Form method="post">
            <Button type="submit" variant="primary" isPending={navigation.state === 'submitting'}>
              {t('new')}
            </Button>
          </Form>
        ) : null
      }
    >
      <div className="mt-4 grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
        <NativeSelect
          label={t('filter.status')}
          value={status}
          onChange={(v) => list.setFilter('status', v, 'open')}
          items={STATUSES.map((s) => ({ id: s, label: t(`status.${s}`) }))}
        />
        <CustomerPicker
          key={loaderData.customerId ?? 'none'}
          label={t('filter.customer')}
          defaultSelected={
            loaderData.customerId ? { id: loaderData.customerId, label: loaderData.customerName ?? '' } : null
          }
          onSelectionChange={(o) => o?.id !== loaderData.customerId && list.setFilter('customerId', o?.id)}
        />
        {departments.length > 0 && (
          <NativeSelect
            label={t('filter.department')}
            value={loaderData.departmentId ?? ''}
            onChange={(v) => list.setFilter('departmentId', v)}
            items={[any, ...departments.map((d) => ({ id: d.id, label: d.name }))]}
          />
        )}
        <NativeSelect
          label={t('filter.creator')}
          value={loaderData.createUserId ?? ''}
          onChange={(v) => list.setFilter('createUserId', v)}
          items={[any, ...users.map((u) => ({ id: u.id, label: u.name }))]}
        />
      </div>
      <ListTable
        aria-label={t('title')}
        columns={columns}
        rows={salesOrders}
        getRowHref={(so) => `/sales/${so.id}`}
        empty={{ empty: t('empty'), filtered: t('empty'), isFiltered: false }}
        totalCount={totalCount}
        offset={offset}
        limit={limit}
      />
    </ListPage>
  );
}
