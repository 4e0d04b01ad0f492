import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { afterCommitSettled, withTenant } from '~/core/db/with-tenant';
import { deliverDueSupplierInvoices } from '~/core/supplier-invoices/supplier-invoice-delivery';
import { runErpFetch } from '~/core/supplier-invoices/supplier-invoice-erp-fetch';
import type { TestApi } from '~/tests/helpers/api';
import { createTestTenant } from '~/tests/helpers/app';
import { killWorkerAfter, startFortnoxTenant, type FortnoxTenant } from '~/tests/helpers/fortnox-tenant';

/*
 * Supplier invoices typed in Fortnox are fetched into Ordo (issue 33 item 1; decision 054 "Fetched
 * from the ERP"), against the Fortnox fake: matched to their supplier and work order, fetched again
 * without duplicates, and their payment approval approves them in Fortnox — once, with no new
 * supplier invoice created there — also when the worker is killed while Fortnox holds its answer or
 * two runs race. Another tenant sees none of them.
 *
 * The crash test runs the worker in a child process sharing the database, so this file runs on
 * PostgreSQL (the machine's, or TEST_DATABASE_URL), never on the in-process PGlite.
 */

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const previousUrl = process.env.TEST_DATABASE_URL;
process.env.TEST_DATABASE_URL = previousUrl ?? 'postgres://postgres@127.0.0.1:5432/test';

let env: FortnoxTenant;
let token: string;
let woId: string;
let woNumber: string;
let supplierId: string;
const call: TestApi['call'] = (...args) => env.call(...args);

/** A supplier invoice as a person types it in Fortnox: 1 000 kr of cable at 25 % VAT. */
function typedInFortnox(invoiceNumber: string, extra: Record<string, unknown> = {}) {
  return env.fake.addSupplierInvoice({
    SupplierNumber: '77',
    InvoiceNumber: invoiceNumber,
    InvoiceDate: '2026-03-02',
    DueDate: '2026-04-01',
    Total: 1250,
    VAT: 250,
    OCR: '5544332211',
    YourReference: woNumber,
    SupplierInvoiceRows: [
      { Code: 'TOT', Account: 2440, Credit: 1250 },
      { Code: 'VAT', Account: 2641, Debit: 250 },
      { Account: 4010, Debit: 1000, TransactionInformation: 'Kabel EKK 3G1,5', Quantity: 100, Price: 10 },
    ],
    ...extra,
  });
}

async function fetchNow(): Promise<Json> {
  const res = await call('POST', '/api/supplierinvoices/erp/fetch', token);
  expect(res.status, res.text).toBe(200);
  await afterCommitSettled();
  // the job ran after the commit; a run now finds nothing queued
  expect(await runErpFetch(env.tenant)).toBeNull();
  const settings = await call('GET', '/api/supplierinvoices/settings', token);
  return settings.json().erpFetch as Json;
}

const listAll = async (): Promise<Json[]> =>
  (await call('GET', '/api/supplierinvoices?status=all&limit=100', token)).json().invoices as Json[];

const byNumber = async (number: string): Promise<Json> => {
  const found = (await listAll()).filter((i) => i.invoiceNumber === number);
  expect(found).toHaveLength(1);
  return found[0]!;
};

async function approveBoth(id: string) {
  const content = await call('POST', `/api/supplierinvoices/${id}/content/approve`, token);
  expect(content.status, content.text).toBe(200);
  const paid = await call('POST', `/api/supplierinvoices/${id}/payment/approve`, token);
  expect(paid.status, paid.text).toBe(200);
  expect(paid.json()).toEqual({ ok: true, erpQueued: true });
}

const delivery = (id: string) =>
  withTenant(env.tenant, (trx) =>
    trx('supplier_invoice_deliveries').where({ supplier_invoice_id: id }).first(),
  ) as Promise<Json>;

