import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTenant } from '~/core/db/with-tenant';
import type { Tenant } from '~/core/tenancy/tenant';
import m0052 from '~/migrations/tenant/0052-supplier-invoice-permissions';
import { DEFAULT_ACCESS_LEVELS } from '~/tenants/seed';
import { getTenantBySlug } from '~/tenants/registry';
import { createTestTenant, startTestServer, type TestServer } from '~/tests/helpers/app';

/*
 * Tenant migration 0052: a tenant made before supplier invoices gets their permissions on its seeded
 * levels, as a new tenant is seeded; levels an admin renamed or made are left alone.
 */
let srv: TestServer;
let tenant: Tenant;
const SI = ['supplier_invoices:read', 'supplier_invoices:edit', 'supplier_invoices:read_all', 'supplier_orders:edit'];

beforeAll(async () => {
  srv = await startTestServer();
  tenant = (await getTenantBySlug((await createTestTenant('si-perm')).slug))!;
});

afterAll(() => srv.close());

const levels = () =>
  withTenant(tenant, async (trx) =>
    Object.fromEntries(
      ((await trx('access_levels').select('display_name', 'permissions')) as { display_name: string; permissions: string[] }[]).map(
        (l) => [l.display_name, l.permissions],
      ),
    ),
  );

describe('[supplier invoices] the permissions of tenants made before them', () => {
  it('gives the seeded levels what a new tenant’s have, once, and leaves levels of the tenant’s own', async () => {
    const seeded = await levels();
    // as a tenant made before 0048: no level has them; one level the admin made, one renamed
    await withTenant(tenant, async (trx) => {
      await trx.raw(`update access_levels set permissions = array(select p from unnest(permissions) p where p not like 'supplier_invoices:%' and p <> 'supplier_orders:edit')`);
      await trx.raw(`insert into access_levels (display_name, permissions) values ('Lager', '{articles:read}')`);
      await trx.raw(`update access_levels set display_name = 'Montör' where display_name = 'Technician'`);
      await trx.raw(`insert into access_levels (display_name, permissions) values ('Technician', '{workorders:read}')`);
    });
    await withTenant(tenant, (trx) => m0052.up(trx));
    await withTenant(tenant, (trx) => m0052.up(trx));
    const after = await levels();
    const si = (name: string) =>
      after[name].filter((p: string) => p.startsWith('supplier_invoices:') || p === 'supplier_orders:edit').sort();
    expect(si('Administrator')).toEqual([...SI].sort());
    expect(si('Office')).toEqual([...SI].sort());
    expect(after.Technician).toEqual(['workorders:read', 'supplier_invoices:read']);
    expect(si('Montör')).toEqual([]);
    expect(after.Lager).toEqual(['articles:read']);
    // what a new tenant is seeded with, for the levels that keep their names
    for (const level of DEFAULT_ACCESS_LEVELS.filter((l) => l.displayName !== 'Technician'))
      expect([...after[level.displayName]].sort()).toEqual([...seeded[level.displayName]].sort());
    const seededTech = DEFAULT_ACCESS_LEVELS.find((l) => l.displayName === 'Technician')!.permissions;
    expect(seededTech.filter((p) => p.startsWith('supplier_invoices:'))).toEqual(['supplier_invoices:read']);
  });
});
