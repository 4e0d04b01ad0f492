import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTenant } from '~/core/db/with-tenant';
import { loadRegistry } from '~/core/extension-points/registry';
import { deliverDue, idempotencyKeyOf } from '~/core/invoicing/erp-delivery';
import type { Tenant } from '~/core/tenancy/tenant';
import { getTenantBySlug } from '~/tenants/registry';
import {
  consentAsBrowser,
  startVismaEaccountingFake,
  type VismaEaccountingFake,
} from '~/tests/fakes/visma-eaccounting';
import { testApi } from '~/tests/helpers/api';
import { createTestTenant, startTestServer, type TestServer, type TestTenant } from '~/tests/helpers/app';

/*
 * The Visma plugins through the core (issue 31): a Visma eEkonomi delivery whose retry cannot tell
 * whether the draft exists stops as "needs checking" with the vendor's reference, shows so on the
 * invoice, is not sent again by itself, and goes through once a person retries; Visma
 * Administration's file is the SIE 4I verification of the tenant's company.
 */

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let srv: TestServer;
let fake: VismaEaccountingFake;
let a: TestTenant;
let tenantA: Tenant;
let token: string;
const ref = {} as Record<'customer' | 'article', string>;
const origin = 'https://erp-visma.ordo.test';

const { signIn, call } = testApi(() => ({ url: srv.url, host: a.host }));

beforeAll(async () => {
  srv = await startTestServer();
  fake = await startVismaEaccountingFake();
  await loadRegistry({
    'visma-e': {
      clientId: fake.clientId,
      clientSecret: fake.clientSecret,
      identityBaseUrl: fake.url,
      apiBaseUrl: fake.url,
    },
  });
  a = await createTestTenant('erp-visma');
  tenantA = (await getTenantBySlug(a.slug))!;
  await withTenant(tenantA, async (trx) => {
    await trx.raw(
      `insert into app_modules (id, enabled) values ('erp', true) on conflict (id) do update set enabled = true`,
    );
    ref.customer = (
      await trx('customers')
        .insert({ customer_id: '50001', name: 'Brf Linden', email: 'styrelsen@linden.se' })
        .returning('id')
    )[0].id;
    ref.article = (
      await trx('articles')
        .insert({ article_id: 'DET-7', title: 'Detektor', price: '300.00', unit: 'st' })
        .returning('id')
    )[0].id;
  });
  token = await signIn(a, a.adminEmail);
});
afterAll(async () => {
  await fake?.close();
  await srv?.close();
});

async function closedOrder(): Promise<Json> {
  const res = await call('POST', '/api/wo', token, {
    workOrder: { title: 'Byte av detektor', customerId: ref.customer },
  });
  expect(res.status, res.text).toBe(200);
  const wo = res.json().workOrder;
  await withTenant(tenantA, (trx) =>
    trx('work_order_articles').insert({
      work_order_id: wo.id,
      article_id: ref.article,
      title: 'Detektor',
      amount: '2',
      price: '300.00',
      total: 0,
    }),
  );
  const closed = await call('POST', '/api/wo/close', token, { workOrderId: wo.id, invoiceFee: '40' });
  expect(closed.status, closed.text).toBe(200);
  return closed.json();
}

const delivery = (invoiceId: string) =>
  withTenant(tenantA, (trx) => trx('erp_deliveries').where({ invoice_id: invoiceId }).first()) as Promise<Json>;
const dueNow = (invoiceId: string) =>
  withTenant(tenantA, (trx) =>
    trx('erp_deliveries')
      .where({ invoice_id: invoiceId })
      .update({ next_attempt_at: new Date(Date.now() - 1000) }),
  );

