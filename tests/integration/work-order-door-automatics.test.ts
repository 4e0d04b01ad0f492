import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTenant } from '~/core/db/with-tenant';
import type { Tenant } from '~/core/tenancy/tenant';
import { ensureUser } from '~/core/users/create-user';
import { getTenantBySlug } from '~/tenants/registry';
import { createTestTenant, PASSWORD, startTestServer, type TestServer, type TestTenant } from '~/tests/helpers/app';
import { testApi } from '~/tests/helpers/api';

let srv: TestServer;
let a: TestTenant;
let b: TestTenant;
let tenantA: Tenant;
const tok = {} as Record<'admin' | 'office' | 'tech' | 'adminB', string>;
const ref = {} as Record<'bo1' | 'bo2' | 'd1' | 'd2' | 'd3' | 'dB' | 'techId' | 'wo' | 'woNoObject' | 'woB', string>;

const { signIn, call } = testApi(() => ({ url: srv.url, host: a.host }));
const path = (id: string) => `/api/wo/doorautomatics/${id}`;
const numbers = (body: { doorAutomatics: { number: string }[] }) => body.doorAutomatics.map((d) => d.number);

async function insertDoorAutomatics(tenant: Tenant, objectId: string, list: string[]): Promise<string[]> {
  return withTenant(tenant, async (trx) => {
    const rows = await trx('door_automatics')
      .insert(list.map((number) => ({ number, title: `Dörr ${number}`, business_object_id: objectId })))
      .returning('id');
    return rows.map((r: { id: string }) => r.id);
  });
}

beforeAll(async () => {
  srv = await startTestServer();
  a = await createTestTenant('wo-door-a');
  b = await createTestTenant('wo-door-b');
  tenantA = (await getTenantBySlug(a.slug))!;
  const tenantB = (await getTenantBySlug(b.slug))!;
  await withTenant(tenantA, async (trx) => {
    const [o1, o2] = await trx('business_objects')
      .insert([{ serial_code: '40001' }, { serial_code: '40002' }])
      .returning('id');
    ref.bo1 = o1.id;
    ref.bo2 = o2.id;
    await ensureUser(trx, {
      email: `office@${a.slug}.se`,
      name: 'Olga Kontor',
      password: PASSWORD,
      accessLevels: ['Office'],
    });
    ref.techId = (await trx('users').where({ email: a.technicianEmail }).first('id')).id;
  });
  [ref.d1, ref.d2] = await insertDoorAutomatics(tenantA, ref.bo1, ['40001-1', '40001-2']);
  [ref.d3] = await insertDoorAutomatics(tenantA, ref.bo2, ['40002-1']);
  const objectB = await withTenant(tenantB, async (trx) => {
    const [o] = await trx('business_objects').insert({ serial_code: '40001' }).returning('id');
    return o.id as string;
  });
  [ref.dB] = await insertDoorAutomatics(tenantB, objectB, ['40001-1']);
  tok.admin = await signIn(a, a.adminEmail);
  tok.office = await signIn(a, `office@${a.slug}.se`);
  tok.tech = await signIn(a, a.technicianEmail);
  tok.adminB = await signIn(b, b.adminEmail);
  const create = async (workOrder: Record<string, unknown>, token = tok.admin, host = a.host) => {
    const res = await call('POST', '/api/wo', token, { workOrder }, host);
    expect(res.status, res.text).toBe(200);
    return res.json().workOrder.id as string;
  };
  ref.wo = await create({ title: 'Service av entrédörrar', businessObjectId: ref.bo1, assignees: [ref.techId] });
  ref.woNoObject = await create({ title: 'Utan objekt' });
  ref.woB = await create({ title: 'Annan', businessObjectId: objectB }, tok.adminB, b.host);
});
afterAll(() => srv.close());

const historyOf = (id: string) =>
  withTenant(tenantA, (trx) =>
    trx('history').where({ entity: 'work_order', entity_id: id, action: 'edit' }).orderBy('id').select('data'),
  );

