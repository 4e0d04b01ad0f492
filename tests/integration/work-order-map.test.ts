import { RouterContextProvider } from 'react-router';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authContext, requestContext, tenantContext } from '~/app/context';
import { i18nextMiddleware } from '~/app/middleware/i18n.server';
import { loader as mapLoader, middleware as mapMiddleware } from '~/app/routes/work-orders.map';
import { validateSession } from '~/core/auth/session.service';
import { withTenant } from '~/core/db/with-tenant';
import { isAppError } from '~/core/errors/app-error';
import type { Tenant } from '~/core/tenancy/tenant';
import { inTenant, sessionPolicy } from '~/core/unit-of-work';
import { ensureUser } from '~/core/users/create-user';
import { OSM_TILES } from '~/core/work-orders/map-tiles';
import {
  getMapTileSettings,
  listWorkOrderMarkers,
  MARKER_CAP,
  updateMapTileSettings,
} from '~/core/work-orders/work-order-map.service';
import { getTenantBySlug } from '~/tenants/registry';
import { testApi } from '~/tests/helpers/api';
import { createTestTenant, PASSWORD, startTestServer, type TestServer, type TestTenant } from '~/tests/helpers/app';

let srv: TestServer;
let a: TestTenant;
let b: TestTenant;
let tenantA: Tenant;
let tenantB: Tenant;
const tok = {} as Record<'admin' | 'tech' | 'nobody' | 'adminB', string>;
const id = {} as Record<string, string>;

const { signIn, call } = testApi(() => ({ url: srv.url, host: a.host }));

async function create(token: string, workOrder: Record<string, unknown>, host?: string) {
  const res = await call('POST', '/api/wo', token, { workOrder }, host);
  expect(res.status, res.text).toBe(200);
  return res.json().workOrder.id as string;
}

const place = (tenant: Tenant, woId: string, lat: number | null, lng: number | null) =>
  withTenant(tenant, (trx) => trx('work_orders').where({ id: woId }).update({ location_lat: lat, location_lng: lng }));

/** Runs a core call as the session behind `token` (its permissions, modules and limit). */
async function as<T>(tenant: Tenant, token: string, fn: Parameters<typeof inTenant<T>>[1]) {
  const auth = await withTenant(tenant, (trx) => validateSession(trx, token, new Date(), sessionPolicy()));
  return inTenant({ tenant, auth, lang: 'sv' }, fn);
}

const markers = (token: string, filters: Record<string, string> = {}) =>
  as(tenantA, token, (ctx) => listWorkOrderMarkers(ctx, filters));

const setModule = (on: boolean) =>
  withTenant(tenantA, (trx) =>
    trx.raw(`insert into app_modules (id, enabled) values ('maps', ?) on conflict (id) do update set enabled = ?`, [
      on,
      on,
    ]),
  );

/** Runs the route as React Router would: its guard, then its loader, after the i18n middleware. */
async function runMapRoute(token: string, query = '') {
  const auth = await withTenant(tenantA, (trx) => validateSession(trx, token, new Date(), sessionPolicy()));
  const context = new RouterContextProvider();
  context.set(tenantContext, tenantA);
  context.set(authContext, auth);
  context.set(requestContext, { ip: null, requestId: 'test', token });
  const url = `http://${a.host}/work-orders/map${query}`;
  const request = new Request(url);
  const args = { request, context, params: {}, url: new URL(url), pattern: '' } as never;
  let answer: unknown;
  try {
    await i18nextMiddleware(args, async () => {
      await mapMiddleware[0]!(args, async () => {
        answer = await mapLoader(args);
        return new Response(null);
      });
      return new Response(null);
    });
  } catch (e) {
    const status = (e as { init?: { status?: number } }).init?.status;
    if (status) return { status, body: null };
    throw e;
  }
  return { status: 200, body: answer as Awaited<ReturnType<typeof mapLoader>> };
}

