import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTenant } from '~/core/db/with-tenant';
import { THROTTLE } from '~/core/auth/login-throttle';
import { getTenantBySlug } from '~/tenants/registry';
import { setTenantStatus } from '~/tenants/provision';
import { createTestTenant, PASSWORD, startTestServer, type TestServer, type TestTenant } from '~/tests/helpers/app';
import { jsonBody, request } from '~/tests/helpers/http';

let srv: TestServer;
let a: TestTenant;
let b: TestTenant;

beforeAll(async () => {
  srv = await startTestServer();
  a = await createTestTenant('api-a');
  b = await createTestTenant('api-b');
});
afterAll(() => srv.close());

const post = (host: string, path: string, body: unknown, headers: Record<string, string> = {}) => {
  const j = jsonBody(body);
  return request(srv.url, { method: 'POST', path, host, body: j.body, headers: { ...j.headers, ...headers } });
};
const get = (host: string, path: string, token?: string) =>
  request(srv.url, { path, host, headers: token ? { authorization: `Bearer ${token}` } : {} });

async function signIn(t: TestTenant, email = t.adminEmail): Promise<string> {
  const res = await post(t.host, '/api/authenticate', { email, password: PASSWORD, hostname: t.host });
  expect(res.status).toBe(200);
  return res.json().token;
}

describe('[platform] hosts', () => {
  it('answers an unknown host with a bare 404 that names no tenant', async () => {
    const res = await get('nobody.ordo.test', '/api/keepalive');
    expect(res.status).toBe(404);
    expect(res.text).not.toMatch(/api-a|api-b|tenant/i);
    const page = await get('nobody.ordo.test', '/');
    expect(page.text).toBe(res.text);
  });

  it('ignores the port in the Host header and treats a disabled tenant as unknown', async () => {
    const t = await createTestTenant('api-dis');
    const ok = await post(`${t.host}:8443`, '/api/authenticate', { email: t.adminEmail, password: PASSWORD });
    expect(ok.status).toBe(200);
    await setTenantStatus(t.slug, 'disabled');
    const res = await post(t.host, '/api/authenticate', { email: t.adminEmail, password: PASSWORD });
    expect(res.status).toBe(404);
    expect(res.text).toBe((await get('nobody.ordo.test', '/')).text);
  });
});

describe('[platform] POST /api/authenticate', () => {
  it('answers the catalogue shape with a session token', async () => {
    const res = await post(a.host, '/api/authenticate', { email: a.adminEmail, password: PASSWORD, hostname: a.host });
    expect(res.status).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ status: 'success', action: null, user: { fullName: expect.any(String) } });
    expect(body.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(body.data.perms).toContain('settings:read');
    expect(body.data.instance.displayName).toBe('api-a AB');
  });

  it('refuses a wrong password with 401 INVALID_EMAIL_OR_PASSWORD, the same as an unknown e-mail', async () => {
    const wrong = await post(a.host, '/api/authenticate', { email: a.adminEmail, password: 'not-the-password' });
    const unknown = await post(a.host, '/api/authenticate', { email: 'ghost@nowhere.se', password: PASSWORD });
    expect(wrong.status).toBe(401);
    expect(wrong.json()).toEqual({ code: 'INVALID_EMAIL_OR_PASSWORD' });
    expect(unknown.json()).toEqual(wrong.json());
  });

  it('names each missing or malformed field with a spec message key', async () => {
    const res = await post(a.host, '/api/authenticate', { email: 'not-an-email' });
    expect(res.status).toBe(400);
    expect(res.json()).toEqual({
      code: 'VALIDATION_FAILED',
      fields: { email: ['ERROR_INVALID_EMAIL'], password: ['ERROR_REQUIRED_FIELD'] },
    });
  });

  it('answers malformed JSON with 400 and an oversized body with 413', async () => {
    const bad = await request(srv.url, {
      method: 'POST',
      path: '/api/authenticate',
      host: a.host,
      body: '{"email": ',
      headers: { 'content-type': 'application/json' },
    });
    expect(bad.status).toBe(400);
    expect(bad.json()).toEqual({ code: 'INVALID_JSON' });
    const big = await post(a.host, '/api/authenticate', { email: a.adminEmail, password: 'x'.repeat(2 * 1024 * 1024) });
    expect(big.status).toBe(413);
    expect(big.json()).toEqual({ code: 'PAYLOAD_TOO_LARGE' });
  });

  it('blocks an address after repeated failures, even with the right password', async () => {
    const t = await createTestTenant('api-thr');
    const ip = { 'x-test': '1' };
    for (let i = 0; i < THROTTLE.maxFailures; i++) {
      const r = await post(t.host, '/api/authenticate', { email: t.adminEmail, password: `wrong-${i}` }, ip);
      expect(r.status).toBe(401);
    }
    const blocked = await post(t.host, '/api/authenticate', { email: t.adminEmail, password: PASSWORD }, ip);
    expect(blocked.status).toBe(429);
    expect(blocked.json()).toEqual({ code: 'IP_BLOCKED_TRY_AGAIN_LATER' });
  });

  it('rotates the session at sign-in: the token presented before stops working', async () => {
    const first = await signIn(a);
    const res = await post(
      a.host,
      '/api/authenticate',
      { email: a.adminEmail, password: PASSWORD },
      { authorization: `Bearer ${first}` },
    );
    expect(res.status).toBe(200);
    expect(res.json().token).not.toBe(first);
    expect((await get(a.host, '/api/keepalive', first)).status).toBe(401);
    expect((await get(a.host, '/api/keepalive', res.json().token)).status).toBe(200);
  });
});

