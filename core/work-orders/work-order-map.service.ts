import type { Knex } from 'knex';
import { z } from 'zod';
import { getConfig } from '~/core/config/env';
import type { Ctx } from '~/core/context';
import { parseInput } from '~/core/errors/validation';
import { recordHistory } from '~/core/history/history';
import { requireAccess } from '~/core/permissions/access';
import { isTileTemplate, OSM_TILES, type MapTiles } from './map-tiles';
import { filteredWorkOrders } from './work-order-filter';
import { ZWorkOrderListQuery, type Priority } from './work-order.schema';

/**
 * At most this many markers: the newest orders with a position. A browser clusters thousands
 * without effort, but each marker costs server time (a row, its customer's name, its share of the
 * answer): 5,000 took ~75 ms p50 on the bench, over the 60 ms target; 2,000 keep the map full
 * (decision 014).
 */
export const MARKER_CAP = 2_000;

/** One order on the map tab: what its marker's popup and the list beside the map show. */
/**
 * Orders without a position are counted up to this many ("1000+"): the notice only needs to say
 * that some exist, and counting further cost ~10 ms on the bench's open list.
 */
export const WITHOUT_LOCATION_CAP = 1_000;

export interface WorkOrderMarker {
  id: string;
  number: string;
  title: string;
  customerName: string | null;
  status: string;
  priority: Priority;
  lat: number;
  lng: number;
}

export interface WorkOrderMarkers {
  markers: WorkOrderMarker[];
  /** More orders have a position than MARKER_CAP: `markers` holds the newest. */
  capped: boolean;
  /** Orders the filters select that have no position (counted up to WITHOUT_LOCATION_CAP). */
  withoutLocation: number;
  withoutLocationCapped: boolean;
}

const located = (qb: Knex.QueryBuilder) => qb.whereNotNull('w.location_lat').whereNotNull('w.location_lng');
const NEWEST = 'w.intake_ts desc, w.id desc';

/**
 * The map tab's markers (spec section 2, app module `maps`): the orders the list's filters select
 * (the same parsing and the same SQL, `filteredWorkOrders`, so the user's work-order limit applies)
 * that have a position, newest first, at most MARKER_CAP; and how many have none. The list's sort
 * and page are ignored. Two statements whatever the filters: the counts, then the markers.
 *
 * As in the list (decision 012): when the count finds at most the cap, the located rows are
 * filtered first (a subquery with a LIMIT) and then sorted, which is bounded; when there are more,
 * they are likely dense in intake order and the partial index of located orders (migration 0016)
 * is walked to the cap. (Counting up to the list's 10,000 to tell sparse from dense made every
 * dense case pay ~10 ms more and the sparse ones gained little: decision 014.)
 */
export async function listWorkOrderMarkers(ctx: Ctx, raw: unknown = {}): Promise<WorkOrderMarkers> {
  requireAccess(ctx.auth, { permission: 'workorders:read', module: 'maps' });
  const f = parseInput(ZWorkOrderListQuery, raw);
  const base = filteredWorkOrders(ctx, f);
  const limited = (qb: Knex.QueryBuilder, n: number) =>
    ctx.trx.from(qb.select(ctx.trx.raw('1')).limit(n).as('x')).count({ n: '*' });
  const [counts] = (await ctx.trx.select(
    limited(located(base.clone()), MARKER_CAP + 1).as('located'),
    limited(
      base.clone().where((q) => q.whereNull('w.location_lat').orWhereNull('w.location_lng')),
      WITHOUT_LOCATION_CAP + 1,
    ).as('unlocated'),
  )) as { located: string | number; unlocated: string | number }[];
  const capped = Number(counts!.located) > MARKER_CAP;
  const unlocated = Number(counts!.unlocated);
  const columns = [
    'w.id',
    'w.number',
    'w.title',
    'w.customer_id',
    'w.status_id',
    'w.priority',
    'w.location_lat',
    'w.location_lng',
    'w.intake_ts',
  ];
  const narrow = located(base.clone()).select(columns);
  const source = capped ? narrow.orderByRaw(NEWEST).limit(MARKER_CAP).as('w') : narrow.limit(MARKER_CAP + 1).as('w');
  const rows = (await ctx.trx
    .from(source)
    .leftJoin('customers as c', 'c.id', 'w.customer_id')
    .join('work_order_statuses as s', 's.id', 'w.status_id')
    .select(
      'w.id',
      'w.number',
      'w.title',
      'c.name as customer_name',
      's.name as status',
      'w.priority',
      'w.location_lat',
      'w.location_lng',
    )
    .orderByRaw(NEWEST)) as Record<string, unknown>[];
  return {
    markers: rows.map((r) => ({
      id: r.id as string,
      number: r.number as string,
      title: r.title as string,
      customerName: (r.customer_name as string | null) ?? null,
      status: r.status as string,
      priority: r.priority as Priority,
      lat: Number(r.location_lat),
      lng: Number(r.location_lng),
    })),
    capped,
    withoutLocation: Math.min(unlocated, WITHOUT_LOCATION_CAP),
    withoutLocationCapped: unlocated > WITHOUT_LOCATION_CAP,
  };
}

