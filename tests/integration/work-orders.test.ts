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
const tok = {} as Record<'admin' | 'tech' | 'creator' | 'clerk' | 'adminB', string>;
const ref = {} as Record<
  | 'admin'
  | 'tech'
  | 'creator'
  | 'clerk'
  | 'c1'
  | 'c2'
  | 'cB'
  | 'addr1'
  | 'bo1'
  | 'bo2'
  | 'boFree'
  | 'tag1'
  | 'tag2'
  | 'statusNew'
  | 'statusWip'
  | 'statusDone'
  | 'typeService'
  | 'typeInstall',
  string
>;

const { signIn, call } = testApi(() => ({ url: srv.url, host: a.host }));

beforeAll(async () => {
  srv = await startTestServer();
  a = await createTestTenant('wo-a');
  b = await createTestTenant('wo-b');
  tenantA = (await getTenantBySlug(a.slug))!;
  await withTenant(tenantA, async (trx) => {
    await trx('access_levels').insert([
      {
        display_name: 'Creators',
        permissions: ['workorders:read', 'workorders:edit', 'workorders:create'],
        work_order_limit: 'user.created',
      },
      {
        display_name: 'Clerks',
        permissions: ['workorders:read', 'workorders:edit', 'workorders:create'],
        work_order_limit: 'none',
      },
    ]);
    ref.creator = (
      await ensureUser(trx, {
        email: `creator@${a.slug}.se`,
        name: 'Cecilia Skapare',
        password: PASSWORD,
        accessLevels: ['Creators'],
      })
    ).id;
    ref.clerk = (
      await ensureUser(trx, {
        email: `clerk@${a.slug}.se`,
        name: 'Klas Kontor',
        password: PASSWORD,
        accessLevels: ['Clerks'],
      })
    ).id;
    ref.admin = (await trx('users').where({ email: a.adminEmail }).first('id')).id;
    ref.tech = (await trx('users').where({ email: a.technicianEmail }).first('id')).id;
    const [c1, c2] = await trx('customers')
      .insert([
        { customer_id: '10001', name: 'Brf Solgläntan' },
        { customer_id: '10002', name: 'Hallstahammars Bygg AB' },
      ])
      .returning('id');
    Object.assign(ref, { c1: c1.id, c2: c2.id });
    const [addr] = await trx('customer_addresses')
      .insert({ customer_id: c1.id, street: 'Solvägen 3', post_index: '722 14', city: 'Västerås', is_primary: true })
      .returning('id');
    ref.addr1 = addr.id;
    const [bo1, bo2, boFree] = await trx('business_objects')
      .insert([
        { serial_code: 'SN-1', customer_id: c1.id },
        { serial_code: 'SN-2', customer_id: c2.id },
        { serial_code: 'SN-FREE' },
      ])
      .returning('id');
    Object.assign(ref, { bo1: bo1.id, bo2: bo2.id, boFree: boFree.id });
    const [t1, t2] = await trx('tags')
      .insert([
        { name: 'Brådskande', color: '#dc2626' },
        { name: 'Garanti', color: '#16a34a' },
      ])
      .returning('id');
    Object.assign(ref, { tag1: t1.id, tag2: t2.id });
    const statuses = await trx('work_order_statuses').select('id', 'name');
    ref.statusNew = statuses.find((s) => s.name === 'Ny').id;
    ref.statusWip = statuses.find((s) => s.name === 'Pågående').id;
    ref.statusDone = statuses.find((s) => s.name === 'Klar').id;
    const types = await trx('work_types').select('id', 'name');
    ref.typeService = types.find((t) => t.name === 'Service').id;
    ref.typeInstall = types.find((t) => t.name === 'Installation').id;
  });
  await withTenant((await getTenantBySlug(b.slug))!, async (trx) => {
    const [c] = await trx('customers').insert({ customer_id: '90001', name: 'Annan Kund AB' }).returning('id');
    ref.cB = c.id;
  });
  tok.admin = await signIn(a, a.adminEmail);
  tok.tech = await signIn(a, a.technicianEmail);
  tok.creator = await signIn(a, `creator@${a.slug}.se`);
  tok.clerk = await signIn(a, `clerk@${a.slug}.se`);
  tok.adminB = await signIn(b, b.adminEmail);
});
afterAll(() => srv.close());

