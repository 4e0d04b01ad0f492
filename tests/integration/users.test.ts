import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTenant } from '~/core/db/with-tenant';
import { getTenantBySlug } from '~/tenants/registry';
import { ensureUser } from '~/core/users/create-user';
import { inTenant } from '~/core/unit-of-work';
import { setUserActive, updateUser } from '~/core/users/user.service';
import { invitationLink } from '~/core/users/invite.service';
import { validateSession } from '~/core/auth/session.service';
import type { Tenant } from '~/core/tenancy/tenant';
import { createTestTenant, PASSWORD, startTestServer, type TestServer, type TestTenant } from '~/tests/helpers/app';
import { jsonBody, request } from '~/tests/helpers/http';

let srv: TestServer;
let a: TestTenant;
let b: TestTenant;
let tenantA: Tenant;
let admin: string;
let tech: string;

beforeAll(async () => {
  srv = await startTestServer();
  a = await createTestTenant('usr-a');
  b = await createTestTenant('usr-b');
  tenantA = (await getTenantBySlug(a.slug))!;
  await withTenant(tenantA, async (trx) => {
    await ensureUser(trx, {
      email: `old@${a.slug}.se`,
      name: 'Olle Gammal',
      password: PASSWORD,
      accessLevels: ['Technician'],
    });
    await trx('users')
      .where({ email: `old@${a.slug}.se` })
      .update({ status: 'inactive' });
    await ensureUser(trx, { email: `new@${a.slug}.se`, name: 'Nina Ny', accessLevels: [] });
    await trx('users')
      .where({ email: `new@${a.slug}.se` })
      .update({ status: 'registered' });
  });
  admin = await signIn(a, a.adminEmail);
  tech = await signIn(a, a.technicianEmail);
});
afterAll(() => srv.close());

async function signIn(t: TestTenant, email: string) {
  const j = jsonBody({ email, password: PASSWORD });
  return (await request(srv.url, { method: 'POST', path: '/api/authenticate', host: t.host, ...j })).json()
    .token as string;
}
const call = (method: string, path: string, token: string, body?: unknown, host = a.host) => {
  const j = body === undefined ? { body: undefined, headers: {} } : jsonBody(body);
  return request(srv.url, {
    method,
    path,
    host,
    body: j.body,
    headers: { ...j.headers, authorization: `Bearer ${token}` },
  });
};

describe('[users] GET /api/users', () => {
  it('lists active users by default, sorted by name, with access levels', async () => {
    const res = await call('GET', '/api/users', admin);
    expect(res.status).toBe(200);
    const { users, totalCount } = res.json();
    expect(users.map((u: { email: string }) => u.email).sort()).toEqual([a.adminEmail, a.technicianEmail].sort());
    expect(users.every((u: { status: string }) => u.status === 'active')).toBe(true);
    expect(totalCount).toBe(2);
    expect(users.find((u: { email: string }) => u.email === a.technicianEmail).accessLevels).toEqual(['Tekniker']);
    const names = users.map((u: { name: string }) => u.name.toLowerCase());
    expect([...names].sort()).toEqual(names);
  });

  it('filters by status and text', async () => {
    const all = (await call('GET', '/api/users?active=true&inactive=true&registered=true', admin)).json();
    expect(all.totalCount).toBe(4);
    const inactive = (await call('GET', '/api/users?active=false&inactive=true', admin)).json();
    expect(inactive.users.map((u: { name: string }) => u.name)).toEqual(['Olle Gammal']);
    const search = (await call('GET', '/api/users?registered=1&q=nina', admin)).json();
    expect(search.users.map((u: { name: string }) => u.name)).toEqual(['Nina Ny']);
  });

  it('needs users:read', async () => {
    const res = await call('GET', '/api/users', tech);
    expect(res.status).toBe(403);
    expect(res.json()).toEqual({ code: 'WARNING_PERMISSION_DENIED' });
  });
});