describe('[erp] Visma eEkonomi through the outbox', () => {
  it('connects, and delivers an invoice whose Visma totals are the invoice’s', async () => {
    const put = await call('PUT', '/api/instance/erp', token, { kind: 'visma-e' });
    expect(put.status, put.text).toBe(200);
    const start = await call('POST', '/api/instance/erp/auth', token, { origin });
    expect(start.status, start.text).toBe(200);
    const { code, state } = await consentAsBrowser(start.json().url);
    const done = await call('POST', '/api/instance/erp/callback', token, { code, state, origin });
    expect(done.status, done.text).toBe(200);

    const closed = await closedOrder();
    expect(await deliverDue(tenantA)).toMatchObject({ delivered: 1, failed: 0, checking: 0 });
    const d = await delivery(closed.invoice.id);
    expect(d.status).toBe('delivered');
    expect(fake.invoice(d.external_id)).toMatchObject({ TotalAmount: 800, TotalVatAmount: 160 });
  });

  it('a retry that cannot tell whether the draft exists stops as needs checking, shown with the reference, and is not sent again by itself', async () => {
    const closed = await closedOrder();
    const id = closed.invoice.id as string;
    const key = idempotencyKeyOf(id);
    // the first try's draft is made but its answer is lost: retried later
    fake.dropNextCreateResponse();
    expect(await deliverDue(tenantA)).toMatchObject({ retry: 1 });
    expect(fake.invoiceCount(key)).toBe(1);
    // Visma will not search for the key now: no way to tell, so no second draft
    fake.filterSupport('SubscriptionNumber', 'refuses');
    try {
      await dueNow(id);
      expect(await deliverDue(tenantA)).toMatchObject({ checking: 1, delivered: 0 });
      expect(await delivery(id)).toMatchObject({ status: 'needs_checking', error_code: 'ERP_NEEDS_CHECKING' });
      expect(fake.invoiceCount(key)).toBe(1);
      // not due: the sweep leaves it for a person
      await dueNow(id);
      expect(await deliverDue(tenantA)).toMatchObject({ delivered: 0, retry: 0, failed: 0, checking: 0 });

      const view = await call('GET', `/api/invoice/${id}`, token);
      expect(view.json().delivery).toMatchObject({ status: 'needs_checking', errorCode: 'ERP_NEEDS_CHECKING' });
      expect(view.json().delivery.errorText).toContain(key);
      const list = await call('GET', '/api/invoices?erp=failed&size=200', token);
      expect(list.json().invoices.find((i: Json) => i.id === id)).toMatchObject({
        erp: 'failed',
        errorCode: 'ERP_NEEDS_CHECKING',
      });
      const history = await call('GET', `/api/invoice/history/${id}`, token);
      expect(history.json().map((h: Json) => h.action)).toContain('erp.check');
    } finally {
      fake.filterSupport('SubscriptionNumber', 'filters');
    }
    // the person looked in Visma and retries: the draft there is found, not made again
    const retry = await call('POST', '/api/invoice/apply', token, { invoiceId: id, type: 'erp' });
    expect(retry.status, retry.text).toBe(200);
    expect(await deliverDue(tenantA)).toMatchObject({ delivered: 1 });
    expect(fake.invoiceCount(key)).toBe(1);
    expect((await delivery(id)).external_id).toBe(fake.invoices().find((x) => x.SubscriptionNumber === key)!.Id);
  });
});

describe('[erp] the office settles a delivery that needs checking (issue 31)', () => {
  /** A delivery stopped as needs checking: its first try's answer lost, Visma's search for the key refused. */
  async function stopped(drop: boolean): Promise<{ id: string; key: string }> {
    const closed = await closedOrder();
    const id = closed.invoice.id as string;
    if (drop) fake.dropNextCreateResponse();
    else fake.failNext(503);
    expect(await deliverDue(tenantA)).toMatchObject({ retry: 1 });
    fake.filterSupport('SubscriptionNumber', 'refuses');
    try {
      await dueNow(id);
      expect(await deliverDue(tenantA)).toMatchObject({ checking: 1 });
    } finally {
      fake.filterSupport('SubscriptionNumber', 'filters');
    }
    expect(await delivery(id)).toMatchObject({ status: 'needs_checking' });
    return { id, key: idempotencyKeyOf(id) };
  }

  it('"booked in the ERP" records the number found there, ends the delivery, and it is never sent again', async () => {
    const { id, key } = await stopped(true);
    // the stop kept the vendor's reference when it had one; without one the number stands for it
    const kept = ((await delivery(id)).external_id as string | null) ?? '2041';
    const missing = await call('POST', '/api/invoice/erp/check', token, { invoiceId: id, answer: 'booked' });
    expect(missing.status, missing.text).toBe(400);

    const booked = await call('POST', '/api/invoice/erp/check', token, {
      invoiceId: id,
      answer: 'booked',
      externalInvoiceNr: ' 2041 ',
    });
    expect(booked.status, booked.text).toBe(200);
    expect(booked.json().delivery).toMatchObject({ status: 'delivered', externalInvoiceNr: '2041', errorCode: null });
    expect(booked.json().invoice).toMatchObject({ externalInvoiceNr: '2041', erpState: 'success' });
    expect(booked.json().invoice.erpReference).toMatchObject({ externalId: kept });
    const history = await call('GET', `/api/invoice/history/${id}`, token);
    expect(history.json().map((h: Json) => h.action)).toContain('erp.booked');

    // never again: not by the sweep, not by Apply, not by a second answer
    await dueNow(id);
    expect(await deliverDue(tenantA)).toMatchObject({ delivered: 0, retry: 0, checking: 0 });
    const again = await call('POST', '/api/invoice/apply', token, { invoiceId: id, type: 'erp' });
    expect(again.status).toBe(409);
    expect(again.json().message ?? again.json().code).toBe('INVOICE_ALREADY_IN_ERP');
    const twice = await call('POST', '/api/invoice/erp/check', token, { invoiceId: id, answer: 'sendAgain' });
    expect(twice.status).toBe(409);
    expect(twice.text).toContain('ERP_DELIVERY_NOT_NEEDS_CHECKING');
    expect(fake.invoiceCount(key)).toBe(1);
  });

  it('"send again" queues it as a first try: made once in Visma without looking for an earlier one', async () => {
    // the first try never reached Visma (503): nothing is there, which the office saw
    const { id, key } = await stopped(false);
    expect(fake.invoiceCount(key)).toBe(0);
    const sent = await call('POST', '/api/invoice/erp/check', token, { invoiceId: id, answer: 'sendAgain' });
    expect(sent.status, sent.text).toBe(200);
    expect(sent.json().delivery).toMatchObject({ status: 'pending', errorCode: null, externalId: null });
    // Visma still refuses the key search: a first try does not search, it creates
    fake.filterSupport('SubscriptionNumber', 'refuses');
    try {
      expect(await deliverDue(tenantA)).toMatchObject({ delivered: 1, checking: 0 });
    } finally {
      fake.filterSupport('SubscriptionNumber', 'filters');
    }
    expect(fake.invoiceCount(key)).toBe(1);
    const history = await call('GET', `/api/invoice/history/${id}`, token);
    expect(history.json().map((h: Json) => h.action)).toEqual(expect.arrayContaining(['erp.resend', 'erp.created']));
  });

  it('answers only with the permission that sends invoices to the ERP', async () => {
    const { id } = await stopped(true);
    const tech = await signIn(a, a.technicianEmail);
    for (const answer of ['booked', 'sendAgain'])
      expect(
        (await call('POST', '/api/invoice/erp/check', tech, { invoiceId: id, answer, externalInvoiceNr: '9' })).status,
      ).toBe(403);
    expect(await delivery(id)).toMatchObject({ status: 'needs_checking', external_invoice_nr: null });
  });
});

