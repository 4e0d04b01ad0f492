import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateSession } from '~/core/auth/session.service';
import type { Ctx } from '~/core/context';
import { withTenant } from '~/core/db/with-tenant';
import type { Tenant } from '~/core/tenancy/tenant';
import { sessionPolicy } from '~/core/unit-of-work';
import { createWorkOrder } from '~/core/work-orders/work-order.service';
import { getTenantBySlug } from '~/tenants/registry';
import { createTestTenant, PASSWORD, startTestServer, type TestServer, type TestTenant } from '~/tests/helpers/app';
import { jsonBody, request } from '~/tests/helpers/http';

let srv: TestServer;
let a: TestTenant;
let b: TestTenant;
let tenantA: Tenant;
let admin: string;
let tech: string;
let adminB: string;
let adminId: string;
let techId: string;
let userOfB: string;

beforeAll(async () => {
  srv = await startTestServer();
  a = await createTestTenant('disp-a');
  b = await createTestTenant('disp-b');
  tenantA = (await getTenantBySlug(a.slug))!;
  admin = await signIn(a, a.adminEmail);
  tech = await signIn(a, a.technicianEmail);
  adminB = await signIn(b, b.adminEmail);
  const ids = await withTenant(tenantA, (trx) => trx('users').select('id', 'email'));
  adminId = ids.find((u) => u.email === a.adminEmail)!.id as string;
  techId = ids.find((u) => u.email === a.technicianEmail)!.id as string;
  const tenantB = (await getTenantBySlug(b.slug))!;
  userOfB = (await withTenant(tenantB, (trx) => trx('users').first('id'))).id as string;
  await setModule(admin, true);
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
const PATH = '/api/instance/wo/dispatchrule';
const setModule = async (token: string, enabled: boolean, host = a.host) =>
  expect(
    (await call('PUT', '/api/instance/appmodule', token, { appModuleId: 'dispatch_rules', enabled }, host)).status,
  ).toBe(200);
const put = (rules: unknown[], token = admin) => call('PUT', PATH, token, { dispatchRules: rules });
const rule = (day: number, startTime: string, endTime: string, userId = techId) => ({
  day,
  startTime,
  endTime,
  userId,
});

describe('[dispatch] GET and PUT /api/instance/wo/dispatchrule', () => {
  it('starts empty, replaces the set in order and answers it with names', async () => {
    expect((await call('GET', PATH, admin)).json()).toEqual({ dispatchRules: [] });
    const res = await put([rule(2, '22:00', '06:00'), rule(1, '08:00', '17:00', adminId)]);
    expect(res.status).toBe(200);
    const got = (await call('GET', PATH, admin)).json().dispatchRules as Record<string, unknown>[];
    expect(
      got.map(({ day, startTime, endTime, userId, userName }) => [day, startTime, endTime, userId, userName]),
    ).toEqual([
      [2, '22:00', '06:00', techId, 'Tess Tekniker'],
      [1, '08:00', '17:00', adminId, expect.any(String)],
    ]);
    expect(res.json()).toEqual({ dispatchRules: got });
    // a second PUT replaces, it does not add
    expect((await put([rule(3, '07:00', '08:00')])).json().dispatchRules).toHaveLength(1);
  });

  it('refuses an empty range and overlaps (across midnight too), naming the rows, and keeps the old set', async () => {
    await put([rule(5, '08:00', '12:00')]);
    const res = await put([
      rule(1, '09:00', '09:00'),
      rule(1, '22:00', '02:00'),
      rule(2, '01:00', '03:00'),
      rule(3, '08:00', '12:00'),
      rule(3, '12:00', '16:00'),
    ]);
    expect(res.status).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'VALIDATION_FAILED',
      fields: {
        'dispatchRules.0.endTime': ['DISPATCH_RULE_EMPTY_RANGE'],
        'dispatchRules.1.startTime': ['DISPATCH_RULES_OVERLAP'],
        'dispatchRules.2.startTime': ['DISPATCH_RULES_OVERLAP'],
      },
    });
    expect(Object.keys(res.json().fields)).toHaveLength(3);
    expect((await call('GET', PATH, admin)).json().dispatchRules.map((r: { day: number }) => r.day)).toEqual([5]);
  });

  it('refuses bad shapes, unknown, inactive and other tenants’ users', async () => {
    const bad = await put([{ day: 9, startTime: '8', endTime: '25:00', userId: 'x' }]);
    expect(bad.status).toBe(400);
    expect(bad.json().fields).toEqual({
      'dispatchRules.0.day': ['ERROR_INVALID_VALUE'],
      'dispatchRules.0.startTime': ['ERROR_INVALID_TIME'],
      'dispatchRules.0.endTime': ['ERROR_INVALID_TIME'],
      'dispatchRules.0.userId': ['ERROR_REQUIRED_FIELD'],
    });
    expect((await call('PUT', PATH, admin, { rules: [] })).status).toBe(400);
    const inactive = await withTenant(tenantA, async (trx) => {
      const [u] = await trx('users')
        .insert({ email: `gone-${Date.now()}@x.se`, name: 'Gone', status: 'inactive' })
        .returning('id');
      return u.id as string;
    });
    const foreign = await put([rule(1, '08:00', '09:00', userOfB), rule(1, '10:00', '11:00', inactive)]);
    expect(foreign.status).toBe(400);
    expect(foreign.json().fields).toEqual({
      'dispatchRules.0.userId': ['ERROR_INVALID_VALUE'],
      'dispatchRules.1.userId': ['ERROR_INVALID_VALUE'],
    });
  });

  it('needs settings:read to read, instance:edit to save, and the module on', async () => {
    expect((await call('GET', PATH, tech)).status).toBe(403);
    expect((await put([], tech)).status).toBe(403);
    // module off in tenant B (new tenants have it on): 403 for a normal user (super bypasses module gating)
    await setModule(adminB, false, b.host);
    await withTenant((await getTenantBySlug(b.slug))!, (trx) =>
      trx('users').where({ email: b.adminEmail }).update({ user_type: 'normal' }),
    );
    expect((await call('GET', PATH, adminB, undefined, b.host)).status).toBe(403);
    await setModule(adminB, true, b.host);
    expect((await call('GET', PATH, adminB, undefined, b.host)).json()).toEqual({ dispatchRules: [] }); // not A's
    expect((await request(srv.url, { method: 'GET', path: PATH, host: a.host })).status).toBe(401);
  });
});

