/**
 * Issue 13, proposals through the API: create, save with rows and totals (summary and monthly
 * rows), the version that keeps two editors from overwriting each other, row refusals, every
 * life-cycle transition and its refusals (accept into a sales order or a work order, decline,
 * reopen, copy, delete), the list's filters, permissions and another tenant's ids.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTenant } from '~/core/db/with-tenant';
import type { Tenant } from '~/core/tenancy/tenant';
import { getTenantBySlug } from '~/tenants/registry';
import { ensureUser } from '~/core/users/create-user';
import { createTestTenant, PASSWORD, startTestServer, type TestServer, type TestTenant } from '~/tests/helpers/app';
import { testApi } from '~/tests/helpers/api';

let srv: TestServer;
let a: TestTenant;
let b: TestTenant;
let tenantA: Tenant;
const tok = {} as Record<'admin' | 'tech' | 'adminB', string>;
const ref = {} as Record<'customer' | 'noNumber' | 'bo' | 'detector' | 'install' | 'old' | 'tag', string>;
const { signIn, call } = testApi(() => ({ url: srv.url, host: a.host }));

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

beforeAll(async () => {
  srv = await startTestServer();
  a = await createTestTenant('prop-a');
  b = await createTestTenant('prop-b');
  tenantA = (await getTenantBySlug(a.slug))!;
  tok.admin = await signIn(a, a.adminEmail);
  tok.tech = await signIn(a, a.technicianEmail);
  tok.adminB = await signIn(b, b.adminEmail);
  ref.customer = (
    await call('POST', '/api/customers', tok.admin, { customer: { customerId: '2001', name: 'Brf Eken' } })
  ).json().id;
  await call('PUT', '/api/customers', tok.admin, {
    customer: {
      id: ref.customer,
      customerId: '2001',
      name: 'Brf Eken',
      contacts: [{ name: 'Eva Ek', email: 'eva@eken.se', phone: '070-1' }],
    },
  });
  ref.noNumber = (
    await call('POST', '/api/customers', tok.admin, { customer: { name: 'Potentiell AB', potential: true } })
  ).json().id;
  ref.bo = (
    await call('POST', '/api/bo', tok.admin, { bo: { serialCode: 'LARM-77', customerId: ref.customer } })
  ).json().id;
  const article = async (articleId: string, title: string, price: string, purchasePrice: string) => {
    const res = (
      await call('POST', '/api/articles', tok.admin, {
        article: { articleId, title, unit: 'st', price, purchasePrice },
      })
    ).json();
    return (res.article ?? res).id as string;
  };
  ref.detector = await article('3001', 'Rörelsedetektor', '1250.00', '600.00');
  ref.install = await article('3002', 'Installation', '650.00', '0');
  ref.old = await article('3003', 'Gammal sirén', '100.00', '50.00');
  await withTenant(tenantA, async (trx) => {
    await trx('articles').where({ id: ref.old }).update({ status: 'inactive' });
    ref.tag = (await trx('tags').insert({ name: 'Larm' }).returning('id'))[0].id;
    await trx('proposal_settings').update({ monthly_price: true });
  });
});
afterAll(() => srv?.close());

const create = async (customerId: string | null = ref.customer) => {
  const res = await call('POST', '/api/proposals', tok.admin, { customerId });
  expect(res.status, res.text).toBe(200);
  return (await call('GET', `/api/proposals/${res.json().id}`, tok.admin)).json() as Json;
};
const save = (proposal: Json, token = tok.admin) => call('PUT', '/api/proposals', token, { proposal });

describe('[proposals] create and save', () => {
  it('numbers proposals in sequence, takes the terms and the customer’s contact, and saves rows with their totals', async () => {
    const p = await create();
    const q = await create();
    expect(q.sequenceNumber).toBe(p.sequenceNumber + 1);
    expect(p).toMatchObject({
      status: 'active',
      version: 1,
      contactName: 'Eva Ek',
      contactEmail: 'eva@eken.se',
      customerNumber: '2001',
    });
    const res = await save({
      ...p,
      title: 'Inbrottslarm Brf Eken',
      businessObjectId: ref.bo,
      tags: ['Larm'],
      rows: [
        { articleId: ref.detector, articleAmount: '4', articleDiscountType: 'percentage', articleDiscountValue: '10' }, // 5000 × 0.9
        { comment: 'Montage dagtid' },
        {
          articleId: ref.install,
          articleAmount: '3',
          articleMonthlyPrice: '199',
          articleMonthlyDiscountType: 'amount',
          articleMonthlyDiscountValue: '19',
        },
        { isSummaryRow: true },
        { articleId: ref.install, articleAmount: '1', articlePrice: '500' },
      ],
    });
    expect(res.status, res.text).toBe(200);
    const saved = res.json() as Json;
    expect(saved.version).toBe(2);
    expect(saved.tags).toEqual(['Larm']);
    expect(saved.rows.map((r: Json) => [r.sortOrder, r.articleTitle, r.articleTotalPrice])).toEqual([
      [1, 'Rörelsedetektor', '4500.00'],
      [2, null, '0.00'],
      [3, 'Installation', '1950.00'],
      [4, null, '0.00'],
      [5, 'Installation', '500.00'],
    ]);
    expect(saved.rows[2].articleMonthlyTotalPrice).toBe('540.00'); // (199 − 19) × 3
    expect(saved.rows[3]).toMatchObject({
      summarySalesPrice: '6450.00',
      summaryPurchasePrice: '2400.00',
      summaryMonthlyPrice: '540.00',
    });
    expect(saved).toMatchObject({ totalPrice: '6950.00', totalPurchasePrice: '2400.00', totalMonthlyPrice: '540.00' });
    expect(saved.businessObjectSerialCode).toBe('LARM-77');
  });

  it('prices a new article row for its customer through core/pricing; a typed price wins; old rows keep theirs', async () => {
    const customer = (
      await call('POST', '/api/customers', tok.admin, { customer: { customerId: '2002', name: 'Brf Rönnen' } })
    ).json().id as string;
    await withTenant(tenantA, async (trx) => {
      await trx('customers').where({ id: customer }).update({ default_discount: 10 });
      await trx('customer_articles').insert({ customer_id: customer, article_id: ref.detector, price: '999.00' });
    });
    const p = await create(customer);
    const res = await save({
      ...p,
      rows: [
        { articleId: ref.detector, articleAmount: '1' }, // the customer's own price
        { articleId: ref.install, articleAmount: '1' }, // the article's price less the default 10 %
        { articleId: ref.install, articleAmount: '1', articlePrice: '700' }, // typed: as typed
      ],
    });
    expect(res.status, res.text).toBe(200);
    const rows = res.json().rows as Json[];
    expect(
      rows.map((r) => [r.articlePrice, r.articleDiscountType, r.articleDiscountValue, r.articleTotalPrice]),
    ).toEqual([
      ['999.00', null, null, '999.00'],
      ['650.00', 'percentage', '10.00', '585.00'],
      ['700.00', null, null, '700.00'],
    ]);
    // a later change of the customer's price does not touch rows already priced
    await withTenant(tenantA, (trx) =>
      trx('customer_articles').where({ customer_id: customer }).update({ price: '1.00' }),
    );
    const again = (await save({ ...res.json(), title: 'Omsparad' })).json();
    expect(again.rows[0].articlePrice).toBe('999.00');
  });

  it('refuses a save of an older version (two editors), and a row that breaks the rules, writing nothing', async () => {
    const p = await create();
    const first = await save({ ...p, title: 'Version A' });
    expect(first.status).toBe(200);
    const stale = await save({ ...p, title: 'Version B' });
    expect(stale.status).toBe(409);
    expect(stale.json().code).toBe('PROPOSAL_CHANGED');
    const bad = await save({
      ...first.json(),
      rows: [
        { articleId: ref.detector, articleAmount: '-1' },
        { articleId: ref.detector, articlePrice: '-10' },
        { articleId: ref.old },
        { articleId: ref.detector, articleDiscountType: 'percentage', articleDiscountValue: '120' },
      ],
    });
    expect(bad.status).toBe(400);
    expect(bad.json().fields).toEqual({
      'rows.0.articleAmount': ['AMOUNT_CANT_BE_NEGATIVE'],
      'rows.1.articlePrice': ['ERROR_NEGATIVE_PRICE'],
      'rows.2.articleId': ['ERROR_ARTICLE_INACTIVE'],
      'rows.3.articleDiscountValue': ['ERROR_PERCENT_RANGE'],
    });
    const now = (await call('GET', `/api/proposals/${p.id}`, tok.admin)).json();
    expect(now).toMatchObject({ title: 'Version A', version: 2, rows: [] });
    // with negative prices on, the credit row is taken
    await withTenant(tenantA, (trx) => trx('proposal_settings').update({ negative_prices: true }));
    try {
      const credit = await save({
        ...now,
        rows: [
          { articleId: ref.detector, articleAmount: '1' },
          { articleId: ref.install, articlePrice: '-250' },
        ],
      });
      expect(credit.json().totalPrice).toBe('1000.00');
    } finally {
      await withTenant(tenantA, (trx) => trx('proposal_settings').update({ negative_prices: false }));
    }
  });
});

describe('[proposals] life cycle', () => {
  it('accepts into a sales order with the rows; needs a customer number; read-only after; reopen keeps the order', async () => {
    const none = await create(null);
    expect(
      (await call('POST', '/api/proposals/close', tok.admin, { proposalId: none.id, status: 'accepted' })).json().code,
    ).toBe('PROPOSAL_PLEASE_SELECT_CUSTOMER_BEFORE_ACCEPTING');
    const potential = await create(ref.noNumber);
    const refused = await call('POST', '/api/proposals/close', tok.admin, {
      proposalId: potential.id,
      status: 'accepted',
    });
    expect(refused.status).toBe(409);
    expect(refused.json().code).toBe('CANNOT_CLOSE_PROPOSAL_SALES_ORDER_CUSTOMER_NUMBER_MISSING');

    const p = await create();
    const saved = (
      await save({ ...p, title: 'Kameror', rows: [{ articleId: ref.detector, articleAmount: '2' }] })
    ).json();
    const accepted = await call('POST', '/api/proposals/close', tok.admin, { proposalId: p.id, status: 'accepted' });
    expect(accepted.status, accepted.text).toBe(200);
    expect(accepted.json()).toMatchObject({
      message: 'PROPOSAL_SUCCESSFULLY_ACCEPTED',
      proposal: { status: 'accepted' },
    });
    expect(accepted.json().proposal.closeTs).not.toBeNull();
    const so = await withTenant(tenantA, (trx) =>
      trx('sales_orders').where({ id: accepted.json().salesOrderId }).first(),
    );
    expect(so).toMatchObject({ customer_id: ref.customer, proposal_id: p.id, status: 'open' });
    expect(String(so.total_price)).toBe('2500.00');
    expect(
      await withTenant(tenantA, (trx) => trx('proposal_rows').where({ sales_order_id: so.id }).pluck('article_title')),
    ).toEqual(['Rörelsedetektor']);
    // read-only now
    expect((await save({ ...saved, title: 'Ändrad' })).json().code).toBe('PROPOSAL_NOT_ACTIVE');
    const reopened = await call('POST', `/api/proposals/${p.id}/reopen`, tok.admin);
    expect(reopened.json()).toMatchObject({ status: 'active', closeTs: null, closeUserId: null, salesOrderId: so.id });
  });

  it('accepts into a work order with its article rows (or none), needing an object', async () => {
    const p = await create();
    await save({ ...p, title: 'Service', rows: [{ articleId: ref.install, articleAmount: '2' }, { comment: 'x' }] });
    const noObject = await call('POST', '/api/proposals/close', tok.admin, { proposalId: p.id, status: 'accepted-wo' });
    expect(noObject.json().code).toBe('CANNOT_CLOSE_PROPOSAL_WORKORDER_OBJECT_IS_MISSING');
    const withObject = (await call('GET', `/api/proposals/${p.id}`, tok.admin)).json();
    await save({ ...withObject, businessObjectId: ref.bo });
    const res = await call('POST', '/api/proposals/close', tok.admin, { proposalId: p.id, status: 'accepted-wo' });
    expect(res.status, res.text).toBe(200);
    expect(res.json().message).toBe('PROPOSAL_SUCCESSFULLY_ACCEPTED_WORKORDER_CREATED');
    const wo = (await call('GET', `/api/wo/${res.json().workOrderId}`, tok.admin)).json();
    expect(wo.workOrder ?? wo).toMatchObject({ title: 'Service', customerId: ref.customer, businessObjectId: ref.bo });
    const rows = await withTenant(tenantA, (trx) =>
      trx('work_order_articles').where({ work_order_id: res.json().workOrderId }),
    );
    expect(rows.map((r: Json) => [r.title, String(r.amount), String(r.total)])).toEqual([
      ['Installation', '2.000', '1300.00'],
    ]);

    const q = await create();
    await save({ ...q, businessObjectId: ref.bo, rows: [{ articleId: ref.install }] });
    const bare = await call('POST', '/api/proposals/close', tok.admin, {
      proposalId: q.id,
      status: 'accepted-wo',
      ignoreArticlesForWorkOrder: true,
    });
    expect(
      await withTenant(tenantA, (trx) =>
        trx('work_order_articles').where({ work_order_id: bare.json().workOrderId }).count({ n: '*' }).first(),
      ),
    ).toMatchObject({
      n: expect.anything(),
    });
    expect(
      Number(
        (await withTenant(tenantA, (trx) =>
          trx('work_order_articles').where({ work_order_id: bare.json().workOrderId }).count({ n: '*' }).first(),
        ))!.n,
      ),
    ).toBe(0);
  });

  it('declines, copies with the full content, and deletes', async () => {
    const p = await create();
    const saved = (
      await save({
        ...p,
        title: 'Passage',
        description: 'Kortläsare',
        tags: ['Larm'],
        rows: [{ articleId: ref.detector }, { isSummaryRow: true }],
      })
    ).json();
    const copy = await call('POST', `/api/proposals/${p.id}/copy`, tok.admin);
    expect(copy.status, copy.text).toBe(200);
    expect(copy.json()).toMatchObject({
      title: 'Passage',
      description: 'Kortläsare',
      tags: ['Larm'],
      customerId: ref.customer,
      totalPrice: saved.totalPrice,
    });
    expect(copy.json().id).not.toBe(p.id);
    expect(copy.json().rows.map((r: Json) => r.isSummaryRow)).toEqual([false, true]);
    const declined = await call('POST', '/api/proposals/close', tok.admin, { proposalId: p.id, status: 'declined' });
    expect(declined.json().proposal.status).toBe('declined');
    expect(
      (await call('POST', '/api/proposals/close', tok.admin, { proposalId: p.id, status: 'accepted' })).json().code,
    ).toBe('PROPOSAL_NOT_ACTIVE');
    const gone = await call('DELETE', `/api/proposals/${copy.json().id}`, tok.admin);
    expect(gone.json()).toEqual({ message: 'PROPOSAL_SUCCESSFULLY_DELETED' });
    expect((await call('GET', `/api/proposals/${copy.json().id}`, tok.admin)).status).toBe(404);
  });
});

describe('[proposals] list, permissions, tenants', () => {
  it('lists the active ones by default, filters by status, tag, creator and period, in the list’s order', async () => {
    const list = (await call('GET', '/api/proposals', tok.admin)).json();
    expect(list.proposals.every((p: Json) => p.status === 'active')).toBe(true);
    expect(list.totalCount).toBe(list.proposals.length);
    const declined = (await call('GET', '/api/proposals?status=declined', tok.admin)).json();
    expect(declined.proposals.length).toBeGreaterThan(0);
    expect(declined.proposals.every((p: Json) => p.status === 'declined')).toBe(true);
    const tagged = (await call('GET', `/api/proposals?status=all&tags=${ref.tag}`, tok.admin)).json();
    expect(tagged.proposals.length).toBeGreaterThan(0);
    expect(tagged.proposals.every((p: Json) => p.tags.includes('Larm'))).toBe(true);
    expect(
      (await call('GET', '/api/proposals?startTime=2000-01-01&endTime=2000-12-31&status=all', tok.admin)).json()
        .totalCount,
    ).toBe(0);
    // the newest goes to the top; a PATCH moves one
    const [top, second] = list.proposals;
    await call('PATCH', `/api/proposals/${second.id}`, tok.admin, { sortOrder: top.sortOrder - 1, state: 'Ringa' });
    const after = (await call('GET', '/api/proposals', tok.admin)).json().proposals;
    expect(after[0]).toMatchObject({ id: second.id, state: 'Ringa' });
  });

  it('refuses those without the CRM rights, and another tenant’s proposal is not found', async () => {
    const p = await create();
    expect((await call('GET', '/api/proposals', tok.tech)).status).toBe(403);
    expect((await call('POST', '/api/proposals', tok.tech, {})).status).toBe(403);
    expect((await call('GET', `/api/proposals/${p.id}`, tok.adminB, undefined, b.host)).status).toBe(404);
    expect((await call('PUT', '/api/proposals', tok.adminB, { proposal: { ...p } }, b.host)).status).toBe(404);
    expect(
      (await call('POST', '/api/proposals/close', tok.adminB, { proposalId: p.id, status: 'declined' }, b.host)).status,
    ).toBe(404);
    await withTenant(tenantA, (trx) =>
      ensureUser(trx, {
        email: `office@${a.slug}.se`,
        name: 'Olle Kontor',
        password: PASSWORD,
        accessLevels: ['Office'],
      }),
    );
    const office = await signIn(a, `office@${a.slug}.se`);
    expect((await call('GET', '/api/proposals', office)).status).toBe(200);
    // the administrator is of type super, which passes module gating (spec section 6)
    await withTenant(tenantA, (trx) => trx('app_modules').where({ id: 'crm' }).update({ enabled: false }));
    try {
      expect((await call('GET', '/api/proposals', office)).status).toBe(403);
    } finally {
      await withTenant(tenantA, (trx) => trx('app_modules').where({ id: 'crm' }).update({ enabled: true }));
    }
  });
});

describe('[sales orders] through the API', () => {
  it('an accepted proposal’s sales order is found by the proposal; rows are saved by the proposal rules; close needs a customer number; reopen; delete', async () => {
    const p = await create();
    await save({ ...p, title: 'Larmpaket', rows: [{ articleId: ref.detector, articleAmount: '3' }] });
    const accepted = (
      await call('POST', '/api/proposals/close', tok.admin, { proposalId: p.id, status: 'accepted' })
    ).json();
    const byProposal = await call('GET', `/api/salesorders/proposal/${p.id}`, tok.admin);
    expect(byProposal.status, byProposal.text).toBe(200);
    const so = byProposal.json();
    expect(so).toMatchObject({
      id: accepted.salesOrderId,
      status: 'open',
      title: 'Larmpaket',
      totalPrice: '3750.00',
      customerNumber: '2001',
    });
    expect(so.rows.map((r: Json) => r.articleTotalPrice)).toEqual(['3750.00']);
    expect((await call('GET', `/api/wo/proposal/${p.id}`, tok.admin)).status).toBe(404);

    const edited = await call('PUT', '/api/salesorders', tok.admin, {
      salesOrder: {
        id: so.id,
        version: so.version,
        rows: [...so.rows, { articleId: ref.install, articleAmount: '-1' }],
      },
    });
    expect(edited.json().fields).toEqual({ 'rows.1.articleAmount': ['AMOUNT_CANT_BE_NEGATIVE'] });
    const ok = await call('PUT', '/api/salesorders', tok.admin, {
      salesOrder: {
        id: so.id,
        version: so.version,
        rows: [...so.rows, { articleId: ref.install, articleAmount: '2' }],
      },
    });
    expect(ok.json()).toMatchObject({ totalPrice: '5050.00', version: so.version + 1 });
    expect(
      (await call('PUT', '/api/salesorders', tok.admin, { salesOrder: { id: so.id, version: so.version } })).json()
        .code,
    ).toBe('SALES_ORDER_CHANGED');
    expect((await call('GET', '/api/salesorders', tok.admin)).json().salesOrders.map((s: Json) => s.id)).toContain(
      so.id,
    );

    const closed = await call('POST', `/api/salesorders/${so.id}/close`, tok.admin, { paid: true });
    expect(closed.json()).toMatchObject({ status: 'closed', paid: true });
    expect(
      (await call('GET', '/api/salesorders?status=closed', tok.admin)).json().salesOrders.map((s: Json) => s.id),
    ).toContain(so.id);
    expect((await call('DELETE', `/api/salesorders/${so.id}`, tok.admin)).json().code).toBe('SALES_ORDER_CLOSED');
    expect((await call('POST', `/api/salesorders/${so.id}/reopen`, tok.admin)).json()).toMatchObject({
      status: 'open',
      paid: false,
    });
    expect((await call('DELETE', `/api/salesorders/${so.id}`, tok.admin)).json()).toEqual({ ok: true });
    // the proposal keeps its place, its link cleared
    expect((await call('GET', `/api/proposals/${p.id}`, tok.admin)).json()).toMatchObject({
      status: 'accepted',
      salesOrderId: null,
    });

    const bare = (await call('POST', '/api/salesorders', tok.admin, { customerId: ref.noNumber })).json();
    expect(bare).toMatchObject({ status: 'open', referenceUserId: expect.any(String) });
    expect((await call('POST', `/api/salesorders/${bare.id}/close`, tok.admin, {})).json().code).toBe(
      'SALES_ORDER_CUSTOMER_NUMBER_MISSING',
    );
    expect((await call('GET', `/api/salesorders/${bare.id}`, tok.adminB, undefined, b.host)).status).toBe(404);
    expect((await call('GET', '/api/salesorders', tok.tech)).status).toBe(403);
  });

  it('a sales order is kept by department and reference person and listed by them; unknown ones are not found', async () => {
    const so = (await call('POST', '/api/salesorders', tok.admin, { customerId: ref.customer })).json();
    const [dept, deptB] = await Promise.all([
      withTenant(
        tenantA,
        async (trx) => (await trx('departments').insert({ name: 'Försäljning' }).returning('id'))[0].id,
      ),
      withTenant(
        (await getTenantBySlug(b.slug))!,
        async (trx) => (await trx('departments').insert({ name: 'Annan' }).returning('id'))[0].id,
      ),
    ]);
    const saved = await call('PUT', '/api/salesorders', tok.admin, {
      salesOrder: { id: so.id, version: so.version, departmentId: dept, referenceUserId: null },
    });
    expect(saved.status, saved.text).toBe(200);
    expect(saved.json()).toMatchObject({ departmentId: dept, referenceUserId: null, version: so.version + 1 });
    const listed = (await call('GET', `/api/salesorders?departmentId=${dept}`, tok.admin)).json();
    expect(listed.salesOrders.map((s: Json) => s.id)).toEqual([so.id]);
    // without a reference person it cannot be closed
    expect((await call('POST', `/api/salesorders/${so.id}/close`, tok.admin, {})).json().code).toBe(
      'SALES_ORDER_REFERENCE_USER_MISSING',
    );
    // another tenant's department is not found, and nothing is written
    const other = await call('PUT', '/api/salesorders', tok.admin, {
      salesOrder: { id: so.id, version: so.version + 1, departmentId: deptB, title: 'Ändrad' },
    });
    expect(other.status).toBe(404);
    expect((await call('GET', `/api/salesorders/${so.id}`, tok.admin)).json()).toMatchObject({
      title: '',
      departmentId: dept,
    });
  });

  it('the work order a proposal was accepted into is found by the proposal', async () => {
    const p = await create();
    await save({ ...p, businessObjectId: ref.bo, title: 'Byte av central' });
    const { workOrderId } = (
      await call('POST', '/api/proposals/close', tok.admin, { proposalId: p.id, status: 'accepted-wo' })
    ).json();
    const res = await call('GET', `/api/wo/proposal/${p.id}`, tok.admin);
    expect(res.status, res.text).toBe(200);
    expect(res.json().workOrder).toMatchObject({ id: workOrderId, title: 'Byte av central' });
  });
});