const create = async (workOrder: Record<string, unknown>, token = tok.admin) => {
  const res = await call('POST', '/api/wo', token, { workOrder });
  expect(res.status, res.text).toBe(200);
  return res.json().workOrder as Record<string, unknown> & { id: string };
};
const history = async (id: string) => {
  const res = await call('GET', `/api/wo/history/${id}`, tok.admin);
  expect(res.status, res.text).toBe(200);
  return res.json().rows as { userName: string; action: string; timestamp: string; data: Record<string, unknown> }[];
};
const setRequired = (fields: string[]) =>
  withTenant(tenantA, (trx) => trx('work_order_settings').update({ required_fields: fields }));

describe('[work orders] create', () => {
  it('applies the defaults: next number, default status and work type, medium priority, the creator assigned', async () => {
    const wo = await create({ title: 'Larmet tjuter' });
    expect(wo).toMatchObject({
      title: 'Larmet tjuter',
      statusId: ref.statusNew,
      statusName: 'Ny',
      workTypeId: ref.typeService,
      workTypeName: 'Service',
      priority: 'medium',
      isClosed: false,
      isLocked: false,
      deletedAt: null,
      createUserId: ref.admin,
      assignees: [{ id: ref.admin, name: expect.any(String) }],
      tags: [],
      scheduleStatus: 'notScheduled',
      locationLat: null,
      locationLng: null,
    });
    expect(wo.number).toMatch(/^\d+$/);
    const next = await create({ title: 'Nästa' });
    expect(Number(next.number)).toBe(Number(wo.number) + 1);
    const rows = await history(wo.id);
    expect(rows).toEqual([
      {
        userName: expect.any(String),
        action: 'create',
        timestamp: expect.any(String),
        data: { number: wo.number, title: 'Larmet tjuter' },
      },
    ]);
  });

  it('stores every field and answers them with the assignees as users', async () => {
    const wo = await create({
      title: 'Byte av centralapparat',
      description: 'Byt Galaxy Flex mot ny',
      internalInfo: 'Nyckel hos vaktmästaren',
      summary: 'Utfört enligt offert',
      customerId: ref.c1,
      businessObjectId: ref.bo1,
      customerAddressId: ref.addr1,
      statusId: ref.statusWip,
      workTypeId: ref.typeInstall,
      priority: 'high',
      contactName: 'Anna Ek',
      contactEmail: 'anna@solglantan.se',
      contactPhone: '070-1234567',
      onSiteContactName: 'Bo Vaktmästare',
      onSiteContactPhone: '070-7654321',
      street: 'Solvägen 3',
      postIndex: '722 14',
      city: 'Västerås',
      plannedStart: '2026-12-01T07:00:00.000Z',
      plannedEnd: '2026-12-01T11:00:00.000Z',
      customerOrderNumber: 'PO-778',
      invoiceMarking: 'Projekt 12',
      id06Code: 'ID06-1',
      assignees: [ref.tech, ref.admin],
      tags: [ref.tag1, ref.tag2],
    });
    const res = await call('GET', `/api/wo/${wo.id}`, tok.admin);
    expect(res.status).toBe(200);
    const { workOrder, users } = res.json();
    expect(workOrder).toMatchObject({
      customerName: 'Brf Solgläntan',
      customerNumber: '10001',
      businessObjectSerialCode: 'SN-1',
      statusName: 'Pågående',
      workTypeName: 'Installation',
      priority: 'high',
      internalInfo: 'Nyckel hos vaktmästaren',
      contactEmail: 'anna@solglantan.se',
      onSiteContactName: 'Bo Vaktmästare',
      city: 'Västerås',
      customerAddressId: ref.addr1,
      plannedStart: '2026-12-01T07:00:00.000Z',
      plannedEnd: '2026-12-01T11:00:00.000Z',
      scheduleStatus: 'scheduled',
      customerOrderNumber: 'PO-778',
      invoiceMarking: 'Projekt 12',
      id06Code: 'ID06-1',
    });
    expect(workOrder.tags.map((t: { name: string }) => t.name).sort()).toEqual(['Brådskande', 'Garanti']);
    expect(users.map((u: { id: string }) => u.id).sort()).toEqual([ref.admin, ref.tech].sort());
    expect(users[0]).toEqual({
      id: expect.any(String),
      fullName: expect.any(String),
      shortName: null,
      department: null,
    });
  });

  it('refuses bad input with field errors', async () => {
    const bad = async (workOrder: Record<string, unknown>) => {
      const res = await call('POST', '/api/wo', tok.admin, { workOrder });
      expect(res.status, res.text).toBe(400);
      return res.json().fields as Record<string, string[]>;
    };
    expect(await bad({})).toEqual({ title: ['ERROR_REQUIRED_FIELD'] });
    expect(await bad({ title: 'x', assignees: [] })).toEqual({ assignees: ['ERROR_AT_LEAST_ONE_ASSIGNEE'] });
    expect(await bad({ title: 'x', assignees: [ref.tech, ref.tech] })).toEqual({
      assignees: ['ERROR_USER_ALREADY_ADDED'],
    });
    expect(await bad({ title: 'x', assignees: ['00000000-0000-4000-8000-000000000000'] })).toEqual({
      assignees: ['ERROR_INVALID_VALUE'],
    });
    expect(await bad({ title: 'x', statusId: '00000000-0000-4000-8000-000000000000' })).toEqual({
      statusId: ['ERROR_INVALID_VALUE'],
    });
    expect(await bad({ title: 'x', statusId: ref.statusDone })).toEqual({ statusId: ['ERROR_INVALID_VALUE'] });
    expect(await bad({ title: 'x', workTypeId: 'nope' })).toEqual({ workTypeId: ['ERROR_INVALID_VALUE'] });
    expect(await bad({ title: 'x', customerId: ref.cB })).toEqual({ customerId: ['ERROR_INVALID_VALUE'] });
    expect(await bad({ title: 'x', businessObjectId: '00000000-0000-4000-8000-000000000000' })).toEqual({
      businessObjectId: ['ERROR_INVALID_VALUE'],
    });
    expect(await bad({ title: 'x', customerId: ref.c1, businessObjectId: ref.bo2 })).toEqual({
      businessObjectId: ['ERROR_BO_NOT_OF_CUSTOMER'],
    });
    expect(await bad({ title: 'x', customerId: ref.c2, customerAddressId: ref.addr1 })).toEqual({
      customerAddressId: ['ERROR_INVALID_VALUE'],
    });
    expect(await bad({ title: 'x', tags: ['00000000-0000-4000-8000-000000000000'] })).toEqual({
      tags: ['ERROR_INVALID_VALUE'],
    });
    expect(await bad({ title: 'x', priority: 'urgent' })).toEqual({ priority: ['ERROR_INVALID_VALUE'] });
    expect(await bad({ title: 'x', contactEmail: 'not-an-email' })).toEqual({ contactEmail: ['ERROR_INVALID_EMAIL'] });
    expect(await bad({ title: 'x', plannedStart: '2026-12-02T10:00:00Z', plannedEnd: '2026-12-02T09:00:00Z' })).toEqual(
      { plannedEnd: ['ERROR_INVALID_VALUE'] },
    );
    // a too-long text says its limit (spec section 5)
    const long = await call('POST', '/api/wo', tok.admin, {
      workOrder: { title: 'x'.repeat(201), city: 'y'.repeat(300) },
    });
    expect(long.status).toBe(400);
    expect(long.json()).toMatchObject({
      fields: { title: ['ERROR_MAX_LENGTH'], city: ['ERROR_MAX_LENGTH'] },
      limits: { title: 200, city: expect.any(Number) },
    });
    // an object without a customer goes with any customer
    await create({ title: 'Fritt objekt', customerId: ref.c1, businessObjectId: ref.boFree });
  });

  it('enforces each required field of the settings with ERROR_REQUIRED_FIELD on the field', async () => {
    await setRequired([
      'tag',
      'contact',
      'email',
      'phone',
      'description',
      'invoiceMarking',
      'customerOrderNumber',
      'onSiteContact',
    ]);
    try {
      const res = await call('POST', '/api/wo', tok.admin, { workOrder: { title: 'Krav', contactName: '  ' } });
      expect(res.status).toBe(400);
      expect(res.json().fields).toEqual({
        tags: ['ERROR_REQUIRED_FIELD'],
        contactName: ['ERROR_REQUIRED_FIELD'],
        contactEmail: ['ERROR_REQUIRED_FIELD'],
        contactPhone: ['ERROR_REQUIRED_FIELD'],
        description: ['ERROR_REQUIRED_FIELD'],
        invoiceMarking: ['ERROR_REQUIRED_FIELD'],
        customerOrderNumber: ['ERROR_REQUIRED_FIELD'],
        onSiteContactName: ['ERROR_REQUIRED_FIELD'],
      });
      const wo = await create({
        title: 'Krav',
        tags: [ref.tag1],
        contactName: 'Anna',
        contactEmail: 'anna@ek.se',
        contactPhone: '070-1',
        description: 'Beskrivning',
        invoiceMarking: 'M1',
        customerOrderNumber: 'PO-1',
        onSiteContactName: 'Bo',
      });
      // an edit of other fields passes; emptying a required one does not
      expect((await call('PATCH', '/api/wo', tok.admin, { workOrder: { id: wo.id, title: 'Krav 2' } })).status).toBe(
        200,
      );
      const emptied = await call('PATCH', '/api/wo', tok.admin, {
        workOrder: { id: wo.id, contactPhone: '', tags: [] },
      });
      expect(emptied.status).toBe(400);
      expect(emptied.json().fields).toEqual({ contactPhone: ['ERROR_REQUIRED_FIELD'], tags: ['ERROR_REQUIRED_FIELD'] });
    } finally {
      await setRequired([]);
    }
  });

  it('needs workorders:create, and internal info needs workorders:edit_internal_info (403)', async () => {
    expect((await call('POST', '/api/wo', tok.tech, { workOrder: { title: 'x' } })).status).toBe(403);
    expect((await call('POST', '/api/wo', undefined, { workOrder: { title: 'x' } })).status).toBe(401);
    const denied = await call('POST', '/api/wo', tok.clerk, { workOrder: { title: 'x', internalInfo: 'hemligt' } });
    expect(denied.status).toBe(403);
    const wo = await create({ title: 'Kontorets order' }, tok.clerk);
    expect(wo.internalInfo).toBeNull();
    expect(wo.assignees).toEqual([{ id: ref.clerk, name: 'Klas Kontor' }]);
  });
});