describe('[platform] sessions', () => {
  it('keepalive answers the user; logout ends the session at once', async () => {
    const token = await signIn(a);
    const alive = await get(a.host, '/api/keepalive', token);
    expect(alive.status).toBe(200);
    expect(alive.json().user.email).toBe(a.adminEmail);
    expect((await get(a.host, '/api/logout', token)).status).toBe(200);
    const dead = await get(a.host, '/api/keepalive', token);
    expect(dead.status).toBe(401);
    expect(dead.json()).toEqual({ code: 'INVALID_SESSION' });
  });

  it('answers 401 INVALID_SESSION without a token, with a forged one, and after idle or absolute expiry', async () => {
    expect((await get(a.host, '/api/keepalive')).json()).toEqual({ code: 'INVALID_SESSION' });
    expect((await get(a.host, '/api/keepalive', 'A'.repeat(43))).status).toBe(401);
    const tenant = (await getTenantBySlug(a.slug))!;
    const idle = await signIn(a);
    expect((await get(a.host, '/api/keepalive', idle)).status).toBe(200);
    await withTenant(tenant, (trx) =>
      trx('sessions').update({ idle_expires_at: trx.raw(`now() - interval '1 second'`) }),
    );
    expect((await get(a.host, '/api/keepalive', idle)).status).toBe(401);
    const absolute = await signIn(a);
    await withTenant(tenant, (trx) =>
      trx('sessions')
        .whereNull('revoked_at')
        .update({ expires_at: trx.raw(`now() - interval '1 second'`) }),
    );
    expect((await get(a.host, '/api/keepalive', absolute)).status).toBe(401);
  });

  it("refuses tenant A's session on tenant B's host", async () => {
    const token = await signIn(a);
    const res = await get(b.host, '/api/keepalive', token);
    expect(res.status).toBe(401);
    expect(res.json()).toEqual({ code: 'INVALID_SESSION' });
  });

  it('answers an inactive user the same as a wrong password, and ends their sessions', async () => {
    const t = await createTestTenant('api-inact');
    const token = await signIn(t, t.technicianEmail);
    const tenant = (await getTenantBySlug(t.slug))!;
    await withTenant(tenant, (trx) => trx('users').where({ email: t.technicianEmail }).update({ status: 'inactive' }));
    expect((await get(t.host, '/api/keepalive', token)).status).toBe(401);
    const res = await post(t.host, '/api/authenticate', { email: t.technicianEmail, password: PASSWORD });
    expect(res.status).toBe(401);
  });
});

