/**
 * Issue 28 item 3 (decision 037): an accepted proposal's monthly price becomes the object agreement
 * that bills it. By hand: 2 × 249 kr/month with 10 % monthly discount on a quarterly type → an invoice
 * row of price 3 × 249 = 747.00, amount 2, total 2 × 747 × 0.9 = 1 344.60; the first quarter's
 * invoice is 1 344.60 kr without VAT, made once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTenant } from '~/core/db/with-tenant';
import type { Tenant } from '~/core/tenancy/tenant';
import { getTenantBySlug } from '~/tenants/registry';
import { insertAgreementType } from '~/tests/helpers/agreements';
import { createTestTenant, startTestServer, type TestServer, type TestTenant } from '~/tests/helpers/app';
import { testApi } from '~/tests/helpers/api';
import { createArticle, saveNewProposal } from '~/tests/helpers/proposals';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let srv: TestServer;
let a: TestTenant;
let b: TestTenant;
let tenantA: Tenant;
let token: string;
let tokenB: string;
const ref = {} as Record<'customer' | 'detector' | 'install' | 'quarterly' | 'fixed', string>;
const { signIn, call } = testApi(() => ({ url: srv.url, host: a.host }));
const callB = testApi(() => ({ url: srv.url, host: b.host }));

beforeAll(async () => {
  srv = await startTestServer();
  a = await createTestTenant('pagr-a');
  b = await createTestTenant('pagr-b');
  tenantA = (await getTenantBySlug(a.slug))!;
  token = await signIn(a, a.adminEmail);
  tokenB = await callB.signIn(b, b.adminEmail);
  ref.customer = (
    await call('POST', '/api/customers', token, { customer: { customerId: '6001', name: 'Brf Eken' } })
  ).json().id;
  const article = (articleId: string, title: string, price: string) =>
    createArticle(call, token, articleId, title, price);
  ref.detector = await article('6101', 'Larmövervakning', '1250.00');
  ref.install = await article('6102', 'Installation', '650.00');
  await withTenant(tenantA, async (trx) => {
    await trx('proposal_settings').update({ monthly_price: true });
    ref.quarterly = await insertAgreementType(trx, {
      code: 'LARM-Q',
      invoiceInterval: 'quarter',
      woInterval: null,
      priceModel: 'articles',
    });
    ref.fixed = await insertAgreementType(trx, { code: 'FAST', invoiceInterval: 'quarter', woInterval: null });
  });
});
afterAll(() => srv?.close());

/** An accepted proposal on a new object: 2 × 249 kr/month with 10 % monthly discount, and a one-off row. */
async function acceptedProposal(serialCode: string): Promise<{ id: string; bo: string }> {
  const bo = (await call('POST', '/api/bo', token, { bo: { serialCode, customerId: ref.customer } })).json()
    .id as string;
  const saved = await saveNewProposal(call, token, ref.customer, {
    title: 'Larm Eken',
    businessObjectId: bo,
    rows: [
      {
        articleId: ref.detector,
        articleAmount: '2',
        articleMonthlyPrice: '249',
        articleMonthlyDiscountType: 'percentage',
        articleMonthlyDiscountValue: '10',
      },
      { articleId: ref.install, articleAmount: '1' },
    ],
  });
  expect(saved).toMatchObject({ totalMonthlyPrice: '448.20' });
  const id = saved.id as string;
  const accepted = await call('POST', '/api/proposals/close', token, { proposalId: id, status: 'accepted' });
  expect(accepted.status, accepted.text).toBe(200);
  return { id, bo };
}

const createAgreement = (proposalId: string, body: Json, t = token) =>
  call('POST', `/api/proposals/${proposalId}/agreement`, t, body);

