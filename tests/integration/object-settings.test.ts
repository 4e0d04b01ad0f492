import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Auth } from '~/core/context';
import { withTenant } from '~/core/db/with-tenant';
import { updateInstance } from '~/core/instance/instance.service';
import type { Permission } from '~/core/permissions/permissions';
import { inTenant } from '~/core/unit-of-work';
import { ensureUser } from '~/core/users/create-user';
import type { Tenant } from '~/core/tenancy/tenant';
import { getTenantBySlug } from '~/tenants/registry';
import { createTestTenant, PASSWORD, startTestServer, type TestServer, type TestTenant } from '~/tests/helpers/app';
import { testApi } from '~/tests/helpers/api';
import { request } from '~/tests/helpers/http';

let srv: TestServer;
let a: TestTenant;
let b: TestTenant;
let tenantA: Tenant;
let admin: string;
let office: string;
let tech: string;
let adminB: string;

const { signIn, call } = testApi(() => ({ url: srv.url, host: a.host }));

beforeAll(async () => {
  srv = await startTestServer();
  a = await createTestTenant('bos-a');
  b = await createTestTenant('bos-b');
  tenantA = (await getTenantBySlug(a.slug))!;
  await withTenant(tenantA, async (trx) => {
    await ensureUser(trx, {
      email: `office@${a.slug}.se`,
      name: 'Olle Kontor',
      password: PASSWORD,
      accessLevels: ['Office'],
    });
  });
  admin = await signIn(a, a.adminEmail);
  office = await signIn(a, `office@${a.slug}.se`);
  tech = await signIn(a, a.technicianEmail);
  adminB = await signIn(b, b.adminEmail);
});
afterAll(() => srv.close());

const patch = (body: unknown, token = admin) => call('PATCH', '/api/instance/bo', token, body);

describe('[object settings] GET and PATCH /api/instance/bo', () => {
  it('starts with the generic wording and 5-digit object ids', async () => {
    const res = await call('GET', '/api/instance/bo', admin);
    expect(res.status).toBe(200);
    expect(res.json()).toEqual({ kind: 'object', minIdLength: 5 });
  });

  it('saves the settings given, keeps the rest, records one history row and answers the whole', async () => {
    const res = await patch({ kind: 'elevator' });
    expect(res.status).toBe(200);
    expect(res.json()).toEqual({ kind: 'elevator', minIdLength: 5 });
    const second = await patch({ minIdLength: '3' });
    expect(second.json()).toEqual({ kind: 'elevator', minIdLength: 3 });
    expect((await call('GET', '/api/instance/bo', admin)).json()).toEqual({ kind: 'elevator', minIdLength: 3 });
    const rows = await withTenant(tenantA, (trx) =>
      trx('history').where({ entity: 'business_object_settings' }).orderBy('id').select('action', 'data'),
    );
    expect(rows).toEqual([
      { action: 'edit', data: { kind: 'elevator' } },
      { action: 'edit', data: { minIdLength: 3 } },
    ]);
  });

  it('is what GET /bo/id/propose uses when no ?length is given', async () => {
    expect((await call('GET', '/api/bo/id/propose', admin)).json()).toEqual({ id: '100' });
    expect((await call('GET', '/api/bo/id/propose?length=6', admin)).json()).toEqual({ id: '100000' });
  });

  it('survives a save of the general settings (which rebuild the configuration)', async () => {
    const tenant = (await getTenantBySlug(a.slug))!;
    const adminId = await withTenant(
      tenant,
      async (trx) => (await trx('users').where({ email: a.adminEmail }).first('id')).id as string,
    );
    const auth: Auth = {
      sessionId: 's',
      user: {
        id: adminId,
        email: 'x@example.se',
        fullName: 'X',
        shortName: null,
        initials: 'X',
        userType: 'normal',
        language: null,
        startPage: 'workorders',
      },
      perms: new Set<Permission>(['instance:edit']),
      modules: new Set(),
      limit: 'none',
      mustEnrollMfa: false,
    };
    await inTenant({ tenant, auth, lang: 'sv' }, (ctx) =>
      updateInstance(ctx, {
        displayName: 'Hiss AB',
        country: 'SE',
        languageKey: 'se',
        dateFormat: 'YYYY-MM-DD',
        currencySymbol: 'kr',
        logoUrl: '',
      }),
    );
    expect((await call('GET', '/api/instance/bo', admin)).json()).toEqual({ kind: 'elevator', minIdLength: 3 });
    expect((await getTenantBySlug(a.slug))!.config.objects).toEqual({ kind: 'elevator', minIdLength: 3 });
  });

  it('refuses bad values with message keys on the field (400), changing nothing', async () => {
    const res = await patch({ kind: 'spaceship', minIdLength: 0 });
    expect(res.status).toBe(400);
    expect(res.json()).toEqual({
      code: 'VALIDATION_FAILED',
      fields: { kind: ['ERROR_INVALID_VALUE'], minIdLength: ['ERROR_INVALID_VALUE'] },
    });
    expect((await patch({ minIdLength: 13 })).json().fields).toEqual({ minIdLength: ['ERROR_INVALID_VALUE'] });
    expect((await patch({ minIdLength: 2.5 })).json().fields).toEqual({ minIdLength: ['ERROR_INVALID_VALUE'] });
    expect((await patch({ minIdLength: 'x' })).json().fields).toEqual({ minIdLength: ['ERROR_INVALID_VALUE'] });
    expect((await patch({ colour: 'red' })).status).toBe(400);
    expect((await call('GET', '/api/instance/bo', admin)).json()).toEqual({ kind: 'elevator', minIdLength: 3 });
  });

  it('needs instance:edit to save and settings:read to read; signed out is 401', async () => {
    expect((await patch({ kind: 'gate' }, office)).status).toBe(403);
    expect((await patch({ kind: 'gate' }, tech)).status).toBe(403);
    expect((await call('GET', '/api/instance/bo', office)).status).toBe(200);
    expect((await call('GET', '/api/instance/bo', tech)).status).toBe(403);
    expect((await request(srv.url, { path: '/api/instance/bo', host: a.host })).status).toBe(401);
    expect((await call('GET', '/api/instance/bo', admin)).json().kind).toBe('elevator');
  });

  it("is each tenant's own", async () => {
    expect((await call('GET', '/api/instance/bo', adminB, undefined, b.host)).json()).toEqual({
      kind: 'object',
      minIdLength: 5,
    });
    expect((await call('PATCH', '/api/instance/bo', adminB, { kind: 'gate' }, b.host)).status).toBe(200);
    expect((await call('GET', '/api/instance/bo', admin)).json().kind).toBe('elevator');
  });
});

describe('[object settings] input declared at the boundary (issue 29)', () => {
  it('refuses a malformed patch with 400 and the field, and /api/openapi.json shows the kinds', async () => {
    const bad = await call('PATCH', '/api/instance/bo', admin, { kind: 'spaceship' });
    expect(bad.status).toBe(400);
    expect(bad.json()).toEqual({ code: 'VALIDATION_FAILED', fields: { kind: ['ERROR_INVALID_VALUE'] } });
    const doc = (await call('GET', '/api/openapi.json', admin)).json();
    const patch = doc.paths['/instance/bo'].patch.requestBody.content['application/json'].schema;
    expect(patch.properties.kind.enum).toEqual(['object', 'machine', 'elevator', 'security', 'gate']);
    expect(patch.properties.minIdLength).toMatchObject({ minimum: 1, maximum: 12 });
  });
});
