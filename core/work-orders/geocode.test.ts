import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Database } from '~/core/db/database';
import { withTenant } from '~/core/db/with-tenant';
import { defineGeocoder, type GeoAddress } from '~/core/extension-points/geocoder';
import { buildRegistry, loadRegistry, type Registry } from '~/core/extension-points/registry';
import { disablePlugin, enablePlugin } from '~/core/extension-points/tenant-plugins';
import none from '~/plugins/erp-none';
import { getTenantBySlug } from '~/tenants/registry';
import { provisionTenant } from '~/tenants/provision';
import { openTestDatabase, uniqueSlug } from '~/tests/helpers/db';
import { geocodeAddress, placeWorkOrder } from './geocode';

const asked: GeoAddress[] = [];
const fakeGeocoder = defineGeocoder({
  id: 'fake-geo',
  displayName: 'Fake geocoder',
  options: z.object({}),
  tenantOptions: z.object({ apiKey: z.string().min(4) }),
  create: () => ({
    async geocode(address, options) {
      asked.push(address);
      expect(options).toEqual({ apiKey: 'key-1' });
      if (address.street === 'Trasig 1') throw new Error('service down');
      if (address.street === 'Utanför 1') return { lat: 123, lng: 18 };
      if (address.city === 'Ingenstans') return null;
      return { lat: 59.6099123, lng: 16.5448099 };
    },
  }),
});

let db: Database;
let registry: Registry;
let tenantId: string;
let slug: string;
beforeAll(async () => {
  db = await openTestDatabase();
  await loadRegistry({});
  registry = buildRegistry([none, fakeGeocoder], {});
  slug = uniqueSlug('geo');
  tenantId = (
    await provisionTenant({
      slug,
      name: 'Geo AB',
      hosts: [`${slug}.ordo.test`],
      adminEmail: `a@${slug}.se`,
      adminPassword: 'password-1',
    })
  ).tenantId;
});
afterAll(() => db.close());

const at = (street: string | null, city: string | null = 'Västerås'): GeoAddress => ({
  street,
  postIndex: null,
  city,
  country: 'SE',
});

describe('[work orders] the pluggable geocoder', () => {
  it('places nothing while the tenant has no geocoder (the default), or none is installed', async () => {
    expect(await geocodeAddress(registry, tenantId, at('Solvägen 3'))).toBeNull();
    expect(await geocodeAddress(buildRegistry([none], {}), tenantId, at('Solvägen 3'))).toBeNull();
    expect(asked).toHaveLength(0);
  });

  it("asks the tenant's geocoder with its options and the tenant's country; rounds to the column", async () => {
    await enablePlugin(registry, tenantId, 'fake-geo', { apiKey: 'key-1' });
    expect(await geocodeAddress(registry, tenantId, at('Solvägen 3'))).toEqual({ lat: 59.609912, lng: 16.54481 });
    expect(asked.at(-1)).toEqual(at('Solvägen 3'));
  });

  it('no address, not found, an impossible point or a failing service: no position, and no error', async () => {
    const before = asked.length;
    expect(await geocodeAddress(registry, tenantId, at(null, null))).toBeNull();
    expect(asked.length).toBe(before);
    expect(await geocodeAddress(registry, tenantId, at(null, 'Ingenstans'))).toBeNull();
    expect(await geocodeAddress(registry, tenantId, at('Utanför 1'))).toBeNull();
    expect(await geocodeAddress(registry, tenantId, at('Trasig 1'))).toBeNull();
  });

  it("stores the order's position, and clears it when the address goes", async () => {
    const tenant = (await getTenantBySlug(slug))!;
    // the tenant's geocoder is known from the lookups above (cached), so the save inside the
    // transaction needs no second connection: the embedded database has only one
    expect(await geocodeAddress(registry, tenantId, at('Solvägen 3'))).not.toBeNull();
    await withTenant(tenant, async (trx) => {
      const [status] = await trx('work_order_statuses').where({ is_default: true }).select('id');
      const [type] = await trx('work_types').where({ is_default: true }).select('id');
      const [wo] = await trx('work_orders')
        .insert({ number: 'G-1', title: 'Geo', status_id: status.id, work_type_id: type.id })
        .returning('id');
      const ctx = { trx, tenant, auth: null, lang: 'sv' as const, now: new Date() };
      await placeWorkOrder(ctx, wo.id, { street: 'Solvägen 3', postIndex: null, city: 'Västerås' }, registry);
      const placed = await trx('work_orders').where({ id: wo.id }).first('location_lat', 'location_lng');
      expect([Number(placed.location_lat), Number(placed.location_lng)]).toEqual([59.609912, 16.54481]);
      await placeWorkOrder(ctx, wo.id, { street: null, postIndex: null, city: null }, registry);
      const cleared = await trx('work_orders').where({ id: wo.id }).first('location_lat', 'location_lng');
      expect(cleared).toEqual({ location_lat: null, location_lng: null });
    });
    await disablePlugin(tenantId, 'fake-geo');
    expect(await geocodeAddress(registry, tenantId, at('Solvägen 3'))).toBeNull();
  });
});
