import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTenant } from '~/core/db/with-tenant';
import type { Tenant } from '~/core/tenancy/tenant';
import { getTenantBySlug } from '~/tenants/registry';
import { createTestTenant, PASSWORD, startTestServer, type TestServer, type TestTenant } from '~/tests/helpers/app';
import { testApi } from '~/tests/helpers/api';
import { jsonBody, request } from '~/tests/helpers/http';
import { runRouteAs } from '~/tests/helpers/route-loader';
import * as userRoute from '~/app/routes/settings.user';
import * as regionsRoute from '~/app/routes/settings.regions';

/*
 * The regions register (issue 36 item 4; decision 067): the module gate and permissions, names
 * unique whatever their case, objects, projects and users belonging to a region, a rename that
 * follows into every row, deactivation instead of deleting what is in use, and the session's
 * region filtering the work-order and project lists by default — with another tenant's names
 * as unknown as names that never existed.
 */

let srv: TestServer;
let a: TestTenant;
let b: TestTenant;
let tenantA: Tenant;
let admin: string;
let tech: string;
let adminB: string;
let adminId: string;
let customer: string;

const { signIn, call } = testApi(() => ({ url: srv.url, host: a.host }));

const ok = async (method: string, path: string, token: string, body?: unknown, host?: string) => {
  const res = await call(method, path, token, body, host);
  expect(res.status, `${method} ${path}: ${res.text}`).toBe(200);
  return res.json();
};
const refused = async (method: string, path: string, token: string, body: unknown, status: number, host?: string) => {
  const res = await call(method, path, token, body, host);
  expect(res.status, `${method} ${path}: ${res.text}`).toBe(status);
  return res.json<{ code: string; fields?: Record<string, string[]> }>();
};

const regionsModule = (t: Tenant, on: boolean) =>
  withTenant(t, (trx) =>
    trx.raw(`insert into app_modules (id, enabled) values ('regions', ?) on conflict (id) do update set enabled = ?`, [
      on,
      on,
    ]),
  );

beforeAll(async () => {
  srv = await startTestServer();
  a = await createTestTenant('reg-a');
  b = await createTestTenant('reg-b');
  tenantA = (await getTenantBySlug(a.slug))!;
  await withTenant(tenantA, async (trx) => {
    adminId = ((await trx('users').whereRaw('lower(email) = ?', [a.adminEmail]).first('id')) as { id: string }).id;
    customer = (
      (await trx('customers').insert({ customer_id: '5001', name: 'Brf Norrsken' }).returning('id')) as { id: string }[]
    )[0]!.id;
  });
  admin = await signIn(a, a.adminEmail);
  tech = await signIn(a, a.technicianEmail);
  adminB = await signIn(b, b.adminEmail);
});
afterAll(() => srv.close());

