import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RouterContextProvider } from 'react-router';
import { authContext, requestContext } from '~/app/context';
import { INVENTORY_LINKS, visibleInventoryLinks } from '~/app/components/inventory/inventory-links';
import { pluginGuard, pluginInventoryLinks } from '~/app/lib/plugin-links.server';
import type { Auth } from '~/core/context';
import { withTenant } from '~/core/db/with-tenant';
import type { Permission } from '~/core/permissions/permissions';
import type { Tenant } from '~/core/tenancy/tenant';
import { getTenantBySlug } from '~/tenants/registry';
import { createTestTenant, startTestServer, type TestServer, type TestTenant } from '~/tests/helpers/app';
import { testApi } from '~/tests/helpers/api';

let srv: TestServer;
let a: TestTenant;
let b: TestTenant;
let tenantA: Tenant;
let admin: string;
let tech: string;
let adminB: string;
let objectId: string;
let otherObjectId: string;
let objectB: string;

async function insertObject(tenant: Tenant, serial: string, customer?: string): Promise<string> {
  return withTenant(tenant, async (trx) => {
    const customerId = customer
      ? ((await trx('customers').insert({ name: customer, customer_id: serial }).returning('id'))[0].id as string)
      : null;
    const [row] = await trx('business_objects')
      .insert({ serial_code: serial, location: 'Storgatan 1, Lund', customer_id: customerId })
      .returning('id');
    return row.id as string;
  });
}

beforeAll(async () => {
  srv = await startTestServer();
  a = await createTestTenant('door-a');
  b = await createTestTenant('door-b');
  tenantA = (await getTenantBySlug(a.slug))!;
  admin = await signIn(a, a.adminEmail);
  tech = await signIn(a, a.technicianEmail);
  adminB = await signIn(b, b.adminEmail);
  objectId = await insertObject(tenantA, '10023', 'Brf Solrosen');
  otherObjectId = await insertObject(tenantA, '10024');
  objectB = await insertObject((await getTenantBySlug(b.slug))!, '10023');
});
afterAll(() => srv.close());

const { signIn, call } = testApi(() => ({ url: srv.url, host: a.host }));

const history = (id: string) =>
  withTenant(tenantA, (trx) =>
    trx('history').where({ entity: 'doorautomatic', entity_id: id }).orderBy('id').select('action', 'data'),
  );

describe('[door automatics] POST /api/doorautomatics', () => {
  it("creates one from the catalogue's {title, businessObjectId}, its ID proposed from the object", async () => {
    const res = await call('POST', '/api/doorautomatics', admin, { title: 'Entrédörr', businessObjectId: objectId });
    expect(res.status).toBe(200);
    const d = res.json();
    expect(d).toMatchObject({
      number: '10023-1',
      title: 'Entrédörr',
      businessObjectId: objectId,
      businessObject: { serialCode: '10023', customerName: 'Brf Solrosen' },
      warrantyUntil: null,
    });
    expect((await history(d.id)).map((h) => h.action)).toEqual(['create']);
    const second = await call('POST', '/api/doorautomatics', admin, {
      doorAutomatic: {
        title: 'Garageport',
        businessObjectId: objectId,
        brand: 'GEZE',
        model: 'Slimdrive EMD',
        location: 'Garage plan -1',
        warrantyUntil: '2027-06-30',
        sensor: 'GC 342',
        image: 'https://example.com/port.jpg',
      },
    });
    expect(second.json()).toMatchObject({ number: '10023-2', warrantyUntil: '2027-06-30', brand: 'GEZE' });
  });

  it('refuses missing and invalid fields with message keys (400)', async () => {
    const res = await call('POST', '/api/doorautomatics', admin, {
      number: '10023 3',
      warrantyUntil: '2027-02-30',
      image: 'http://example.com/x.jpg',
    });
    expect(res.status).toBe(400);
    expect(res.json().fields).toEqual({
      number: ['ERROR_NO_SPACES'],
      title: ['ERROR_REQUIRED_FIELD'],
      businessObjectId: ['ERROR_REQUIRED_FIELD'],
      warrantyUntil: ['ERROR_INVALID_VALUE'],
      image: ['ERROR_INVALID_VALUE'],
    });
    // Another tenant's object is not one of ours: a field error, not a 404.
    const foreign = await call('POST', '/api/doorautomatics', admin, { title: 'X', businessObjectId: objectB });
    expect(foreign.status).toBe(400);
    expect(foreign.json().fields).toEqual({ businessObjectId: ['ERROR_INVALID_VALUE'] });
  });

  it('answers 409 DUPLICATE_DOOR_AUTOMATIC_ID for a taken ID, whatever its case', async () => {
    await call('POST', '/api/doorautomatics', admin, { number: 'DA-9', title: 'A', businessObjectId: otherObjectId });
    const res = await call('POST', '/api/doorautomatics', admin, {
      number: 'da-9',
      title: 'B',
      businessObjectId: otherObjectId,
    });
    expect(res.status).toBe(409);
    expect(res.json().code).toBe('DUPLICATE_DOOR_AUTOMATIC_ID');
  });

  it('needs doorautomatics:edit (403)', async () => {
    expect((await call('POST', '/api/doorautomatics', tech, { title: 'X', businessObjectId: objectId })).status).toBe(
      403,
    );
  });
});

