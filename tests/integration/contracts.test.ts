import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as listRoute from '~/app/routes/contracts';
import * as contractRoute from '~/app/routes/contracts.$id';
import * as newRoute from '~/app/routes/contracts.new';
import { withTenant } from '~/core/db/with-tenant';
import type { Tenant } from '~/core/tenancy/tenant';
import { ensureUser } from '~/core/users/create-user';
import { seedDemoContracts } from '~/tenants/demo-data/contracts';
import { getTenantBySlug } from '~/tenants/registry';
import { createTestTenant, PASSWORD, startTestServer, type TestServer, type TestTenant } from '~/tests/helpers/app';
import { testApi } from '~/tests/helpers/api';
import { runRouteAs } from '~/tests/helpers/route-loader';

let srv: TestServer;
let a: TestTenant;
let b: TestTenant;
let tenantA: Tenant;
let admin: string;
let tech: string;
let adminB: string;
/** Sellers: read, edit, create and close their own contracts. */
let seller1: string;
let seller2: string;
/** Reads every contract, changes none. */
let reader: string;
/** Reads and edits every contract and deletes them. */
let manager: string;
const ids: Record<string, string> = {};
let solrosen: string;
let kvarnen: string;
let customerB: string;

const { signIn, call } = testApi(() => ({ url: srv.url, host: a.host }));

beforeAll(async () => {
  srv = await startTestServer();
  a = await createTestTenant('ktr-a');
  b = await createTestTenant('ktr-b');
  tenantA = (await getTenantBySlug(a.slug))!;
  await withTenant(tenantA, async (trx) => {
    await trx('access_levels').insert([
      {
        display_name: 'Säljare',
        description: 'Own contracts',
        permissions: ['contracts:read', 'contracts:edit', 'contracts:create', 'contracts:close', 'customers:read'],
        work_order_limit: 'none',
      },
      {
        display_name: 'Kontraktsläsare',
        description: 'Reads every contract',
        permissions: ['contracts:read', 'contracts:read_all'],
        work_order_limit: 'none',
      },
      {
        display_name: 'Kontraktsansvarig',
        description: 'Edits and deletes every contract',
        permissions: ['contracts:read', 'contracts:edit', 'contracts:edit_all', 'contracts:delete'],
        work_order_limit: 'none',
      },
    ]);
    for (const [email, name, level] of [
      ['seller1', 'Sune Säljare', 'Säljare'],
      ['seller2', 'Siv Säljare', 'Säljare'],
      ['reader', 'Rut Läsare', 'Kontraktsläsare'],
      ['manager', 'Mats Chef', 'Kontraktsansvarig'],
    ] as const) {
      const u = await ensureUser(trx, {
        email: `${email}@${a.slug}.se`,
        name,
        password: PASSWORD,
        accessLevels: [level],
      });
      ids[email] = u.id;
    }
    const rows = (await trx('customers')
      .insert([
        { customer_id: '10001', name: 'Brf Solrosen' },
        { customer_id: '10002', name: 'Kvarnen Fastigheter AB' },
      ])
      .returning('id')) as { id: string }[];
    [solrosen, kvarnen] = rows.map((r) => r.id) as [string, string];
    ids.admin = ((await trx('users').whereRaw('lower(email) = ?', [a.adminEmail]).first('id')) as { id: string }).id;
  });
  customerB = await withTenant((await getTenantBySlug(b.slug))!, async (trx) => {
    const [row] = (await trx('customers').insert({ customer_id: '10001', name: 'Other AB' }).returning('id')) as {
      id: string;
    }[];
    return row!.id;
  });
  admin = await signIn(a, a.adminEmail);
  tech = await signIn(a, a.technicianEmail);
  adminB = await signIn(b, b.adminEmail);
  seller1 = await signIn(a, `seller1@${a.slug}.se`);
  seller2 = await signIn(a, `seller2@${a.slug}.se`);
  reader = await signIn(a, `reader@${a.slug}.se`);
  manager = await signIn(a, `manager@${a.slug}.se`);
});
afterAll(() => srv.close());

