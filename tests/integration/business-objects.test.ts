import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateSession } from '~/core/auth/session.service';
import { listBusinessObjects } from '~/core/business-objects/business-object.service';
import { countQueries } from '~/core/db/query-counter';
import { withTenant } from '~/core/db/with-tenant';
import type { Tenant } from '~/core/tenancy/tenant';
import { inTenant } from '~/core/unit-of-work';
import { ensureUser } from '~/core/users/create-user';
import { DEMO_MODELS, DEMO_OBJECTS, seedDemoObjects } from '~/tenants/demo-data/objects';
import { getTenantBySlug } from '~/tenants/registry';
import { createTestTenant, PASSWORD, startTestServer, type TestServer, type TestTenant } from '~/tests/helpers/app';
import { testApi } from '~/tests/helpers/api';

let srv: TestServer;
let a: TestTenant;
let b: TestTenant;
let tenantA: Tenant;
let admin: string;
let tech: string;
let adminB: string;
let office: string;
const ref = {} as {
  customer: string;
  customer2: string;
  model: string;
  model2: string;
  priceList: string;
  article: string;
};

beforeAll(async () => {
  srv = await startTestServer();
  a = await createTestTenant('bo-a');
  b = await createTestTenant('bo-b');
  tenantA = (await getTenantBySlug(a.slug))!;
  await withTenant(tenantA, async (trx) => {
    const [c1, c2] = await trx('customers')
      .insert([
        { customer_id: '10001', name: 'Brf Solgläntan' },
        { customer_id: '10002', name: 'Hallstahammars Bygg AB' },
      ])
      .returning('id');
    const [m1, m2] = await trx('models')
      .insert([
        { code: 'GFX50', name: 'Galaxy Flex 50' },
        { code: 'M3106', name: 'Axis M3106' },
      ])
      .returning('id');
    const [p] = await trx('price_lists').insert({ title: 'Bostadsrätt' }).returning('id');
    const [art] = await trx('articles')
      .insert({ article_id: 'A-100', title: 'Service hour', price: '650.00' })
      .returning('id');
    await ensureUser(trx, {
      email: `office@${a.slug}.se`,
      name: 'Olga Kontor',
      password: PASSWORD,
      accessLevels: ['Office'],
    });
    Object.assign(ref, {
      customer: c1.id,
      customer2: c2.id,
      model: m1.id,
      model2: m2.id,
      priceList: p.id,
      article: art.id,
    });
  });
  admin = await signIn(a, a.adminEmail);
  tech = await signIn(a, a.technicianEmail);
  adminB = await signIn(b, b.adminEmail);
  office = await signIn(a, `office@${a.slug}.se`);
});
afterAll(() => srv.close());

const { signIn, call } = testApi(() => ({ url: srv.url, host: a.host }));

const create = async (bo: Record<string, unknown>) => {
  const res = await call('POST', '/api/bo', admin, { bo });
  expect(res.status, res.text).toBe(200);
  return res.json().id as string;
};