describe('[dispatch] a new work order goes to the rule of its moment', () => {
  /** Creates an order as the admin at `now` (a UTC instant; the tenant is Swedish, UTC+1 in March). */
  async function createAt(now: string, extra: Record<string, unknown> = {}) {
    return withTenant(tenantA, async (trx) => {
      const auth = await validateSession(trx, admin, new Date(), sessionPolicy());
      const ctx = { trx, tenant: tenantA, auth, lang: 'sv', now: new Date(now) } as Ctx;
      const { workOrder } = await createWorkOrder(ctx, { workOrder: { title: `at ${now}`, ...extra } });
      return workOrder.assignees.map((x) => x.id);
    });
  }

  beforeAll(async () => {
    await setModule(admin, true);
    // Monday 08:00–17:00 and Monday night 22:00–02:00 to the technician
    expect((await put([rule(1, '08:00', '17:00'), rule(1, '22:00', '02:00')])).status).toBe(200);
  });

  it('inside a window: the rule’s user instead of the creator', async () => {
    expect(await createAt('2026-03-02T07:00:00Z')).toEqual([techId]); // Monday 08:00 local, start inclusive
    expect(await createAt('2026-03-02T15:59:00Z')).toEqual([techId]); // 16:59
  });

  it('outside every window: the creator', async () => {
    expect(await createAt('2026-03-02T16:00:00Z')).toEqual([adminId]); // 17:00, end exclusive
    expect(await createAt('2026-03-03T07:00:00Z')).toEqual([adminId]); // Tuesday 08:00
  });

  it('past midnight: the wrap belongs to Monday’s rule, in the tenant’s time zone', async () => {
    expect(await createAt('2026-03-02T23:30:00Z')).toEqual([techId]); // Tuesday 00:30 local (Monday 23:30 UTC)
    expect(await createAt('2026-03-03T00:59:00Z')).toEqual([techId]); // Tuesday 01:59
    expect(await createAt('2026-03-03T01:00:00Z')).toEqual([adminId]); // Tuesday 02:00
  });

  it('assignees chosen by the creator are kept', async () => {
    expect(await createAt('2026-03-02T08:00:00Z', { assignees: [adminId] })).toEqual([adminId]);
  });

  it('module off: the creator', async () => {
    await setModule(admin, false);
    try {
      expect(await createAt('2026-03-02T08:00:00Z')).toEqual([adminId]);
    } finally {
      await setModule(admin, true);
    }
  });
});

describe('[dispatch rules] input declared (issue 29)', () => {
  it('refuses a malformed set with 400 and the field, and /api/openapi.json shows a rule', async () => {
    const bad = await call('PUT', '/api/instance/wo/dispatchrule', admin, {
      dispatchRules: [{ day: 8, startTime: '08:00', endTime: '16:00', userId: adminId }],
    });
    expect(bad.status).toBe(400);
    expect(bad.json().fields).toEqual({ 'dispatchRules.0.day': ['ERROR_INVALID_VALUE'] });
    const doc = (await call('GET', '/api/openapi.json', admin)).json();
    const set = doc.paths['/instance/wo/dispatchrule'].put.requestBody.content['application/json'].schema;
    expect(set.required).toEqual(['dispatchRules']);
    expect(set.properties.dispatchRules.maxItems).toBe(200);
    expect(set.properties.dispatchRules.items.properties.day).toMatchObject({ minimum: 1, maximum: 7 });
  });
});
