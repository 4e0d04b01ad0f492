import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTenant } from '~/core/db/with-tenant';
import { updateCompanyDetails } from '~/core/instance/instance.service';
import type { Tenant } from '~/core/tenancy/tenant';
import { inTenant } from '~/core/unit-of-work';
import { getTenantBySlug } from '~/tenants/registry';
import { testApi } from '~/tests/helpers/api';
import { createTestTenant, startTestServer, type TestServer, type TestTenant } from '~/tests/helpers/app';
import { testAuth } from '~/tests/helpers/auth';
import { describeFindings, validatePeppol } from '~/tests/helpers/peppol-rules';

/*
 * The Peppol e-invoice of a real invoice (issue 15 item 4): a work order closed through the API
 * makes a final invoice, POST /invoice/apply {type: peppol} downloads it, and the official Peppol
 * BIS 3 and EN 16931 rules accept what was downloaded. A draft, a private customer and a company
 * without its numbers are refused with codes people read; a negative invoice is a credit note.
 */

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let srv: TestServer;
let a: TestTenant;
let tenantA: Tenant;
let admin: string;
const ref = {} as Record<'company' | 'private' | 'detector' | 'book' | 'adminId', string>;

const { signIn, call } = testApi(() => ({ url: srv.url, host: a.host }));

beforeAll(async () => {
  srv = await startTestServer();
  a = await createTestTenant('peppol');
  tenantA = (await getTenantBySlug(a.slug))!;
  await withTenant(tenantA, async (trx) => {
    ref.adminId = (await trx('users').where({ email: a.adminEmail }).first('id')).id;
    const [company, person] = await trx('customers')
      .insert([
        {
          customer_id: '40001',
          name: 'Fastighets AB Ström & Söner',
          organizational_number: '556036-0793',
          vat_number: 'SE556036079301',
          invoice_email: 'ap@strom.example',
        },
        { customer_id: '40002', name: 'Anna Privat', type: 'private' },
      ])
      .returning('id');
    ref.company = company.id;
    ref.private = person.id;
    await trx('customer_addresses').insert({
      customer_id: company.id,
      street: 'Storgatan 5',
      post_index: '222 33',
      city: 'Lund',
      is_primary: true,
    });
    const arts = await trx('articles')
      .insert([
        { article_id: 'DET-1', title: 'Rörelsedetektor', price: '200.00', unit: 'st' },
        { article_id: 'BOK', title: 'Manual', price: '100.00', unit: 'st', vat_percent: 6 },
      ])
      .returning('id');
    [ref.detector, ref.book] = arts.map((r: { id: string }) => r.id);
  });
  admin = await signIn(a, a.adminEmail);
});
afterAll(async () => {
  await srv?.close();
});

const setCompany = (details: Record<string, string>) =>
  inTenant({ tenant: tenantA, auth: testAuth(ref.adminId, ['instance:edit'], []), lang: 'sv' }, (ctx) =>
    updateCompanyDetails(ctx, {
      companyName: 'Nordlarm Säkerhet AB',
      companyNr: '556677-8899',
      address: 'Larmgatan 1',
      postIndex: '721 30',
      city: 'Västerås',
      email: 'info@nordlarm.se',
      vatRegistrationNr: 'SE556677889901',
      bgAccount: '5050-1055',
      ...details,
    }),
  );

/** A work order with two article rows (25 % and 6 %), closed with a fee: its invoice. */
async function closedOrder(customerId: string): Promise<Json> {
  const res = await call('POST', '/api/wo', admin, {
    workOrder: { title: 'Service av larm', customerId, customerOrderNumber: 'PO-778' },
  });
  expect(res.status, res.text).toBe(200);
  const wo = res.json().workOrder as Json;
  await withTenant(tenantA, (trx) =>
    trx('work_order_articles').insert([
      {
        work_order_id: wo.id,
        article_id: ref.detector,
        title: 'Rörelsedetektor',
        amount: '3',
        price: '199.99',
        discount_type: 'PERCENTAGE',
        discount_value: '10',
        total: 0,
        sort_order: 1,
      },
      {
        work_order_id: wo.id,
        article_id: ref.book,
        title: 'Manual',
        amount: '1',
        price: '100.00',
        total: 0,
        sort_order: 2,
      },
    ]),
  );
  const closed = await call('POST', '/api/wo/close', admin, {
    workOrderId: wo.id,
    invoiceFee: '40',
    invoiceDate: '2026-11-10',
  });
  expect(closed.status, closed.text).toBe(200);
  return closed.json().invoice as Json;
}

const getInvoice = async (id: string) => {
  const res = await call('GET', `/api/invoice/${id}`, admin);
  expect(res.status, res.text).toBe(200);
  return res.json() as Json;
};
const applyPeppol = (invoiceId: string) => call('POST', '/api/invoice/apply', admin, { invoiceId, type: 'peppol' });

