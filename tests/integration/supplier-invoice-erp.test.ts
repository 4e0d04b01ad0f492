import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTenant } from '~/core/db/with-tenant';
import { buildPeppolDocument, type PeppolParty } from '~/core/invoicing/peppol';
import {
  deliverDueSupplierInvoices,
  supplierInvoiceKeyOf,
} from '~/core/supplier-invoices/supplier-invoice-delivery';
import type { Tenant } from '~/core/tenancy/tenant';
import { supplierInvoiceReference } from '~/plugins/erp-fortnox/supplier-invoice';
import type { FortnoxFake } from '~/tests/fakes/fortnox';
import type { TestApi } from '~/tests/helpers/api';
import { killWorkerAfter, startFortnoxTenant, type FortnoxTenant } from '~/tests/helpers/fortnox-tenant';

/*
 * Payment approval books the supplier invoice in the ERP exactly once (issue 33 item 3), against the
 * Fortnox fake's /3/suppliers and /3/supplierinvoices (tests/fakes/fortnox.ts, built from Fortnox's
 * published API): the approval queues it, the job sends it with the supplier, and a worker process
 * killed while Fortnox holds its answer never books it twice — the next run finds it by its key.
 * A supplier without an account is refused before anything changes.
 *
 * The crash test runs the worker in a child process sharing the database, so this file runs on
 * PostgreSQL (the machine's, or TEST_DATABASE_URL), never on the in-process PGlite.
 */

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const previousUrl = process.env.TEST_DATABASE_URL;
process.env.TEST_DATABASE_URL = previousUrl ?? 'postgres://postgres@127.0.0.1:5432/test';

let env: FortnoxTenant;
let fake: FortnoxFake;
let tenantA: Tenant;
let token: string;
const ids = {} as Record<'supplier' | 'noAccount', string>;

const call: TestApi['call'] = (...args) => env.call(...args);

const seller = (id: string, name: string): PeppolParty => ({
  name,
  country: 'SE',
  endpoint: { scheme: '0007', id },
  legalId: { id, scheme: '0007' },
  vatNumber: `SE${id}01`,
  street: 'Lagergatan 3',
  postIndex: '903 27',
  city: 'Umeå',
});
const buyer = seller('5566778899', 'Testlarm AB');

function eInvoice(number: string, from: PeppolParty) {
  return buildPeppolDocument({
    number,
    issueDate: '2026-03-02',
    dueDate: '2026-04-01',
    deliveryDate: null,
    currency: 'SEK',
    buyerReference: 'Inköp',
    orderReference: null,
    seller: from,
    buyer,
    reverseVat: false,
    lines: [
      { kind: 'article', title: 'Kabel EKK 3G1,5', description: null, articleNumber: 'EKK-315', unit: 'm', amount: '25', price: '12.37', discount: null, vatPercent: '25', isText: false },
      { kind: 'article', title: 'Handbok', description: null, articleNumber: 'HB-1', unit: 'st', amount: '1', price: '120.00', discount: null, vatPercent: '6', isText: false },
    ],
    notes: [],
    payment: { reference: '7712345', bankgiro: '5050-1055', iban: null, bic: null, termsText: null },
    prepaid: null,
    texts: { reverseVat: 'Omvänd betalningsskyldighet' },
  });
}

/** An e-invoice from the supplier, approved by content (nobody responsible: finance may) — ready for payment. */
async function awaitingPayment(number: string, from = seller('5567321707', 'Elgrossisten Norr AB')): Promise<string> {
  const up = await call('POST', '/api/supplierinvoices/peppol', token, { document: eInvoice(number, from).xml });
  expect(up.status, up.text).toBe(200);
  const id = up.json().id as string;
  const content = await call('POST', `/api/supplierinvoices/${id}/content/approve`, token);
  expect(content.status, content.text).toBe(200);
  return id;
}

const delivery = (id: string) =>
  withTenant(tenantA, (trx) => trx('supplier_invoice_deliveries').where({ supplier_invoice_id: id }).first()) as Promise<Json>;

beforeAll(async () => {
  env = await startFortnoxTenant('si-erp');
  ({ fake, token, tenant: tenantA } = env);
  for (const [key, body] of [
    ['supplier', { number: '3001', title: 'Elgrossisten', name: 'Elgrossisten Norr AB', organizationNumber: '5567321707', erpAccount: '4010' }],
    ['noAccount', { number: '3002', title: 'Kontolös', name: 'Kontolös Handel AB', organizationNumber: '5560000002' }],
  ] as const) {
    const res = await call('POST', '/api/suppliers', token, { supplier: body });
    expect(res.status, res.text).toBe(200);
    ids[key] = res.json().id;
  }
});
afterAll(async () => {
  if (previousUrl === undefined) delete process.env.TEST_DATABASE_URL;
  else process.env.TEST_DATABASE_URL = previousUrl;
  await env?.close();
});