const ok = async (method: string, path: string, token: string, body?: unknown) => {
  const res = await call(method, path, token, body);
  expect(res.status, `${method} ${path}: ${res.text}`).toBe(200);
  return res.json();
};

/** A contract as the API takes it, with whatever the test changes. */
const draft = (patch: Record<string, unknown> = {}) => ({
  title: 'Larmservice',
  customerId: solrosen,
  services: [],
  ...patch,
});

const numbersOf = (list: { contracts: { number: string }[] }) => list.contracts.map((c) => c.number);
const count = () =>
  withTenant(tenantA, async (trx) => ({
    contracts: Number(((await trx('contracts').count({ n: '*' })) as { n: string }[])[0]!.n),
    services: Number(((await trx('contract_services').count({ n: '*' })) as { n: string }[])[0]!.n),
  }));

describe('[contracts] CRUD and totals', () => {
  it('creates a contract with services: totals and margin are the sums, the creator is the sales user', async () => {
    const { contract } = await ok('POST', '/api/contracts', admin, {
      contract: draft({
        number: 'K-100',
        title: 'Larmservice Solrosen',
        contactName: 'Eva Ek',
        contactEmail: 'eva@solrosen.se',
        contactPhone: '070-123 45 67',
        startDate: '2026-01-01',
        stopDate: '2026-12-31',
        invoiceReference: 'PO 4711',
        note: 'Årlig översyn i maj.',
        services: [
          { name: 'Larmcentral', value: '1 250,50', cost: 400 },
          { name: 'Service två gånger per år', value: '3000', cost: '1800.25' },
        ],
      }),
    });
    expect(contract).toMatchObject({
      number: 'K-100',
      title: 'Larmservice Solrosen',
      customerId: solrosen,
      customerName: 'Brf Solrosen',
      customerNumber: '10001',
      contactName: 'Eva Ek',
      contactEmail: 'eva@solrosen.se',
      contactPhone: '070-123 45 67',
      salesUserId: ids.admin,
      createUserId: ids.admin,
      status: 'open',
      closedAt: null,
      startDate: '2026-01-01',
      stopDate: '2026-12-31',
      invoiceReference: 'PO 4711',
      note: 'Årlig översyn i maj.',
      totalValue: '4250.50',
      totalCost: '2200.25',
      margin: '2050.25',
      serviceCount: 2,
      version: 1,
    });
    expect(
      contract.services.map((s: { name: string; value: string; cost: string }) => [s.name, s.value, s.cost]),
    ).toEqual([
      ['Larmcentral', '1250.50', '400.00'],
      ['Service två gånger per år', '3000.00', '1800.25'],
    ]);
    ids.k100 = contract.id;
    expect((await ok('GET', `/api/contracts/${contract.id}`, admin)).contract).toEqual(contract);
  });

  it('proposes the next free five-digit contract ID and uses it when none is given', async () => {
    expect(await ok('GET', '/api/contracts/id/propose', admin)).toEqual({ id: '10000' });
    const first = (
      await ok('POST', '/api/contracts', admin, { contract: draft({ title: 'Kameror Kvarnen', customerId: kvarnen }) })
    ).contract;
    expect(first.number).toBe('10000');
    expect(first.totalValue).toBe('0.00');
    expect(await ok('GET', '/api/contracts/id/propose', admin)).toEqual({ id: '10001' });
    ids.k10000 = first.id;
  });

  it('lists with the totals per row, filters by status, search, customer and sales user, pages', async () => {
    const list = await ok('GET', '/api/contracts', admin);
    expect(list.totalCount).toBe(2);
    // Those ending first; none set last.
    expect(numbersOf(list)).toEqual(['K-100', '10000']);
    expect(list.contracts[0]).toMatchObject({ totalValue: '4250.50', totalCost: '2200.25', margin: '2050.25' });
    expect(list.contracts[0].services).toBeUndefined();
    expect(numbersOf(await ok('GET', '/api/contracts?q=po%204711', admin))).toEqual(['K-100']);
    // The customer's name and number are searched too.
    expect(numbersOf(await ok('GET', '/api/contracts?q=kvarnen', admin))).toEqual(['10000']);
    expect(numbersOf(await ok('GET', `/api/contracts?customerId=${solrosen}`, admin))).toEqual(['K-100']);
    expect(numbersOf(await ok('GET', `/api/contracts?salesUserId=${ids.seller1}`, admin))).toEqual([]);
    expect(numbersOf(await ok('GET', '/api/contracts?sort=number', admin))).toEqual(['10000', 'K-100']);
    const page = await ok('GET', '/api/contracts?limit=1&offset=1', admin);
    expect(page.totalCount).toBe(2);
    expect(numbersOf(page)).toEqual(['10000']);
    // A LIKE wildcard is a plain character.
    expect((await ok('GET', '/api/contracts?q=%25', admin)).totalCount).toBe(0);
    expect((await call('GET', '/api/contracts?status=gone', admin)).status).toBe(400);
  });

  it('updates every field and replaces the services; a stale version is 409 CONTRACT_CHANGED', async () => {
    const { contract } = await ok('GET', `/api/contracts/${ids.k100}`, admin);
    const { contract: saved } = await ok('PUT', '/api/contracts', admin, {
      contract: {
        ...contract,
        title: 'Larm och kameror Solrosen',
        salesUserId: ids.seller1,
        contactEmail: '',
        stopDate: '2027-06-30',
        services: [{ name: 'Larmcentral', value: '1500', cost: '500' }],
      },
    });
    expect(saved).toMatchObject({
      title: 'Larm och kameror Solrosen',
      salesUserId: ids.seller1,
      salesUserName: 'Sune Säljare',
      contactEmail: null,
      stopDate: '2027-06-30',
      totalValue: '1500.00',
      totalCost: '500.00',
      margin: '1000.00',
      version: 2,
    });
    expect(saved.services).toHaveLength(1);
    const stale = await call('PUT', '/api/contracts', admin, { contract: { ...contract, title: 'Old' } });
    expect(stale.status).toBe(409);
    expect(stale.json().code).toBe('CONTRACT_CHANGED');
    expect((await ok('GET', `/api/contracts/${ids.k100}`, admin)).contract.title).toBe('Larm och kameror Solrosen');
  });

  it('refuses a taken contract ID, whatever its case, on create and edit (409 DUPLICATE_CONTRACT_ID)', async () => {
    const before = await count();
    const dup = await call('POST', '/api/contracts', admin, { contract: draft({ number: 'k-100' }) });
    expect(dup.status).toBe(409);
    expect(dup.json()).toMatchObject({ code: 'DUPLICATE_CONTRACT_ID', fields: { number: ['DUPLICATE_CONTRACT_ID'] } });
    const { contract } = await ok('GET', `/api/contracts/${ids.k10000}`, admin);
    const taken = await call('PUT', '/api/contracts', admin, {
      contract: { ...contract, number: 'K-100', services: [{ name: 'X', value: 1, cost: 0 }] },
    });
    expect(taken.status).toBe(409);
    expect(taken.json().code).toBe('DUPLICATE_CONTRACT_ID');
    // Nothing half-written: no contract, no services of the refused edit.
    expect(await count()).toEqual(before);
    expect((await ok('GET', `/api/contracts/${ids.k10000}`, admin)).contract).toMatchObject({
      number: '10000',
      version: 1,
    });
  });

  it('validates with field errors and writes nothing: stop before start, negative or malformed amounts, required fields', async () => {
    const before = await count();
    const res = await call('POST', '/api/contracts', admin, {
      contract: {
        number: 'A B',
        title: '',
        customerId: '',
        contactEmail: 'not-an-email',
        startDate: '2026-05-01',
        stopDate: '2026-04-30',
        services: [
          { name: 'Ok', value: '100', cost: '-1' },
          { name: '', value: 'abc', cost: '1' },
        ],
      },
    });
    expect(res.status).toBe(400);
    expect(res.json()).toEqual({
      code: 'VALIDATION_FAILED',
      fields: {
        'contract.number': ['ERROR_NO_SPACES'],
        'contract.title': ['ERROR_REQUIRED_FIELD'],
        'contract.customerId': ['ERROR_REQUIRED_FIELD'],
        'contract.contactEmail': ['ERROR_INVALID_EMAIL'],
        'contract.stopDate': ['ERROR_STOP_DATE_BEFORE_START_DATE'],
        'contract.services.0.cost': ['ERROR_NEGATIVE_AMOUNT'],
        'contract.services.1.name': ['ERROR_REQUIRED_FIELD'],
        'contract.services.1.value': ['ERROR_PRICE_PATTERN'],
      },
    });
    const { contract } = await ok('GET', `/api/contracts/${ids.k100}`, admin);
    const edit = await call('PUT', '/api/contracts', admin, {
      contract: { ...contract, startDate: '2028-01-01', services: [{ name: 'Dyr', value: '-5', cost: '0' }] },
    });
    expect(edit.status).toBe(400);
    expect(edit.json().fields).toEqual({
      'contract.stopDate': ['ERROR_STOP_DATE_BEFORE_START_DATE'],
      'contract.services.0.value': ['ERROR_NEGATIVE_AMOUNT'],
    });
    expect(await count()).toEqual(before);
    expect((await ok('GET', `/api/contracts/${ids.k100}`, admin)).contract).toEqual(contract);
    // No contract object at all (a body of [] or {contract: 1}): the dates check has nothing to read.
    for (const [method, body] of [
      ['POST', []],
      ['PUT', { contract: 1 }],
    ] as const) {
      const bad = await call(method, '/api/contracts', admin, body);
      expect(bad.status, bad.text).toBe(400);
      expect(bad.json()).toEqual({ code: 'VALIDATION_FAILED', fields: { contract: ['ERROR_INVALID_VALUE'] } });
    }
  });
});