async function runInvoices(until: string): Promise<Json> {
  const started = await call('POST', '/api/agreements/invoices/run', token, { until });
  expect(started.status, started.text).toBe(200);
  const deadline = Date.now() + 30_000;
  for (;;) {
    const run = (await call('GET', `/api/agreements/invoices/run/${started.json().run.id}`, token)).json().run as Json;
    if (run.status === 'done' || run.status === 'failed') return run;
    if (Date.now() > deadline) throw new Error(`the run did not finish: ${JSON.stringify(run)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('[proposals] the agreement that bills the monthly price', () => {
  it('puts the agreement with the monthly rows on the object, links it, and the quarter is invoiced once', async () => {
    const p = await acceptedProposal('EKEN-1');
    const made = await createAgreement(p.id, { agreementId: ref.quarterly, validFrom: '2026-01-01' });
    expect(made.status, made.text).toBe(200);
    expect(made.json()).toMatchObject({ businessObjectId: p.bo, rows: 1 });
    const agreementId = made.json().agreement.id as string;

    const rows = (await call('GET', `/api/bo/${p.bo}/agreement/invoice`, token)).json().rows as Json[];
    expect(
      rows.map((r) => [r.articleId, r.title, r.amount, r.price, r.discountType, r.discountValue, r.total]),
    ).toEqual([[ref.detector, 'Larmövervakning', '2.000', '747.00', 'PERCENTAGE', '10.00', '1344.60']]);
    expect((await call('GET', `/api/proposals/${p.id}`, token)).json().objectAgreementId).toBe(agreementId);

    // not offered twice
    const again = await createAgreement(p.id, { agreementId: ref.quarterly, validFrom: '2026-01-01' });
    expect(again.status).toBe(409);
    expect(again.json()).toMatchObject({ code: 'PROPOSAL_AGREEMENT_OBJECT_HAS_AGREEMENT' });

    const run = await runInvoices('2026-01-31');
    expect(run).toMatchObject({ status: 'done', created: 1 });
    const rerun = await runInvoices('2026-01-31');
    expect(rerun).toMatchObject({ status: 'done', created: 0 });
    const invoices = await withTenant(tenantA, (trx) =>
      trx('invoices')
        .where({ object_agreement_id: agreementId })
        .whereNot('status', 'void')
        .select(trx.raw('total_price::text as total'), trx.raw('period_from::text as period_from')),
    );
    expect(invoices).toEqual([{ total: '1344.60', period_from: '2026-01-01' }]);
  });

  it('refuses an object that already has an agreement, with the object to go to', async () => {
    const p = await acceptedProposal('EKEN-2');
    const put = await call('PUT', `/api/bo/${p.bo}/agreement`, token, {
      agreement: { agreementId: ref.fixed, validFrom: '2026-01-01' },
    });
    expect(put.status, put.text).toBe(200);
    const res = await createAgreement(p.id, { agreementId: ref.quarterly, validFrom: '2026-01-01' });
    expect(res.status).toBe(409);
    expect(res.json()).toMatchObject({ code: 'PROPOSAL_AGREEMENT_OBJECT_HAS_AGREEMENT' });
    expect(res.json().businessObjectId).toBe(p.bo);
  });

  it('refuses a fixed-price type and leaves nothing behind; bad input is a field error', async () => {
    const p = await acceptedProposal('EKEN-3');
    const res = await createAgreement(p.id, { agreementId: ref.fixed, validFrom: '2026-01-01' });
    expect(res.status).toBe(409);
    expect(res.json()).toMatchObject({ code: 'PROPOSAL_AGREEMENT_TYPE_NOT_ARTICLES' });
    expect((await call('GET', `/api/bo/${p.bo}/agreement`, token)).json().agreement).toBeNull();
    const bad = await createAgreement(p.id, { agreementId: ref.quarterly, validFrom: 'soon' });
    expect(bad.status).toBe(400);
    expect((await call('GET', `/api/bo/${p.bo}/agreement`, token)).json().agreement).toBeNull();
  });

  it("another tenant's proposal is not found", async () => {
    const p = await acceptedProposal('EKEN-4');
    const res = await callB.call('POST', `/api/proposals/${p.id}/agreement`, tokenB, {
      agreementId: ref.quarterly,
      validFrom: '2026-01-01',
    });
    expect(res.status).toBe(404);
    expect((await call('GET', `/api/bo/${p.bo}/agreement`, token)).json().agreement).toBeNull();
  });
});
