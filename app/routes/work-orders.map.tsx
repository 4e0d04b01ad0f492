import { useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigation, type ShouldRevalidateFunctionArgs } from 'react-router';
import type { Route } from './+types/work-orders.map';
import { guard, run } from '~/app/lib/guard.server';
import { Select, Spinner, SearchInput } from '~/app/components/ui';
import { WorkOrderFilters } from '~/app/components/work-orders/list/filters';
import { listParams } from '~/app/components/work-orders/list/list-params';
import { useListFilters } from '~/app/components/work-orders/list/use-list-filters';
import { MapMarkerList } from '~/app/components/work-orders/map/marker-list';
import { MarkersMap, mapStyles } from '~/app/components/work-orders/map/markers-map';
import { useWorkOrderTabs } from '~/app/components/work-orders/tabs/tabs-context';
import { getListPreferences } from '~/core/work-orders/list-preferences';
import {
  getMapTileSettings,
  listWorkOrderMarkers,
  MARKER_CAP,
  type WorkOrderMarker,
} from '~/core/work-orders/work-order-map.service';
import { getWorkOrderOptions } from '~/core/work-orders/work-order-options';
import { WORK_ORDER_LISTS } from '~/core/work-orders/work-order.constants';
import { pageTitle } from '~/app/lib/page-title';

/**
 * The work-order screen's map tab (spec sections 2 and 4, app module `maps`): the orders the list's
 * filters select that have a position, as clustered markers on the tenant's tile server, and the
 * same orders as a plain list, which works when no tiles load. Filters and search are the list's
 * (one address format, remembered the same way); changing them stays on the map.
 */
export const middleware = guard({ permission: 'workorders:read', module: 'maps' });

export const links: Route.LinksFunction = () => mapStyles;

export async function loader({ request, context }: Route.LoaderArgs) {
  const query = new URL(request.url).searchParams;
  // No filters in the address: the person's remembered ones, as on the list tab.
  const effective = [...query.keys()].length
    ? new URLSearchParams(query)
    : new URLSearchParams(await run(context, (ctx) => getListPreferences(ctx)));
  return run(context, async (ctx) => {
    const { markers, ...counts } = await listWorkOrderMarkers(ctx, Object.fromEntries(effective));
    return {
      ...counts,
      // The markers travel as one JSON string: React Router's stream encoding of 5,000 marker
      // objects cost ~70 ms of server time on the bench, JSON.stringify of them ~3 ms (decision 014).
      markersJson: JSON.stringify(markers),
      cap: MARKER_CAP,
      query: effective.toString(),
      options: await getWorkOrderOptions(ctx),
      tiles: (await getMapTileSettings(ctx)).tiles,
    };
  });
}

/** Saving the remembered filters (the list tab's action) changes nothing here. */
export function shouldRevalidate({ formAction, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  if (formAction === '/?index') return false;
  return defaultShouldRevalidate;
}

/** The page's `<title>` (app/lib/page-title.ts). */
export const handle = pageTitle('title.map', null, { within: 'nav.workOrders' });

export default function WorkOrderMap({ loaderData: d }: Route.ComponentProps) {
  const { t } = useTranslation('map');
  const { t: tw } = useTranslation('workorders');
  const navigation = useNavigation();
  const tabs = useWorkOrderTabs();
  const params = useMemo(() => new URLSearchParams(d.query), [d.query]);
  const markers = useMemo(() => JSON.parse(d.markersJson) as WorkOrderMarker[], [d.markersJson]);
  const p = listParams(params);
  const loading = navigation.state === 'loading' && navigation.location.pathname === '/work-orders/map';

  useEffect(() => {
    if (tabs.ready && tabs.state.active !== 'map') tabs.showView('map');
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [tabs.ready]);

  const { update, text, search } = useListFilters(params, p.search, '/work-orders/map');

  return (
    <section aria-labelledby="wo-map-title" className="space-y-4">
      <h2 id="wo-map-title" className="sr-only">
        {t('title')}
      </h2>
      <div className="flex flex-wrap items-end gap-3">
        <Select
          label={tw('list.lists')}
          items={WORK_ORDER_LISTS.map((l) => ({ id: l, label: tw(`list.name.${l}`) }))}
          selectedKey={p.list}
          onSelectionChange={(k) => update({ list: String(k), closedFrom: null, closedTo: null })}
          className="w-full sm:w-56"
        />
        <SearchInput
          label={tw('list.search')}
          value={text}
          onChange={search}
          placeholder={tw('list.searchPlaceholder')}
          className="w-full sm:w-80"
        />
        {loading ? <Spinner label={tw('list.loading')} /> : null}
      </div>
      <WorkOrderFilters params={params} options={d.options} onChange={update} />
      <div className="space-y-1 text-sm text-slate-600" role="status">
        <p>{t('count', { count: markers.length })}</p>
        {d.capped ? <p>{t('capped', { count: d.cap })}</p> : null}
        {d.withoutLocation > 0 ? (
          <p>
            {t('withoutLocation', {
              total: d.withoutLocationCapped ? `${d.withoutLocation}+` : d.withoutLocation,
            })}
          </p>
        ) : null}
      </div>
      <div className="grid gap-4 lg:grid-cols-[minmax(0,1fr)_20rem]">
        <MarkersMap markers={markers} tiles={d.tiles} />
        <MapMarkerList markers={markers} filtered={p.filtered} />
      </div>
    </section>
  );
}