describe('[door automatics] reading, proposing, changing, deleting', () => {
  it('lists all or one object’s, searched in SQL, with the total', async () => {
    const all = (await call('GET', '/api/doorautomatics', admin)).json();
    expect(all.doorAutomatics.map((d: { number: string }) => d.number)).toEqual(['10023-1', '10023-2', 'DA-9']);
    expect(all.totalCount).toBe(3);
    const one = (await call('GET', `/api/doorautomatics?businessObjectId=${otherObjectId}`, admin)).json();
    expect(one.doorAutomatics.map((d: { number: string }) => d.number)).toEqual(['DA-9']);
    const search = (await call('GET', '/api/doorautomatics?q=slimdrive', admin)).json();
    expect(search.doorAutomatics.map((d: { title: string }) => d.title)).toEqual(['Garageport']);
    const page = (await call('GET', '/api/doorautomatics?limit=1&offset=1', admin)).json();
    expect(page).toMatchObject({ totalCount: 3, doorAutomatics: [{ number: '10023-2' }] });
    expect((await call('GET', '/api/doorautomatics', tech)).status).toBe(403);
    expect((await call('GET', '/api/doorautomatics', adminB, undefined, b.host)).json().totalCount).toBe(0);
  });

  it('proposes the next ID for an object, or the next all-digit one', async () => {
    const forObject = await call('GET', `/api/doorautomatics/id/propose?relationId=${objectId}`, admin);
    expect(forObject.json()).toEqual({ id: '10023-3' });
    expect(
      (await call('GET', `/api/doorautomatics/id/propose?relationId=${otherObjectId}&length=2`, admin)).json(),
    ).toEqual({ id: '10024-01' });
    expect((await call('GET', '/api/doorautomatics/id/propose?length=4', admin)).json()).toEqual({ id: '1000' });
    expect((await call('GET', `/api/doorautomatics/id/propose?relationId=${objectB}`, admin)).status).toBe(404);
  });

  it('reads one; another tenant’s id or a non-uuid is 404', async () => {
    const { doorAutomatics } = (await call('GET', '/api/doorautomatics?q=garageport', admin)).json();
    const id = doorAutomatics[0].id;
    expect((await call('GET', `/api/doorautomatics/${id}`, admin)).json().sensor).toBe('GC 342');
    expect((await call('GET', `/api/doorautomatics/${id}`, adminB, undefined, b.host)).status).toBe(404);
    expect((await call('GET', '/api/doorautomatics/nope', admin)).status).toBe(404);
  });

  it('changes the fields given, records what changed, and serves the history newest first', async () => {
    const { doorAutomatics } = (await call('GET', '/api/doorautomatics?q=entrédörr', admin)).json();
    const id = doorAutomatics[0].id;
    const res = await call('PUT', '/api/doorautomatics', admin, {
      id,
      brand: 'Dormakaba',
      warrantyUntil: '2028-01-31',
      businessObjectId: otherObjectId,
    });
    expect(res.status).toBe(200);
    expect(res.json()).toMatchObject({ brand: 'Dormakaba', warrantyUntil: '2028-01-31', number: '10023-1' });
    expect(res.json().businessObject.serialCode).toBe('10024');
    const taken = await call('PUT', '/api/doorautomatics', admin, { id, number: 'DA-9' });
    expect(taken.status).toBe(409);
    expect((await call('PUT', '/api/doorautomatics', admin, { id, title: '' })).json().fields).toEqual({
      title: ['ERROR_REQUIRED_FIELD'],
    });
    expect((await call('PUT', '/api/doorautomatics', adminB, { id, title: 'X' }, b.host)).status).toBe(404);
    const h = (await call('GET', `/api/doorautomatics/${id}/history?from=0&size=1`, admin)).json();
    expect(h.totalCount).toBe(2);
    expect(h.history).toHaveLength(1);
    expect(h.history[0]).toMatchObject({ action: 'edit', userName: expect.any(String) });
    expect(Object.keys(h.history[0].data.changed).sort()).toEqual(['brand', 'businessObjectId', 'warrantyUntil']);
    expect((await call('GET', `/api/doorautomatics/${id}/history`, adminB, undefined, b.host)).status).toBe(404);
  });

  it('keeps an object with door automatics from being deleted', async () => {
    const res = await call('DELETE', `/api/bo/${otherObjectId}`, admin);
    expect(res.status).toBe(409);
  });

  it('deletes with doorautomatics:delete and records it', async () => {
    const { doorAutomatics } = (await call('GET', '/api/doorautomatics?q=da-9', admin)).json();
    const id = doorAutomatics[0].id;
    expect((await call('DELETE', `/api/doorautomatics/${id}`, tech)).status).toBe(403);
    expect((await call('DELETE', `/api/doorautomatics/${id}`, adminB, undefined, b.host)).status).toBe(404);
    expect((await call('DELETE', `/api/doorautomatics/${id}`, admin)).status).toBe(200);
    expect((await call('GET', `/api/doorautomatics/${id}`, admin)).status).toBe(404);
    expect((await history(id)).map((x) => x.action)).toEqual(['create', 'delete']);
  });
});