beforeAll(async () => {
  env = await startFortnoxTenant('si-fetch');
  token = env.token;
  const sup = await call('POST', '/api/suppliers', token, {
    supplier: { number: '3001', title: 'Elgrossisten', name: 'Elgrossisten Norr AB', organizationNumber: '5567321707' },
  });
  expect(sup.status, sup.text).toBe(200);
  supplierId = sup.json().id;
  const [customer] = (await withTenant(env.tenant, (trx) =>
    trx('customers').insert({ customer_id: '30001', name: 'Brf Eken' }).returning('id'),
  )) as Json[];
  const wo = await call('POST', '/api/wo', token, { workOrder: { title: 'Kortläsare', customerId: customer!.id } });
  expect(wo.status, wo.text).toBe(200);
  woId = wo.json().workOrder.id;
  const row = (await withTenant(env.tenant, (trx) => trx('work_orders').where({ id: woId }).first('number'))) as Json;
  woNumber = String(row.number);
  // Fortnox's own card for the supplier, under its own number, with the organisation number typed with a dash
  env.fake.addSupplier({ SupplierNumber: '77', Name: 'Elgrossisten Norr AB', OrganisationNumber: '556732-1707' });
});
afterAll(async () => {
  if (previousUrl === undefined) delete process.env.TEST_DATABASE_URL;
  else process.env.TEST_DATABASE_URL = previousUrl;
  await env?.close();
});

