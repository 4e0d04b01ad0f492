import { useTranslation } from 'react-i18next';
import { Form, Link, redirect, useNavigation, useSearchParams } from 'react-router';
import type { Route } from './+types/sales';
import { customerNameOf } from '~/core/customers/customer.service';
import { actionError } from '~/app/lib/action-error.server';
import { guard, requireAuth, run } from '~/app/lib/guard.server';
import { useCan } from '~/app/lib/can';
import { CustomerPicker } from '~/app/components/inventory/pickers/customer-picker';
import { Button, DateTime, ListPager, NativeSelect, pageFromUrl } from '~/app/components/ui';
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

export default function SalesOrders({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('sales');
  const can = useCan();
  const [params, setParams] = useSearchParams();
  const navigation = useNavigation();
  const { salesOrders, totalCount, offset, limit, status, users, departments } = loaderData;
  const set = (key: string, value: string | null | undefined) => {
    const next = new URLSearchParams(params);
    if (value) next.set(key, value);
    else next.delete(key);
    next.delete('offset');
    setParams(next);
  };
  const any = { id: '', label: t('filter.any') };
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <h1 className="text-2xl font-semibold">{t('title')}</h1>
        {can('salesorder:edit', 'crm') && (
          <Form method="post">
            <Button type="submit" variant="primary" isPending={navigation.state === 'submitting'}>
              {t('new')}
            </Button>
          </Form>
        )}
      </div>
      <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
        <NativeSelect
          label={t('filter.status')}
          value={status}
          onChange={(v) => set('status', v === 'open' ? null : v)}
          items={STATUSES.map((s) => ({ id: s, label: t(`status.${s}`) }))}
        />
        <CustomerPicker
          key={loaderData.customerId ?? 'none'}
          label={t('filter.customer')}
          defaultSelected={
            loaderData.customerId ? { id: loaderData.customerId, label: loaderData.customerName ?? '' } : null
          }
          onSelectionChange={(o) => o?.id !== loaderData.customerId && set('customerId', o?.id)}
        />
        {departments.length > 0 && (
          <NativeSelect
            label={t('filter.department')}
            value={loaderData.departmentId ?? ''}
            onChange={(v) => set('departmentId', v)}
            items={[any, ...departments.map((d) => ({ id: d.id, label: d.name }))]}
          />
        )}
        <NativeSelect
          label={t('filter.creator')}
          value={loaderData.createUserId ?? ''}
          onChange={(v) => set('createUserId', v)}
          items={[any, ...users.map((u) => ({ id: u.id, label: u.name }))]}
        />
      </div>
      {salesOrders.length === 0 ? (
        <p className="rounded-lg border border-dashed border-gray-300 bg-white p-6 text-center text-gray-700">
          {t('empty')}
        </p>
      ) : (
        <div className="overflow-x-auto rounded-lg bg-white shadow-sm ring-1 ring-slate-200">
          <table className="w-full text-sm">
            <thead className="bg-slate-50 text-gray-700">
              <tr>
                <th scope="col" className="px-3 py-2 text-start">
                  {t('field.number')}
                </th>
                <th scope="col" className="px-3 py-2 text-start">
                  {t('field.title')}
                </th>
                <th scope="col" className="px-3 py-2 text-start">
                  {t('field.customer')}
                </th>
                <th scope="col" className="px-3 py-2 text-start">
                  {t('field.status')}
                </th>
                <th scope="col" className="px-3 py-2 text-end">
                  {t('field.total')}
                </th>
                <th scope="col" className="px-3 py-2 text-start">
                  {t('field.created')}
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {salesOrders.map((so) => (
                <tr key={so.id}>
                  <td className="px-3 py-2">{so.number}</td>
                  <td className="px-3 py-2">
                    <Link to={`/sales/${so.id}`} className="font-medium text-blue-700 underline">
                      {so.title || t('untitled', { number: so.number })}
                    </Link>
                  </td>
                  <td className="px-3 py-2">{so.customerName ?? '—'}</td>
                  <td className="px-3 py-2">
                    {t(`status.${so.status}`)}
                    {so.status === 'closed' && so.paid && ` · ${t('field.paid')}`}
                  </td>
                  <td className="px-3 py-2 text-end tabular-nums">{formatNumber(Number(so.totalPrice))}</td>
                  <td className="px-3 py-2">
                    <DateTime iso={so.createTs} withTime={false} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <ListPager totalCount={totalCount} offset={offset} limit={limit} />
    </div>
  );
}