describe('[platform] API errors and permissions', () => {
  it('answers an unknown call with 404 UNKNOWN_API_CALL', async () => {
    const res = await get(a.host, '/api/no/such/call', await signIn(a));
    expect(res.status).toBe(404);
    expect(res.json()).toEqual({ code: 'UNKNOWN_API_CALL' });
  });

  it('treats an id from another tenant exactly like a missing one', async () => {
    const tokenA = await signIn(a);
    const tokenB = await signIn(b);
    const tenantB = (await getTenantBySlug(b.slug))!;
    const idInB = await withTenant(tenantB, async (trx) => (await trx('access_levels').first('id')).id as string);
    const own = await get(b.host, `/api/acls/${idInB}`, tokenB);
    expect(own.status).toBe(200);
    expect(own.json().displayName).toBeTruthy();
    const foreign = await get(a.host, `/api/acls/${idInB}`, tokenA);
    const missing = await get(a.host, `/api/acls/00000000-0000-4000-8000-000000000000`, tokenA);
    expect(foreign.status).toBe(404);
    expect(foreign.json()).toEqual({ code: 'NOT_FOUND' });
    expect(missing.json()).toEqual(foreign.json());
  });

  it('answers 403 WARNING_PERMISSION_DENIED when the access levels lack the permission', async () => {
    const tech = await signIn(a, a.technicianEmail);
    const tenantA = (await getTenantBySlug(a.slug))!;
    const id = await withTenant(tenantA, async (trx) => (await trx('access_levels').first('id')).id as string);
    const res = await get(a.host, `/api/acls/${id}`, tech);
    expect(res.status).toBe(403);
    expect(res.json()).toEqual({ code: 'WARNING_PERMISSION_DENIED' });
  });

  it('saves a preference with PATCH /api/users/conf and validates it', async () => {
    const token = await signIn(a);
    const patch = (body: unknown) => {
      const j = jsonBody(body);
      return request(srv.url, {
        method: 'PATCH',
        path: '/api/users/conf',
        host: a.host,
        body: j.body,
        headers: { ...j.headers, authorization: `Bearer ${token}` },
      });
    };
    expect((await patch({ language: 'xx' })).json()).toEqual({
      code: 'VALIDATION_FAILED',
      fields: { language: ['ERROR_INVALID_VALUE'] },
    });
    expect((await patch({ language: 'en' })).status).toBe(200);
    const alive = await get(a.host, '/api/keepalive', token);
    expect(alive.json().user.configuration.language).toBe('en');
  });
});

