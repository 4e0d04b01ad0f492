import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { LinkButton } from '~/app/components/ui';
import type { ObjectWorkOrder, ObjectWorkOrders as Orders } from '~/core/work-orders/object-work-orders';
import { DateTime } from './shared';

function OrderList({
  id,
  title,
  orders,
  totalCount,
  empty,
  closed,
}: {
  id: string;
  title: string;
  orders: ObjectWorkOrder[];
  totalCount: number;
  empty: string;
  closed: boolean;
}) {
  const { t } = useTranslation('objectworkorders');
  return (
    <div className="min-w-0">
      <h3 id={id} className="text-base font-medium">
        {title} <span className="text-sm font-normal text-slate-600">({totalCount})</span>
      </h3>
      {orders.length === 0 ? (
        <p className="mt-2 text-sm text-slate-600">{empty}</p>
      ) : (
        <ul aria-labelledby={id} className="mt-2 divide-y divide-slate-200 rounded-lg ring-1 ring-slate-200">
          {orders.map((o) => (
            <li key={o.id}>
              <Link
                to={`/work-orders/${o.id}`}
                className="flex min-h-11 flex-wrap items-baseline gap-x-3 gap-y-1 px-3 py-2 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-brand-600"
              >
                <span className="font-mono text-sm text-slate-600">{o.number}</span>
                <span className="min-w-0 flex-1 font-medium break-words text-blue-800 underline">{o.title}</span>
                <span className="text-sm text-slate-600">
                  {o.statusName} · <DateTime iso={closed && o.closedAt ? o.closedAt : o.intakeTs} withTime={false} />
                </span>
              </Link>
            </li>
          ))}
        </ul>
      )}
      {totalCount > orders.length ? (
        <p className="mt-2 text-sm text-slate-600">{t('more', { count: totalCount - orders.length })}</p>
      ) : null}
    </div>
  );
}

/**
 * The object's open and past work orders (a scanned QR label lands on the object page, spec
 * section 2), newest first, and a "new work order" button that prefills customer and object.
 */
export function ObjectWorkOrders({
  orders,
  newOrderHref,
}: {
  orders: Orders;
  /** Null without workorders:create. */
  newOrderHref: string | null;
}) {
  const { t } = useTranslation('objectworkorders');
  return (
    <section
      aria-labelledby="object-wo-title"
      className="mt-4 grid gap-4 rounded-lg bg-slate-50 p-3 sm:p-4 print:hidden"
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="object-wo-title" className="text-lg font-medium">
          {t('title')}
        </h2>
        {newOrderHref ? (
          <LinkButton href={newOrderHref} variant="primary">
            {t('new')}
          </LinkButton>
        ) : null}
      </div>
      <div className="grid gap-4 md:grid-cols-2">
        <OrderList
          id="object-wo-open"
          title={t('open')}
          orders={orders.open.workOrders}
          totalCount={orders.open.totalCount}
          empty={t('noOpen')}
          closed={false}
        />
        <OrderList
          id="object-wo-closed"
          title={t('closed')}
          orders={orders.closed.workOrders}
          totalCount={orders.closed.totalCount}
          empty={t('noClosed')}
          closed
        />
      </div>
    </section>
  );
}