function fakeAuth(modules: string[], userType: 'normal' | 'super' = 'normal'): Auth {
  return {
    sessionId: 's',
    user: {
      id: '00000000-0000-0000-0000-000000000000',
      email: 'x@example.se',
      fullName: 'X',
      shortName: null,
      initials: 'X',
      userType,
      language: null,
      startPage: 'workorders',
    },
    perms: new Set<Permission>(['doorautomatics:read', 'doorautomatics:edit']),
    modules: new Set(modules),
    limit: 'none',
    mustEnrollMfa: false,
  };
}

/** Runs a page's middleware chain as React Router would, answering what it answers. */
async function runGuard(auth: Auth | null): Promise<number> {
  const context = new RouterContextProvider();
  context.set(authContext, auth);
  context.set(requestContext, { ip: null, requestId: 'test', token: null });
  const chain = pluginGuard('doorautomatics', { permission: 'doorautomatics:read' });
  const step = async (i: number): Promise<Response> =>
    i === chain.length
      ? new Response('page', { status: 200 })
      : ((await chain[i]!(
          {
            request: new Request('http://x.test/inventory/doorautomatics'),
            context,
            params: {},
            url: new URL('http://x.test/inventory/doorautomatics'),
            pattern: '',
          } as never,
          () => step(i + 1),
        )) as Response);
  try {
    return (await step(0)).status;
  } catch (e) {
    const thrown = e as { status?: number; init?: { status?: number } };
    return thrown.init?.status ?? thrown.status ?? 500;
  }
}

