import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTenant } from '~/core/db/with-tenant';
import { loadRegistry } from '~/core/extension-points/registry';
import { readErpConnection } from '~/core/invoicing/erp-connection';
import { buildErpInvoice, deliverDue, idempotencyKeyOf } from '~/core/invoicing/erp-delivery';
import { fortnoxInvoice } from '~/plugins/erp-fortnox';
import type { Tenant } from '~/core/tenancy/tenant';
import { getTenantBySlug } from '~/tenants/registry';
import { consentAsBrowser, startFortnoxFake, type FortnoxFake } from '~/tests/fakes/fortnox';
import { testApi } from '~/tests/helpers/api';
import { runRouteAs } from '~/tests/helpers/route-loader';
import { action as erpSettingsAction } from '~/app/routes/settings.erp';
import { createTestTenant, startTestServer, type TestServer, type TestTenant } from '~/tests/helpers/app';

/*
 * ERP delivery end to end (issue 14 items 3, 4 and 6) against the local Fortnox fake: the OAuth round
 * trip of Settings → ERP over HTTP, the outbox written by the close, the job's delivery and the ERP
 * number read back, the customer set not to send, a 5xx retried with backoff, a failure shown with
 * its reason and retried by hand, and a worker process killed while the vendor holds its answer —
 * after which the next run finds the invoice instead of making a second one.
 *
 * The crash test runs the worker in a child process sharing the database, so this file runs on
 * PostgreSQL (the machine's, or TEST_DATABASE_URL), never on the in-process PGlite.
 */

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const previousUrl = process.env.TEST_DATABASE_URL;
process.env.TEST_DATABASE_URL = previousUrl ?? 'postgres://postgres@127.0.0.1:5432/test';

let srv: TestServer;
let fake: FortnoxFake;
let a: TestTenant;
let tenantA: Tenant;
let token: string;
let pluginOptions: Record<string, unknown>;
const ref = {} as Record<'customer' | 'quiet' | 'article', string>;
const origin = 'https://erp-test.ordo.test';

const { signIn, call } = testApi(() => ({ url: srv.url, host: a.host }));

beforeAll(async () => {
  srv = await startTestServer();
  fake = await startFortnoxFake();
  pluginOptions = {
    fortnox: { clientId: fake.clientId, clientSecret: fake.clientSecret, authBaseUrl: fake.url, apiBaseUrl: fake.url },
  };
  await loadRegistry(pluginOptions);
  a = await createTestTenant('erp-a');
  tenantA = (await getTenantBySlug(a.slug))!;
  await withTenant(tenantA, async (trx) => {
    await trx.raw(
      `insert into app_modules (id, enabled) values ('erp', true) on conflict (id) do update set enabled = true`,
    );
    const [c, q] = await trx('customers')
      .insert([
        { customer_id: '40001', name: 'Brf Björken', email: 'styrelsen@bjorken.se' },
        { customer_id: '40002', name: 'Tyst Kund AB', send_to_erp: false },
      ])
      .returning('id');
    ref.customer = c.id;
    ref.quiet = q.id;
    ref.article = (
      await trx('articles')
        .insert({ article_id: 'DET-9', title: 'Detektor', price: '300.00', unit: 'st' })
        .returning('id')
    )[0].id;
  });
  token = await signIn(a, a.adminEmail);
});
afterAll(async () => {
  if (previousUrl === undefined) delete process.env.TEST_DATABASE_URL;
  else process.env.TEST_DATABASE_URL = previousUrl;
  await fake?.close();
  await srv?.close();
});

