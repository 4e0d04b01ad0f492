import type * as Leaflet from 'leaflet';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import leafletCss from 'leaflet/dist/leaflet.css?url';
import clusterCss from 'leaflet.markercluster/dist/MarkerCluster.css?url';
import clusterDefaultCss from 'leaflet.markercluster/dist/MarkerCluster.Default.css?url';
import type { MapTiles } from '~/core/work-orders/map-tiles';
import type { WorkOrderMarker } from '~/core/work-orders/work-order-map.service';
import { markerHref } from './marker-list';

/** Leaflet's and the cluster plugin's styles, for the route's `links`. */
export const mapStyles = [leafletCss, clusterCss, clusterDefaultCss].map((href) => ({ rel: 'stylesheet', href }));

/** Where the map starts before any marker is known: Sweden. */
const START: [number, number] = [62.5, 16.5];
const START_ZOOM = 4;

const PRIORITY_COLOR: Record<WorkOrderMarker['priority'], string> = {
  high: '#dc2626',
  medium: '#2563eb',
  low: '#64748b',
};

type L = typeof Leaflet;

/**
 * Leaflet and its cluster plugin, loaded in the browser only (they need `window`). The plugin
 * extends the global `L`, so Leaflet is published there first.
 */
async function loadLeaflet(): Promise<L> {
  const mod = await import('leaflet');
  const L = (mod.default ?? mod) as L;
  (window as unknown as { L: L }).L = L;
  await import('leaflet.markercluster');
  return L;
}

/** A marker's popup: number, title, customer and a link to the order (text nodes, never HTML). */
function popupContent(m: WorkOrderMarker, noCustomer: string, open: (href: string) => void): HTMLElement {
  const root = document.createElement('div');
  root.className = 'space-y-0.5 text-sm';
  const line = (text: string, className: string) => {
    const el = document.createElement('p');
    el.className = className;
    el.style.margin = '0';
    el.textContent = text;
    root.append(el);
  };
  line(m.number, 'text-xs text-slate-500');
  line(m.title, 'font-medium text-slate-900');
  line(m.customerName ?? noCustomer, 'text-slate-700');
  const a = document.createElement('a');
  const href = markerHref(m);
  a.href = href;
  a.textContent = m.title;
  a.className = 'mt-1 inline-block text-blue-800 underline';
  a.addEventListener('click', (e) => {
    if (e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
    e.preventDefault();
    open(href);
  });
  root.append(a);
  return root;
}

/**
 * The map: the tenant's tiles and one marker per order, clustered. When tiles fail to load (no
 * internet, a wrong template) a notice says so; the markers and the list beside the map still work.
 */
export function MarkersMap({ markers, tiles }: { markers: WorkOrderMarker[]; tiles: MapTiles }) {
  const { t } = useTranslation('map');
  const navigate = useNavigate();
  const box = useRef<HTMLDivElement>(null);
  const map = useRef<{ L: L; map: Leaflet.Map; cluster: Leaflet.MarkerClusterGroup } | null>(null);
  const [ready, setReady] = useState(false);
  const [tilesFailed, setTilesFailed] = useState(false);
  const [failed, setFailed] = useState(false);
  const openRef = useRef((href: string) => void navigate(href));
  openRef.current = (href: string) => void navigate(href);

  // The map and its tile layer, once per tile server.
  useEffect(() => {
    let cancelled = false;
    let created: Leaflet.Map | null = null;
    loadLeaflet()
      .then((L) => {
        if (cancelled || !box.current) return;
        created = L.map(box.current, { center: START, zoom: START_ZOOM, keyboard: true, worldCopyJump: true });
        L.tileLayer(tiles.url, { attribution: tiles.attribution, maxZoom: 19 })
          .on('tileerror', () => setTilesFailed(true))
          .addTo(created);
        const cluster = L.markerClusterGroup({ showCoverageOnHover: false, chunkedLoading: true });
        created.addLayer(cluster);
        map.current = { L, map: created, cluster };
        setReady(true);
      })
      .catch(() => setFailed(true));
    return () => {
      cancelled = true;
      created?.remove();
      map.current = null;
      setReady(false);
      setTilesFailed(false);
    };
  }, [tiles.url, tiles.attribution]);

  // The markers, whenever the filters give new ones; the view fits them at once (an animated zoom
  // redraws the markers when it ends, closing a popup opened meanwhile).
  useEffect(() => {
    const m = map.current;
    if (!ready || !m) return;
    const { L, cluster } = m;
    cluster.clearLayers();
    const layers = markers.map((o) => {
      const icon = L.divIcon({
        className: '',
        html: `<span style="display:block;width:14px;height:14px;border-radius:9999px;border:2px solid #fff;box-shadow:0 0 0 1px rgba(15,23,42,.4);background:${PRIORITY_COLOR[o.priority] ?? PRIORITY_COLOR.medium}"></span>`,
        iconSize: [14, 14],
        iconAnchor: [7, 7],
      });
      return L.marker([o.lat, o.lng], {
        icon,
        title: `${o.number} ${o.title}`,
        alt: o.title,
        keyboard: true,
      }).bindPopup(() => popupContent(o, t('noCustomer'), (href) => openRef.current(href)));
    });
    cluster.addLayers(layers);
    if (layers.length) m.map.fitBounds(cluster.getBounds(), { padding: [24, 24], maxZoom: 14, animate: false });
  }, [ready, markers, t]);

  return (
    <div className="space-y-2">
      {tilesFailed ? (
        <p role="alert" className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900 ring-1 ring-amber-200">
          {t('tilesFailed')}
        </p>
      ) : null}
      {failed ? (
        <p role="alert" className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900 ring-1 ring-amber-200">
          {t('mapFailed')}
        </p>
      ) : null}
      <div
        ref={box}
        role="region"
        aria-label={t('mapLabel')}
        data-testid="work-order-map"
        data-ready={ready ? 'true' : undefined}
        data-markers={ready ? markers.length : undefined}
        className="relative z-0 h-[55vh] min-h-72 w-full overflow-hidden rounded-xl bg-slate-100 ring-1 ring-slate-200 lg:h-[70vh]"
      />
    </div>
  );
}