describe('[objects] create, read, edit', () => {
  let id: string;

  it('creates an object with model, customer, price list and locations, and gets a QR reference', async () => {
    id = await create({
      serialCode: 'SN-1001',
      modelId: ref.model,
      customerId: ref.customer,
      priceListId: ref.priceList,
      location: 'Källarplan, teknikrum',
      location2: 'Storgatan 1',
      location3: 'Västerås',
      description: 'Inbrottslarm med 12 sektioner',
      invoiceMarking: 'Ref 4411',
    });
    const { bo } = (await call('GET', `/api/bo/${id}`, admin)).json();
    expect(bo).toMatchObject({
      id,
      serialCode: 'SN-1001',
      status: 'active',
      modelId: ref.model,
      modelName: 'Galaxy Flex 50',
      model: { id: ref.model, code: 'GFX50', name: 'Galaxy Flex 50' },
      customerId: ref.customer,
      customerName: 'Brf Solgläntan',
      customerNumber: '10001',
      priceListId: ref.priceList,
      priceListTitle: 'Bostadsrätt',
      location: 'Källarplan, teknikrum',
      location2: 'Storgatan 1',
      location3: 'Västerås',
      description: 'Inbrottslarm med 12 sektioner',
      invoiceMarking: 'Ref 4411',
      contacts: [],
      specification: {},
    });
    expect(bo.qrRef).toMatch(/^[A-Za-z0-9_-]{16}$/);
  });

  it('refuses a taken serial code, whatever its case, on create and edit (409 DUPLICATE_SERIAL_CODE)', async () => {
    const dup = await call('POST', '/api/bo', admin, { bo: { serialCode: 'sn-1001' } });
    expect(dup.status).toBe(409);
    expect(dup.json()).toEqual({ code: 'DUPLICATE_SERIAL_CODE', fields: { serialCode: ['DUPLICATE_SERIAL_CODE'] } });
    const other = await create({ serialCode: 'SN-1002' });
    const edit = await call('PUT', '/api/bo', admin, { bo: { id: other, serialCode: 'SN-1001' } });
    expect(edit.status).toBe(409);
    expect(edit.json().code).toBe('DUPLICATE_SERIAL_CODE');
  });

  it('validates: serial code required and without spaces, ids well-formed and existing', async () => {
    const res = await call('POST', '/api/bo', admin, {
      bo: { serialCode: 'A B', modelId: 'nope', location: 'x'.repeat(201) },
    });
    expect(res.status).toBe(400);
    expect(res.json().fields).toEqual({
      'bo.serialCode': ['ERROR_NO_SPACES'],
      'bo.modelId': ['ERROR_INVALID_VALUE'],
      'bo.location': ['ERROR_MAX_LENGTH'],
    });
    expect((await call('POST', '/api/bo', admin, { bo: {} })).json().fields).toEqual({
      'bo.serialCode': ['ERROR_REQUIRED_FIELD'],
    });
    // A customer of another tenant (or none at all) is not a customer here.
    const unknown = await call('POST', '/api/bo', admin, {
      bo: { serialCode: 'SN-X', customerId: '00000000-0000-4000-8000-000000000000' },
    });
    expect(unknown.status).toBe(400);
    expect(unknown.json().fields).toEqual({ customerId: ['ERROR_INVALID_VALUE'] });
  });

  it('PUT changes only the fields given; null clears one', async () => {
    const put = await call('PUT', '/api/bo', admin, {
      bo: { id, location: 'Plan 2', customerId: null, status: 'inactive' },
    });
    expect(put.status).toBe(200);
    const { bo } = (await call('GET', `/api/bo/${id}`, admin)).json();
    expect(bo).toMatchObject({
      serialCode: 'SN-1001',
      location: 'Plan 2',
      location2: 'Storgatan 1',
      customerId: null,
      customerName: null,
      status: 'inactive',
      modelId: ref.model,
    });
    await call('PUT', '/api/bo', admin, { bo: { id, customerId: ref.customer, status: 'active' } });
  });

  it('replaces contacts (validated) and answers the customer', async () => {
    const bad = await call('PUT', `/api/bo/${id}/contacts`, admin, { contacts: [{ name: '', email: 'nope' }] });
    expect(bad.status).toBe(400);
    expect(bad.json().fields).toEqual({
      'contacts.0.name': ['ERROR_REQUIRED_FIELD'],
      'contacts.0.email': ['ERROR_INVALID_EMAIL'],
    });
    const contacts = [
      { name: 'Eva Ek', role: 'Fastighetsskötare', phone: '070-111 22 33', email: 'eva@solglantan.se' },
      { name: 'Olof Berg', role: null, phone: null, email: null },
    ];
    expect((await call('PUT', `/api/bo/${id}/contacts`, admin, { contacts })).status).toBe(200);
    const { bo } = (await call('GET', `/api/bo/${id}`, admin)).json();
    expect(bo.contacts.map(({ id: _id, ...c }: { id: string }) => c)).toEqual(contacts);
    const customer = (await call('GET', `/api/bo/${id}/customer`, admin)).json();
    expect(customer.customer).toMatchObject({ id: ref.customer, customerId: '10001', name: 'Brf Solgläntan' });
    const none = await create({ serialCode: 'SN-NOCUST' });
    expect((await call('GET', `/api/bo/${none}/customer`, admin)).json()).toEqual({ customer: null });
  });

  it('sets, resolves and refuses a taken QR reference', async () => {
    expect((await call('PUT', '/api/bo', admin, { bo: { id, qrRef: 'LABEL-0001' } })).status).toBe(200);
    const found = await call('POST', '/api/bo/qr', admin, { qrRefId: 'LABEL-0001' });
    expect(found.status).toBe(200);
    expect(found.json().bo).toMatchObject({ id, serialCode: 'SN-1001' });
    const missing = await call('POST', '/api/bo/qr', admin, { qrRefId: 'NO-SUCH-REF' });
    expect(missing.status).toBe(404);
    expect(missing.json()).toEqual({ code: 'QR_REFERENCE_NOT_FOUND' });
    const taken = await call('POST', '/api/bo', admin, { bo: { serialCode: 'SN-QR', qrRef: 'LABEL-0001' } });
    expect(taken.status).toBe(409);
    expect(taken.json().code).toBe('QR_REFERENCE_TAKEN');
    expect((await call('PUT', '/api/bo', admin, { bo: { id, qrRef: 'has space' } })).status).toBe(400);
    // Another tenant's reference is not found.
    expect((await call('POST', '/api/bo/qr', adminB, { qrRefId: 'LABEL-0001' }, b.host)).status).toBe(404);
  });

  it('proposes the next free all-digit serial code of a length', async () => {
    expect((await call('GET', '/api/bo/id/propose?length=4', admin)).json()).toEqual({ id: '1000' });
    await create({ serialCode: '1000' });
    await create({ serialCode: '1041' });
    expect((await call('GET', '/api/bo/id/propose?length=4', admin)).json()).toEqual({ id: '1042' });
    expect((await call('GET', '/api/bo/id/propose?length=99', admin)).status).toBe(400);
  });

  it('keeps history of every change, newest first, paged', async () => {
    const res = (await call('GET', `/api/bo/${id}/history?size=2`, admin)).json();
    expect(res.totalCount).toBeGreaterThanOrEqual(5);
    expect(res.history).toHaveLength(2);
    expect(res.history[0]).toMatchObject({ action: 'edit', userName: expect.any(String) });
    const all = (await call('GET', `/api/bo/${id}/history?size=50`, admin)).json().history;
    expect(all.map((h: { action: string }) => h.action).at(-1)).toBe('create');
    expect(all.map((h: { action: string }) => h.action)).toContain('contacts');
    const next = (await call('GET', `/api/bo/${id}/history?from=2&size=2`, admin)).json().history;
    expect(next[0].id).toBe(all[2].id);
  });
});

