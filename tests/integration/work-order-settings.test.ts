import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTenant } from '~/core/db/with-tenant';
import { getTenantBySlug } from '~/tenants/registry';
import type { Tenant } from '~/core/tenancy/tenant';
import { nextWorkOrderNumber } from '~/core/work-orders/settings/settings.service';
import type { WorkOrderSettings } from '~/core/work-orders/settings/settings.service';
import type { Ctx } from '~/core/context';
import { createTestTenant, PASSWORD, startTestServer, type TestServer, type TestTenant } from '~/tests/helpers/app';
import { jsonBody, request } from '~/tests/helpers/http';

let srv: TestServer;
let a: TestTenant;
let b: TestTenant;
let tenantA: Tenant;
let admin: string;
let tech: string;
let adminB: string;

beforeAll(async () => {
  srv = await startTestServer();
  a = await createTestTenant('wos-a');
  b = await createTestTenant('wos-b');
  tenantA = (await getTenantBySlug(a.slug))!;
  admin = await signIn(a, a.adminEmail);
  tech = await signIn(a, a.technicianEmail);
  adminB = await signIn(b, b.adminEmail);
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
const get = async (token = admin, host = a.host) => {
  const res = await call('GET', '/api/instance/wo', token, undefined, host);
  expect(res.status).toBe(200);
  return res.json<WorkOrderSettings>();
};
const patch = (body: unknown, token = admin) => call('PATCH', '/api/instance/wo', token, body);
const fieldsOf = async (body: unknown) => {
  const res = await patch(body);
  expect(res.status).toBe(400);
  expect(res.json().code).toBe('VALIDATION_FAILED');
  return res.json().fields;
};
const statusRows = (s: WorkOrderSettings) =>
  s.statuses.map(({ id, name, isDefault, isClosing }) => ({ id, name, isDefault, isClosing }));

describe('[wo-settings] GET /api/instance/wo', () => {
  it('answers the seeded Swedish defaults in order', async () => {
    const s = await get();
    expect(s.statuses.map((x) => [x.name, x.isDefault, x.isClosing])).toEqual([
      ['Ny', true, false],
      ['Pågående', false, false],
      ['Klar', false, true],
    ]);
    expect(s.workTypes.map((x) => [x.name, x.isDefault])).toEqual([
      ['Service', true],
      ['Installation', false],
    ]);
    expect(s.tags).toEqual([]);
    expect(s.requiredFields).toEqual([]);
    expect(s.mode).toBe('default');
    expect(s.numberPrefix).toBe('');
    expect(s.nextNumber).toBe(1);
  });

  it('needs settings:read and a session', async () => {
    expect((await call('GET', '/api/instance/wo', tech)).status).toBe(403);
    expect((await request(srv.url, { path: '/api/instance/wo', host: a.host })).status).toBe(401);
  });
});

describe('[wo-settings] PATCH /api/instance/wo', () => {
  it('needs instance:edit', async () => {
    const res = await patch({ mode: 'advanced' }, tech);
    expect(res.status).toBe(403);
    expect(res.json().code).toBe('WARNING_PERMISSION_DENIED');
    expect((await get()).mode).toBe('default');
  });

  it('replaces the statuses in order, keeping the ids of kept rows, and writes history', async () => {
    const before = await get();
    const [ny, pagaende, klar] = statusRows(before);
    const res = await patch({
      statuses: [
        ny,
        { id: null, name: 'Väntar på delar', isDefault: false, isClosing: false },
        { ...klar, name: 'Klar' },
        { ...pagaende, name: 'Påbörjad' },
      ],
    });
    expect(res.status).toBe(200);
    const after = res.json<WorkOrderSettings>();
    expect(after.statuses.map((x) => x.name)).toEqual(['Ny', 'Väntar på delar', 'Klar', 'Påbörjad']);
    expect(after.statuses[0]!.id).toBe(ny!.id);
    expect(after.statuses[2]!.id).toBe(klar!.id);
    expect(after.statuses[3]!.id).toBe(pagaende!.id);
    expect(after.statuses.map((x) => x.sortOrder)).toEqual([1, 2, 3, 4]);
    expect(await get()).toEqual(after);
    const history = await withTenant(tenantA, (trx) =>
      trx('history').where({ entity: 'work_order_settings' }).orderBy('id', 'desc').first(),
    );
    expect(history.action).toBe('edit');
    expect(history.data.statuses[1].name).toBe('Väntar på delar');
  });

  it('moves the default and swaps names between kept rows in one save', async () => {
    const rows = statusRows(await get());
    // Ny ↔ Påbörjad swap names; the default moves from the first row to the last.
    const swapped = rows.map((r) =>
      r.name === 'Ny'
        ? { ...r, name: 'Påbörjad', isDefault: false }
        : r.name === 'Påbörjad'
          ? { ...r, name: 'Ny', isDefault: true }
          : r,
    );
    const res = await patch({ statuses: swapped });
    expect(res.status).toBe(200);
    expect(statusRows(res.json())).toEqual(swapped);
  });

  it('refuses every status rule with a 400 on the offending row', async () => {
    const rows = statusRows(await get());
    const withRow = (extra: object) => ({
      statuses: [...rows, { id: null, isDefault: false, isClosing: false, ...extra }],
    });
    expect(await fieldsOf(withRow({ name: 'X' }))).toEqual({ 'statuses.4.name': ['ERROR_MIN_LENGTH_2'] });
    expect(await fieldsOf(withRow({ name: 'KLAR' }))).toEqual({ 'statuses.4.name': ['ERROR_DUPLICATE_NAME'] });
    expect(await fieldsOf(withRow({ name: 'Reserv', isDefault: true }))).toMatchObject({
      'statuses.4.isDefault': ['ERROR_EXACTLY_ONE_DEFAULT'],
    });
    expect(await fieldsOf({ statuses: rows.map((r) => ({ ...r, isDefault: false })) })).toEqual({
      statuses: ['ERROR_EXACTLY_ONE_DEFAULT'],
    });
    expect(await fieldsOf({ statuses: rows.map((r) => ({ ...r, isClosing: false })) })).toEqual({
      statuses: ['ERROR_AT_LEAST_ONE_CLOSING'],
    });
    const def = rows.findIndex((r) => r.isDefault);
    expect(await fieldsOf({ statuses: rows.map((r, i) => (i === def ? { ...r, isClosing: true } : r)) })).toEqual({
      [`statuses.${def}.isClosing`]: ['ERROR_CLOSING_AND_DEFAULT_DIFFER'],
    });
    // Nothing of the refused saves stuck.
    expect(statusRows(await get())).toEqual(rows);
  });

  it('answers 404 for an id that is not one of this tenant’s rows', async () => {
    const other = (await get(adminB, b.host)).statuses[0]!;
    const rows = statusRows(await get());
    const res = await patch({ statuses: [...rows, { ...other, isDefault: false, name: 'Främmande' }] });
    expect(res.status).toBe(404);
    expect(statusRows(await get())).toEqual(rows);
  });

  it('saves work types with their rules', async () => {
    const types = (await get()).workTypes.map(({ id, name, isDefault }) => ({ id, name, isDefault }));
    expect(
      await fieldsOf({
        workTypes: [...types, { name: 'S', isDefault: false }, { name: 'x'.repeat(51), isDefault: false }],
      }),
    ).toEqual({ 'workTypes.2.name': ['ERROR_LENGTH_2_50'], 'workTypes.3.name': ['ERROR_LENGTH_2_50'] });
    expect(await fieldsOf({ workTypes: [...types, { name: 'service', isDefault: false }] })).toEqual({
      'workTypes.2.name': ['ERROR_DUPLICATE_NAME'],
    });
    expect(await fieldsOf({ workTypes: types.map((t) => ({ ...t, isDefault: true })) })).toEqual({
      'workTypes.0.isDefault': ['ERROR_EXACTLY_ONE_DEFAULT'],
      'workTypes.1.isDefault': ['ERROR_EXACTLY_ONE_DEFAULT'],
    });
    expect(await fieldsOf({ workTypes: [] })).toEqual({ workTypes: ['ERROR_EXACTLY_ONE_DEFAULT'] });
    const res = await patch({
      workTypes: [{ ...types[1], isDefault: true }, { ...types[0], isDefault: false }, { name: 'Felanmälan' }],
    });
    expect(res.status).toBe(200);
    const saved = res.json<WorkOrderSettings>().workTypes;
    expect(saved.map((t) => [t.id, t.name, t.isDefault])).toEqual([
      [types[1]!.id, 'Installation', true],
      [types[0]!.id, 'Service', false],
      [expect.any(String), 'Felanmälan', false],
    ]);
  });

  it('saves tags with a colour, keeps ids, and refuses bad names and colours', async () => {
    expect(
      await fieldsOf({
        tags: [
          { name: 'A', color: '#ff0000' },
          { name: 'Två ord', color: '#ff0000' },
          { name: 'Larm', color: 'red' },
          { name: 'LARM', color: '#00ff00' },
        ],
      }),
    ).toEqual({
      'tags.0.name': ['ERROR_TAG_INVALID'],
      'tags.1.name': ['ERROR_TAG_INVALID'],
      'tags.2.color': ['ERROR_INVALID_COLOR'],
      'tags.3.name': ['ERROR_DUPLICATE_NAME'],
    });
    const first = await patch({
      tags: [
        { name: 'Brådskande', color: '#DC2626' },
        { name: 'Garanti', color: '#16a34a' },
      ],
    });
    expect(first.status).toBe(200);
    const tags = first.json<WorkOrderSettings>().tags;
    expect(tags.map((t) => [t.name, t.color])).toEqual([
      ['Brådskande', '#dc2626'],
      ['Garanti', '#16a34a'],
    ]);
    const second = await patch({ tags: [{ ...tags[1], color: '#0000ff' }] });
    expect(second.json<WorkOrderSettings>().tags).toEqual([{ id: tags[1]!.id, name: 'Garanti', color: '#0000ff' }]);
  });

  it('saves required fields, mode and numbering; numbers are taken in order with the prefix', async () => {
    const res = await patch({
      requiredFields: ['phone', 'tag', 'customerOrderNumber'],
      mode: 'advanced',
      numberPrefix: 'AO-',
      nextNumber: 1042,
    });
    expect(res.status).toBe(200);
    expect(res.json()).toMatchObject({
      requiredFields: ['tag', 'phone', 'customerOrderNumber'],
      mode: 'advanced',
      numberPrefix: 'AO-',
      nextNumber: 1042,
    });
    const numbers = await withTenant(tenantA, async (trx) => {
      const ctx = { trx, tenant: tenantA, auth: null, lang: 'sv', now: new Date() } as unknown as Ctx;
      return [await nextWorkOrderNumber(ctx), await nextWorkOrderNumber(ctx)];
    });
    expect(numbers).toEqual(['AO-1042', 'AO-1043']);
    expect((await get()).nextNumber).toBe(1044);
    expect(
      await fieldsOf({ requiredFields: ['tag', 'colour'], mode: 'simple', numberPrefix: 'A O', nextNumber: 0 }),
    ).toEqual({
      'requiredFields.1': ['ERROR_INVALID_VALUE'],
      mode: ['ERROR_INVALID_VALUE'],
      numberPrefix: ['ERROR_INVALID_VALUE'],
      nextNumber: ['ERROR_INVALID_VALUE'],
    });
    // No work order exists yet: the counter may still be moved down.
    expect((await patch({ nextNumber: 1 })).status).toBe(200);
  });

  it('refuses removing a status, work type or tag that a work order uses (409 IN_USE), and a lower next number', async () => {
    const s = await get();
    const status = s.statuses.find((x) => !x.isDefault && !x.isClosing)!;
    const tag = s.tags[0]!;
    const type = s.workTypes.find((x) => !x.isDefault)!;
    await withTenant(tenantA, async (trx) => {
      const [wo] = await trx('work_orders')
        .insert({ number: '5', title: 'Larmet tjuter', status_id: status.id, work_type_id: type.id })
        .returning('id');
      await trx('work_order_tags').insert({ work_order_id: wo.id, tag_id: tag.id });
    });
    await patch({ nextNumber: 10 });
    const rows = statusRows(s);
    const res = await patch({ statuses: rows.filter((r) => r.id !== status.id) });
    expect(res.status).toBe(409);
    expect(res.json().code).toBe('IN_USE');
    expect(res.json().usedBy).toEqual({ workOrders: 1 });
    const types = s.workTypes.filter((x) => x.id !== type.id);
    expect((await patch({ workTypes: types })).status).toBe(409);
    expect((await patch({ tags: [] })).status).toBe(409);
    // Unused rows can still go, and renaming a used one keeps it.
    const unused = (await get()).statuses.length;
    expect(unused).toBe(rows.length);
    const renamed = await patch({
      statuses: rows.map((r) => (r.id === status.id ? { ...r, name: 'Under arbete' } : r)),
    });
    expect(renamed.status).toBe(200);
    expect(await fieldsOf({ nextNumber: 9 })).toEqual({ nextNumber: ['ERROR_NEXT_NUMBER_TOO_LOW'] });
    expect((await patch({ nextNumber: 10 })).status).toBe(200);
  });

  it('does not touch another tenant', async () => {
    const s = await get(adminB, b.host);
    expect(s.statuses.map((x) => x.name)).toEqual(['Ny', 'Pågående', 'Klar']);
    expect(s.tags).toEqual([]);
    expect(s.mode).toBe('default');
  });
});

describe('[work-order settings] input declared (issue 29)', () => {
  it('refuses a malformed patch with 400 and the field, and /api/openapi.json shows its sections', async () => {
    const bad = await call('PATCH', '/api/instance/wo', admin, { mode: 'turbo', nextNumber: 0 });
    expect(bad.status).toBe(400);
    expect(bad.json()).toEqual({
      code: 'VALIDATION_FAILED',
      fields: { mode: ['ERROR_INVALID_VALUE'], nextNumber: ['ERROR_INVALID_VALUE'] },
    });
    const doc = (await call('GET', '/api/openapi.json', admin)).json();
    const patch = doc.paths['/instance/wo'].patch.requestBody.content['application/json'].schema;
    expect(patch.additionalProperties).toBe(false);
    expect(patch.properties.statuses).toMatchObject({ type: 'array', maxItems: 200 });
    expect(patch.properties.statuses.items.properties.name).toMatchObject({ minLength: 2, maxLength: 50 });
    expect(patch.properties.numberPrefix.maxLength).toBe(10);
  });
});