describe('[regions] the register', () => {
  it('needs the regions module; then the admin keeps it and a technician only reads it', async () => {
    // (the provisioned admin is user type super, whom modules do not gate: spec section 6)
    await regionsModule(tenantA, false);
    await refused('GET', '/api/instance/regions', tech, undefined, 403);
    await regionsModule(tenantA, true);
    await regionsModule((await getTenantBySlug(b.slug))!, true);
    expect((await ok('GET', '/api/instance/regions', admin)).regions).toEqual([]);

    expect(await ok('POST', '/api/instance/regions', admin, { name: '  Norr ' })).toEqual({ name: 'Norr', active: true });
    await ok('POST', '/api/instance/regions', admin, { name: 'Syd' });
    await ok('POST', '/api/instance/regions', admin, { name: 'Öst' });
    expect((await refused('POST', '/api/instance/regions', admin, { name: 'NORR' }, 409)).code).toBe('REGION_NAME_TAKEN');
    expect((await refused('POST', '/api/instance/regions', admin, { name: 'All' }, 400)).fields).toEqual({
      name: ['ERROR_INVALID_VALUE'],
    });
    expect((await refused('POST', '/api/instance/regions', admin, { name: '' }, 400)).fields).toEqual({
      name: ['ERROR_REQUIRED_FIELD'],
    });
    await refused('POST', '/api/instance/regions', tech, { name: 'Väst' }, 403);
    expect((await ok('GET', '/api/instance/regions', tech)).regions.map((r: { name: string }) => r.name)).toEqual([
      'Norr',
      'Syd',
      'Öst',
    ]);
    // another tenant's register is its own: A's names are unknown there
    expect((await ok('GET', '/api/instance/regions', adminB, undefined, b.host)).regions).toEqual([]);
    await refused('PUT', '/api/instance/regions', adminB, { name: 'Norr', active: false }, 404, b.host);
    await refused('DELETE', '/api/instance/regions?name=Norr', adminB, undefined, 404, b.host);
  });

  it('objects and projects take a name of the register, never another', async () => {
    const bo = await ok('POST', '/api/bo', admin, { bo: { serialCode: 'REG-1', customerId: customer, region: 'Norr' } });
    expect((await ok('GET', `/api/bo/${bo.id}`, admin)).bo.region).toBe('Norr');
    const unknown = await refused('POST', '/api/bo', admin, { bo: { serialCode: 'REG-2', region: 'Väst' } }, 400);
    expect(unknown.fields).toEqual({ 'bo.region': ['ERROR_UNKNOWN_REGION'] });
    await ok('POST', '/api/bo', admin, { bo: { serialCode: 'REG-2', customerId: customer, region: 'Syd' } });
    await ok('POST', '/api/bo', admin, { bo: { serialCode: 'REG-3', customerId: customer } });
    const project = await ok('POST', '/api/projects', admin, { project: { title: 'Norrprojektet', region: 'Norr' } });
    expect(project.project.region).toBe('Norr');
    const bad = await refused('POST', '/api/projects', admin, { project: { title: 'X', region: 'Atlantis' } }, 400);
    expect(bad.fields).toEqual({ 'project.region': ['ERROR_UNKNOWN_REGION'] });
    await ok('POST', '/api/projects', admin, { project: { title: 'Sydprojektet', region: 'Syd' } });
  });

  it('a rename follows into every row; an inactive region stays where it is but is not offered', async () => {
    await ok('PUT', '/api/instance/regions', admin, { name: 'Norr', newName: 'Norrland' });
    const objects = await ok('GET', '/api/bo?q=REG-1', admin);
    expect(objects.bos.map((b: { serialCode: string; region: string }) => [b.serialCode, b.region])).toEqual([
      ['REG-1', 'Norrland'],
    ]);
    expect((await refused('PUT', '/api/instance/regions', admin, { name: 'Syd', newName: 'norrland' }, 409)).code).toBe(
      'REGION_NAME_TAKEN',
    );
    await ok('PUT', '/api/instance/regions', admin, { name: 'Syd', active: false });
    const listed = (await ok('GET', '/api/instance/regions', admin)).regions;
    expect(listed).toEqual([
      { name: 'Norrland', active: true, users: 0, objects: 1, projects: 1 },
      { name: 'Öst', active: true, users: 0, objects: 0, projects: 0 },
      { name: 'Syd', active: false, users: 0, objects: 1, projects: 1 },
    ]);
    // nothing new joins an inactive region; what has it keeps it when saved
    const inactive = await refused('POST', '/api/bo', admin, { bo: { serialCode: 'REG-4', region: 'Syd' } }, 400);
    expect(inactive.fields).toEqual({ 'bo.region': ['ERROR_UNKNOWN_REGION'] });
    const syd = (await ok('GET', '/api/projects?period=all&activeRegion=syd', admin)).projects[0];
    const full = (await ok('GET', `/api/projects/${syd.id}`, admin)).project;
    const saved = await ok('PUT', '/api/projects', admin, {
      project: { id: full.id, version: full.version, title: 'Sydprojektet (ändrat)', region: 'Syd' },
    });
    expect(saved.project.region).toBe('Syd');
  });

  it('a region in use is not deleted (deactivate it), an unused one is', async () => {
    expect((await refused('DELETE', '/api/instance/regions?name=Norrland', admin, undefined, 409)).code).toBe(
      'REGION_IN_USE',
    );
    await ok('DELETE', `/api/instance/regions?name=${encodeURIComponent('Öst')}`, admin);
    await refused('DELETE', `/api/instance/regions?name=${encodeURIComponent('Öst')}`, admin, undefined, 404);
  });
});