describe('[objects] list and search', () => {
  beforeAll(async () => {
    await create({
      serialCode: 'CAM-01',
      modelId: ref.model2,
      customerId: ref.customer2,
      location: 'Entré',
      description: 'Kamera vid port',
    });
    await create({
      serialCode: 'CAM-02',
      modelId: ref.model2,
      customerId: ref.customer2,
      location: 'Lastkaj',
      status: 'inactive',
    });
  });

  it('pages by serial code with the total', async () => {
    const all = (await call('GET', '/api/bo?limit=200', admin)).json();
    const serials = all.bos.map((x: { serialCode: string }) => x.serialCode);
    expect(serials).toEqual(
      [...serials].sort((x: string, y: string) => x.toLowerCase().localeCompare(y.toLowerCase())),
    );
    const page = (await call('GET', '/api/bo?limit=2&offset=2', admin)).json();
    expect(page.totalCount).toBe(all.totalCount);
    expect(page.bos.map((x: { serialCode: string }) => x.serialCode)).toEqual(serials.slice(2, 4));
    expect(page.bos[0].specification).toBeUndefined();
    expect((await call('GET', '/api/bo?limit=201', admin)).status).toBe(400);
  });

  it('searches serial code, location, description, model and customer name and number', async () => {
    const q = async (query: string) =>
      (await call('GET', `/api/bo?q=${encodeURIComponent(query)}`, admin))
        .json()
        .bos.map((x: { serialCode: string }) => x.serialCode)
        .sort();
    expect(await q('cam-0')).toEqual(['CAM-01', 'CAM-02']);
    expect(await q('lastkaj')).toEqual(['CAM-02']);
    expect(await q('vid port')).toEqual(['CAM-01']);
    expect(await q('axis')).toEqual(['CAM-01', 'CAM-02']);
    expect(await q('hallstahammar')).toEqual(['CAM-01', 'CAM-02']);
    expect(await q('10002')).toEqual(['CAM-01', 'CAM-02']);
    expect(await q('solglänta')).toEqual(['SN-1001']);
  });

  it('filters by customer, model and status, alone and with q', async () => {
    const serials = async (query: string) =>
      (await call('GET', `/api/bo?${query}`, admin)).json().bos.map((x: { serialCode: string }) => x.serialCode);
    expect(await serials(`customerId=${ref.customer2}`)).toEqual(['CAM-01', 'CAM-02']);
    expect(await serials(`customerId=${ref.customer2}&q=entr`)).toEqual(['CAM-01']);
    expect(await serials(`modelId=${ref.model2}&status=inactive`)).toEqual(['CAM-02']);
    expect(await serials(`customerId=${ref.customer2}&status=`)).toEqual(['CAM-01', 'CAM-02']);
    expect((await call('GET', '/api/bo?customerId=bad', admin)).status).toBe(400);
  });

  it('includes the specification data when asked', async () => {
    const one = (await call('GET', `/api/bo?q=CAM-01`, admin)).json().bos[0];
    await call('PUT', `/api/bo/${one.id}/spec`, admin, { data: { Höjd: '2,4 m', Zoner: 4 } });
    const withSpec = (await call('GET', '/api/bo?q=CAM-01&includeSpecificationData=true', admin)).json();
    expect(withSpec.bos[0].specification).toEqual({ Höjd: '2,4 m', Zoner: 4 });
  });

  it('runs the same number of statements for 2 rows as for 200', async () => {
    const auth = await withTenant(tenantA, (trx) =>
      validateSession(trx, admin, new Date(), { idleMinutes: 30, absoluteHours: 12 }),
    );
    const run = async (query: Record<string, unknown>) => {
      const { result, counter } = countQueries(() =>
        inTenant({ tenant: tenantA, auth, lang: 'sv' }, (ctx) => listBusinessObjects(ctx, query)),
      );
      await result;
      return counter.statements;
    };
    expect(await run({ limit: 2 })).toBe(await run({ limit: 200, q: 'a' }));
  });

  it('needs bo:read; another tenant sees none of it', async () => {
    expect((await call('GET', '/api/bo', tech)).status).toBe(200);
    expect((await call('POST', '/api/bo', tech, { bo: { serialCode: 'T-1' } })).status).toBe(403);
    expect((await call('GET', '/api/bo', adminB, undefined, b.host)).json()).toEqual({ bos: [], totalCount: 0 });
  });
});