describe('[contracts] own and all', () => {
  it('a seller sees and edits only the contracts they sell or created; someone else’s is 404', async () => {
    // K-100's sales user is seller1 (above); seller2 creates one of their own.
    const own2 = (await ok('POST', '/api/contracts', seller2, { contract: draft({ number: 'S2-1', title: 'Siv' }) }))
      .contract;
    expect(own2).toMatchObject({ salesUserId: ids.seller2, createUserId: ids.seller2 });
    ids.s2 = own2.id;

    expect(numbersOf(await ok('GET', '/api/contracts', seller1))).toEqual(['K-100']);
    expect(numbersOf(await ok('GET', '/api/contracts', seller2))).toEqual(['S2-1']);
    // The scope cannot be widened without contracts:read_all.
    expect(numbersOf(await ok('GET', '/api/contracts?scope=all', seller1))).toEqual(['K-100']);

    expect((await call('GET', `/api/contracts/${ids.s2}`, seller1)).status).toBe(404);
    const other = (await ok('GET', `/api/contracts/${ids.s2}`, admin)).contract;
    expect((await call('PUT', '/api/contracts', seller1, { contract: { ...other, title: 'Mine now' } })).status).toBe(
      404,
    );
    expect((await call('POST', `/api/contracts/${ids.s2}/close`, seller1)).status).toBe(404);

    // Their own (as sales user): edited.
    const mine = (await ok('GET', `/api/contracts/${ids.k100}`, seller1)).contract;
    const saved = (await ok('PUT', '/api/contracts', seller1, { contract: { ...mine, note: 'Sune var här' } }))
      .contract;
    expect(saved.note).toBe('Sune var här');
    // Not allowed to delete (no contracts:delete).
    expect((await call('DELETE', `/api/contracts/${ids.k100}`, seller1)).status).toBe(403);
  });

  it('contracts:read_all shows every contract and lets the reader narrow to their own, but not edit', async () => {
    const all = await ok('GET', '/api/contracts?sort=number', reader);
    expect(numbersOf(all)).toEqual(['10000', 'K-100', 'S2-1']);
    expect((await ok('GET', '/api/contracts?scope=mine', reader)).totalCount).toBe(0);
    const other = (await ok('GET', `/api/contracts/${ids.s2}`, reader)).contract;
    expect((await call('PUT', '/api/contracts', reader, { contract: other })).status).toBe(403);
    expect((await call('POST', '/api/contracts', reader, { contract: draft({ number: 'R-1' }) })).status).toBe(403);
  });

  it('contracts:edit_all edits anyone’s contract (and so sees it)', async () => {
    const other = (await ok('GET', `/api/contracts/${ids.s2}`, manager)).contract;
    const saved = (
      await ok('PUT', '/api/contracts', manager, {
        contract: { ...other, services: [{ name: 'Tillägg', value: '10', cost: '2' }] },
      })
    ).contract;
    expect(saved).toMatchObject({ totalValue: '10.00', totalCost: '2.00', margin: '8.00', salesUserId: ids.seller2 });
    expect((await ok('GET', '/api/contracts', manager)).totalCount).toBe(3);
  });

  it('without contracts permissions, or with the module off, every call is refused', async () => {
    expect((await call('GET', '/api/contracts', tech)).status).toBe(403);
    expect((await call('GET', `/api/contracts/${ids.k100}`, tech)).status).toBe(403);
    expect((await call('POST', '/api/contracts', tech, { contract: draft() })).status).toBe(403);
    await withTenant(tenantA, (trx) => trx('app_modules').where({ id: 'contracts' }).update({ enabled: false }));
    try {
      const res = await call('GET', '/api/contracts', seller1);
      expect(res.status).toBe(403);
      expect(res.json()).toEqual({ code: 'WARNING_PERMISSION_DENIED' });
      expect((await call('GET', `/api/contracts/${ids.k100}`, seller1)).status).toBe(403);
      expect((await call('POST', '/api/contracts', seller1, { contract: draft({ number: 'X-1' }) })).status).toBe(403);
    } finally {
      await withTenant(tenantA, (trx) => trx('app_modules').where({ id: 'contracts' }).update({ enabled: true }));
    }
  });
});