describe('[door automatics] GET and PUT /api/wo/doorautomatics/{id}', () => {
  it('starts with none', async () => {
    const res = await call('GET', path(ref.wo), tok.admin);
    expect(res.status).toBe(200);
    expect(res.json()).toEqual({ doorAutomatics: [] });
  });

  it("replaces the order's door automatics in the order given, once each, and records the change", async () => {
    const res = await call('PUT', path(ref.wo), tok.office, { doorAutomatics: [ref.d2, { id: ref.d1 }, ref.d2] });
    expect(res.status, res.text).toBe(200);
    expect(numbers(res.json())).toEqual(['40001-2', '40001-1']);
    expect(res.json().doorAutomatics[0]).toMatchObject({
      id: ref.d2,
      title: 'Dörr 40001-2',
      businessObject: { id: ref.bo1, serialCode: '40001' },
    });
    expect(numbers((await call('GET', path(ref.wo), tok.admin)).json())).toEqual(['40001-2', '40001-1']);
    // The technician assigned to the order reads them.
    expect(numbers((await call('GET', path(ref.wo), tok.tech)).json())).toEqual(['40001-2', '40001-1']);
    expect(await historyOf(ref.wo)).toEqual([
      { data: { changes: [{ field: 'doorAutomatics', old: [], new: ['40001-2', '40001-1'] }] } },
    ]);
    // The same list again changes nothing and writes no history.
    expect((await call('PUT', path(ref.wo), tok.office, { doorAutomatics: [ref.d2, ref.d1] })).status).toBe(200);
    expect(await historyOf(ref.wo)).toHaveLength(1);
    const reordered = await call('PUT', path(ref.wo), tok.office, { doorAutomatics: [ref.d1] });
    expect(numbers(reordered.json())).toEqual(['40001-1']);
    expect((await historyOf(ref.wo)).at(-1)).toEqual({
      data: { changes: [{ field: 'doorAutomatics', old: ['40001-2', '40001-1'], new: ['40001-1'] }] },
    });
  });

  it('refuses door automatics elsewhere, unknown or of another tenant, naming the entry (400), changing nothing', async () => {
    const res = await call('PUT', path(ref.wo), tok.office, {
      doorAutomatics: [ref.d1, ref.d3, ref.dB, 'nope'],
    });
    expect(res.status).toBe(400);
    expect(res.json()).toEqual({
      code: 'VALIDATION_FAILED',
      fields: {
        'doorAutomatics.1': ['ERROR_DOOR_AUTOMATIC_NOT_AT_OBJECT'],
        'doorAutomatics.2': ['ERROR_INVALID_VALUE'],
        'doorAutomatics.3': ['ERROR_INVALID_VALUE'],
      },
    });
    expect((await call('PUT', path(ref.wo), tok.office, {})).json().fields).toEqual({
      doorAutomatics: ['ERROR_REQUIRED_FIELD'],
    });
    expect((await call('PUT', path(ref.wo), tok.office, { doorAutomatics: ref.d1 })).json().fields).toEqual({
      doorAutomatics: ['ERROR_INVALID_VALUE'],
    });
    expect(numbers((await call('GET', path(ref.wo), tok.admin)).json())).toEqual(['40001-1']);
    // An order without an object has no door automatics to choose from.
    const none = await call('PUT', path(ref.woNoObject), tok.office, { doorAutomatics: [ref.d1] });
    expect(none.json().fields).toEqual({ 'doorAutomatics.0': ['ERROR_DOOR_AUTOMATIC_NOT_AT_OBJECT'] });
    expect((await call('PUT', path(ref.woNoObject), tok.office, { doorAutomatics: [] })).status).toBe(200);
  });

  it("answers 404 for another tenant's order, a non-uuid and an order outside the user's limit", async () => {
    for (const method of ['GET', 'PUT'] as const) {
      const res = await call(method, path(ref.woB), tok.office, method === 'PUT' ? { doorAutomatics: [] } : undefined);
      expect(res.status, method).toBe(404);
      expect(res.json().code).toBe('NOT_FOUND');
    }
    expect((await call('GET', path('nope'), tok.office)).status).toBe(404);
    // The technician sees only the orders assigned to them (work-order limit "user").
    expect((await call('GET', path(ref.woNoObject), tok.tech)).status).toBe(404);
    expect((await call('GET', path(ref.woB), tok.adminB, undefined, b.host)).status).toBe(200);
  });

  it('needs workorders:edit_doorautomatics to choose them (403)', async () => {
    const res = await call('PUT', path(ref.wo), tok.tech, { doorAutomatics: [ref.d2] });
    expect(res.status).toBe(403);
    expect(res.json().code).toBe('WARNING_PERMISSION_DENIED');
  });

  it('keeps a locked order as it is (409)', async () => {
    expect((await call('POST', '/api/wo/lock', tok.admin, { workOrderId: ref.wo })).status).toBe(200);
    try {
      const res = await call('PUT', path(ref.wo), tok.office, { doorAutomatics: [ref.d2] });
      expect(res.status).toBe(409);
      expect(res.json().code).toBe('WORK_ORDER_LOCKED');
    } finally {
      await call('POST', '/api/wo/unlock', tok.admin, { workOrderId: ref.wo });
    }
  });

  it('loses a door automatic that is taken out of the register', async () => {
    expect((await call('PUT', path(ref.wo), tok.office, { doorAutomatics: [ref.d2, ref.d1] })).status).toBe(200);
    expect((await call('DELETE', `/api/doorautomatics/${ref.d2}`, tok.admin)).status).toBe(200);
    expect(numbers((await call('GET', path(ref.wo), tok.office)).json())).toEqual(['40001-1']);
  });

  it('answers 404 UNKNOWN_API_CALL while the door-automatics module is off, like its other calls', async () => {
    const setModule = (enabled: boolean) =>
      call('PUT', '/api/instance/appmodule', tok.admin, { appModuleId: 'doorautomatics', enabled });
    expect((await setModule(false)).status).toBe(200);
    try {
      for (const method of ['GET', 'PUT'] as const) {
        const res = await call(method, path(ref.wo), tok.office, method === 'PUT' ? { doorAutomatics: [] } : undefined);
        expect(res.status, method).toBe(404);
        expect(res.json().code).toBe('UNKNOWN_API_CALL');
      }
      // The other tenant keeps its own switch.
      expect((await call('GET', path(ref.woB), tok.adminB, undefined, b.host)).status).toBe(200);
    } finally {
      expect((await setModule(true)).status).toBe(200);
    }
    expect(numbers((await call('GET', path(ref.wo), tok.office)).json())).toEqual(['40001-1']);
  });
});