describe('[erp] Settings → ERP: what each ERP verified, and Magenta’s VAT codes (issue 31)', () => {
  it('lists per ERP what was checked against its documentation, and keeps the tenant’s Magenta VAT codes for its file', async () => {
    const view = await call('GET', '/api/instance/erp', token);
    expect(view.status, view.text).toBe(200);
    const kinds = view.json().kinds as Json[];
    expect(kinds.find((k) => k.id === 'fortnox')!.verification.unverified).toContain('fortnox.errorCodes');
    expect(kinds.find((k) => k.id === 'none')!.verification).toBeNull();
    expect(kinds.find((k) => k.id === 'magenta')!.vatCodes).toEqual({
      defaults: { '25': '1', '12': '2', '6': '3', '0': '4', reverse: '5' },
      guessed: true,
    });
    expect(kinds.find((k) => k.id === 'fortnox')!.vatCodes).toBeNull();

    const bad = await call('PUT', '/api/instance/erp', token, {
      kind: 'magenta',
      accounts: { sales: {}, vatCodes: { '25': 'moms' } },
    });
    expect(bad.status, bad.text).toBe(400);
    const put = await call('PUT', '/api/instance/erp', token, {
      kind: 'magenta',
      accounts: { sales: { '25': '3001' }, vatCodes: { '25': ' 11 ', '12': '' } },
    });
    expect(put.status, put.text).toBe(200);
    expect(put.json().accounts.vatCodes).toEqual({ '25': '11' });
    // a form without the codes leaves them as they are
    const kept = await call('PUT', '/api/instance/erp', token, { kind: 'magenta', accounts: { sales: { '25': '3002' } } });
    expect(kept.json().accounts).toMatchObject({ sales: { '25': '3002' }, vatCodes: { '25': '11' } });

    const closed = await closedOrder();
    const file = await call('POST', '/api/invoice/apply', token, { invoiceId: closed.invoice.id, type: 'visma-xml' });
    expect(file.status, file.text).toBe(200);
    expect(file.text).toContain('Momskod_Huvud: 11');
  });
});

describe('[erp] Visma Administration: the SIE 4I file', () => {
  it('downloads the invoice as a verification of the tenant’s company, named FAKT_<number>.SI', async () => {
    const put = await call('PUT', '/api/instance/erp', token, { kind: 'visma' });
    expect(put.status, put.text).toBe(200);
    const closed = await closedOrder();
    const file = await call('POST', '/api/invoice/apply', token, { invoiceId: closed.invoice.id, type: 'visma-xml' });
    expect(file.status, file.text).toBe(200);
    expect(file.headers['content-type']).toBe('text/plain; charset=IBM437');
    expect(file.headers['content-disposition']).toContain(`FAKT_${closed.invoice.invoiceNr}.SI`);
    const company = tenantA.config.company.companyName ?? tenantA.displayName;
    expect(file.text).toMatch(/^#FLAGGA 0\r\n#FORMAT PC8\r\n#SIETYP 4\r\n/);
    expect(file.text).toContain(`#FNAMN "${company}"`);
    expect(file.text).toContain('#TRANS 1510 {} 800.00');
  });
});