describe('[contracts] close, reopen and delete', () => {
  it('closes and reopens (contracts:close); a closed contract cannot be edited', async () => {
    const closed = (await ok('POST', `/api/contracts/${ids.k100}/close`, seller1)).contract;
    expect(closed.status).toBe('closed');
    expect(closed.closedAt).toEqual(expect.any(String));
    expect((await call('POST', `/api/contracts/${ids.k100}/close`, seller1)).json().code).toBe('CONTRACT_CLOSED');
    const edit = await call('PUT', '/api/contracts', seller1, { contract: closed });
    expect(edit.status).toBe(409);
    expect(edit.json().code).toBe('CONTRACT_CLOSED');
    // Open ones unless told.
    expect(numbersOf(await ok('GET', '/api/contracts', admin))).not.toContain('K-100');
    expect(numbersOf(await ok('GET', '/api/contracts?status=closed', admin))).toEqual(['K-100']);
    // The manager edits everything but may not close.
    expect((await call('POST', `/api/contracts/${ids.k100}/reopen`, manager)).status).toBe(403);

    const reopened = (await ok('POST', `/api/contracts/${ids.k100}/reopen`, seller1)).contract;
    expect(reopened).toMatchObject({ status: 'open', closedAt: null, version: closed.version + 1 });
    expect((await call('POST', `/api/contracts/${ids.k100}/reopen`, seller1)).json().code).toBe('CONTRACT_NOT_CLOSED');
  });

  it('deletes a contract with its services (contracts:delete); afterwards it is not found', async () => {
    const before = await count();
    expect((await call('DELETE', `/api/contracts/${ids.s2}`, manager)).status).toBe(200);
    expect((await call('GET', `/api/contracts/${ids.s2}`, admin)).status).toBe(404);
    expect(await count()).toEqual({ contracts: before.contracts - 1, services: before.services - 1 });
    const history = await withTenant(tenantA, (trx) =>
      trx('history').where({ entity: 'contract', entity_id: ids.s2 }).orderBy('at').pluck('action'),
    );
    expect(history).toEqual(['create', 'edit', 'delete']);
  });

  it('a customer with contracts is not deleted', async () => {
    const res = await call('DELETE', `/api/customers/${solrosen}`, admin);
    expect(res.status).toBe(409);
  });
});