beforeAll(async () => {
  srv = await startTestServer();
  a = await createTestTenant('map-a');
  b = await createTestTenant('map-b');
  tenantA = (await getTenantBySlug(a.slug))!;
  tenantB = (await getTenantBySlug(b.slug))!;
  await withTenant(tenantA, async (trx) => {
    await trx('access_levels').insert({
      display_name: 'Ingen',
      permissions: ['customers:read'],
      work_order_limit: 'none',
    });
    await ensureUser(trx, {
      email: `nobody@${a.slug}.se`,
      name: 'Nils Ingen',
      password: PASSWORD,
      accessLevels: ['Ingen'],
    });
    id.tech = (await trx('users').where({ email: a.technicianEmail }).first('id')).id;
    const [cust] = await trx('customers').insert({ customer_id: '30001', name: 'Göta Fastigheter AB' }).returning('id');
    id.customer = cust.id;
    id.wip = (await trx('work_order_statuses').where({ name: 'Pågående' }).first('id')).id;
  });
  tok.admin = await signIn(a, a.adminEmail);
  tok.tech = await signIn(a, a.technicianEmail);
  tok.nobody = await signIn(a, `nobody@${a.slug}.se`);
  tok.adminB = await signIn(b, b.adminEmail);

  id.gbg = await create(tok.admin, { title: 'Larm Göteborg', customerId: id.customer, assignees: [id.tech] });
  id.mmo = await create(tok.admin, { title: 'Kamera Malmö', statusId: id.wip, priority: 'high' });
  id.nowhere = await create(tok.admin, { title: 'Larm utan adress' });
  id.halfway = await create(tok.admin, { title: 'Larm med halv position' });
  id.closed = await create(tok.admin, { title: 'Larm stängd' });
  id.other = await create(tok.adminB, { title: 'Larm i B' }, b.host);
  await place(tenantA, id.gbg, 57.7089, 11.9746);
  await place(tenantA, id.mmo, 55.605, 13.0038);
  await place(tenantA, id.halfway, 59.33, null);
  await place(tenantA, id.closed, 59.3293, 18.0686);
  await place(tenantB, id.other, 59.3293, 18.0686);
  await withTenant(tenantA, async (trx) => {
    await trx('work_orders').where({ id: id.closed }).update({ closed_at: trx.fn.now() });
    // Göteborg newest, then Malmö
    await trx('work_orders')
      .where({ id: id.gbg })
      .update({ intake_ts: new Date(Date.now() - 1000) });
    await trx('work_orders')
      .where({ id: id.mmo })
      .update({ intake_ts: new Date(Date.now() - 2000) });
  });
}, 120_000);

afterAll(async () => {
  await srv?.close();
});

describe('[work orders] map markers', () => {
  it('are the open list’s orders with both coordinates, newest first, with what the popup shows', async () => {
    const m = await markers(tok.admin);
    expect(m.markers).toEqual([
      {
        id: id.gbg,
        number: expect.any(String),
        title: 'Larm Göteborg',
        customerName: 'Göta Fastigheter AB',
        status: expect.any(String),
        priority: 'medium',
        lat: 57.7089,
        lng: 11.9746,
      },
      expect.objectContaining({ id: id.mmo, title: 'Kamera Malmö', customerName: null, priority: 'high', lat: 55.605 }),
    ]);
    // the order without a position and the one with only a latitude are counted, not shown
    expect(m).toMatchObject({ capped: false, withoutLocation: 2, withoutLocationCapped: false });
  });

  it('follow the list’s filters: search, status and the list itself', async () => {
    expect((await markers(tok.admin, { search: 'malmö' })).markers.map((x) => x.id)).toEqual([id.mmo]);
    const search = await markers(tok.admin, { search: 'larm' });
    expect(search.markers.map((x) => x.id)).toEqual([id.gbg]);
    expect(search.withoutLocation).toBe(2);
    expect((await markers(tok.admin, { status: id.wip })).markers.map((x) => x.id)).toEqual([id.mmo]);
    expect((await markers(tok.admin, { list: 'closed' })).markers.map((x) => x.id)).toEqual([id.closed]);
    const bad = await markers(tok.admin, { list: 'nonsense' }).catch((e: unknown) => e);
    expect(isAppError(bad) && bad.code).toBe('VALIDATION_FAILED');
  });

  it('honour the work-order limit and the permission, and never show another tenant’s orders', async () => {
    // the technician sees only orders they are assigned to
    const tech = await markers(tok.tech);
    expect(tech.markers.map((x) => x.id)).toEqual([id.gbg]);
    expect(tech.withoutLocation).toBe(0);
    const denied = await markers(tok.nobody).catch((e: unknown) => e);
    expect(isAppError(denied) && denied.code).toBe('WARNING_PERMISSION_DENIED');
    const all = await markers(tok.admin, { list: 'history' });
    expect(all.markers.map((x) => x.id)).not.toContain(id.other);
    const inB = await as(tenantB, tok.adminB, (ctx) => listWorkOrderMarkers(ctx, {}));
    expect(inB.markers.map((x) => x.id)).toEqual([id.other]);
  });

  it(`are capped at ${MARKER_CAP}, the newest, with the flag`, async () => {
    const c = await createTestTenant('map-cap');
    const tenantC = (await getTenantBySlug(c.slug))!;
    await withTenant(tenantC, (trx) =>
      trx.raw(
        `insert into work_orders (number, title, status_id, work_type_id, intake_ts, location_lat, location_lng)
         select 'C-' || g, 'Massorder ' || g,
                (select id from work_order_statuses where is_default), (select id from work_types where is_default),
                now() - g * interval '1 minute', 55 + (g % 1000) / 100.0, 12 + (g % 700) / 100.0
           from generate_series(1, ?) g`,
        [MARKER_CAP + 10],
      ),
    );
    const m = await as(tenantC, await signIn(c, c.adminEmail), (ctx) => listWorkOrderMarkers(ctx, {}));
    expect(m.capped).toBe(true);
    expect(m.markers).toHaveLength(MARKER_CAP);
    expect(m.markers[0]!.number).toBe('C-1');
    expect(m.markers.at(-1)!.number).toBe(`C-${MARKER_CAP}`);
  }, 60_000);
});