/** The settings form's and PATCH's fields; both empty: the instance's default again. */
export const ZMapTilesPatch = z
  .object({
    url: z
      .string({ error: 'ERROR_INVALID_VALUE' })
      .trim()
      .max(500, 'ERROR_MAX_LENGTH')
      .refine((v) => v === '' || isTileTemplate(v), 'ERROR_MAP_TILE_URL'),
    attribution: z.string({ error: 'ERROR_INVALID_VALUE' }).trim().max(300, 'ERROR_MAX_LENGTH').default(''),
  })
  .superRefine((v, ctx) => {
    // a tile server's terms nearly always require credit: a custom URL needs its attribution
    if (v.url !== '' && v.attribution === '')
      ctx.addIssue({ code: 'custom', path: ['attribution'], message: 'ERROR_REQUIRED_FIELD' });
  });

/** The instance's tile server: MAP_TILE_URL (with MAP_TILE_ATTRIBUTION) when set, else OpenStreetMap. */
export function instanceMapTiles(): MapTiles {
  const config = getConfig();
  return config.MAP_TILE_URL ? { url: config.MAP_TILE_URL, attribution: config.MAP_TILE_ATTRIBUTION ?? '' } : OSM_TILES;
}

export interface MapTileSettings {
  /** What the map uses: the tenant's own server, else the instance's. */
  tiles: MapTiles;
  /** The tenant's own setting; null: the instance's default applies. */
  custom: MapTiles | null;
  instanceDefault: MapTiles;
}

/** The tenant's tile server for the map tab and the settings form (every signed-in user reads it). */
export async function getMapTileSettings(ctx: Ctx): Promise<MapTileSettings> {
  requireAccess(ctx.auth, { permission: 'signed-in' });
  const row = (await ctx.trx('work_order_settings').first('map_tile_url', 'map_tile_attribution')) as
    { map_tile_url: string | null; map_tile_attribution: string | null } | undefined;
  const instanceDefault = instanceMapTiles();
  const custom = row?.map_tile_url ? { url: row.map_tile_url, attribution: row.map_tile_attribution ?? '' } : null;
  return { tiles: custom ?? instanceDefault, custom, instanceDefault };
}

/**
 * Settings → Work orders: the tenant's tile server (a template with {z}, {x}, {y} over http or
 * https, and its attribution); both empty returns to the instance's default. One history row.
 */
export async function updateMapTileSettings(ctx: Ctx, raw: unknown): Promise<MapTileSettings> {
  requireAccess(ctx.auth, { permission: 'instance:edit' });
  const patch = parseInput(ZMapTilesPatch, raw);
  await ctx.trx('work_order_settings').update({
    map_tile_url: patch.url || null,
    map_tile_attribution: patch.url ? patch.attribution : null,
    updated_at: ctx.now,
  });
  await recordHistory(ctx, {
    entity: 'work_order_settings',
    entityId: ctx.tenant.id,
    action: 'edit',
    data: { mapTiles: patch },
  });
  return getMapTileSettings(ctx);
}
