import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTenant } from '~/core/db/with-tenant';
import { listAppModules } from '~/core/modules/app-module.service';
import { APP_MODULES, DEFAULT_APP_MODULES } from '~/core/modules/app-modules';
import { validateSession } from '~/core/auth/session.service';
import { inTenant, sessionPolicy } from '~/core/unit-of-work';
import { getTenantBySlug } from '~/tenants/registry';
import { createTestTenant, PASSWORD, startTestServer, type TestServer, type TestTenant } from '~/tests/helpers/app';
import { jsonBody, request } from '~/tests/helpers/http';

let srv: TestServer;
let a: TestTenant;
let b: TestTenant;
let adminA: string;
let techA: string;
let adminB: string;

const put = (t: TestTenant, body: unknown, token?: string) => {
  const j = jsonBody(body);
  return request(srv.url, {
    method: 'PUT',
    path: '/api/instance/appmodule',
    host: t.host,
    body: j.body,
    headers: { ...j.headers, ...(token ? { authorization: `Bearer ${token}` } : {}) },
  });
};

async function signIn(t: TestTenant, email: string): Promise<string> {
  const j = jsonBody({ email, password: PASSWORD });
  const res = await request(srv.url, { method: 'POST', path: '/api/authenticate', host: t.host, ...j });
  expect(res.status).toBe(200);
  return res.json().token;
}

/** The modules an existing session carries on its next request (the same read every request does). */
async function sessionModules(t: TestTenant, token: string): Promise<string[]> {
  const tenant = await getTenantBySlug(t.slug);
  const auth = await withTenant(tenant!, (trx) => validateSession(trx, token, new Date(), sessionPolicy()));
  return [...auth!.modules];
}

async function moduleRows(t: TestTenant) {
  const tenant = await getTenantBySlug(t.slug);
  return withTenant(tenant!, async (trx) => ({
    modules: await trx('app_modules').select('id', 'enabled', 'configuration'),
    history: await trx('history').where({ entity: 'app_module' }).orderBy('id').select('entity_id', 'action', 'data'),
  }));
}

beforeAll(async () => {
  srv = await startTestServer();
  a = await createTestTenant('mod-a');
  b = await createTestTenant('mod-b');
  [adminA, techA, adminB] = await Promise.all([
    signIn(a, a.adminEmail),
    signIn(a, a.technicianEmail),
    signIn(b, b.adminEmail),
  ]);
});
afterAll(() => srv.close());

describe('[app-modules] PUT /api/instance/appmodule', () => {
  it('switches a module off and on for this tenant only, with history, effective on the next request', async () => {
    expect(DEFAULT_APP_MODULES).toContain('dashboard');
    const off = await put(
      a,
      { appModuleId: 'dashboard', configuration: { cards: ['leadTime'] }, enabled: false },
      adminA,
    );
    expect(off.status).toBe(200);
    expect(off.json()).toEqual({ id: 'dashboard', enabled: false, configuration: { cards: ['leadTime'] } });

    // The session signed in before the change sees it on its next request.
    expect(await sessionModules(a, adminA)).not.toContain('dashboard');
    expect(await sessionModules(b, adminB)).toContain('dashboard');

    // `enabled` left out keeps the state; the configuration is replaced.
    const conf = await put(a, { appModuleId: 'dashboard', configuration: { cards: [] } }, adminA);
    expect(conf.json()).toEqual({ id: 'dashboard', enabled: false, configuration: { cards: [] } });

    const on = await put(a, { appModuleId: 'dashboard', enabled: true }, adminA);
    expect(on.json()).toEqual({ id: 'dashboard', enabled: true, configuration: { cards: [] } });
    expect(await sessionModules(a, adminA)).toContain('dashboard');

    const rows = await moduleRows(a);
    expect(rows.history.map((h) => [h.entity_id, h.action])).toEqual([
      ['dashboard', 'edit'],
      ['dashboard', 'edit'],
      ['dashboard', 'edit'],
    ]);
    expect(rows.history[0]!.data).toMatchObject({ before: { enabled: true }, after: { enabled: false } });
  });

  it('switches on a module the tenant never had', async () => {
    expect(DEFAULT_APP_MODULES).not.toContain('gps_tracker');
    expect(await sessionModules(a, adminA)).not.toContain('gps_tracker');
    const res = await put(a, { appModuleId: 'gps_tracker', configuration: {} }, adminA);
    expect(res.json()).toEqual({ id: 'gps_tracker', enabled: true, configuration: {} });
    expect(await sessionModules(a, adminA)).toContain('gps_tracker');
  });

  it('answers an unknown module or a malformed body with 400 VALIDATION_FAILED', async () => {
    const unknown = await put(a, { appModuleId: 'teleportation', configuration: {} }, adminA);
    expect(unknown.status).toBe(400);
    expect(unknown.json()).toEqual({ code: 'VALIDATION_FAILED', fields: { appModuleId: ['ERROR_INVALID_VALUE'] } });
    const bad = await put(a, { appModuleId: 'drive', configuration: 'yes', enabled: 'no' }, adminA);
    expect(bad.status).toBe(400);
    expect(bad.json().fields).toEqual({ configuration: ['ERROR_INVALID_VALUE'], enabled: ['ERROR_INVALID_VALUE'] });
  });

  it('needs instance:edit (403 for a technician) and a session (401)', async () => {
    const tech = await put(a, { appModuleId: 'drive', enabled: false }, techA);
    expect(tech.status).toBe(403);
    expect(tech.json()).toEqual({ code: 'WARNING_PERMISSION_DENIED' });
    const none = await put(a, { appModuleId: 'drive', enabled: false });
    expect(none.status).toBe(401);
    expect(none.json()).toEqual({ code: 'INVALID_SESSION' });
    expect((await moduleRows(a)).modules.find((m) => m.id === 'drive')?.enabled).toBe(true);
  });

  it('leaves the other tenant untouched', async () => {
    await put(b, { appModuleId: 'drive', enabled: false }, adminB);
    expect((await moduleRows(a)).modules.find((m) => m.id === 'drive')?.enabled).toBe(true);
    expect((await moduleRows(b)).modules.find((m) => m.id === 'drive')?.enabled).toBe(false);
  });
});

describe('[app-modules] listAppModules', () => {
  it('lists every known module with its enabled flag and configuration', async () => {
    const tenant = (await getTenantBySlug(b.slug))!;
    // The admin's real session, as a request would see it.
    const auth = (await withTenant(tenant, (trx) => validateSession(trx, adminB, new Date(), sessionPolicy())))!;
    const list = await inTenant({ tenant, auth, lang: 'sv' }, (ctx) => listAppModules(ctx));
    expect(list.map((m) => m.id)).toEqual([...APP_MODULES]);
    expect(list.find((m) => m.id === 'drive')).toEqual({ id: 'drive', enabled: false, configuration: {} });
    expect(list.find((m) => m.id === 'gps_tracker')?.enabled).toBe(false);
    expect(list.find((m) => m.id === 'crm')?.enabled).toBe(true);
    await expect(
      inTenant({ tenant, auth: { ...auth, perms: new Set() }, lang: 'sv' }, (ctx) => listAppModules(ctx)),
    ).rejects.toMatchObject({ code: 'WARNING_PERMISSION_DENIED' });
  });
});
