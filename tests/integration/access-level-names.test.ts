/**
 * Issue 28 item 19: the seeded access levels ("Administrator", "Office", "Technician") read in
 * English in a Swedish tenant. They are shown in the reader's language while unchanged; a level an
 * admin renamed is shown as named; a save that sends the shown words back keeps them translatable.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTenant } from '~/core/db/with-tenant';
import type { Tenant } from '~/core/tenancy/tenant';
import { getTenantBySlug } from '~/tenants/registry';
import { createTestTenant, startTestServer, type TestServer, type TestTenant } from '~/tests/helpers/app';
import { testApi } from '~/tests/helpers/api';

let srv: TestServer;
let a: TestTenant;
let tenant: Tenant;
let svAdmin: string;
let enTech: string;
const { signIn, call } = testApi(() => ({ url: srv.url, host: a.host }));

type Level = { id: string; displayName: string; description: string | null };
const levels = async (token: string) => (await call('GET', '/api/acls', token)).json<Level[]>();

beforeAll(async () => {
  srv = await startTestServer();
  a = await createTestTenant('acl-names');
  tenant = (await getTenantBySlug(a.slug))!;
  // the technician reads English; the tenant (and its admin) Swedish
  await withTenant(tenant, (trx) => trx('users').where({ email: a.technicianEmail }).update({ language: 'en' }));
  svAdmin = await signIn(a, a.adminEmail);
  enTech = await signIn(a, a.technicianEmail);
  // the technician may read access levels for this test
  await withTenant(tenant, (trx) =>
    trx('access_levels')
      .where({ display_name: 'Technician' })
      .update({ permissions: trx.raw(`array_append(permissions, 'accesslevels:read')`) }),
  );
}, 60_000);
afterAll(async () => {
  await srv?.close();
});

describe('[access-levels] the seeded levels in the reader’s language', () => {
  it('shows them in Swedish to a Swedish reader and in English to an English one', async () => {
    const sv = await levels(svAdmin);
    expect(sv.map((l) => l.displayName)).toEqual(['Administratör', 'Kontor', 'Tekniker']);
    expect(sv.find((l) => l.displayName === 'Kontor')!.description).toBe(
      'Kontorspersonal: allt utom användare, behörighetsnivåer och instansinställningar',
    );
    const en = await levels(enTech);
    expect(en.map((l) => l.displayName)).toEqual(['Administrator', 'Office', 'Technician']);
  });

  it('names them in the reader’s language in the user list and the level options', async () => {
    const { users } = (await call('GET', '/api/users', svAdmin)).json<{
      users: { email: string; accessLevels: string[] }[];
    }>();
    expect(users.find((u) => u.email === a.technicianEmail)!.accessLevels).toEqual(['Tekniker']);
  });

  it('keeps them stored in English when a save sends the shown Swedish words back', async () => {
    const office = (await levels(svAdmin)).find((l) => l.displayName === 'Kontor')!;
    const res = await call('PUT', '/api/acls', svAdmin, {
      id: office.id,
      displayName: 'Kontor',
      description: office.description,
      limit: 'user',
    });
    expect(res.status, res.text).toBe(200);
    expect(res.json<Level>().displayName).toBe('Kontor');
    const stored = await withTenant(tenant, (trx) => trx('access_levels').where({ id: office.id }).first());
    expect(stored).toMatchObject({ display_name: 'Office', work_order_limit: 'user' });
    expect((await levels(enTech)).map((l) => l.displayName)).toContain('Office');
  });

  it('shows a renamed level as the admin named it, in every language', async () => {
    const tech = (await levels(svAdmin)).find((l) => l.displayName === 'Tekniker')!;
    const res = await call('PUT', '/api/acls', svAdmin, { id: tech.id, displayName: 'Servicetekniker' });
    expect(res.status, res.text).toBe(200);
    expect((await levels(svAdmin)).map((l) => l.displayName)).toContain('Servicetekniker');
    expect((await levels(enTech)).map((l) => l.displayName)).toContain('Servicetekniker');
  });
});
