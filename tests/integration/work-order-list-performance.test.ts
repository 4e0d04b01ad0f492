/**
 * What decision 012 changed under the work-order list, through the API: the capped total, the
 * customer sort on the order's kept customer name, the search on the kept customer and object
 * text, and the unassigned filter on the kept assignee count (migration 0010's triggers), whichever
 * way the rows change.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTenant } from '~/core/db/with-tenant';
import type { Tenant } from '~/core/tenancy/tenant';
import { TOTAL_COUNT_CAP } from '~/core/work-orders/work-order-list.service';
import { getTenantBySlug } from '~/tenants/registry';
import { createTestTenant, startTestServer, type TestServer, type TestTenant } from '~/tests/helpers/app';
import { testApi } from '~/tests/helpers/api';

let srv: TestServer;
let a: TestTenant;
let big: TestTenant;
let tenantA: Tenant;
let tenantBig: Tenant;
let token: string;
let bigToken: string;
const id = {} as Record<string, string>;

const { signIn, call } = testApi(() => ({ url: srv.url, host: a.host }));
const bigApi = testApi(() => ({ url: srv.url, host: big.host }));

const list = async (query: string) => {
  const res = await call('GET', `/api/wo?size=200&${query}`, token);
  expect(res.status, res.text).toBe(200);
  return res.json() as { workOrders: { id: string; customerName: string | null }[]; totalCount: number };
};
const ids = async (query: string) => (await list(query)).workOrders.map((w) => w.id);

beforeAll(async () => {
  srv = await startTestServer();
  a = await createTestTenant('wop-a');
  big = await createTestTenant('wop-big');
  tenantA = (await getTenantBySlug(a.slug))!;
  tenantBig = (await getTenantBySlug(big.slug))!;
  await withTenant(tenantA, async (trx) => {
    const rows = await trx('customers')
      .insert([
        { customer_id: '30001', name: 'Beta Bygg AB' },
        { customer_id: '30002', name: 'ceta Larm AB' },
        { customer_id: '30003', name: 'Delta Drift AB' },
      ])
      .returning('id');
    Object.assign(id, { beta: rows[0].id, ceta: rows[1].id, delta: rows[2].id });
    id.admin = (await trx('users').where({ email: a.adminEmail }).first('id')).id;
  });
  token = await signIn(a, a.adminEmail);
  for (const [key, customerId] of [
    ['wBeta', id.beta],
    ['wCeta', id.ceta],
    ['wNone', null],
  ] as const) {
    const res = await call('POST', '/api/wo', token, {
      workOrder: { title: `Order ${key}`, customerId, assignees: [id.admin] },
    });
    expect(res.status, res.text).toBe(200);
    id[key] = res.json().workOrder.id;
  }
  // 10,001 orders in one tenant, so the open list's total is capped
  await withTenant(tenantBig, async (trx) => {
    const status = await trx('work_order_statuses').where({ is_default: true }).first('id');
    const type = await trx('work_types').where({ is_default: true }).first('id');
    await trx.raw(
      `insert into work_orders (number, title, status_id, work_type_id, intake_ts)
       select 'B-' || n, 'Massorder ' || n, ?, ?, now() - n * interval '1 minute'
       from generate_series(1, ?) n`,
      [status.id, type.id, TOTAL_COUNT_CAP + 1],
    );
  });
  bigToken = await bigApi.signIn(big, big.adminEmail);
}, 120_000);
afterAll(() => srv.close());

describe('the total', () => {
  it('is exact up to the cap and says so', async () => {
    const small = await list('');
    expect(small.totalCount).toBe(3);
    expect(small).toMatchObject({ totalCountCapped: false });
  });

  it('stops at the cap on a longer list, and reaches to the end of a page beyond it', async () => {
    const res = await bigApi.call('GET', '/api/wo?size=5', bigToken);
    expect(res.status, res.text).toBe(200);
    expect(res.json()).toMatchObject({ totalCount: TOTAL_COUNT_CAP, totalCountCapped: true });
    expect(res.json().workOrders).toHaveLength(5);
    // a page past the cap counts to its own end: here every row fits, so the total is exact
    const deep = (await bigApi.call('GET', `/api/wo?size=50&from=${TOTAL_COUNT_CAP - 10}`, bigToken)).json();
    expect(deep).toMatchObject({ totalCount: TOTAL_COUNT_CAP + 1, totalCountCapped: false });
    expect(deep.workOrders).toHaveLength(11);
    // a filter that leaves few rows is counted exactly
    const one = (await bigApi.call('GET', '/api/wo?size=5&search=massorder%2010001', bigToken)).json();
    expect(one).toMatchObject({ totalCount: 1, totalCountCapped: false });
  });
});

describe('sort by customer', () => {
  it('orders by the customer name (case-insensitive), orders without a customer last', async () => {
    expect(await ids('sort=customer')).toEqual([id.wBeta, id.wCeta, id.wNone]);
  });

  it('follows a renamed customer and an order moved to another customer', async () => {
    await withTenant(tenantA, (trx) => trx('customers').where({ id: id.beta }).update({ name: 'Östra Bygg AB' }));
    expect(await ids('sort=customer')).toEqual([id.wCeta, id.wBeta, id.wNone]);
    const moved = await call('PATCH', '/api/wo', token, { workOrder: { id: id.wNone, customerId: id.delta } });
    expect(moved.status, moved.text).toBe(200);
    expect(await ids('sort=customer')).toEqual([id.wCeta, id.wNone, id.wBeta]);
    const body = await list('sort=customer');
    expect(body.workOrders.map((w) => w.customerName)).toEqual(['ceta Larm AB', 'Delta Drift AB', 'Östra Bygg AB']);
    await call('PATCH', '/api/wo', token, { workOrder: { id: id.wNone, customerId: null } });
    expect(await ids('sort=customer')).toEqual([id.wCeta, id.wBeta, id.wNone]);
  });
});

describe('search on the customer and the object', () => {
  it('follows a renamed customer, a changed object and an order moved between them', async () => {
    const [bo] = await withTenant(tenantA, (trx) =>
      trx('business_objects').insert({ serial_code: 'SER-5150', location: 'Vindsförråd' }).returning('id'),
    );
    const res = await call('POST', '/api/wo', token, {
      workOrder: { title: 'Sökorder', customerId: id.delta, businessObjectId: bo.id, assignees: [id.admin] },
    });
    expect(res.status, res.text).toBe(200);
    const wo = res.json().workOrder.id as string;
    expect(await ids('search=delta%20drift')).toEqual([wo]);
    expect(await ids('search=30003')).toEqual([wo]);
    expect(await ids('search=ser-5150')).toEqual([wo]);
    expect(await ids('search=vindsf')).toEqual([wo]);
    // the customer's text and the object's, never one running into the other
    expect(await ids('search=ab%20ser')).toEqual([]);
    await withTenant(tenantA, async (trx) => {
      await trx('customers').where({ id: id.delta }).update({ name: 'Epsilon Energi AB' });
      await trx('business_objects').where({ id: bo.id }).update({ location: 'Källare' });
    });
    expect(await ids('search=delta%20drift')).toEqual([]);
    expect(await ids('search=epsilon')).toEqual([wo]);
    expect(await ids('search=vindsf')).toEqual([]);
    expect(await ids('search=källare')).toEqual([wo]);
    const moved = await call('PATCH', '/api/wo', token, {
      workOrder: { id: wo, customerId: id.ceta, businessObjectId: null },
    });
    expect(moved.status, moved.text).toBe(200);
    expect(await ids('search=epsilon')).toEqual([]);
    expect(await ids('search=ser-5150')).toEqual([]);
    expect(await ids('search=ceta%20larm')).toEqual(expect.arrayContaining([wo, id.wCeta]));
    await call('DELETE', `/api/wo/${wo}`, token);
  });
});

describe('unassigned', () => {
  it('finds orders whose assignees are all gone, and not once someone is assigned again', async () => {
    expect(await ids('unassigned=true')).toEqual([]);
    await withTenant(tenantA, (trx) => trx('work_order_assignees').where({ work_order_id: id.wCeta }).delete());
    expect(await ids('unassigned=true')).toEqual([id.wCeta]);
    const res = await call('PATCH', '/api/wo', token, { workOrder: { id: id.wCeta, assignees: [id.admin] } });
    expect(res.status, res.text).toBe(200);
    expect(await ids('unassigned=true')).toEqual([]);
    // a replaced assignee list (one out, another in) still counts as assigned
    const other = await withTenant(
      tenantA,
      async (trx) => (await trx('users').whereNot({ id: id.admin }).first('id')).id,
    );
    await call('PATCH', '/api/wo', token, { workOrder: { id: id.wCeta, assignees: [other] } });
    expect(await ids('unassigned=true')).toEqual([]);
    expect((await list('unassigned=false')).totalCount).toBe(3);
  });
});
