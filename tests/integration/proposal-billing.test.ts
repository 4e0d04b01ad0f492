/**
 * Issue 28 item 1 (decision 031): a proposal's rows are billed exactly once on the way proposal →
 * sales order → work order → invoice → ERP outbox. The figures are worked out by hand: 2 × 1 250 kr
 * with 10 % off = 2 250 kr, 1 × 650 kr = 650 kr; 2 900 kr without VAT, 725 kr VAT, 3 625 kr. The
 * detector's 249 kr/month (2 × 249 = 498 kr a month) is the object agreement's to bill, never the order's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTenant } from '~/core/db/with-tenant';
import { readErpConnection } from '~/core/invoicing/erp-connection';
import { buildErpInvoice } from '~/core/invoicing/erp-delivery';
import type { Tenant } from '~/core/tenancy/tenant';
import { getTenantBySlug } from '~/tenants/registry';
import { createTestTenant, startTestServer, type TestServer, type TestTenant } from '~/tests/helpers/app';
import { testApi } from '~/tests/helpers/api';
import { createArticle, saveNewProposal } from '~/tests/helpers/proposals';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let srv: TestServer;
let a: TestTenant;
let tenantA: Tenant;
let token: string;
const ref = {} as Record<'customer' | 'bo' | 'detector' | 'install', string>;
const PRIMARY = { street: 'Lindvägen 4', postIndex: '753 10', city: 'Uppsala' };
const { signIn, call } = testApi(() => ({ url: srv.url, host: a.host }));

beforeAll(async () => {
  srv = await startTestServer();
  a = await createTestTenant('bill-a');
  tenantA = (await getTenantBySlug(a.slug))!;
  token = await signIn(a, a.adminEmail);
  ref.customer = (
    await call('POST', '/api/customers', token, { customer: { customerId: '5001', name: 'Brf Linden' } })
  ).json().id;
  const withAddress = await call('PUT', '/api/customers', token, {
    customer: {
      id: ref.customer,
      customerId: '5001',
      name: 'Brf Linden',
      addresses: [{ ...PRIMARY, isPrimary: true }],
    },
  });
  expect(withAddress.status, withAddress.text).toBe(200);
  ref.bo = (await call('POST', '/api/bo', token, { bo: { serialCode: 'LIND-1', customerId: ref.customer } })).json().id;
  const article = (articleId: string, title: string, price: string) =>
    createArticle(call, token, articleId, title, price);
  ref.detector = await article('5101', 'Rörelsedetektor', '1250.00');
  ref.install = await article('5102', 'Installation', '650.00');
  await withTenant(tenantA, (trx) => trx('proposal_settings').update({ monthly_price: true }));
});
afterAll(() => srv?.close());

/** An open proposal for the customer and object with the two priced rows. */
async function proposal(): Promise<Json> {
  const saved = await saveNewProposal(call, token, ref.customer, {
    title: 'Larm Linden',
    businessObjectId: ref.bo,
    rows: [
      {
        articleId: ref.detector,
        articleAmount: '2',
        articleDiscountType: 'percentage',
        articleDiscountValue: '10',
        articleMonthlyPrice: '249',
      },
      { articleId: ref.install, articleAmount: '1' },
    ],
  });
  expect(saved).toMatchObject({ totalPrice: '2900.00', totalMonthlyPrice: '498.00' });
  return saved;
}

const accept = (proposalId: string, status: 'accepted' | 'accepted-wo') =>
  call('POST', '/api/proposals/close', token, { proposalId, status });
const closeWo = (workOrderId: string) => call('POST', '/api/wo/close', token, { workOrderId, invoiceFee: '0' });

/** Every current invoice of the tenant made from these orders, with its rows. */
async function invoicesOf(orders: { workOrderIds: string[]; salesOrderIds: string[] }): Promise<Json[]> {
  return withTenant(tenantA, async (trx) => {
    const invoices: Json[] = await trx('invoices')
      .whereNull('unlinked_at')
      .whereNot('status', 'void')
      .where((q) => {
        q.whereIn('work_order_id', orders.workOrderIds).orWhereIn('sales_order_id', orders.salesOrderIds);
      });
    const connection = await readErpConnection(trx);
    return Promise.all(invoices.map(async (i) => ({ ...i, erp: await buildErpInvoice(trx, i.id, connection) })));
  });
}