describe('[platform] operations endpoints', () => {
  it('serves /healthz, /readyz and /metrics on any host', async () => {
    expect((await get('whatever', '/healthz')).text).toBe('ok');
    const ready = await get('whatever', '/readyz');
    expect(ready.status).toBe(200);
    expect(ready.json()).toEqual({ status: 'ready' });
    const metrics = await get('whatever', '/metrics');
    expect(metrics.text).toContain('ordo_http_request_duration_seconds');
  });

  it('publishes an OpenAPI document generated from the call schemas', async () => {
    const doc = (await get(a.host, '/api/openapi.json')).json();
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.paths['/authenticate'].post['x-permission']).toBe('public');
    expect(doc.paths['/acls/{id}'].get['x-permission']).toBe('accesslevels:read');
    // Issue 29: each call's real input. A body with its limits and enums, without its path parameter…
    const bo = doc.paths['/bo'].post.requestBody.content['application/json'].schema;
    expect(bo.properties.bo.required).toEqual(['serialCode']);
    expect(bo.properties.bo.properties.serialCode).toMatchObject({ type: 'string', maxLength: 100 });
    expect(bo.properties.bo.properties.status.enum).toEqual(['active', 'inactive']);
    const contacts = doc.paths['/bo/{boId}/contacts'].put;
    expect(contacts.parameters).toEqual([{ name: 'boId', in: 'path', required: true, schema: { type: 'string' } }]);
    expect(contacts.requestBody.content['application/json'].schema.properties).not.toHaveProperty('boId');
    expect(contacts.requestBody.content['application/json'].schema.properties.contacts.maxItems).toBe(50);
    // …and a GET's query as parameters.
    const list = doc.paths['/bo'].get.parameters;
    expect(list.find((p: { name: string }) => p.name === 'limit')).toMatchObject({
      in: 'query',
      schema: { maximum: 200 },
    });
    expect(list.find((p: { name: string }) => p.name === 'q')).toMatchObject({ in: 'query', required: false });
  });

  it('documents query parameters of GET calls and path parameters of every call, with their types', async () => {
    const doc = (await get(a.host, '/api/openapi.json')).json();
    type Param = { name: string; in: string; required: boolean; schema: { type?: string; enum?: string[] } };
    const calendar: Param[] = doc.paths['/wo/calendar'].get.parameters;
    expect(calendar).toContainEqual(
      expect.objectContaining({
        name: 'period',
        in: 'query',
        required: false,
        schema: expect.objectContaining({ type: 'string', enum: expect.arrayContaining(['month', 'week']) }),
      }),
    );
    expect(calendar).toContainEqual(
      expect.objectContaining({
        name: 'q',
        in: 'query',
        schema: expect.objectContaining({ type: 'string', maxLength: 200 }),
      }),
    );
    expect(calendar).toContainEqual(
      expect.objectContaining({ name: 'step', in: 'query', schema: expect.objectContaining({ type: 'number' }) }),
    );
    expect(doc.paths['/wo/calendar'].get.requestBody).toBeUndefined();
    // A path parameter is in the path, required, and not repeated as a query parameter or in the body.
    expect(doc.paths['/acls/{id}'].get.parameters).toEqual([
      { name: 'id', in: 'path', required: true, schema: { type: 'string' } },
    ]);
    const toAgreement = doc.paths['/proposals/{id}/agreement'].post;
    expect(toAgreement.parameters).toEqual([expect.objectContaining({ name: 'id', in: 'path', required: true })]);
    const body = toAgreement.requestBody.content['application/json'].schema;
    expect(Object.keys(body.properties)).toEqual(expect.arrayContaining(['agreementId', 'validFrom']));
    expect(body.properties.id).toBeUndefined();
    const close = doc.paths['/contracts/{id}/close'].post;
    expect(close.parameters).toEqual([{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }]);
    expect(close.requestBody.content['application/json'].schema.properties).toEqual({});
    expect(doc.paths['/instance/departments'].delete.parameters).toEqual([
      { name: 'id', in: 'query', required: true, schema: { type: 'string' } },
    ]);
  });
});

describe('[platform] API documentation and headers', () => {
  it('serves a readable catalogue at /api/docs, and security headers on every answer', async () => {
    const res = await get(a.host, '/api/docs');
    expect(res.status).toBe(200);
    expect(res.text).toContain('/api/authenticate');
    expect(res.text).toContain('accesslevels:read');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect((await get('nobody.ordo.test', '/')).headers['x-content-type-options']).toBe('nosniff');
  });
});

describe('[identity] sign-in audit log', () => {
  it('records successes, failures and blocked attempts, and keeps them when the sign-in is refused', async () => {
    const t = await createTestTenant('api-audit');
    const tenant = (await getTenantBySlug(t.slug))!;
    await post(t.host, '/api/authenticate', { email: t.adminEmail, password: PASSWORD });
    await post(t.host, '/api/authenticate', { email: t.adminEmail, password: 'wrong-password' });
    const events = await withTenant(tenant, (trx) =>
      trx('auth_events').orderBy('id').select('event', 'email', 'user_id'),
    );
    expect(events.map((e: { event: string }) => e.event)).toEqual(['signin.success', 'signin.failure']);
    expect(events.every((e: { email: string; user_id: string }) => e.email === t.adminEmail && e.user_id)).toBe(true);
  });
});
