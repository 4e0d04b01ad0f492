import { useTranslation } from 'react-i18next';
import { NavLink } from 'react-router';
import type { Route } from './+types/zone.work-orders';
import { pageTitle } from '~/app/lib/page-title';
import { runZone, zoneGuard } from '~/app/lib/zone-guard.server';
import { pageOf, ZoneEmpty, ZonePage, ZonePager } from '~/app/components/zone/zone-parts';
import { ZoneWorkOrderList } from '~/app/components/zone/zone-work-order-list';
import { listZoneWorkOrders } from '~/core/zone/zone-view.service';

/** The customer's work orders, open or closed, with status and planned date. */
export const middleware = zoneGuard();

export const handle = pageTitle('zoneTitle.workOrders');

export async function loader({ request, context }: Route.LoaderArgs) {
  const status = new URL(request.url).searchParams.get('status') === 'closed' ? 'closed' : 'open';
  const list = await runZone(context, (ctx) => listZoneWorkOrders(ctx, { page: pageOf(request), status }));
  return { status, list };
}

export default function ZoneWorkOrders({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('zone');
  const { status, list } = loaderData;
  const tab = (s: 'open' | 'closed') => (
    <NavLink
      to={`/zone/work-orders${s === 'closed' ? '?status=closed' : ''}`}
      aria-current={status === s ? 'page' : undefined}
      className={`inline-flex min-h-11 items-center rounded-md px-3 text-sm ring-1 ${
        status === s ? 'bg-brand-700 text-white ring-brand-700' : 'bg-white text-slate-800 ring-slate-300'
      }`}
    >
      {t(`workOrders.${s}`)}
    </NavLink>
  );
  return (
    <ZonePage title={t('workOrders.title')}>
      <div className="flex gap-2">
        {tab('open')}
        {tab('closed')}
      </div>
      {list.items.length === 0 ? (
        <ZoneEmpty>{t(status === 'open' ? 'workOrders.emptyOpen' : 'workOrders.emptyClosed')}</ZoneEmpty>
      ) : (
        <ZoneWorkOrderList items={list.items} />
      )}
      <ZonePager
        page={list.page}
        hasMore={list.hasMore}
        href={(p) => `/zone/work-orders?status=${status}&page=${p}`}
      />
    </ZonePage>
  );
}