describe('[work orders] edit and history', () => {
  it('changes the fields sent and records edit with old and new values', async () => {
    const wo = await create({ title: 'Service hiss', priority: 'low', assignees: [ref.admin] });
    const res = await call('PATCH', '/api/wo', tok.admin, {
      workOrder: {
        id: wo.id,
        title: 'Service hiss 2',
        priority: 'high',
        statusId: ref.statusWip,
        assignees: [ref.admin, ref.tech],
        tags: [ref.tag1],
        plannedStart: '2026-12-03T08:00:00Z',
        city: 'Köping',
      },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.json()).toMatchObject({
      locationLat: null,
      locationLng: null,
      workOrder: { title: 'Service hiss 2', city: 'Köping' },
    });
    const got = (await call('GET', `/api/wo/${wo.id}`, tok.admin)).json().workOrder;
    expect(got).toMatchObject({ priority: 'high', statusName: 'Pågående', plannedStart: '2026-12-03T08:00:00.000Z' });
    expect(got.description).toBeNull();
    expect(got.assignees).toHaveLength(2);
    expect(got.updateTs >= (wo.updateTs as string)).toBe(true);
    const [edit] = await history(wo.id);
    expect(edit.action).toBe('edit');
    const changes = edit.data.changes as { field: string; old: unknown; new: unknown }[];
    const byField = Object.fromEntries(changes.map((c) => [c.field, c]));
    expect(Object.keys(byField).sort()).toEqual([
      'assignees',
      'city',
      'plannedStart',
      'priority',
      'status',
      'tags',
      'title',
    ]);
    expect(byField.title).toEqual({ field: 'title', old: 'Service hiss', new: 'Service hiss 2' });
    expect(byField.priority).toMatchObject({ old: 'low', new: 'high' });
    expect(byField.status).toMatchObject({ old: 'Ny', new: 'Pågående' });
    expect(byField.tags).toMatchObject({ old: [], new: ['Brådskande'] });
    expect(byField.plannedStart).toMatchObject({ old: null, new: '2026-12-03T08:00:00.000Z' });
    // a save that changes nothing leaves no row
    await call('PATCH', '/api/wo', tok.admin, { workOrder: { id: wo.id, title: 'Service hiss 2' } });
    expect((await history(wo.id)).filter((r) => r.action === 'edit')).toHaveLength(1);
  });

  it('refuses an empty assignee list, a person twice, and a closing status', async () => {
    const wo = await create({ title: 'Assignees' });
    const patch = (workOrder: Record<string, unknown>) =>
      call('PATCH', '/api/wo', tok.admin, { workOrder: { id: wo.id, ...workOrder } });
    expect((await patch({ assignees: [] })).json().fields).toEqual({ assignees: ['ERROR_AT_LEAST_ONE_ASSIGNEE'] });
    expect((await patch({ assignees: [ref.tech, ref.tech] })).json().fields).toEqual({
      assignees: ['ERROR_USER_ALREADY_ADDED'],
    });
    expect((await patch({ statusId: ref.statusDone })).json().fields).toEqual({ statusId: ['ERROR_INVALID_VALUE'] });
    expect((await patch({ title: '' })).json().fields).toEqual({ title: ['ERROR_REQUIRED_FIELD'] });
  });

  it('internal info: 403 for a changed value without the right, edit.internal without values with it', async () => {
    const wo = await create({ title: 'Intern', internalInfo: 'Larmkod i kassaskåpet' });
    const byClerk = (internalInfo: string) =>
      call('PATCH', '/api/wo', tok.clerk, { workOrder: { id: wo.id, internalInfo, title: 'Intern 2' } });
    expect((await byClerk('Ändrat')).status).toBe(403);
    expect((await byClerk('Larmkod i kassaskåpet')).status).toBe(200);
    const res = await call('PATCH', '/api/wo', tok.admin, { workOrder: { id: wo.id, internalInfo: 'Ny kod' } });
    expect(res.status).toBe(200);
    const rows = await history(wo.id);
    expect(rows[0]).toMatchObject({ action: 'edit.internal', data: { fields: ['internalInfo'] } });
    expect(JSON.stringify(rows)).not.toContain('Ny kod');
    expect(JSON.stringify(rows)).not.toContain('Larmkod');
  });

  it('changes customer and object through PATCH with their own history events', async () => {
    const wo = await create({
      title: 'Kundbyte',
      customerId: ref.c1,
      businessObjectId: ref.bo1,
      customerAddressId: ref.addr1,
    });
    const mismatch = await call('PATCH', '/api/wo', tok.admin, { workOrder: { id: wo.id, customerId: ref.c2 } });
    expect(mismatch.json().fields).toEqual({ businessObjectId: ['ERROR_BO_NOT_OF_CUSTOMER'] });
    const res = await call('PATCH', '/api/wo', tok.admin, {
      workOrder: { id: wo.id, customerId: ref.c2, businessObjectId: ref.bo2 },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.json().workOrder).toMatchObject({
      customerId: ref.c2,
      businessObjectId: ref.bo2,
      customerAddressId: null,
    });
    const rows = await history(wo.id);
    const actions = rows.map((r) => r.action);
    expect(actions).toContain('edit.customer');
    expect(actions).toContain('edit.object');
    expect(actions).not.toContain('edit');
    expect(rows.find((r) => r.action === 'edit.customer')!.data).toEqual({
      old: { id: ref.c1, name: 'Brf Solgläntan', customerId: '10001' },
      new: { id: ref.c2, name: 'Hallstahammars Bygg AB', customerId: '10002' },
    });
    expect(rows.find((r) => r.action === 'edit.object')!.data).toEqual({
      old: { id: ref.bo1, serialCode: 'SN-1' },
      new: { id: ref.bo2, serialCode: 'SN-2' },
    });
  });

  it('PUT /wo/{id}/customer takes another customer off the object; PUT /wo/{id}/bo checks and takes the customer', async () => {
    const wo = await create({ title: 'Byten', customerId: ref.c1, businessObjectId: ref.bo1 });
    const bad = await call('PUT', `/api/wo/${wo.id}/customer`, tok.admin, { customerId: ref.cB });
    expect(bad.status).toBe(400);
    expect(bad.json().fields).toEqual({ customerId: ['ERROR_INVALID_VALUE'] });
    const res = await call('PUT', `/api/wo/${wo.id}/customer`, tok.admin, { customerId: ref.c2 });
    expect(res.status, res.text).toBe(200);
    expect(res.json().workOrder).toMatchObject({ customerId: ref.c2, businessObjectId: null });
    expect(
      (await history(wo.id))
        .slice(0, 2)
        .map((r) => r.action)
        .sort(),
    ).toEqual(['edit.customer', 'edit.object']);

    const wrong = await call('PUT', `/api/wo/${wo.id}/bo`, tok.admin, { bo: ref.bo1 });
    expect(wrong.status).toBe(400);
    expect(wrong.json().fields).toEqual({ bo: ['ERROR_BO_NOT_OF_CUSTOMER'] });
    const right = await call('PUT', `/api/wo/${wo.id}/bo`, tok.admin, { bo: { id: ref.bo2 } });
    expect(right.json().workOrder).toMatchObject({ businessObjectId: ref.bo2, businessObjectSerialCode: 'SN-2' });

    const bare = await create({ title: 'Utan kund' });
    const took = await call('PUT', `/api/wo/${bare.id}/bo`, tok.admin, { bo: ref.bo1 });
    expect(took.json().workOrder).toMatchObject({
      businessObjectId: ref.bo1,
      customerId: ref.c1,
      customerName: 'Brf Solgläntan',
    });
    expect(
      (await history(bare.id))
        .slice(0, 2)
        .map((r) => r.action)
        .sort(),
    ).toEqual(['edit.customer', 'edit.object']);
    expect((await call('PUT', `/api/wo/${bare.id}/bo`, tok.tech, { bo: null })).status).toBe(404); // outside tech's limit
  });
});

describe('[work orders] access: permissions, limits, tenants', () => {
  let mine: string;
  let others: string;
  let createdByCreator: string;

  beforeAll(async () => {
    mine = (await create({ title: 'Teknikerns', assignees: [ref.tech] })).id;
    others = (await create({ title: 'Någon annans', assignees: [ref.admin] })).id;
    createdByCreator = (await create({ title: 'Skaparens', assignees: [ref.admin] }, tok.creator)).id;
  });

  it("limit 'user': a technician reads and edits orders assigned to them; others are not found", async () => {
    expect((await call('GET', `/api/wo/${mine}`, tok.tech)).status).toBe(200);
    expect((await call('GET', `/api/wo/${others}`, tok.tech)).status).toBe(404);
    expect((await call('GET', `/api/wo/history/${others}`, tok.tech)).status).toBe(404);
    expect((await call('PATCH', '/api/wo', tok.tech, { workOrder: { id: mine, summary: 'Klart' } })).status).toBe(200);
    expect((await call('PATCH', '/api/wo', tok.tech, { workOrder: { id: others, summary: 'x' } })).status).toBe(404);
    const list = (await call('GET', '/api/wo?size=200', tok.tech)).json();
    const ids = list.workOrders.map((w: { id: string }) => w.id);
    expect(ids).toContain(mine);
    expect(ids).not.toContain(others);
    for (const w of list.workOrders) expect(w.assignees.map((u: { id: string }) => u.id)).toContain(ref.tech);
    expect(list.totalCount).toBe(ids.length);
    const all = (await call('GET', '/api/wo?size=200', tok.admin)).json();
    expect(all.totalCount).toBeGreaterThan(list.totalCount);
    const found = (await call('GET', '/api/wo/q?q=Någon', tok.tech)).json();
    expect(found.totalCount).toBe(0);
  });

  it("limit 'user.created': only orders the user created, even when assigned to others", async () => {
    expect((await call('GET', `/api/wo/${createdByCreator}`, tok.creator)).status).toBe(200);
    expect((await call('GET', `/api/wo/${others}`, tok.creator)).status).toBe(404);
    const list = (await call('GET', '/api/wo?size=200', tok.creator)).json();
    expect(list.workOrders.map((w: { id: string }) => w.id)).toEqual([createdByCreator]);
  });

  it('another tenant and malformed ids are not found; reading needs a session', async () => {
    expect((await call('GET', `/api/wo/${mine}`, tok.adminB, undefined, b.host)).status).toBe(404);
    expect((await call('PATCH', '/api/wo', tok.adminB, { workOrder: { id: mine, title: 'x' } }, b.host)).status).toBe(
      404,
    );
    expect((await call('GET', `/api/wo/history/${mine}`, tok.adminB, undefined, b.host)).status).toBe(404);
    expect((await call('GET', '/api/wo/not-a-uuid', tok.admin)).status).toBe(404);
    expect((await call('GET', '/api/wo', undefined)).status).toBe(401);
    expect((await call('GET', '/api/wo', tok.adminB, undefined, b.host)).json()).toEqual({
      workOrders: [],
      totalCount: 0,
      totalCountCapped: false,
    });
  });
});

describe('[work orders] recycle bin, lock', () => {
  it('deletes to the recycle bin and restores; refuses while it has locked time rows', async () => {
    const wo = await create({ title: 'Papperskorg' });
    expect((await call('DELETE', `/api/wo/${wo.id}`, tok.tech)).status).toBe(403);
    expect((await call('DELETE', `/api/wo/${wo.id}`, tok.admin)).status).toBe(200);
    const got = (await call('GET', `/api/wo/${wo.id}`, tok.admin)).json().workOrder;
    expect(got.deletedAt).not.toBeNull();
    expect(
      (await call('GET', '/api/wo?list=recycleBin', tok.admin)).json().workOrders.map((w: { id: string }) => w.id),
    ).toContain(wo.id);
    expect(
      (await call('GET', '/api/wo?size=200', tok.admin)).json().workOrders.map((w: { id: string }) => w.id),
    ).not.toContain(wo.id);
    expect((await call('PATCH', '/api/wo', tok.admin, { workOrder: { id: wo.id, title: 'x' } })).status).toBe(404);
    const restored = await call('POST', '/api/wo/restore', tok.admin, { workOrderId: wo.id });
    expect(restored.status, restored.text).toBe(200);
    expect(restored.json().workOrder.deletedAt).toBeNull();
    expect((await history(wo.id)).map((r) => r.action).slice(0, 2)).toEqual(['restore', 'delete']);

    await withTenant(tenantA, (trx) =>
      trx('work_order_time').insert({
        work_order_id: wo.id,
        user_id: ref.admin,
        date: '2026-10-01',
        work_minutes: 60,
        locked: true,
      }),
    );
    const refused = await call('DELETE', `/api/wo/${wo.id}`, tok.admin);
    expect(refused.status).toBe(409);
    expect(refused.json().code).toBe('WORK_ORDER_HAS_LOCKED_TIME_REPORTS');
  });

  it('locks and unlocks with workorders:lock and history', async () => {
    const wo = await create({ title: 'Lås', assignees: [ref.tech] });
    expect((await call('POST', '/api/wo/lock', tok.tech, { workOrderId: wo.id })).status).toBe(403);
    const locked = await call('POST', '/api/wo/lock', tok.admin, { workOrderId: wo.id });
    expect(locked.json().workOrder.isLocked).toBe(true);
    // a locked order's content cannot change until it is unlocked
    const edit = await call('PATCH', '/api/wo', tok.admin, { workOrder: { id: wo.id, title: 'Ändrad' } });
    expect(edit.status).toBe(409);
    expect(edit.json().code).toBe('WORK_ORDER_LOCKED');
    const unlocked = await call('POST', '/api/wo/unlock', tok.admin, { workOrderId: wo.id });
    expect(unlocked.json().workOrder.isLocked).toBe(false);
    expect((await history(wo.id)).map((r) => r.action).slice(0, 2)).toEqual(['unlock', 'lock']);
    expect((await call('POST', '/api/wo/lock', tok.admin, { workOrderId: 'nope' })).status).toBe(404);
  });
});

describe('[work orders] intake time and ID06 code', () => {
  it('PATCH /wo/{id} {intakeTs} moves the intake time with an edit row', async () => {
    const wo = await create({ title: 'Intag' });
    const res = await call('PATCH', `/api/wo/${wo.id}`, tok.admin, { intakeTs: '2026-11-01T06:30:00Z' });
    expect(res.status, res.text).toBe(200);
    expect(res.json().workOrder.intakeTs).toBe('2026-11-01T06:30:00.000Z');
    const [row] = await history(wo.id);
    expect(row).toMatchObject({
      action: 'edit',
      data: { changes: [{ field: 'intakeTs', old: wo.intakeTs, new: '2026-11-01T06:30:00.000Z' }] },
    });
    expect((await call('PATCH', `/api/wo/${wo.id}`, tok.admin, { intakeTs: 'igår' })).json().fields).toEqual({
      intakeTs: ['ERROR_INVALID_VALUE'],
    });
    expect((await call('PATCH', `/api/wo/${wo.id}`, tok.admin, {})).json().fields).toEqual({
      intakeTs: ['ERROR_REQUIRED_FIELD'],
    });
    expect(
      (await call('PATCH', `/api/wo/${wo.id}`, tok.adminB, { intakeTs: '2026-11-01T06:30:00Z' }, b.host)).status,
    ).toBe(404);
  });

  it('PUT /wo/id06/{id} sets the code with workorders:id06', async () => {
    const wo = await create({ title: 'ID06' });
    await withTenant(tenantA, (trx) =>
      trx.raw(
        `insert into app_modules (id, enabled) values ('id06', true) on conflict (id) do update set enabled = true`,
      ),
    );
    const res = await call('PUT', `/api/wo/id06/${wo.id}`, tok.admin, { id06Code: 'ID06-77' });
    expect(res.status, res.text).toBe(200);
    expect(res.json().workOrder.id06Code).toBe('ID06-77');
    expect((await history(wo.id))[0]).toMatchObject({
      action: 'edit',
      data: { changes: [{ field: 'id06Code', old: null, new: 'ID06-77' }] },
    });
    expect((await call('PUT', `/api/wo/id06/${wo.id}`, tok.tech, { id06Code: 'x' })).status).toBe(403);
  });
});

describe('[work orders] input declared at the boundary (issue 29)', () => {
  it('refuses a malformed body or query with 400 and the field, and /api/openapi.json shows the shapes', async () => {
    const bad = await call('POST', '/api/wo', tok.admin, { workOrder: { title: 'x', priority: 'urgent' } });
    expect(bad.status).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'VALIDATION_FAILED', fields: { priority: ['ERROR_INVALID_VALUE'] } });
    const list = await call('GET', '/api/wo?sort=colour', tok.admin);
    expect(list.status).toBe(400);
    expect(Object.keys(list.json().fields)).toEqual(['sort']);
    const wo = await create({ title: 'Gränsen' });
    const bo = await call('PUT', `/api/wo/${wo.id}/bo`, tok.admin, { bo: 42 });
    expect(bo.status).toBe(400);
    expect(Object.keys(bo.json().fields)).toEqual(['bo']);

    const doc = (await call('GET', '/api/openapi.json')).json();
    const created = doc.paths['/wo'].post.requestBody.content['application/json'].schema;
    expect(created.properties.workOrder.properties.priority.enum).toEqual(['high', 'medium', 'low']);
    expect(created.properties.workOrder.required).toEqual(['title']);
    const query = doc.paths['/wo'].get.parameters;
    expect(query.find((p: { name: string }) => p.name === 'sort')).toMatchObject({
      in: 'query',
      schema: { enum: expect.arrayContaining(['intake', 'number']) },
    });
    expect(doc.paths['/wo/{id}/customer'].put.parameters).toEqual([
      { name: 'id', in: 'path', required: true, schema: { type: 'string' } },
    ]);
    expect(doc.paths['/wo/lock'].post.requestBody.content['application/json'].schema.required).toEqual(['workOrderId']);
  });
});