describe('[door automatics] the doorautomatics app module switches the plugin', () => {
  const setModule = (enabled: boolean) =>
    call('PUT', '/api/instance/appmodule', admin, { appModuleId: 'doorautomatics', enabled });

  it('answers its API calls with 404 while the module is off, for everyone but a super user', async () => {
    // The provisioned admin is a super user; as a normal one it sees what everybody sees.
    await withTenant(tenantA, (trx) => trx('users').where({ email: a.adminEmail }).update({ user_type: 'normal' }));
    expect((await setModule(false)).status).toBe(200);
    for (const [method, path] of [
      ['GET', '/api/doorautomatics'],
      ['GET', '/api/doorautomatics/id/propose'],
      ['POST', '/api/doorautomatics'],
    ] as const) {
      const res = await call(
        method,
        path,
        admin,
        method === 'POST' ? { title: 'X', businessObjectId: objectId } : undefined,
      );
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.json().code).toBe('UNKNOWN_API_CALL');
    }
    // Without a session it is still 401, which says nothing about the tenant's modules.
    expect((await call('GET', '/api/doorautomatics', 'not-a-token')).status).toBe(401);
    // Another tenant keeps its own switch.
    expect((await call('GET', '/api/doorautomatics', adminB, undefined, b.host)).status).toBe(200);
    // User type super bypasses module gating (spec section 6).
    await withTenant(tenantA, (trx) => trx('users').where({ email: a.adminEmail }).update({ user_type: 'super' }));
    expect((await call('GET', '/api/doorautomatics', admin)).status).toBe(200);
    await withTenant(tenantA, (trx) => trx('users').where({ email: a.adminEmail }).update({ user_type: 'normal' }));
    expect((await call('GET', '/api/doorautomatics', admin)).status).toBe(404);
  });

  it('works again once the module is back on', async () => {
    expect((await setModule(true)).status).toBe(200);
    const res = await call('GET', '/api/doorautomatics', admin);
    expect(res.status).toBe(200);
    expect(res.json().totalCount).toBe(2);
  });

  it('answers its pages with 404 and hides its tab while the module is off', async () => {
    expect(await runGuard(fakeAuth([]))).toBe(404);
    expect(await runGuard(fakeAuth(['doorautomatics']))).toBe(200);
    expect(await runGuard(fakeAuth([], 'super'))).toBe(200);
    // Signed out: the sign-in page, not a 404 that would tell the module is off.
    expect(await runGuard(null)).toBe(302);
    const tabs = (auth: Auth) => visibleInventoryLinks(auth, [...INVENTORY_LINKS, ...pluginInventoryLinks()]);
    expect(tabs(fakeAuth(['doorautomatics'])).map((l) => l.to)).toContain('/inventory/doorautomatics');
    expect(tabs(fakeAuth([])).map((l) => l.to)).not.toContain('/inventory/doorautomatics');
  });
});

describe('[door automatics] demo data', () => {
  it('puts door automatics on the first objects, with IDs as the app proposes them, once', async () => {
    const { seedDemoDoorAutomatics } = await import('~/plugins/module-door-automatics/demo');
    const tenantB = (await getTenantBySlug(b.slug))!;
    await withTenant(tenantB, (trx) => seedDemoDoorAutomatics(trx));
    await withTenant(tenantB, (trx) => seedDemoDoorAutomatics(trx));
    const list = (await call('GET', '/api/doorautomatics', adminB, undefined, b.host)).json();
    expect(list.doorAutomatics.map((d: { number: string }) => d.number)).toEqual([
      '10023-1',
      '10023-2',
      '10023-3',
      '10023-4',
    ]);
  });
});