describe('[proposals] billing each row exactly once', () => {
  it('sales order → its work order → invoice: the money reaches the ERP once; the sales order is billed through it', async () => {
    const p = await proposal();
    const accepted = await accept(p.id, 'accepted');
    expect(accepted.status, accepted.text).toBe(200);
    const soId = accepted.json().salesOrderId as string;

    const made = await call('POST', `/api/salesorders/${soId}/workorder`, token, {});
    expect(made.status, made.text).toBe(200);
    const woId = made.json().workOrderId as string;
    expect(made.json().salesOrder).toMatchObject({ workOrderId: woId, status: 'open' });
    // one work order per sales order
    expect((await call('POST', `/api/salesorders/${soId}/workorder`, token, {})).json().code).toBe(
      'SALES_ORDER_HAS_WORK_ORDER',
    );
    // the sales order is billed through its work order, not on its own
    const soClose = await call('POST', `/api/salesorders/${soId}/close`, token, {});
    expect(soClose.status).toBe(409);
    expect(soClose.json().code).toBe('SALES_ORDER_BILLED_BY_WORK_ORDER');

    const closed = await closeWo(woId);
    expect(closed.status, closed.text).toBe(200);
    expect((await call('GET', `/api/salesorders/${soId}`, token)).json()).toMatchObject({ status: 'closed' });

    const invoices = await invoicesOf({ workOrderIds: [woId], salesOrderIds: [soId] });
    expect(invoices).toHaveLength(1);
    const erp = invoices[0]!.erp;
    expect(
      erp.rows
        .filter((r: Json) => r.articleId)
        .map((r: Json) => [r.description, r.amount, r.price, r.discount, r.total]),
    ).toEqual([
      ['Rörelsedetektor', '2.000', '1250.00', { type: 'PERCENTAGE', value: '10.00' }, '2250.00'],
      ['Installation', '1.000', '650.00', null, '650.00'],
    ]);
    // nothing else is billed: no other row carries money
    expect(erp.rows.filter((r: Json) => !r.articleId && Number(r.total) !== 0)).toEqual([]);
    // the monthly price is not on the order's invoice (the agreement bills it)
    expect([erp.totalPrice, erp.totalVat, erp.total]).toEqual(['2900.00', '725.00', '3625.00']);
  });

  it('the issue’s path: accept, reopen, accept and create work order, close it, then the sales order’s close refuses', async () => {
    const p = await proposal();
    const soId = (await accept(p.id, 'accepted')).json().salesOrderId as string;
    const reopened = await call('POST', `/api/proposals/${p.id}/reopen`, token);
    expect(reopened.json()).toMatchObject({ status: 'active', salesOrderId: soId });

    const wo = await accept(p.id, 'accepted-wo');
    expect(wo.status, wo.text).toBe(200);
    const woId = wo.json().workOrderId as string;
    // the work order was made from the sales order and bills its rows
    expect(await withTenant(tenantA, (trx) => trx('work_orders').where({ id: woId }).first('sales_order_id'))).toEqual({
      sales_order_id: soId,
    });
    // reopened and accepted once more: the same work order, no second one
    await call('POST', `/api/proposals/${p.id}/reopen`, token);
    expect((await accept(p.id, 'accepted-wo')).json().workOrderId).toBe(woId);
    await call('POST', `/api/proposals/${p.id}/reopen`, token);
    expect((await accept(p.id, 'accepted')).json()).toMatchObject({
      salesOrderId: soId,
      proposal: { status: 'accepted' },
    });
    // accepted straight into a work order, reopened, then accepted into a sales order: refused
    const q = await proposal();
    await accept(q.id, 'accepted-wo');
    await call('POST', `/api/proposals/${q.id}/reopen`, token);
    const refused = await accept(q.id, 'accepted');
    expect(refused.status).toBe(409);
    expect(refused.json().code).toBe('PROPOSAL_ALREADY_HAS_WORK_ORDER');
    expect(await withTenant(tenantA, (trx) => trx('sales_orders').where({ proposal_id: q.id }).first('id'))).toBe(
      undefined,
    );

    expect((await closeWo(woId)).status).toBe(200);
    const second = await call('POST', `/api/salesorders/${soId}/close`, token, {});
    expect(second.status).toBe(409);
    expect(['SALES_ORDER_BILLED_BY_WORK_ORDER', 'SALES_ORDER_CLOSED']).toContain(second.json().code);

    const invoices = await invoicesOf({ workOrderIds: [woId], salesOrderIds: [soId] });
    expect(invoices.map((i) => i.erp.totalPrice)).toEqual(['2900.00']);
  });

  it('orders made before this rule (one from the sales order, one from the proposal): the second close refuses with ORDER_ROWS_ALREADY_INVOICED', async () => {
    const p = await proposal();
    const soId = (await accept(p.id, 'accepted')).json().salesOrderId as string;
    // a work order the proposal made directly, as the old "reopen and accept into a work order" did
    await call('POST', `/api/proposals/${p.id}/reopen`, token);
    await withTenant(tenantA, (trx) => trx('proposals').where({ id: p.id }).update({ sales_order_id: null }));
    const woId = (await accept(p.id, 'accepted-wo')).json().workOrderId as string;
    await withTenant(tenantA, (trx) => trx('proposals').where({ id: p.id }).update({ sales_order_id: soId }));

    expect((await closeWo(woId)).status).toBe(200);
    const refused = await call('POST', `/api/salesorders/${soId}/close`, token, {});
    expect(refused.status).toBe(409);
    expect(refused.json().code).toBe('ORDER_ROWS_ALREADY_INVOICED');
    expect((await call('GET', `/api/salesorders/${soId}`, token)).json()).toMatchObject({ status: 'open' });

    // and the other way round: the sales order invoiced first, the work order's close refuses
    await call('POST', '/api/wo/reopen', token, { workOrderId: woId });
    expect((await call('POST', `/api/salesorders/${soId}/close`, token, {})).status).toBe(200);
    const woRefused = await closeWo(woId);
    expect(woRefused.status).toBe(409);
    expect(woRefused.json().code).toBe('ORDER_ROWS_ALREADY_INVOICED');
    const invoices = await invoicesOf({ workOrderIds: [woId], salesOrderIds: [soId] });
    expect(invoices.map((i) => i.erp.totalPrice)).toEqual(['2900.00']);
  });
});

describe('[proposals] the address of orders made from proposals and sales orders (item 11)', () => {
  it('a work order made by accepting a proposal or from a sales order takes the customer’s primary address', async () => {
    const p = await proposal();
    const direct = (await accept(p.id, 'accepted-wo')).json().workOrderId as string;
    const q = await proposal();
    const soId = (await accept(q.id, 'accepted')).json().salesOrderId as string;
    const fromSo = (await call('POST', `/api/salesorders/${soId}/workorder`, token, {})).json().workOrderId as string;
    for (const id of [direct, fromSo]) {
      const wo = (await call('GET', `/api/wo/${id}`, token)).json().workOrder;
      expect(wo).toMatchObject({ ...PRIMARY, customerAddressId: expect.any(String) });
    }
  });
});
