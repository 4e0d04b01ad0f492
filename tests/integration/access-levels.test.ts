import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTenant } from '~/core/db/with-tenant';
import { PERMISSIONS } from '~/core/permissions/permissions';
import { getTenantBySlug } from '~/tenants/registry';
import { createTestTenant, PASSWORD, startTestServer, type TestServer, type TestTenant } from '~/tests/helpers/app';
import { jsonBody, request } from '~/tests/helpers/http';

let srv: TestServer;
let a: TestTenant;
let b: TestTenant;
let adminA: string;
let techA: string;
let adminB: string;

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const call = (t: TestTenant, method: Method, path: string, token?: string, body?: unknown) => {
  const j = body === undefined ? { body: undefined, headers: {} } : jsonBody(body);
  return request(srv.url, {
    method,
    path: `/api${path}`,
    host: t.host,
    body: j.body,
    headers: { ...j.headers, ...(token ? { authorization: `Bearer ${token}` } : {}) },
  });
};

async function signIn(t: TestTenant, email: string): Promise<string> {
  const res = await call(t, 'POST', '/authenticate', undefined, { email, password: PASSWORD });
  expect(res.status).toBe(200);
  return res.json().token;
}

async function history(t: TestTenant, entityId: string) {
  const tenant = await getTenantBySlug(t.slug);
  return withTenant(tenant!, (trx) =>
    trx('history')
      .where({ entity: 'access_level', entity_id: entityId })
      .orderBy('id')
      .select('action', 'user_id', 'data'),
  );
}

beforeAll(async () => {
  srv = await startTestServer();
  a = await createTestTenant('acl-a');
  b = await createTestTenant('acl-b');
  [adminA, techA, adminB] = await Promise.all([
    signIn(a, a.adminEmail),
    signIn(a, a.technicianEmail),
    signIn(b, b.adminEmail),
  ]);
});
afterAll(() => srv.close());

describe('[access-levels] GET /api/acls', () => {
  it('lists the levels by name with permissions, limit and how many users hold them', async () => {
    const res = await call(a, 'GET', '/acls', adminA);
    expect(res.status).toBe(200);
    const levels = res.json<{ displayName: string; permissions: string[]; limit: string; userCount: number }[]>();
    // the seeded levels in the reader's language (the test tenant speaks Swedish; issue 28 item 19)
    expect(levels.map((l) => l.displayName)).toEqual(['Administratör', 'Kontor', 'Tekniker']);
    const tech = levels.find((l) => l.displayName === 'Tekniker')!;
    expect(tech).toMatchObject({ limit: 'user', userCount: 1 });
    expect(tech.permissions).toContain('workorders:read');
    expect(levels[0]!.permissions).toHaveLength(PERMISSIONS.length);
  });

  it('needs a session (401) and accesslevels:read (403 for a technician)', async () => {
    expect((await call(a, 'GET', '/acls')).json()).toEqual({ code: 'INVALID_SESSION' });
    expect((await call(a, 'GET', '/acls')).status).toBe(401);
    const res = await call(a, 'GET', '/acls', techA);
    expect(res.status).toBe(403);
    expect(res.json()).toEqual({ code: 'WARNING_PERMISSION_DENIED' });
  });
});

describe('[access-levels] GET /api/acls/permissions', () => {
  it('answers the whole catalogue with names in the user’s language and the spec groups', async () => {
    const res = await call(a, 'GET', '/acls/permissions', adminA);
    expect(res.status).toBe(200);
    const list = res.json<{ id: string; name: string; description: string; group: string }[]>();
    expect(list.map((p) => p.id)).toEqual([...PERMISSIONS]);
    // The test tenant speaks Swedish unless the user chose otherwise.
    expect(list.find((p) => p.id === 'workorders:close')).toEqual({
      id: 'workorders:close',
      name: 'Avsluta arbetsordrar',
      description: 'Avsluta färdiga arbetsordrar.',
      group: 'workorder',
    });
    expect(new Set(list.map((p) => p.group))).toEqual(new Set(['workorder', 'inventory', 'other']));
    for (const p of list) expect(p.name).not.toBe(p.id);
  });

  it('is not read as an access-level id, and needs accesslevels:read', async () => {
    expect((await call(a, 'GET', '/acls/permissions', techA)).status).toBe(403);
    expect((await call(a, 'GET', '/acls/permissions')).status).toBe(401);
  });
});