describe('[contracts] tenants', () => {
  it('another tenant’s contract, or a malformed id, is 404; another tenant’s customer cannot be named', async () => {
    const { contract } = await ok('GET', `/api/contracts/${ids.k100}`, admin);
    expect((await call('GET', `/api/contracts/${ids.k100}`, adminB, undefined, b.host)).status).toBe(404);
    expect((await call('PUT', '/api/contracts', adminB, { contract }, b.host)).status).toBe(404);
    expect((await call('POST', `/api/contracts/${ids.k100}/close`, adminB, undefined, b.host)).status).toBe(404);
    expect((await call('DELETE', `/api/contracts/${ids.k100}`, adminB, undefined, b.host)).status).toBe(404);
    expect((await call('GET', '/api/contracts/not-a-uuid', admin)).status).toBe(404);
    expect((await call('GET', '/api/contracts', adminB, undefined, b.host)).json().totalCount).toBe(0);
    const foreign = await call('POST', '/api/contracts', admin, {
      contract: draft({ number: 'F-1', customerId: customerB }),
    });
    expect(foreign.status).toBe(404);
  });
});

describe('[contracts] demo data', () => {
  it('seeds two open contracts with their services once, which the list shows with totals', async () => {
    const tenantB = (await getTenantBySlug(b.slug))!;
    await withTenant(tenantB, async (trx) => {
      await trx('customers').insert({ customer_id: '10002', name: 'ICA Nära Fyris' });
      await seedDemoContracts(trx);
      await seedDemoContracts(trx);
    });
    const list = (await call('GET', '/api/contracts?sort=number', adminB, undefined, b.host)).json();
    expect(
      list.contracts.map((c: { number: string; totalValue: string; totalCost: string }) => [
        c.number,
        c.totalValue,
        c.totalCost,
      ]),
    ).toEqual([
      ['10001', '13700.00', '6400.00'],
      ['10002', '6000.00', '1800.00'],
    ]);
  });
});

