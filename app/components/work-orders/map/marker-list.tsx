import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Button } from '~/app/components/ui';
import { orderHref } from '~/app/components/work-orders/list/rows';
import type { WorkOrderMarker } from '~/core/work-orders/work-order-map.service';

/** Rows shown at first; "show more" adds as many again (a capped map holds thousands). */
export const MARKER_LIST_STEP = 100;

/** A marker's order opens in its tab with its title and customer known, as from the list. */
export const markerHref = (m: WorkOrderMarker) => orderHref({ id: m.id, title: m.title, customerName: m.customerName });

/**
 * The map's orders as a plain list (number, title, customer), beside the map on a wide screen and
 * below it on a phone: it works without tiles, without JavaScript and with a keyboard.
 */
export function MapMarkerList({ markers, filtered }: { markers: WorkOrderMarker[]; filtered: boolean }) {
  const { t } = useTranslation('map');
  const [shown, setShown] = useState(MARKER_LIST_STEP);
  useEffect(() => setShown(MARKER_LIST_STEP), [markers]);

  if (!markers.length)
    return (
      <div className="rounded-xl border border-dashed border-slate-300 bg-white p-6 text-center text-sm text-slate-600">
        {filtered ? t('emptyFiltered') : t('empty')}
      </div>
    );
  const rest = markers.length - shown;
  return (
    <div className="space-y-2">
      <ul
        aria-label={t('listLabel')}
        className="divide-y divide-slate-100 overflow-y-auto rounded-xl bg-white shadow-sm ring-1 ring-slate-200 lg:max-h-[70vh]"
      >
        {markers.slice(0, shown).map((m) => (
          <li key={m.id}>
            <Link to={markerHref(m)} className="block px-3 py-2 hover:bg-slate-50 focus-visible:bg-slate-50">
              <span className="flex items-baseline justify-between gap-2">
                <span className="font-medium text-blue-800">{m.title}</span>
                <span className="shrink-0 text-xs text-slate-500">{m.number}</span>
              </span>
              <span className="block text-sm text-slate-700">{m.customerName ?? t('noCustomer')}</span>
            </Link>
          </li>
        ))}
      </ul>
      {rest > 0 ? (
        <div className="flex justify-center">
          <Button variant="secondary" size="sm" onPress={() => setShown((n) => n + MARKER_LIST_STEP)}>
            {t('more', { count: Math.min(rest, MARKER_LIST_STEP) })}
          </Button>
        </div>
      ) : null}
    </div>
  );
}