describe('[regions] the session region', () => {
  const as = (token: string) => ({ tenant: tenantA, host: a.host, token });

  it('a user given a region on their page has it in the session, and their lists start filtered by it', async () => {
    const bos = (await withTenant(tenantA, (trx) =>
      trx('business_objects').whereIn('serial_code', ['REG-1', 'REG-2', 'REG-3']).orderBy('serial_code').select('id'),
    )) as { id: string }[];
    const titles: string[] = [];
    for (const [i, bo] of bos.entries()) {
      const title = `Regionsorder ${i + 1}`;
      titles.push(title);
      await ok('POST', '/api/wo', admin, {
        workOrder: { title, customerId: customer, businessObjectId: bo.id, assignees: [adminId] },
      });
    }
    const shown = async (query: string, token: string) =>
      ((await ok('GET', `/api/wo?search=Regionsorder${query}`, token)).workOrders as { title: string }[])
        .map((w) => w.title)
        .sort();
    expect(await shown('', admin)).toEqual(titles);

    const page = await runRouteAs(userRoute.loader, as(admin), `/settings/users/${adminId}`, { params: { id: adminId } });
    expect(page.body!.regions).toEqual(['Norrland']); // Syd is inactive, Öst is gone
    const bad = await runRouteAs(userRoute.action, as(admin), `/settings/users/${adminId}`, {
      params: { id: adminId },
      form: { name: 'Admin', region: 'Syd', accessLevelIds: page.body!.user.accessLevelIds },
    });
    expect(bad.body!.fields).toEqual({ region: ['ERROR_UNKNOWN_REGION'] });
    const set = await runRouteAs(userRoute.action, as(admin), `/settings/users/${adminId}`, {
      params: { id: adminId },
      form: { name: 'Admin', region: 'Norrland', accessLevelIds: page.body!.user.accessLevelIds },
    });
    expect(set.status).toBe(200);

    const signIn = await request(srv.url, {
      method: 'POST',
      path: '/api/authenticate',
      host: a.host,
      ...jsonBody({ email: a.adminEmail, password: PASSWORD }),
    });
    const session = signIn.json<{ token: string; data: { region: string | null } }>();
    expect(session.data.region).toBe('Norrland');
    const token = session.token;
    expect(await shown('', token)).toEqual(['Regionsorder 1']);
    expect(await shown('&region=Syd', token)).toEqual(['Regionsorder 2']);
    expect(await shown('&region=all', token)).toEqual(titles);
    expect((await ok('GET', '/api/projects?period=all', token)).projects.map((p: { title: string }) => p.title)).toEqual(
      ['Norrprojektet'],
    );
    expect(
      (await ok('GET', '/api/projects?period=all&activeRegion=all', token)).projects
        .map((p: { title: string }) => p.title)
        .sort(),
    ).toEqual(['Norrprojektet', 'Sydprojektet (ändrat)']);

  });

  it('the settings page lists, adds and refuses in the user’s language', async () => {
    const page = await runRouteAs(regionsRoute.loader, as(admin), '/settings/regions');
    expect(page.body!.canEdit).toBe(true);
    expect(page.body!.regions.map((r: { name: string }) => r.name)).toEqual(['Norrland', 'Syd']);
    const added = await runRouteAs(regionsRoute.action, as(admin), '/settings/regions', { form: { name: 'Väst' } });
    expect(added.body).toEqual({ ok: true, intent: 'add' });
    const taken = await runRouteAs(regionsRoute.action, as(admin), '/settings/regions', { form: { name: 'väst' } });
    expect(taken.body!.code).toBe('REGION_NAME_TAKEN');
    const techPage = await runRouteAs(regionsRoute.loader, as(tech), '/settings/regions');
    expect(techPage.body!.canEdit).toBe(false);
  });
});