async function closedOrder(customerId = ref.customer): Promise<Json> {
  const res = await call('POST', '/api/wo', token, { workOrder: { title: 'Byte av detektor', customerId } });
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

describe('[erp] Settings → ERP connects to Fortnox', () => {
  it('chooses Fortnox, runs the OAuth round trip with a one-time state, and tests the connection', async () => {
    const put = await call('PUT', '/api/instance/erp', token, {
      kind: 'fortnox',
      accounts: { sales: { '25': '3001' }, fee: '3541' },
    });
    expect(put.status, put.text).toBe(200);
    expect(put.json()).toMatchObject({
      kind: 'fortnox',
      connected: false,
      accounts: { sales: { '25': '3001' }, fee: '3541' },
    });
    const start = await call('POST', '/api/instance/erp/auth', token, { origin });
    expect(start.status, start.text).toBe(200);
    const back = await consentAsBrowser(start.json().url);
    expect(`${back.origin}${back.pathname}`).toBe(`${origin}/settings/erp/callback`);
    const code = back.searchParams.get('code');
    const state = back.searchParams.get('state');
    // a state we did not issue is refused
    const forged = await call('POST', '/api/instance/erp/callback', token, { code, state: 'forged', origin });
    expect(forged.status).toBe(409);
    expect(forged.json().code).toBe('ERP_OAUTH_STATE_INVALID');
    const done = await call('POST', '/api/instance/erp/callback', token, { code, state, origin });
    expect(done.status, done.text).toBe(200);
    expect(done.json().companyName).toBeTruthy();
    // the state is used up
    const replay = await call('POST', '/api/instance/erp/callback', token, { code, state, origin });
    expect(replay.status).toBe(409);
    const settings = await call('GET', '/api/instance/erp', token);
    expect(settings.json()).toMatchObject({ kind: 'fortnox', connected: true, lastTestError: null });
    // the tokens are stored sealed, never in the clear
    const row = await withTenant(tenantA, (trx) => trx('erp_connection').first('credentials'));
    expect(row.credentials).toMatch(/^v2\.[0-9a-f]{8}\./);
    expect(row.credentials).not.toContain('access');
    const test = await call('POST', '/api/instance/erp/test', token);
    expect(test.json()).toMatchObject({ ok: true });
  });
});

describe('[erp] delivery through the outbox', () => {
  it('closing queues the invoice; the job sends it once and the ERP number is read back', async () => {
    const closed = await closedOrder();
    expect(closed.invoice).toMatchObject({ status: 'finalized', erpQueued: true });
    const id = closed.invoice.id;
    expect(await delivery(id)).toMatchObject({ status: 'pending', idempotency_key: idempotencyKeyOf(id), attempts: 0 });
    expect(await deliverDue(tenantA)).toMatchObject({ delivered: 1, failed: 0 });
    const d = await delivery(id);
    expect(d).toMatchObject({ status: 'delivered', attempts: 1 });
    expect(fake.invoiceCount(idempotencyKeyOf(id))).toBe(1);
    const erp = await call('GET', `/api/invoice/${id}/erp`, token);
    expect(erp.json()).toMatchObject({ externalInvoiceNr: d.external_invoice_nr, erpState: 'success' });
    const stored = fake.invoice(d.external_id)!;
    expect(stored).toMatchObject({ CustomerNumber: '40001', AdministrationFee: 40 });
    expect(fake.customer('40001')).toMatchObject({ Name: 'Brf Björken' });
    const history = await call('GET', `/api/invoice/history/${id}`, token);
    expect(history.json().map((h: Json) => h.action)).toContain('erp.created');
    // a second order of the same customer reuses the mapping: no new customer or article
    const customers = fake.customerCount();
    const articles = fake.articleCount();
    const next = await closedOrder();
    await deliverDue(tenantA);
    expect((await delivery(next.invoice.id)).status).toBe('delivered');
    expect(fake.customerCount()).toBe(customers);
    expect(fake.articleCount()).toBe(articles);
    // applying erp again is refused: it is already there
    const again = await call('POST', '/api/invoice/apply', token, { invoiceId: id, type: 'erp' });
    expect(again.status).toBe(409);
    expect(again.json().code).toBe('INVOICE_ALREADY_IN_ERP');
  });

  it('each row carries its type to the invoice screen and to Fortnox, not "material" for all (issue 28 item 4)', async () => {
    // a customer not sent to the ERP: nothing queued for the delivery tests below
    const closed = await closedOrder(ref.quiet);
    const id = closed.invoice.id as string;
    const extra = (kind: string, title: string, work: 'labour' | 'material', sort: number) => ({
      invoice_id: id,
      kind,
      title,
      amount: '1',
      price: '100',
      total: '100',
      vat_percent: 25,
      work,
      is_text: false,
      sort_order: sort,
    });
    await withTenant(tenantA, async (trx) => {
      await trx('invoice_rows').insert([
        extra('labour', 'Arbete', 'labour', 10),
        extra('travel', 'Restid', 'labour', 11),
        extra('mileage', 'Körning', 'material', 12),
        extra('part_payment', 'Delfakturering 30 %', 'material', 13),
        extra('agreement_fee', 'Serviceavtal', 'material', 14),
      ]);
      await trx('invoices').where({ id }).update({ tax_reduction: 'ROT' });
    });
    const typeOf = (rows: { kind: string; type?: string }[]) => Object.fromEntries(rows.map((r) => [r.kind, r.type]));
    const expected = {
      article: 'material',
      fee: 'fee',
      labour: 'labour',
      travel: 'travel',
      mileage: 'travel',
      part_payment: 'partPayment',
      agreement_fee: 'fee',
    };
    const view = await call('GET', `/api/invoice/${id}`, token);
    expect(view.status, view.text).toBe(200);
    expect(typeOf(view.json().articles)).toEqual(expected);
    const erp = await withTenant(tenantA, async (trx) => buildErpInvoice(trx, id, await readErpConnection(trx)));
    expect(typeOf(erp.rows)).toEqual(expected);
    // Fortnox: only labour is house work; travel, mileage, part payments and fees are other costs,
    // and the agreement fee stays a row while the invoice fee is the AdministrationFee.
    const rows = fortnoxInvoice(erp, 'ref').InvoiceRows as Json[];
    const byText = Object.fromEntries(rows.map((r) => [r.Description, r]));
    expect(byText.Arbete).toMatchObject({ HouseWork: true });
    for (const d of ['Restid', 'Körning', 'Delfakturering 30 %', 'Serviceavtal', 'Detektor'])
      expect(byText[d], d).toMatchObject({ HouseWork: false, HouseWorkType: 'OTHERCOSTS' });
  });

  it('a ROT reduction shared by two people goes to the ERP in whole kronor each, the first taking the kronor left over (issue 31 item 1)', async () => {
    const id = (await closedOrder()).invoice.id;
    await withTenant(tenantA, (trx) =>
      trx('invoices')
        .where({ id })
        .update({
          tax_reduction: 'ROT',
          tax_reduction_amount: '1001.00',
          tax_reduction_persons: JSON.stringify([{ personId: '19800101-0019' }, { personId: '19820202-0028' }]),
        }),
    );
    const erp = await withTenant(tenantA, async (trx) => buildErpInvoice(trx, id, await readErpConnection(trx)));
    expect(erp.taxReduction?.persons).toEqual([
      { personId: '19800101-0019', amount: '501.00' },
      { personId: '19820202-0028', amount: '500.00' },
    ]);
    // the delivery would otherwise go out with them: this invoice is not the test's to send
    await withTenant(tenantA, (trx) => trx('erp_deliveries').where({ invoice_id: id }).delete());
  });

  it('a customer set not to send is skipped on close, with the warning, and refused on apply', async () => {
    const closed = await closedOrder(ref.quiet);
    expect(closed.warnings).toEqual(['CUSTOMER_SET_NOT_TO_SEND_TO_ERP']);
    expect(closed.invoice.erpQueued).toBe(false);
    expect(await delivery(closed.invoice.id)).toBeUndefined();
    const apply = await call('POST', '/api/invoice/apply', token, { invoiceId: closed.invoice.id, type: 'erp' });
    expect(apply.status).toBe(409);
    expect(apply.json().code).toBe('CUSTOMER_SET_NOT_TO_SEND_TO_ERP');
  });

  it('a 5xx is tried again later with backoff; the retry makes exactly one invoice', async () => {
    const closed = await closedOrder();
    const id = closed.invoice.id;
    // one request fails: the customer lookup on a new mapping… whichever request comes first
    fake.failNext(503);
    const before = Date.now();
    expect(await deliverDue(tenantA)).toMatchObject({ retry: 1 });
    const d = await delivery(id);
    expect(d).toMatchObject({ status: 'pending', error_code: 'ERP_UNREACHABLE', attempts: 1 });
    expect(new Date(d.next_attempt_at).getTime()).toBeGreaterThanOrEqual(before + 29_000);
    // not due yet: nothing happens
    expect(await deliverDue(tenantA)).toMatchObject({ delivered: 0, retry: 0 });
    await withTenant(tenantA, (trx) =>
      trx('erp_deliveries').where({ invoice_id: id }).update({ next_attempt_at: new Date() }),
    );
    expect(await deliverDue(tenantA)).toMatchObject({ delivered: 1 });
    expect(fake.invoiceCount(idempotencyKeyOf(id))).toBe(1);
  });

  it('a failure that waiting cannot mend is shown with its reason, and the retry button sends it', async () => {
    const closed = await closedOrder();
    const id = closed.invoice.id;
    const sealed = await withTenant(tenantA, (trx) => trx('erp_connection').first('credentials'));
    await call('POST', '/api/instance/erp/disconnect', token);
    expect(await deliverDue(tenantA)).toMatchObject({ failed: 1 });
    const view = await call('GET', `/api/invoice/${id}`, token);
    expect(view.json().delivery).toMatchObject({ status: 'failed', errorCode: 'ERP_NOT_CONNECTED' });
    const list = await call('GET', '/api/invoices?erp=failed&size=200', token);
    expect(list.json().invoices.map((i: Json) => i.id)).toContain(id);
    // connected again (the sealed tokens put back), the person presses retry
    await withTenant(tenantA, (trx) => trx('erp_connection').update({ credentials: sealed.credentials }));
    const retry = await call('POST', '/api/invoice/apply', token, { invoiceId: id, type: 'erp' });
    expect(retry.status, retry.text).toBe(200);
    expect(retry.json().delivery).toMatchObject({ status: 'pending', attempts: 0 });
    expect(await deliverDue(tenantA)).toMatchObject({ delivered: 1 });
    expect(fake.invoiceCount(idempotencyKeyOf(id))).toBe(1);
  });

  it('a worker killed after Fortnox created the invoice but before Ordo recorded it never makes a second one', async () => {
    const closed = await closedOrder();
    const id = closed.invoice.id;
    const key = idempotencyKeyOf(id);
    fake.holdNextCreateResponse();
    const child = spawn(process.execPath, ['--import', 'tsx', 'tests/helpers/erp-deliver-child.ts'], {
      env: {
        ...process.env,
        TEST_DATABASE_URL: process.env.TEST_DATABASE_URL,
        TENANT_SLUG: a.slug,
        PLUGIN_OPTIONS: JSON.stringify(pluginOptions),
        LOG_LEVEL: 'silent',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
    const exited = new Promise<NodeJS.Signals | number | null>((resolve) =>
      child.on('exit', (code, signal) => resolve(signal ?? code)),
    );
    // wait until Fortnox holds the created invoice, then kill the worker while it waits for the answer
    const until = Date.now() + 30_000;
    while (fake.invoiceCount(key) === 0) {
      if (Date.now() > until) throw new Error(`the worker never created the invoice: ${stderr}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');
    const held = await delivery(id);
    expect(held).toMatchObject({ status: 'sending', attempts: 1 });
    // nothing happens while the dead worker's lease runs; after it, the next run takes over
    expect(await deliverDue(tenantA)).toMatchObject({ delivered: 0 });
    await withTenant(tenantA, (trx) =>
      trx('erp_deliveries')
        .where({ id: held.id })
        .update({ lease_until: new Date(Date.now() - 1000) }),
    );
    expect(await deliverDue(tenantA)).toMatchObject({ delivered: 1 });
    expect(fake.invoiceCount(key)).toBe(1);
    expect(await delivery(id)).toMatchObject({ status: 'delivered', attempts: 2 });
  }, 60_000);
});

describe('[erp] a customer whose number Fortnox gives another company (issue 31 item 10)', () => {
  /** An Ordo customer that is a company of its own, and Fortnox's card under the same number. */
  async function clash(number: string, name: string, org: string) {
    const [c] = await withTenant(tenantA, (trx) =>
      trx('customers').insert({ customer_id: number, name, organizational_number: org }).returning('id'),
    );
    const theirs = fake.addCustomer({
      CustomerNumber: number,
      Name: `Annat Bolag ${number} AB`,
      OrganisationNumber: '556999-0006',
      Address1: 'Deras gata 1',
    });
    return { customerId: c.id as string, theirs };
  }
  const resolve = (json: Json) =>
    runRouteAs(erpSettingsAction, { tenant: tenantA, host: a.host, token }, '/settings/erp', {
      json: { intent: 'resolveConflict', ...json },
    });
  const conflicts = async () => (await call('GET', '/api/instance/erp', token)).json().customerConflicts as Json[];

  it('stops the delivery before anything is sent, shows the conflict in Settings → ERP, and "a new customer" sends it', async () => {
    const { customerId, theirs } = await clash('40010', 'Nordlarm AB', '556123-4566');
    const first = (await closedOrder(customerId)).invoice.id;
    const second = (await closedOrder(customerId)).invoice.id;
    expect(await deliverDue(tenantA)).toMatchObject({ failed: 2 });
    for (const id of [first, second]) {
      expect(await delivery(id)).toMatchObject({ status: 'failed', error_code: 'ERP_CUSTOMER_CONFLICT' });
      expect(fake.invoiceCount(idempotencyKeyOf(id))).toBe(0);
    }
    // Fortnox's card is as it was
    expect(fake.customer('40010')).toMatchObject({ Name: theirs.Name, Address1: 'Deras gata 1' });
    expect(await conflicts()).toEqual([
      expect.objectContaining({
        customerId,
        customerName: 'Nordlarm AB',
        customerNumber: '40010',
        organizationalNumber: '556123-4566',
        reason: 'number_taken',
        createNew: false,
        candidates: [
          {
            externalId: '40010',
            number: '40010',
            name: theirs.Name,
            organizationalNumber: '556999-0006',
            vatNumber: null,
          },
        ],
      }),
    ]);

    // a card Fortnox did not offer cannot be chosen; an unknown customer has no conflict
    expect((await resolve({ customerId, choice: 'link', externalId: '1' })).body).toMatchObject({
      code: 'VALIDATION_FAILED',
    });
    expect(
      (await resolve({ customerId: '00000000-0000-4000-8000-000000000000', choice: 'create' })).body,
    ).toMatchObject({ code: 'NOT_FOUND' });

    const chosen = await resolve({ customerId, choice: 'create' });
    expect(chosen.body).toMatchObject({ ok: true });
    expect(await conflicts()).toEqual([expect.objectContaining({ customerId, createNew: true })]);
    expect(await delivery(first)).toMatchObject({ status: 'pending' });
    expect(await deliverDue(tenantA)).toMatchObject({ delivered: 2 });
    const made = fake.invoice((await delivery(first)).external_id)!;
    expect(made.CustomerNumber).not.toBe('40010');
    expect(fake.customer(String(made.CustomerNumber))).toMatchObject({
      Name: 'Nordlarm AB',
      OrganisationNumber: '556123-4566',
    });
    expect(fake.invoice((await delivery(second)).external_id)).toMatchObject({ CustomerNumber: made.CustomerNumber });
    expect(fake.customer('40010')).toMatchObject({ Name: theirs.Name, OrganisationNumber: '556999-0006' });
    expect(await conflicts()).toEqual([]);
  });

  it('"this one of Fortnox’s" links the customer to the card and sends the invoice there', async () => {
    const { customerId, theirs } = await clash('40011', 'Nordlarm Syd AB', '556123-4574');
    const id = (await closedOrder(customerId)).invoice.id;
    expect(await deliverDue(tenantA)).toMatchObject({ failed: 1 });
    const chosen = await resolve({ customerId, choice: 'link', externalId: '40011' });
    expect(chosen.body).toMatchObject({ ok: true });
    expect(await conflicts()).toEqual([]);
    expect(await deliverDue(tenantA)).toMatchObject({ delivered: 1 });
    expect(fake.invoice((await delivery(id)).external_id)).toMatchObject({ CustomerNumber: '40011' });
    // what Ordo owns is brought up to date; Fortnox's identity of the card stays
    expect(fake.customer('40011')).toMatchObject({
      Name: 'Nordlarm Syd AB',
      OrganisationNumber: theirs.OrganisationNumber,
    });
  });
});