describe('[objects] article prices, specification, service log', () => {
  let id: string;
  beforeAll(async () => {
    id = await create({ serialCode: 'PRICE-1' });
  });

  it('sets, changes, lists and removes an object article price', async () => {
    const body = { businessObjectId: id, articleId: ref.article, price: '595,50' };
    expect((await call('POST', '/api/bo/articles', admin, body)).status).toBe(200);
    expect((await call('GET', `/api/bo/${id}/articles`, admin)).json()).toEqual({
      articles: [
        {
          articleId: ref.article,
          articleNumber: 'A-100',
          title: 'Service hour',
          unit: null,
          price: '595.50',
          listPrice: '650.00',
        },
      ],
    });
    expect((await call('PUT', '/api/bo/articles', admin, { ...body, price: 600 })).status).toBe(200);
    expect((await call('GET', `/api/bo/${id}/articles`, admin)).json().articles[0].price).toBe('600.00');
    const bad = await call('POST', '/api/bo/articles', admin, { ...body, price: '12a' });
    expect(bad.json().fields).toEqual({ price: ['ERROR_PRICE_PATTERN'] });
    expect((await call('POST', '/api/bo/articles', admin, { ...body, price: '-5' })).json().fields).toEqual({
      price: ['ERROR_NEGATIVE_AMOUNT'],
    });
    expect((await call('POST', '/api/bo/articles', tech, body)).status).toBe(403);
    expect((await call('DELETE', `/api/bo/${id}/articles?articleId=${ref.article}`, admin)).status).toBe(200);
    expect((await call('GET', `/api/bo/${id}/articles`, admin)).json()).toEqual({ articles: [] });
    expect((await call('DELETE', `/api/bo/${id}/articles?articleId=${ref.article}`, admin)).status).toBe(404);
    expect((await call('PUT', '/api/bo/articles', admin, body)).status).toBe(404);
    expect((await call('POST', '/api/bo/articles', adminB, body, b.host)).status).toBe(404);
  });

  it('stores specification data and custom specification forms', async () => {
    expect((await call('GET', `/api/bo/${id}/spec`, admin)).json()).toEqual({ data: {} });
    expect((await call('PUT', `/api/bo/${id}/spec`, admin, { data: { Märkspänning: '230 V' } })).status).toBe(200);
    expect((await call('GET', `/api/bo/${id}/spec`, admin)).json()).toEqual({ data: { Märkspänning: '230 V' } });
    expect((await call('PUT', `/api/bo/${id}/spec`, admin, { data: { x: { nested: 1 } } })).status).toBe(400);
    expect((await call('PUT', `/api/bo/${id}/spec`, tech, { data: {} })).status).toBe(403);
    expect((await call('PUT', `/api/bo/${id}/spec/custom/door`, admin, { data: { Bredd: 900 } })).status).toBe(200);
    expect((await call('GET', `/api/bo/${id}/spec/custom/door`, admin)).json()).toMatchObject({
      data: { Bredd: 900 },
      updatedBy: expect.any(String),
    });
    expect((await call('GET', `/api/bo/${id}/spec/custom/Bad Type`, admin)).status).toBe(404);
  });

  it('keeps security-system forms per type, validated by their field lists, behind the security module', async () => {
    const data = {
      controlPanel: 'Galaxy Flex 50',
      certificationClass: 'class2',
      numberOfZones: '12',
      installationDate: '2024-03-05',
    };
    expect((await call('PUT', `/api/bo/${id}/sec/form`, admin, { data })).status).toBe(200);
    expect((await call('GET', `/api/bo/${id}/sec/form`, admin)).json()).toMatchObject({
      data: {
        controlPanel: 'Galaxy Flex 50',
        certificationClass: 'class2',
        numberOfZones: 12,
        installationDate: '2024-03-05',
      },
    });
    const bad = await call('PUT', `/api/bo/${id}/sec/camera`, admin, {
      data: { storageDays: -1, remoteAccess: 'maybe', unknownField: 'x' },
    });
    expect(bad.status).toBe(400);
    expect(bad.json().fields).toMatchObject({
      'data.storageDays': ['ERROR_NEGATIVE_AMOUNT'],
      'data.remoteAccess': ['ERROR_INVALID_VALUE'],
    });
    for (const type of ['passage', 'camera', 'firealarm', 'assault'])
      expect((await call('GET', `/api/bo/${id}/sec/${type}`, admin)).json()).toEqual({
        data: {},
        updatedAt: null,
        updatedBy: null,
      });
    expect(
      (
        await call('PUT', `/api/bo/${id}/sec/firealarm`, admin, {
          data: { sprinkler: true, monitoring: 'rescue_service' },
        })
      ).status,
    ).toBe(200);
    expect(Object.keys((await call('GET', `/api/bo/${id}/sec`, admin)).json()).sort()).toEqual([
      'burglary',
      'firealarm',
    ]);
    // The technician has no security:bo_document permission.
    expect((await call('GET', `/api/bo/${id}/sec/form`, tech)).status).toBe(403);
    // Without the app module an office user with the permission is refused (a super user is not).
    expect((await call('GET', `/api/bo/${id}/sec/form`, office)).status).toBe(200);
    await withTenant(tenantA, (trx) => trx('app_modules').where({ id: 'security' }).update({ enabled: false }));
    try {
      expect((await call('GET', `/api/bo/${id}/sec/form`, office)).status).toBe(403);
      expect((await call('PUT', `/api/bo/${id}/sec/form`, office, { data: {} })).status).toBe(403);
    } finally {
      await withTenant(tenantA, (trx) => trx('app_modules').where({ id: 'security' }).update({ enabled: true }));
    }
  });

  it('adds, pages and corrects service log entries (bo:service_log)', async () => {
    for (let i = 1; i <= 22; i++) {
      const res = await call('POST', `/api/bo/${id}/servicelog`, admin, { entry: `Besök ${i}` });
      expect(res.status).toBe(200);
    }
    const first = (await call('GET', `/api/bo/${id}/servicelog`, admin)).json();
    expect(first.totalCount).toBe(22);
    expect(first.logs).toHaveLength(20);
    expect(first.logs[0]).toMatchObject({ entry: 'Besök 22', userName: expect.any(String) });
    const rest = (await call('GET', `/api/bo/${id}/servicelog?from=20`, admin)).json();
    expect(rest.logs.map((l: { entry: string }) => l.entry)).toEqual(['Besök 2', 'Besök 1']);
    const logId = rest.logs[0].id;
    expect(
      (await call('PUT', `/api/bo/${id}/servicelog/${logId}`, admin, { entry: 'Besök 2, batteri bytt' })).status,
    ).toBe(200);
    const again = (await call('GET', `/api/bo/${id}/servicelog?from=20`, admin)).json().logs[0];
    expect(again).toMatchObject({ entry: 'Besök 2, batteri bytt', updatedByName: expect.any(String) });
    expect((await call('POST', `/api/bo/${id}/servicelog`, admin, { entry: ' ' })).json().fields).toEqual({
      entry: ['ERROR_REQUIRED_FIELD'],
    });
    expect((await call('GET', `/api/bo/${id}/servicelog`, tech)).status).toBe(200);
    expect((await call('POST', `/api/bo/${id}/servicelog`, tech, { entry: 'x' })).status).toBe(403);
    const other = await create({ serialCode: 'PRICE-2' });
    expect((await call('PUT', `/api/bo/${other}/servicelog/${logId}`, admin, { entry: 'x' })).status).toBe(404);
    expect((await call('GET', `/api/bo/${id}/servicelog`, adminB, undefined, b.host)).status).toBe(404);
  });
});