describe('[invoicing] Peppol e-invoice', () => {
  it('downloads a finalized invoice as a Peppol BIS 3 invoice the official rules accept, and records it', async () => {
    await setCompany({});
    const made = await closedOrder(ref.company);
    const invoice = await getInvoice(made.id);
    expect(invoice.status).toBe('finalized');
    expect(invoice.applyTypes).toContain('peppol');

    const res = await applyPeppol(invoice.id);
    expect(res.status, res.text).toBe(200);
    expect(res.headers['content-type']).toBe('application/xml; charset=utf-8');
    expect(res.headers['content-disposition']).toContain(`invoice-${invoice.invoiceNr}-peppol.xml`);
    const xml = res.text;
    const report = validatePeppol(xml);
    expect(report.fatal, describeFindings(report.fatal)).toEqual([]);
    expect(xml).toContain(`<cbc:ID>${invoice.invoiceNr}</cbc:ID>`);
    expect(xml).toContain('<cbc:EndpointID schemeID="0007">5566778899</cbc:EndpointID>');
    expect(xml).toContain('<cbc:EndpointID schemeID="0007">5560360793</cbc:EndpointID>');
    expect(xml).toContain(`<cbc:PaymentID>${invoice.ocr}</cbc:PaymentID>`);
    expect(xml).toContain('<cac:OrderReference><cbc:ID>PO-778</cbc:ID></cac:OrderReference>');
    // what is due is what the invoice says
    expect(xml).toContain(
      `<cbc:PayableAmount currencyID="${invoice.currency}">${invoice.figures.toPay}</cbc:PayableAmount>`,
    );

    const history = await call('GET', `/api/invoice/history/${invoice.id}`, admin);
    expect(history.json()).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          action: 'peppol',
          data: { fileName: `invoice-${invoice.invoiceNr}-peppol.xml`, documentType: 'Invoice' },
        }),
      ]),
    );
  });

  it('writes a negative invoice as a credit note the rules accept', async () => {
    await withTenant(tenantA, (trx) => trx('invoice_settings').update({ review_before_sending: true }));
    try {
      const made = await closedOrder(ref.company);
      const draft = await getInvoice(made.id);
      expect(draft.status).toBe('draft');
      // a draft has no number: it is neither offered nor made
      expect(draft.applyTypes).not.toContain('peppol');
      const early = await applyPeppol(draft.id);
      expect(early.status).toBe(409);
      expect(early.json().code).toBe('INVOICE_NOT_FINALIZED');

      const put = await call('PUT', '/api/invoice', admin, {
        id: draft.id,
        version: draft.version,
        rows: draft.articles.map((r: Json) => (r.kind === 'fee' ? r : { ...r, amount: `-${r.amount}` })),
      });
      expect(put.status, put.text).toBe(200);
      const fin = await call('POST', `/api/invoice/${draft.id}/finalize`, admin);
      expect(fin.status, fin.text).toBe(200);
      expect(Number(fin.json().figures.total)).toBeLessThan(0);

      const res = await applyPeppol(draft.id);
      expect(res.status, res.text).toBe(200);
      const report = validatePeppol(res.text);
      expect(report.fatal, describeFindings(report.fatal)).toEqual([]);
      expect(res.text).toContain('<cbc:CreditNoteTypeCode>381</cbc:CreditNoteTypeCode>');
      expect(res.text).toContain(
        `<cbc:PayableAmount currencyID="${draft.currency}">${fin.json().figures.toPay.replace('-', '')}</cbc:PayableAmount>`,
      );
    } finally {
      await withTenant(tenantA, (trx) => trx('invoice_settings').update({ review_before_sending: false }));
    }
  });

  it('refuses a buyer without a Peppol address and a company without its numbers', async () => {
    const privateInvoice = await closedOrder(ref.private);
    const res = await applyPeppol(privateInvoice.id);
    expect(res.status).toBe(409);
    expect(res.json().code).toBe('PEPPOL_BUYER_ADDRESS_MISSING');

    // an explicit Peppol id (a GLN here) is an address even without an organisation number
    await withTenant(tenantA, (trx) =>
      trx('customers').where({ id: ref.private }).update({ type: 'company', peppol_id: '0088:7300010000001' }),
    );
    const withId = await applyPeppol(privateInvoice.id);
    expect(withId.status, withId.text).toBe(200);
    expect(withId.text).toContain('<cbc:EndpointID schemeID="0088">7300010000001</cbc:EndpointID>');
    expect(validatePeppol(withId.text).fatal).toEqual([]);

    await setCompany({ vatRegistrationNr: '' });
    try {
      const made = await closedOrder(ref.company);
      const refused = await applyPeppol(made.id);
      expect(refused.status).toBe(409);
      expect(refused.json().code).toBe('PEPPOL_SELLER_DETAILS_MISSING');
    } finally {
      await setCompany({});
    }
  });
});