describe('[supplier invoices] fetched from Fortnox', () => {
  it('the settings offer the fetch, since the tenant’s Fortnox reads supplier invoices', async () => {
    const settings = (await call('GET', '/api/supplierinvoices/settings', token)).json();
    expect(settings.erpFetch).toEqual({
      available: true,
      state: 'idle',
      fetchedAt: null,
      added: null,
      existing: null,
      error: null,
    });
  });

  it('fetches what awaits approval, matched to supplier and work order; leaves out Ordo’s own and cancelled ones', async () => {
    const typed = typedInFortnox('EN-900');
    const ours = typedInFortnox('EN-OURS', { ExternalInvoiceNumber: 'ordo-si-00000000-0000-0000-0000-000000000001' });
    const cancelled = typedInFortnox('EN-GONE');
    cancelled.Cancelled = true; // as a person cancels it in Fortnox
    const before = env.fake.supplierInvoiceCount();
    const fetched = await fetchNow();
    expect(fetched).toMatchObject({ available: true, state: 'idle', added: 1, existing: 0, error: null });
    expect(fetched.fetchedAt).toEqual(expect.any(String));
    const item = await byNumber('EN-900');
    expect(item).toMatchObject({
      source: 'erp',
      supplierId,
      workOrderId: woId,
      matched: true,
      total: '1250.00',
      totalCost: '1000.00',
      status: 'pending',
    });
    const detail = (await call('GET', `/api/supplierinvoices/${item.id}`, token)).json();
    expect(detail.supplierInvoice).toMatchObject({
      erpExternalId: String(typed.GivenNumber),
      ocr: '5544332211',
      totalVat: '250.00',
      rounding: '0.00',
    });
    expect(detail.supplierInvoice.rows).toEqual([
      expect.objectContaining({ description: 'Kabel EKK 3G1,5', total: '1000.00', vatPercent: '25', account: '4010' }),
    ]);
    expect(detail.erp).toMatchObject({ kind: 'fortnox', canBook: true });
    expect((await listAll()).map((i) => i.invoiceNumber)).not.toContain(ours.InvoiceNumber);
    expect((await listAll()).map((i) => i.invoiceNumber)).not.toContain('EN-GONE');
    // a fetch only reads
    expect(env.fake.supplierInvoiceCount()).toBe(before);
  });

  it('fetched again adds nothing: past the cursor nothing is new, and from the start everything is already here', async () => {
    expect(await fetchNow()).toMatchObject({ added: 0, existing: 0, error: null });
    await withTenant(env.tenant, (trx) => trx('supplier_invoice_settings').update({ erp_fetch_cursor: null }));
    expect(await fetchNow()).toMatchObject({ added: 0, existing: 1, error: null });
    expect((await listAll()).filter((i) => i.invoiceNumber === 'EN-900')).toHaveLength(1);
  });

  it('payment approval approves it in Fortnox once and creates no supplier invoice there', async () => {
    const item = await byNumber('EN-900');
    const givenNumber = (await call('GET', `/api/supplierinvoices/${item.id}`, token)).json().supplierInvoice
      .erpExternalId as string;
    const before = env.fake.supplierInvoiceCount();
    await approveBoth(item.id);
    expect(await deliverDueSupplierInvoices(env.tenant)).toMatchObject({ delivered: 1, failed: 0 });
    expect(env.fake.supplierInvoicePaymentApprovals(givenNumber)).toBe(1);
    expect(env.fake.supplierInvoiceCount()).toBe(before);
    expect(await delivery(item.id)).toMatchObject({ status: 'delivered', external_id: givenNumber, attempts: 1 });
    expect(await deliverDueSupplierInvoices(env.tenant)).toMatchObject({ delivered: 0 });
    expect(env.fake.supplierInvoicePaymentApprovals(givenNumber)).toBe(1);
    // approved, it no longer awaits approval in Fortnox: a fetch from the start does not bring it back
    await withTenant(env.tenant, (trx) => trx('supplier_invoice_settings').update({ erp_fetch_cursor: null }));
    expect(await fetchNow()).toMatchObject({ added: 0, existing: 0 });
  });

  it('a worker killed after Fortnox approved it, and two runs at once, never approve twice', async () => {
    const killed = typedInFortnox('EN-901');
    const raced = typedInFortnox('EN-902');
    expect(await fetchNow()).toMatchObject({ added: 2, error: null });
    const killedId = (await byNumber('EN-901')).id as string;
    const racedId = (await byNumber('EN-902')).id as string;
    await approveBoth(killedId);
    env.fake.holdNextCreateResponse();
    await killWorkerAfter(env, () => env.fake.supplierInvoicePaymentApprovals(String(killed.GivenNumber)) > 0);
    const held = await delivery(killedId);
    expect(held).toMatchObject({ status: 'sending', attempts: 1 });
    await withTenant(env.tenant, (trx) =>
      trx('supplier_invoice_deliveries')
        .where({ id: held.id })
        .update({ lease_until: new Date(Date.now() - 1000) }),
    );
    await approveBoth(racedId);
    const runs = await Promise.all([deliverDueSupplierInvoices(env.tenant), deliverDueSupplierInvoices(env.tenant)]);
    expect(runs.reduce((n, r) => n + r.delivered, 0)).toBe(2);
    expect(runs.reduce((n, r) => n + r.failed + r.retry, 0)).toBe(0);
    expect(env.fake.supplierInvoicePaymentApprovals(String(killed.GivenNumber))).toBe(1);
    expect(env.fake.supplierInvoicePaymentApprovals(String(raced.GivenNumber))).toBe(1);
    expect(await delivery(killedId)).toMatchObject({ status: 'delivered', attempts: 2 });
    expect(await delivery(racedId)).toMatchObject({ status: 'delivered', attempts: 1 });
  }, 60_000);

  it('another tenant sees none of them', async () => {
    const item = await byNumber('EN-900');
    const b = await createTestTenant('si-fetch-b');
    const tokenB = await env.signIn(b, b.adminEmail);
    expect((await call('GET', `/api/supplierinvoices/${item.id}`, tokenB, undefined, b.host)).status).toBe(404);
    const list = await call('GET', '/api/supplierinvoices?status=all', tokenB, undefined, b.host);
    expect(list.status).toBe(200);
    expect(list.json().invoices).toEqual([]);
    // its ERP is not Fortnox: no fetch is offered, and asking is refused
    expect(
      (await call('GET', '/api/supplierinvoices/settings', tokenB, undefined, b.host)).json().erpFetch,
    ).toMatchObject({
      available: false,
    });
    const refused = await call('POST', '/api/supplierinvoices/erp/fetch', tokenB, undefined, b.host);
    expect(refused.status).toBe(409);
    expect(refused.json().code).toBe('SUPPLIER_INVOICE_ERP_CANNOT_FETCH');
  });
});