describe('[objects] delete and isolation', () => {
  it('needs bo:delete, deletes with everything on it, and answers 404 afterwards', async () => {
    const id = await create({ serialCode: 'DEL-1' });
    await call('PUT', `/api/bo/${id}/contacts`, admin, { contacts: [{ name: 'Kalle' }] });
    await call('POST', `/api/bo/${id}/servicelog`, admin, { entry: 'x' });
    expect((await call('DELETE', `/api/bo/${id}`, tech)).status).toBe(403);
    expect((await call('DELETE', `/api/bo/${id}`, adminB, undefined, b.host)).status).toBe(404);
    expect((await call('DELETE', `/api/bo/${id}`, admin)).status).toBe(200);
    expect((await call('GET', `/api/bo/${id}`, admin)).status).toBe(404);
    expect((await call('DELETE', `/api/bo/${id}`, admin)).status).toBe(404);
  });

  it("answers 404 for another tenant's object on every read", async () => {
    const id = (await call('GET', '/api/bo?q=SN-1001', admin)).json().bos[0].id;
    for (const path of [
      `/api/bo/${id}`,
      `/api/bo/${id}/customer`,
      `/api/bo/${id}/history`,
      `/api/bo/${id}/articles`,
      `/api/bo/${id}/spec`,
      `/api/bo/${id}/sec/form`,
      `/api/bo/${id}/servicelog`,
    ])
      expect((await call('GET', path, adminB, undefined, b.host)).status, path).toBe(404);
    expect((await call('PUT', '/api/bo', adminB, { bo: { id, location: 'x' } }, b.host)).status).toBe(404);
    expect((await call('GET', '/api/bo/not-a-uuid', admin)).status).toBe(404);
  });
});