describe('[users] departments', () => {
  it('creates, renames, refuses duplicates, and cannot delete one with users', async () => {
    const created = await call('POST', '/api/instance/departments', admin, { name: 'Service' });
    expect(created.status).toBe(200);
    const id = created.json().id;
    expect((await call('POST', '/api/instance/departments', admin, { name: 'service' })).json()).toMatchObject({
      code: 'DEPARTMENT_NAME_TAKEN',
    });
    expect((await call('POST', '/api/instance/departments', admin, { name: '' })).json()).toEqual({
      code: 'VALIDATION_FAILED',
      fields: { name: ['ERROR_REQUIRED_FIELD'] },
    });
    expect((await call('PUT', '/api/instance/departments', admin, { id, name: 'Service Syd' })).status).toBe(200);
    // An id that is no UUID names no department: 404, not a failed query.
    expect((await call('PUT', '/api/instance/departments', admin, { id: 'x', name: 'Ny' })).json()).toEqual({
      code: 'NOT_FOUND',
    });
    expect((await call('GET', `/api/instance/departments/${id}`, admin)).json()).toEqual({ id, name: 'Service Syd' });
    // Another tenant's department id is not found.
    const other = await signIn(b, b.adminEmail);
    expect((await call('GET', `/api/instance/departments/${id}`, other, undefined, b.host)).status).toBe(404);

    const techId = await withTenant(
      tenantA,
      async (trx) => (await trx('users').where({ email: a.technicianEmail }).first('id')).id,
    );
    await inTenant({ tenant: tenantA, auth: await authOf(admin), lang: 'sv' }, (ctx) =>
      updateUser(ctx, { id: techId, name: 'Tess Tekniker', departmentId: id }),
    );
    const refused = await call('DELETE', `/api/instance/departments/${id}`, admin);
    expect(refused.status).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'DEPARTMENT_HAS_USERS' });
    await inTenant({ tenant: tenantA, auth: await authOf(admin), lang: 'sv' }, (ctx) =>
      updateUser(ctx, { id: techId, name: 'Tess Tekniker', departmentId: null }),
    );
    expect((await call('DELETE', `/api/instance/departments?id=${id}`, admin)).status).toBe(200);
    expect((await call('GET', `/api/instance/departments/${id}`, admin)).status).toBe(404);
  });
});

async function authOf(token: string) {
  return withTenant(tenantA, (trx) => validateSession(trx, token, new Date(), { idleMinutes: 30, absoluteHours: 12 }));
}

describe('[users] deactivation', () => {
  it("ends all of the user's sessions and refuses their sign-in; reactivation lets them back", async () => {
    const t = await signIn(a, a.technicianEmail);
    const techId = await withTenant(
      tenantA,
      async (trx) => (await trx('users').where({ email: a.technicianEmail }).first('id')).id,
    );
    await inTenant({ tenant: tenantA, auth: await authOf(admin), lang: 'sv' }, (ctx) =>
      setUserActive(ctx, { id: techId, active: false }),
    );
    expect((await call('GET', '/api/keepalive', t)).status).toBe(401);
    const open = await withTenant(tenantA, (trx) => trx('sessions').where({ user_id: techId }).whereNull('revoked_at'));
    expect(open).toEqual([]);
    expect(
      (
        await request(srv.url, {
          method: 'POST',
          path: '/api/authenticate',
          host: a.host,
          ...jsonBody({ email: a.technicianEmail, password: PASSWORD }),
        })
      ).status,
    ).toBe(401);
    await inTenant({ tenant: tenantA, auth: await authOf(admin), lang: 'sv' }, (ctx) =>
      setUserActive(ctx, { id: techId, active: true }),
    );
    expect(await signIn(a, a.technicianEmail)).toBeTruthy();
  });

  it('refuses to deactivate yourself', async () => {
    const me = await authOf(admin);
    await expect(
      inTenant({ tenant: tenantA, auth: me, lang: 'sv' }, (ctx) =>
        setUserActive(ctx, { id: me!.user.id, active: false }),
      ),
    ).rejects.toMatchObject({ code: 'CANNOT_DEACTIVATE_YOURSELF' });
  });
});

describe('[users] the invitation link passed on by hand', () => {
  it('gives a new working link for an invited user (the older one stops), refuses a registered one, keeps to the tenant', async () => {
    const auth = await authOf(admin);
    const ask = (id: unknown) =>
      inTenant({ tenant: tenantA, auth, lang: 'sv' }, (ctx) => invitationLink(ctx, id, a.host));
    const nina = await withTenant(tenantA, (trx) =>
      trx('users')
        .where({ email: `new@${a.slug}.se` })
        .first('id'),
    );
    const first = (await ask(nina.id)).link;
    const second = (await ask(nina.id)).link;
    expect(second).toMatch(new RegExp(`^https?://${a.host}(:\\d+)?/login\\?rt=`));
    const token = (link: string) => new URL(link).searchParams.get('rt')!;
    const check = (t: string) =>
      request(srv.url, { method: 'POST', path: '/api/registration/rt', host: a.host, ...jsonBody({ token: t }) });
    expect((await check(token(second))).status).toBe(200);
    expect((await check(token(first))).status).toBe(400);

    const adminRow = await withTenant(tenantA, (trx) => trx('users').where({ email: a.adminEmail }).first('id'));
    await expect(ask(adminRow.id)).rejects.toMatchObject({ code: 'INVITATION_NOT_PENDING', status: 409 });
    await expect(ask('00000000-0000-4000-8000-000000000000')).rejects.toMatchObject({ status: 404 });
  });
});
