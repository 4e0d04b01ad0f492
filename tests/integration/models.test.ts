import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTenant } from '~/core/db/with-tenant';
import { getTenantBySlug } from '~/tenants/registry';
import { createTestTenant, startTestServer, type TestServer, type TestTenant } from '~/tests/helpers/app';
import { testApi } from '~/tests/helpers/api';

let srv: TestServer;
let a: TestTenant;
let b: TestTenant;
let admin: string;
let tech: string;
let adminB: string;

beforeAll(async () => {
  srv = await startTestServer();
  a = await createTestTenant('mdl-a');
  b = await createTestTenant('mdl-b');
  admin = await signIn(a, a.adminEmail);
  tech = await signIn(a, a.technicianEmail);
  adminB = await signIn(b, b.adminEmail);
});
afterAll(() => srv.close());

const { signIn, call } = testApi(() => ({ url: srv.url, host: a.host }));

describe('[models] CRUD', () => {
  it('creates a model as active whatever status is sent, reads, lists with objectCount and searches', async () => {
    const created = await call('POST', '/api/models', admin, {
      model: { code: 'GFX50', name: 'Galaxy Flex 50', status: 'inactive' },
    });
    expect(created.status).toBe(200);
    const id = created.json().id as string;
    const one = await call('GET', `/api/models/${id}`, admin);
    expect(one.json()).toEqual({
      model: { id, code: 'GFX50', name: 'Galaxy Flex 50', status: 'active', objectCount: 0 },
    });

    await call('POST', '/api/models', admin, { model: { code: 'M3106', name: 'Axis M3106' } });
    const tenant = (await getTenantBySlug(a.slug))!;
    await withTenant(tenant, (trx) =>
      trx('business_objects').insert([
        { serial_code: 'OBJ-1', model_id: id },
        { serial_code: 'OBJ-2', model_id: id },
      ]),
    );
    const list = (await call('GET', '/api/models', admin)).json();
    expect(list.totalCount).toBe(2);
    // Sorted by name: Axis before Galaxy.
    expect(list.models.map((m: { code: string; objectCount: number }) => [m.code, m.objectCount])).toEqual([
      ['M3106', 0],
      ['GFX50', 2],
    ]);
    const search = (await call('GET', '/api/models?q=flex', admin)).json();
    expect(search.models.map((m: { code: string }) => m.code)).toEqual(['GFX50']);
    expect(search.totalCount).toBe(1);
    // A LIKE wildcard is a plain character.
    expect((await call('GET', '/api/models?q=%25', admin)).json().totalCount).toBe(0);
  });

  it('edits code, name and status; refuses a taken code (409 DUPLICATE_MODEL_CODE) on create and edit', async () => {
    const id = (await call('POST', '/api/models', admin, { model: { code: 'SW200', name: 'ASSA SW200' } })).json().id;
    const dup = await call('POST', '/api/models', admin, { model: { code: 'sw200', name: 'Other' } });
    expect(dup.status).toBe(409);
    expect(dup.json()).toMatchObject({ code: 'DUPLICATE_MODEL_CODE', fields: { code: ['DUPLICATE_MODEL_CODE'] } });
    const put = await call('PUT', '/api/models', admin, {
      model: { id, code: 'SW200-2', name: 'ASSA Abloy SW200', status: 'inactive' },
    });
    expect(put.status).toBe(200);
    expect((await call('GET', `/api/models/${id}`, admin)).json().model).toMatchObject({
      code: 'SW200-2',
      name: 'ASSA Abloy SW200',
      status: 'inactive',
    });
    expect(
      (await call('GET', '/api/models?status=inactive', admin)).json().models.map((m: { id: string }) => m.id),
    ).toEqual([id]);
    const taken = await call('PUT', '/api/models', admin, {
      model: { id, code: 'GFX50', name: 'x', status: 'active' },
    });
    expect(taken.status).toBe(409);
    expect(taken.json().code).toBe('DUPLICATE_MODEL_CODE');
  });

  it('validates: required code and name, no spaces in the code, a known status', async () => {
    const res = await call('POST', '/api/models', admin, { model: { code: 'A B', name: '' } });
    expect(res.status).toBe(400);
    expect(res.json()).toEqual({
      code: 'VALIDATION_FAILED',
      fields: { 'model.code': ['ERROR_NO_SPACES'], 'model.name': ['ERROR_REQUIRED_FIELD'] },
    });
    const bad = await call('PUT', '/api/models', admin, { model: { id: 'x', code: 'X', name: 'X', status: 'gone' } });
    expect(bad.status).toBe(400);
    expect(bad.json().fields).toEqual({ 'model.status': ['ERROR_INVALID_VALUE'] });
  });

  it('refuses to delete a model objects use (409 IN_USE with counts) and deletes one nobody uses', async () => {
    const used = (await call('GET', '/api/models?q=GFX50', admin)).json().models[0].id;
    const refused = await call('DELETE', `/api/models/${used}`, admin);
    expect(refused.status).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'IN_USE', usedBy: { objects: 2 } });
    const free = (await call('POST', '/api/models', admin, { model: { code: 'TMP', name: 'Temporary' } })).json().id;
    expect((await call('DELETE', `/api/models/${free}`, admin)).status).toBe(200);
    expect((await call('GET', `/api/models/${free}`, admin)).status).toBe(404);
  });

  it('needs models:read/edit/delete; another tenant’s or a malformed id is 404', async () => {
    const id = (await call('GET', '/api/models?q=M3106', admin)).json().models[0].id;
    expect((await call('GET', '/api/models', tech)).status).toBe(403);
    expect((await call('POST', '/api/models', tech, { model: { code: 'X1', name: 'X' } })).status).toBe(403);
    expect((await call('DELETE', `/api/models/${id}`, tech)).status).toBe(403);
    expect((await call('GET', `/api/models/${id}`, adminB, undefined, b.host)).status).toBe(404);
    expect((await call('DELETE', `/api/models/${id}`, adminB, undefined, b.host)).status).toBe(404);
    expect(
      (await call('PUT', '/api/models', adminB, { model: { id, code: 'Y', name: 'Y', status: 'active' } }, b.host))
        .status,
    ).toBe(404);
    expect((await call('GET', '/api/models/not-a-uuid', admin)).status).toBe(404);
  });
});