describe('[objects] demo data', () => {
  it('seeds models, objects at the demo customers, sealed codes that open, forms and service log; twice is once', async () => {
    const t = await createTestTenant('bo-demo');
    const tenant = (await getTenantBySlug(t.slug))!;
    await withTenant(tenant, async (trx) => {
      await trx('customers').insert({ customer_id: '10001', name: 'Brf Solgläntan' });
      await seedDemoObjects(trx);
      await seedDemoObjects(trx);
    });
    const token = await signIn(t, t.adminEmail);
    const list = (await call('GET', '/api/bo?limit=200', token, undefined, t.host)).json();
    expect(list.totalCount).toBe(DEMO_OBJECTS.length);
    const first = list.bos.find((x: { serialCode: string }) => x.serialCode === '50001');
    expect(first).toMatchObject({ customerNumber: '10001', modelName: 'Galaxy Flex 50' });
    expect(list.bos.find((x: { serialCode: string }) => x.serialCode === '50004').customerId).toBeNull();
    expect((await call('GET', '/api/models', token, undefined, t.host)).json().totalCount).toBe(DEMO_MODELS.length);
    const groups = (await call('GET', `/api/bo/${first.id}/codes/groups`, token, undefined, t.host)).json().groups;
    const master = groups[0].codes.find((c: { displayName: string }) => c.displayName === 'Huvudkod');
    expect(
      (await call('GET', `/api/bo/${first.id}/codes/groups/code/${master.id}`, token, undefined, t.host)).json(),
    ).toEqual({
      value: '4711',
    });
    expect(
      (await call('GET', `/api/bo/${first.id}/sec/form`, token, undefined, t.host)).json().data.numberOfZones,
    ).toBe(12);
    expect((await call('GET', `/api/bo/${first.id}/servicelog`, token, undefined, t.host)).json().totalCount).toBe(2);
  });
});