describe('[work orders] map route /work-orders/map', () => {
  it('loads the markers for the filters in the address, the options and the tile server', async () => {
    const r = await runMapRoute(tok.admin, '?list=open&search=malm%C3%B6');
    expect(r.status).toBe(200);
    expect((JSON.parse(r.body!.markersJson) as { id: string }[]).map((x) => x.id)).toEqual([id.mmo]);
    expect(r.body!.query).toBe('list=open&search=malm%C3%B6');
    expect(r.body!.tiles).toEqual(OSM_TILES);
    expect(r.body!.options.settings.statuses.length).toBeGreaterThan(0);
  });

  it('needs workorders:read and the maps module (a super user bypasses modules)', async () => {
    expect((await runMapRoute(tok.tech)).status).toBe(200);
    expect((await runMapRoute(tok.nobody)).status).toBe(403);
    await setModule(false);
    try {
      expect((await runMapRoute(tok.tech)).status).toBe(403);
      await expect(markers(tok.tech)).rejects.toMatchObject({ code: 'WARNING_PERMISSION_DENIED' });
      expect((await runMapRoute(tok.admin)).status).toBe(200);
    } finally {
      await setModule(true);
    }
  });
});

describe('[work orders] map tile settings', () => {
  const save = (token: string, input: Record<string, unknown>) =>
    as(tenantA, token, (ctx) => updateMapTileSettings(ctx, input)).catch((e: unknown) => e);

  it('default to OpenStreetMap, take a valid template with its attribution, and go back to the default', async () => {
    expect(await as(tenantA, tok.tech, (ctx) => getMapTileSettings(ctx))).toEqual({
      tiles: OSM_TILES,
      custom: null,
      instanceDefault: OSM_TILES,
    });
    const own = { url: 'https://tiles.example.se/{z}/{x}/{y}.png', attribution: '© Exempel' };
    expect(await save(tok.admin, own)).toMatchObject({ tiles: own, custom: own });
    expect((await runMapRoute(tok.tech)).body!.tiles).toEqual(own);
    expect(await save(tok.admin, { url: '', attribution: '' })).toMatchObject({ tiles: OSM_TILES, custom: null });
  });

  it('refuse a template without {z}/{x}/{y} or not over http(s), a missing attribution, and a technician', async () => {
    const fields = (e: unknown) => (isAppError(e) ? e.details?.fields : e);
    expect(fields(await save(tok.admin, { url: 'https://tiles.example.se/{z}/{x}.png', attribution: 'x' }))).toEqual({
      url: ['ERROR_MAP_TILE_URL'],
    });
    expect(fields(await save(tok.admin, { url: 'ftp://tiles.example.se/{z}/{x}/{y}.png', attribution: 'x' }))).toEqual({
      url: ['ERROR_MAP_TILE_URL'],
    });
    expect(fields(await save(tok.admin, { url: 'https://tiles.example.se/{z}/{x}/{y}.png' }))).toEqual({
      attribution: ['ERROR_REQUIRED_FIELD'],
    });
    const denied = await save(tok.tech, { url: '', attribution: '' });
    expect(isAppError(denied) && denied.code).toBe('WARNING_PERMISSION_DENIED');
  });
});