type Handler = (args: never) => unknown;

/** A loader, action or guard run as React Router runs it, as `token` on tenant A. */
const runRoute = (
  handler: Handler,
  token: string,
  url: string,
  init: { form?: Record<string, string | string[]>; params?: Record<string, string> } = {},
) => runRouteAs(handler, { tenant: tenantA, host: a.host, token }, url, init);

/** The route's guard: 200 when it lets the request through, else its status. */
async function guardStatus(middleware: readonly unknown[], token: string, url: string) {
  const guard = middleware[0] as (a: unknown, next: () => Promise<Response>) => Promise<unknown>;
  const res = await runRoute(
    ((args: object) => guard({ ...args, params: {} }, async () => new Response(null))) as Handler,
    token,
    url,
  );
  return res.location ? 302 : res.status;
}

describe('[contracts] the pages', () => {
  it('the list opens with contracts:read and the module; a seller sees their own, without the own/all choice', async () => {
    expect(await guardStatus(listRoute.middleware, seller1, '/contracts')).toBe(200);
    expect(await guardStatus(listRoute.middleware, tech, '/contracts')).toBe(403);
    expect(await guardStatus(newRoute.middleware, reader, '/contracts/new')).toBe(403);
    const mine = await runRoute(listRoute.loader as Handler, seller1, '/contracts?scope=all&status=bogus');
    expect(mine.body).toMatchObject({ seesAll: false, scope: 'mine', status: 'open', totalCount: 1 });
    expect(mine.body!.contracts.map((c: { number: string }) => c.number)).toEqual(['K-100']);
    const all = await runRoute(listRoute.loader as Handler, admin, `/contracts?customerId=${solrosen}`);
    expect(all.body).toMatchObject({
      seesAll: true,
      scope: 'all',
      customer: { id: solrosen, label: '10001 – Brf Solrosen' },
    });
  });

  it('a new contract is saved from the form with its services; the page then opens it', async () => {
    const made = await runRoute(newRoute.action as Handler, seller1, '/contracts/new', {
      form: {
        number: '',
        title: 'Passage Kvarnen',
        customerId: kvarnen,
        contactName: 'Kim',
        contactEmail: '',
        contactPhone: '',
        salesUserId: 'none',
        startDate: '2026-02-01',
        stopDate: '',
        invoiceReference: '',
        note: '',
        'service.name': ['Kortläsare', 'Support'],
        'service.value': ['1 200,50', ''],
        'service.cost': ['300', '0'],
      },
    });
    expect(made.location).toMatch(/^\/contracts\/[0-9a-f-]{36}\?created=1$/);
    const id = /contracts\/([0-9a-f-]{36})/.exec(made.location!)![1]!;
    const page = await runRoute(contractRoute.loader as Handler, seller1, `/contracts/${id}`, { params: { id } });
    expect(page.body!.can).toEqual({ edit: true, close: true, delete: false });
    expect(page.body!.contract).toMatchObject({
      number: '10001',
      salesUserId: null,
      createUserId: ids.seller1,
      startDate: '2026-02-01',
      totalValue: '1200.50',
      totalCost: '300.00',
    });
    ids.page = id;
    // Someone else's contract is the not-found page.
    const other = await runRoute(contractRoute.loader as Handler, seller2, `/contracts/${id}`, { params: { id } });
    expect(other.status).toBe(404);
  });

  it('saves with the version shown, answers field errors and conflicts, closes and deletes', async () => {
    const id = ids.page!;
    const form = (patch: Record<string, string | string[]>) => ({
      intent: 'save',
      version: '1',
      number: '10001',
      title: 'Passage Kvarnen',
      customerId: kvarnen,
      salesUserId: ids.seller1!,
      'service.name': ['Kortläsare'],
      'service.value': ['1000'],
      'service.cost': ['250'],
      ...patch,
    });
    const bad = await runRoute(contractRoute.action as Handler, seller1, `/contracts/${id}`, {
      params: { id },
      form: form({ startDate: '2026-03-01', stopDate: '2026-02-01', 'service.cost': ['-1'] }),
    });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({
      intent: 'save',
      fields: {
        'contract.stopDate': ['ERROR_STOP_DATE_BEFORE_START_DATE'],
        'contract.services.0.cost': ['ERROR_NEGATIVE_AMOUNT'],
      },
    });
    const saved = await runRoute(contractRoute.action as Handler, seller1, `/contracts/${id}`, {
      params: { id },
      form: form({}),
    });
    expect(saved.body).toEqual({ ok: true, intent: 'save' });
    const stale = await runRoute(contractRoute.action as Handler, seller1, `/contracts/${id}`, {
      params: { id },
      form: form({}),
    });
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({ code: 'CONTRACT_CHANGED' });
    const closed = await runRoute(contractRoute.action as Handler, seller1, `/contracts/${id}`, {
      params: { id },
      form: { intent: 'close' },
    });
    expect(closed.body).toMatchObject({ ok: true, intent: 'close' });
    const refused = await runRoute(contractRoute.action as Handler, seller1, `/contracts/${id}`, {
      params: { id },
      form: { intent: 'delete' },
    });
    expect(refused.status).toBe(403);
    const deleted = await runRoute(contractRoute.action as Handler, admin, `/contracts/${id}`, {
      params: { id },
      form: { intent: 'delete' },
    });
    expect(deleted.location).toBe('/contracts?deleted=1');
  });
});