describe('[supplier invoices] payment approval books the invoice in Fortnox', () => {
  it('queues the delivery with the approval; the job books it once, with its supplier, and reads back the number', async () => {
    const id = await awaitingPayment('F-500');
    expect((await call('GET', `/api/supplierinvoices/${id}`, token)).json().erp).toMatchObject({ kind: 'fortnox', canBook: true });
    const paid = await call('POST', `/api/supplierinvoices/${id}/payment/approve`, token);
    expect(paid.status, paid.text).toBe(200);
    expect(paid.json()).toEqual({ ok: true, erpQueued: true });
    const key = supplierInvoiceKeyOf(id);
    expect(await delivery(id)).toMatchObject({ status: 'pending', idempotency_key: key, attempts: 0 });
    expect(await deliverDueSupplierInvoices(tenantA)).toMatchObject({ delivered: 1, failed: 0 });
    const d = await delivery(id);
    expect(d).toMatchObject({ status: 'delivered', attempts: 1 });
    expect(fake.supplierInvoiceCount(supplierInvoiceReference(key))).toBe(1);
    const booked = fake.supplierInvoice(d.external_id)!;
    const si = (await call('GET', `/api/supplierinvoices/${id}`, token)).json().supplierInvoice as Json;
    expect(booked).toMatchObject({ SupplierNumber: '3001', InvoiceNumber: 'F-500', OCR: '7712345' });
    expect(Number(booked.Total)).toBe(Number(si.total));
    const card = fake.supplier('3001')!;
    expect(card).toMatchObject({ Name: 'Elgrossisten Norr AB', OrganisationNumber: '5567321707' });
    expect(String(card.PreDefinedAccount)).toBe('4010');
    expect(si.delivery).toMatchObject({ status: 'delivered', externalId: d.external_id });
    // nothing more to deliver, and the invoice cannot be approved again
    expect(await deliverDueSupplierInvoices(tenantA)).toMatchObject({ delivered: 0 });
    expect((await call('POST', `/api/supplierinvoices/${id}/payment/approve`, token)).status).toBe(409);
    expect(fake.supplierInvoiceCount(supplierInvoiceReference(key))).toBe(1);
  });

  it('a supplier without an account is refused before anything changes', async () => {
    const id = await awaitingPayment('K-1', seller('5560000002', 'Kontolös Handel AB'));
    const res = await call('POST', `/api/supplierinvoices/${id}/payment/approve`, token);
    expect(res.status).toBe(409);
    expect(res.json().code).toBe('ERP_SUPPLIER_ACCOUNT_MISSING');
    expect((await call('GET', `/api/supplierinvoices/${id}`, token)).json().supplierInvoice).toMatchObject({
      status: 'pending',
      paymentApproved: false,
      delivery: null,
    });
  });

  it('a worker killed after Fortnox booked the invoice but before Ordo recorded it never books a second one', async () => {
    const id = await awaitingPayment('F-501');
    expect((await call('POST', `/api/supplierinvoices/${id}/payment/approve`, token)).status).toBe(200);
    const ref = supplierInvoiceReference(supplierInvoiceKeyOf(id));
    fake.holdNextCreateResponse();
    // kill the worker once Fortnox holds the booked invoice, while it waits for the answer
    await killWorkerAfter(env, () => fake.supplierInvoiceCount(ref) > 0);
    const held = await delivery(id);
    expect(held).toMatchObject({ status: 'sending', attempts: 1 });
    // nothing happens while the dead worker's lease runs; after it, the next run takes over
    expect(await deliverDueSupplierInvoices(tenantA)).toMatchObject({ delivered: 0 });
    await withTenant(tenantA, (trx) =>
      trx('supplier_invoice_deliveries')
        .where({ id: held.id })
        .update({ lease_until: new Date(Date.now() - 1000) }),
    );
    expect(await deliverDueSupplierInvoices(tenantA)).toMatchObject({ delivered: 1 });
    expect(fake.supplierInvoiceCount(ref)).toBe(1);
    expect(await delivery(id)).toMatchObject({ status: 'delivered', attempts: 2 });
  }, 60_000);
});