describe('[access-levels] create, read, change and delete', () => {
  it('goes through the whole life of a level, writing history for every change', async () => {
    const created = await call(a, 'POST', '/acls', adminA, {
      displayName: '  Lager  ',
      description: 'Stock keepers',
      permissions: ['articles:read', 'articles:edit', 'articles:read'],
      limit: 'user.created',
      configuration: { dashboard: { cards: ['leadTime'] } },
    });
    expect(created.status).toBe(200);
    const level = created.json();
    expect(level).toMatchObject({
      displayName: 'Lager',
      description: 'Stock keepers',
      permissions: ['articles:read', 'articles:edit'],
      limit: 'user.created',
      configuration: { dashboard: { cards: ['leadTime'] } },
      userCount: 0,
    });
    expect(level.id).toMatch(/^[0-9a-f-]{36}$/);

    const got = await call(a, 'GET', `/acls/${level.id}`, adminA);
    expect(got.status).toBe(200);
    expect(got.json()).toEqual(level);

    // A field left out keeps its value.
    const changed = await call(a, 'PUT', '/acls', adminA, {
      id: level.id,
      displayName: 'Lager och inköp',
      permissions: ['articles:read', 'supplier_orders:edit'],
    });
    expect(changed.status).toBe(200);
    expect(changed.json()).toMatchObject({
      id: level.id,
      displayName: 'Lager och inköp',
      description: 'Stock keepers',
      permissions: ['articles:read', 'supplier_orders:edit'],
      limit: 'user.created',
    });

    // Same name in another case is still the same level's own name.
    expect((await call(a, 'PUT', '/acls', adminA, { id: level.id, displayName: 'LAGER OCH INKÖP' })).status).toBe(200);

    const deleted = await call(a, 'DELETE', `/acls/${level.id}`, adminA);
    expect(deleted.status).toBe(200);
    expect((await call(a, 'GET', `/acls/${level.id}`, adminA)).status).toBe(404);
    expect((await call(a, 'DELETE', `/acls/${level.id}`, adminA)).status).toBe(404);

    const rows = await history(a, level.id);
    expect(rows.map((r) => r.action)).toEqual(['create', 'edit', 'edit', 'delete']);
    expect(rows.every((r) => typeof r.user_id === 'string')).toBe(true);
    expect(rows[1]!.data).toMatchObject({
      before: { displayName: 'Lager' },
      after: { displayName: 'Lager och inköp' },
    });
  });

  it('refuses a name another level has, whatever the case, with 409 ACCESS_LEVEL_NAME_TAKEN', async () => {
    const dup = await call(a, 'POST', '/acls', adminA, { displayName: 'technician' });
    expect(dup.status).toBe(409);
    expect(dup.json()).toMatchObject({ code: 'ACCESS_LEVEL_NAME_TAKEN' });

    const other = (await call(a, 'POST', '/acls', adminA, { displayName: 'Säljare' })).json();
    const rename = await call(a, 'PUT', '/acls', adminA, { id: other.id, displayName: 'OFFICE' });
    expect(rename.status).toBe(409);
    expect(rename.json()).toMatchObject({ code: 'ACCESS_LEVEL_NAME_TAKEN' });
    // The refused rename changed nothing.
    expect((await call(a, 'GET', `/acls/${other.id}`, adminA)).json().displayName).toBe('Säljare');
  });

  it('names each invalid field: missing name, unknown permission, unknown limit', async () => {
    const res = await call(a, 'POST', '/acls', adminA, {
      displayName: '   ',
      permissions: ['workorders:read', 'workorders:fly'],
      limit: 'everyone',
    });
    expect(res.status).toBe(400);
    expect(res.json()).toEqual({
      code: 'VALIDATION_FAILED',
      fields: {
        displayName: ['ERROR_REQUIRED_FIELD'],
        'permissions.1': ['ERROR_INVALID_VALUE'],
        limit: ['ERROR_INVALID_VALUE'],
      },
    });
    const long = await call(a, 'POST', '/acls', adminA, { displayName: 'x'.repeat(101) });
    expect(long.json().fields).toEqual({ displayName: ['ERROR_MAX_LENGTH'] });
    const put = await call(a, 'PUT', '/acls', adminA, { displayName: 'No id' });
    expect(put.status).toBe(400);
    expect(put.json().fields).toEqual({ id: ['ERROR_REQUIRED_FIELD'] });
  });

  it('refuses to delete a level users hold with 409 ACCESS_LEVEL_IN_USE', async () => {
    const levels = (await call(a, 'GET', '/acls', adminA)).json<{ id: string; displayName: string }[]>();
    const tech = levels.find((l) => l.displayName === 'Tekniker')!;
    const res = await call(a, 'DELETE', `/acls/${tech.id}`, adminA);
    expect(res.status).toBe(409);
    expect(res.json()).toEqual({ code: 'ACCESS_LEVEL_IN_USE' });
    expect((await call(a, 'GET', `/acls/${tech.id}`, adminA)).status).toBe(200);
  });

  it('lets a technician change nothing (403) and nobody without a session (401)', async () => {
    const levels = (await call(a, 'GET', '/acls', adminA)).json<{ id: string }[]>();
    const id = levels[0]!.id;
    for (const [method, path, body] of [
      ['POST', '/acls', { displayName: 'Tekniker 2' }],
      ['PUT', '/acls', { id, displayName: 'Hacked' }],
      ['DELETE', `/acls/${id}`, undefined],
      ['GET', `/acls/${id}`, undefined],
    ] as const) {
      expect((await call(a, method, path, techA, body)).status, `${method} ${path} as technician`).toBe(403);
      expect((await call(a, method, path, undefined, body)).status, `${method} ${path} signed out`).toBe(401);
    }
    expect((await call(a, 'GET', `/acls/${id}`, adminA)).json().displayName).toBe('Administratör');
  });

  it('treats another tenant’s id and a malformed id as not found', async () => {
    const foreign = (await call(b, 'GET', '/acls', adminB)).json<{ id: string }[]>()[0]!.id;
    expect((await call(a, 'GET', `/acls/${foreign}`, adminA)).json()).toEqual({ code: 'NOT_FOUND' });
    expect((await call(a, 'GET', `/acls/${foreign}`, adminA)).status).toBe(404);
    expect((await call(a, 'PUT', '/acls', adminA, { id: foreign, displayName: 'Mine now' })).status).toBe(404);
    expect((await call(a, 'DELETE', `/acls/${foreign}`, adminA)).status).toBe(404);
    expect((await call(b, 'GET', `/acls/${foreign}`, adminB)).json().displayName).toBe('Administratör');
    expect((await call(a, 'GET', '/acls/not-a-uuid', adminA)).status).toBe(404);
    expect((await call(a, 'DELETE', '/acls/not-a-uuid', adminA)).status).toBe(404);
  });

  it('gives users the new permissions on their next request', async () => {
    const levels = (await call(a, 'GET', '/acls', adminA)).json<
      { id: string; displayName: string; permissions: string[] }[]
    >();
    const tech = levels.find((l) => l.displayName === 'Tekniker')!;
    expect((await call(a, 'GET', '/acls', techA)).status).toBe(403);
    await call(a, 'PUT', '/acls', adminA, { id: tech.id, permissions: [...tech.permissions, 'accesslevels:read'] });
    expect((await call(a, 'GET', '/acls', techA)).status).toBe(200);
    await call(a, 'PUT', '/acls', adminA, { id: tech.id, permissions: tech.permissions });
    expect((await call(a, 'GET', '/acls', techA)).status).toBe(403);
  });
});
