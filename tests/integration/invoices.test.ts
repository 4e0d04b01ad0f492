import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTenant } from '~/core/db/with-tenant';
import { SmtpMailer, setMailer } from '~/core/mail/mailer';
import { startSmtpPeer } from '~/tests/helpers/smtp';
import { isValidOcr } from '~/core/invoicing/ocr';
import type { Tenant } from '~/core/tenancy/tenant';
import { ensureUser } from '~/core/users/create-user';
import { getTenantBySlug } from '~/tenants/registry';
import { testApi } from '~/tests/helpers/api';
import { createTestTenant, PASSWORD, startTestServer, type TestServer, type TestTenant } from '~/tests/helpers/app';

/*
 * The invoice people see (issue 14 items 1 and 2), through the HTTP API: labour and mileage billed
 * from the order's time rows by the tenant's invoice rules, VAT per row, öre rounding, ROT, editing a
 * draft, gapless numbering, the list's filters, the history with bursts collapsed, and access.
 */

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let srv: TestServer;
let a: TestTenant;
let b: TestTenant;
let tenantA: Tenant;
const tok = {} as Record<'admin' | 'tech' | 'adminB', string>;
const ref = {} as Record<
  | 'customer'
  | 'privateCustomer'
  | 'detector'
  | 'labour'
  | 'seniorLabour'
  | 'km'
  | 'book'
  | 'tech'
  | 'admin'
  | 'install',
  string
>;

const { signIn, call } = testApi(() => ({ url: srv.url, host: a.host }));

beforeAll(async () => {
  srv = await startTestServer();
  a = await createTestTenant('inv-a');
  b = await createTestTenant('inv-b');
  tenantA = (await getTenantBySlug(a.slug))!;
  await withTenant(tenantA, async (trx) => {
    ref.tech = (await trx('users').where({ email: a.technicianEmail }).first('id')).id;
    ref.admin = (await trx('users').where({ email: a.adminEmail }).first('id')).id;
    await ensureUser(trx, {
      email: `senior@${a.slug}.se`,
      name: 'Sven Senior',
      password: PASSWORD,
      accessLevels: ['Technician'],
    });
    const [c, p] = await trx('customers')
      .insert([
        { customer_id: '30001', name: 'Brf Eken', payment_term_days: 20 },
        { customer_id: '30002', name: 'Anna Privat', type: 'private', person_id: '19121212-1212' },
      ])
      .returning('id');
    ref.customer = c.id;
    ref.privateCustomer = p.id;
    const arts = await trx('articles')
      .insert([
        { article_id: 'DET-1', title: 'Rörelsedetektor', price: '200.00', unit: 'st' },
        { article_id: 'ARB', title: 'Arbete', price: '650.00', unit: 'h', product_type: 'service' },
        { article_id: 'ARB-S', title: 'Arbete senior', price: '850.00', unit: 'h', product_type: 'service' },
        { article_id: 'MIL', title: 'Milersättning', price: '4.50', unit: 'km' },
        { article_id: 'BOK', title: 'Manual', price: '100.00', unit: 'st', vat_percent: 6 },
      ])
      .returning('id');
    [ref.detector, ref.labour, ref.seniorLabour, ref.km, ref.book] = arts.map((r: { id: string }) => r.id);
    ref.install = (await trx('work_types').where({ name: 'Installation' }).first('id')).id;
    await trx('invoice_settings').update({
      bill_time: true,
      labour_article_id: ref.labour,
      mileage_article_id: ref.km,
      time_rounding_minutes: 15,
    });
    const senior = (
      await trx('users')
        .where({ email: `senior@${a.slug}.se` })
        .first('id')
    ).id;
    await trx('invoice_labour_articles').insert({ user_id: senior, article_id: ref.seniorLabour });
  });
  tok.admin = await signIn(a, a.adminEmail);
  tok.tech = await signIn(a, a.technicianEmail);
  tok.adminB = await signIn(b, b.adminEmail);
});
afterAll(async () => {
  await srv?.close();
});

async function orderWithWork(customerId = ref.customer, options: { senior?: boolean } = {}) {
  const res = await call('POST', '/api/wo', tok.admin, { workOrder: { title: 'Service av larm', customerId } });
  expect(res.status, res.text).toBe(200);
  const wo = res.json().workOrder as Json;
  await withTenant(tenantA, async (trx) => {
    await trx('work_order_articles').insert([
      {
        work_order_id: wo.id,
        article_id: ref.detector,
        title: 'Rörelsedetektor',
        amount: '3',
        price: '200.00',
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
    ]);
    const senior = (
      await trx('users')
        .where({ email: `senior@${a.slug}.se` })
        .first('id')
    ).id;
    await trx('work_order_time').insert([
      // 70 minutes → 75 (rounded up to 15), 20 → 30: 105 minutes = 1.75 h at 650
      { work_order_id: wo.id, user_id: ref.tech, date: '2026-11-02', work_minutes: 70, distance_km: '12.5' },
      { work_order_id: wo.id, user_id: ref.tech, date: '2026-11-03', work_minutes: 20, distance_km: '7.5' },
      ...(options.senior ? [{ work_order_id: wo.id, user_id: senior, date: '2026-11-03', work_minutes: 60 }] : []),
    ]);
  });
  return wo;
}

const close = async (workOrderId: string) => {
  const res = await call('POST', '/api/wo/close', tok.admin, {
    workOrderId,
    invoiceFee: '40',
    invoiceDate: '2026-11-10',
  });
  expect(res.status, res.text).toBe(200);
  return res.json() as Json;
};
const getInvoice = async (id: string, token = tok.admin) => {
  const res = await call('GET', `/api/invoice/${id}`, token);
  expect(res.status, res.text).toBe(200);
  return res.json() as Json;
};

describe('[invoicing] the invoice of a closed work order', () => {
  it('bills the articles, labour per person at their article (minutes rounded up), mileage and the fee, VAT per row, rounded to whole kronor', async () => {
    const wo = await orderWithWork(ref.customer, { senior: true });
    const closed = await close(wo.id);
    const inv = await getInvoice(closed.invoice.id);
    expect(
      inv.articles.map((r: Json) => [r.kind, r.articleNumber, r.amount, r.price, r.totalPrice, r.vatPercent, r.work]),
    ).toEqual([
      ['article', 'DET-1', '3.00', '200.00', '600.00', '25', 'material'],
      ['article', 'BOK', '1.00', '100.00', '100.00', '6', 'material'],
      ['labour', 'ARB-S', '1.00', '850.00', '850.00', '25', 'labour'],
      ['labour', 'ARB', '1.75', '650.00', '1137.50', '25', 'labour'],
      ['mileage', 'MIL', '20.0', '4.50', '90.00', '25', 'material'],
      ['fee', null, '1.00', '40.00', '40.00', '25', 'material'],
    ]);
    expect(inv.articles[2].articleDescription).toBe('Sven Senior');
    expect(inv.articles[3].articleDescription).toBe('Tess Tekniker');
    // 25 %: 600 + 850 + 1137.50 + 90 + 40 = 2717.50 → 679.375 → 679.38; 6 %: 100 → 6.00
    expect(inv.figures.vat).toEqual([
      { percent: '25', base: '2717.50', vat: '679.38' },
      { percent: '6', base: '100.00', vat: '6.00' },
    ]);
    // 2817.50 + 685.38 = 3502.88 → 3503, the öre rounding +0.12
    expect(inv.figures).toMatchObject({
      net: '2817.50',
      vatTotal: '685.38',
      rounding: '0.12',
      total: '3503.00',
      toPay: '3503.00',
    });
    expect(inv).toMatchObject({
      status: 'finalized',
      paymentTermDays: 20,
      invoiceDate: '2026-11-10',
      paymentDueDate: '2026-11-30',
      source: { type: 'workOrder', id: wo.id, number: String(wo.number) },
      customer: { customerId: '30001', name: 'Brf Eken' },
      canEdit: false,
      applyTypes: ['pdf', 'email', 'peppol'],
    });
    expect(isValidOcr(inv.ocr)).toBe(true);
    const byOrder = await call('GET', `/api/invoice/wo/${wo.id}`, tok.admin);
    expect(byOrder.json().id).toBe(inv.id);
  });

  it('numbers final invoices without gaps, in the order they are finalized', async () => {
    const numbers: number[] = [];
    for (let i = 0; i < 3; i++) numbers.push(Number((await close((await orderWithWork()).id)).invoice.invoiceNr));
    expect(numbers[1]).toBe(numbers[0]! + 1);
    expect(numbers[2]).toBe(numbers[1]! + 1);
  });
});

describe('[invoicing] the invoice of a closed sales order', () => {
  it('bills its article rows (comments as text), final with its number; reopening voids it', async () => {
    const created = await call('POST', '/api/salesorders', tok.admin, { customerId: ref.customer, title: 'Larmpaket' });
    expect(created.status, created.text).toBe(200);
    const so = created.json();
    const saved = await call('PUT', '/api/salesorders', tok.admin, {
      salesOrder: {
        id: so.id,
        version: so.version,
        rows: [
          {
            articleId: ref.detector,
            articleAmount: '4',
            articlePrice: '200.00',
            articleDiscountType: 'percentage',
            articleDiscountValue: '10',
          },
          { comment: 'Leverans vecka 49' },
          { articleId: ref.book, articleAmount: '1', articlePrice: '100.00' },
        ],
      },
    });
    expect(saved.status, saved.text).toBe(200);
    const closed = await call('POST', `/api/salesorders/${so.id}/close`, tok.admin, { paid: false });
    expect(closed.status, closed.text).toBe(200);
    const inv = await call('GET', `/api/invoice/salesorder/${so.id}`, tok.admin);
    expect(inv.status, inv.text).toBe(200);
    expect(
      inv.json().articles.map((r: Json) => [r.kind, r.articleTitle, r.amount, r.totalPrice, r.vatPercent]),
    ).toEqual([
      ['article', 'Rörelsedetektor', '4.00', '720.00', '25'],
      ['text', 'Leverans vecka 49', '0.00', '0.00', '25'],
      ['article', 'Manual', '1.00', '100.00', '6'],
    ]);
    // 720 × 1.25 = 900, 100 × 1.06 = 106: 1006 kr
    expect(inv.json()).toMatchObject({
      status: 'finalized',
      source: { type: 'salesOrder', id: so.id },
      figures: { net: '820.00', total: '1006.00' },
    });
    const reopened = await call('POST', `/api/salesorders/${so.id}/reopen`, tok.admin);
    expect(reopened.status, reopened.text).toBe(200);
    expect((await call('GET', `/api/invoice/salesorder/${so.id}`, tok.admin)).status).toBe(404);
    expect((await getInvoice(inv.json().id)).status).toBe('void');
    // still listed, under void: its number was given
    const voided = await call('GET', '/api/invoices?status=void&size=200', tok.admin);
    expect(voided.json().invoices.map((i: Json) => i.id)).toContain(inv.json().id);
  });
});

describe('[invoicing] a draft under review', () => {
  it('is edited (rows, dates, ROT with the person and property), recomputed, then finalized with the next number', async () => {
    await withTenant(tenantA, (trx) => trx('invoice_settings').update({ review_before_sending: true }));
    try {
      const wo = await orderWithWork(ref.privateCustomer);
      const closed = await close(wo.id);
      expect(closed.invoice).toMatchObject({ status: 'draft', invoiceNr: null });
      let inv = await getInvoice(closed.invoice.id);
      expect(inv.canEdit).toBe(true);
      // the private customer's person number is already there for a ROT claim
      expect(inv.taxReduction.persons).toEqual([{ personId: '19121212-1212' }]);
      const rows = inv.articles.filter((r: Json) => r.kind !== 'mileage');
      const put = await call('PUT', '/api/invoice', tok.admin, {
        id: inv.id,
        version: inv.version,
        paymentTermDays: 10,
        taxReduction: 'ROT',
        propertyDesignation: 'Stockholm Eken 1:2',
        rows: rows.map((r: Json) => ({ ...r, articleTitle: r.articleTitle })),
      });
      expect(put.status, put.text).toBe(200);
      inv = put.json();
      expect(inv.articles.some((r: Json) => r.kind === 'mileage')).toBe(false);
      expect(inv.paymentDueDate).toBe('2026-11-20');
      // labour 1.75 h × 650 = 1137.50, with VAT 1421.88; ROT 30 % → 426.56 → 426 (rounded down)
      expect(inv.figures.taxReduction).toMatchObject({ kind: 'ROT', base: '1421.88', amount: '426.00' });
      expect(inv.figures.toPay).toBe(String(Number(inv.figures.total) - 426) + '.00');
      // a stale version is refused
      const stale = await call('PUT', '/api/invoice', tok.admin, {
        id: inv.id,
        version: inv.version - 1,
        marking: 'x',
      });
      expect(stale.status).toBe(409);
      expect(stale.json().code).toBe('INVOICE_CHANGED');
      // a bad person number is a field error
      const bad = await call('PUT', '/api/invoice', tok.admin, {
        id: inv.id,
        version: inv.version,
        taxReductionPersons: [{ personId: '19121212-1213' }],
      });
      expect(bad.status).toBe(400);
      expect(bad.json().fields['taxReductionPersons.0.personId']).toEqual(['ERROR_PERSON_ID_INVALID']);

      const fin = await call('POST', `/api/invoice/${inv.id}/finalize`, tok.admin);
      expect(fin.status, fin.text).toBe(200);
      expect(fin.json()).toMatchObject({
        status: 'finalized',
        canEdit: false,
        invoiceNr: expect.stringMatching(/^\d+$/),
      });
      const again = await call('PUT', '/api/invoice', tok.admin, {
        id: inv.id,
        version: fin.json().version,
        marking: 'late',
      });
      expect(again.status).toBe(409);
      expect(again.json().code).toBe('INVOICE_NOT_DRAFT');
    } finally {
      await withTenant(tenantA, (trx) => trx('invoice_settings').update({ review_before_sending: false }));
    }
  });

  it('a ROT draft without a property designation cannot be finalized (400 with the field)', async () => {
    await withTenant(tenantA, (trx) => trx('invoice_settings').update({ review_before_sending: true }));
    try {
      const closed = await close((await orderWithWork(ref.privateCustomer)).id);
      const inv = await getInvoice(closed.invoice.id);
      await call('PUT', '/api/invoice', tok.admin, { id: inv.id, version: inv.version, taxReduction: 'ROT' });
      const fin = await call('POST', `/api/invoice/${inv.id}/finalize`, tok.admin);
      expect(fin.status).toBe(400);
      expect(fin.json().fields).toEqual({ propertyDesignation: ['ERROR_TAX_REDUCTION_PROPERTY_MISSING'] });
    } finally {
      await withTenant(tenantA, (trx) => trx('invoice_settings').update({ review_before_sending: false }));
    }
  });
});

describe('[invoicing] list, history and access', () => {
  it('lists by status and search, newest first, a page at a time', async () => {
    const wo = await orderWithWork();
    const closed = await close(wo.id);
    const all = await call('GET', '/api/invoices?size=2', tok.admin);
    expect(all.status, all.text).toBe(200);
    expect(all.json().invoices).toHaveLength(2);
    expect(all.json().hasMore).toBe(true);
    const found = await call('GET', `/api/invoices?q=${closed.invoice.invoiceNr}`, tok.admin);
    // the number also finds a work order with that number: the invoice is among the hits
    const hit = found.json().invoices.find((i: Json) => i.id === closed.invoice.id);
    expect(hit).toMatchObject({ status: 'finalized', erp: 'none', customerName: 'Brf Eken', source: `#${wo.number}` });
    const drafts = await call('GET', '/api/invoices?status=draft&size=200', tok.admin);
    expect(drafts.json().invoices.every((i: Json) => i.status === 'draft')).toBe(true);
    const bad = await call('GET', '/api/invoices?status=paid', tok.admin);
    expect(bad.status).toBe(400);
  });

  it('shows the history newest first, hiding an entry of the same action within 60 s of the one before', async () => {
    const closed = await close((await orderWithWork()).id);
    const id = closed.invoice.id;
    await withTenant(tenantA, (trx) =>
      trx('history').insert([
        { entity: 'invoice', entity_id: id, action: 'email', at: new Date(Date.now() + 1_000), user_id: ref.admin },
        { entity: 'invoice', entity_id: id, action: 'email', at: new Date(Date.now() + 30_000), user_id: ref.admin },
        { entity: 'invoice', entity_id: id, action: 'email', at: new Date(Date.now() + 120_000), user_id: ref.admin },
      ]),
    );
    const res = await call('GET', `/api/invoice/history/${id}`, tok.admin);
    expect(res.status, res.text).toBe(200);
    expect(res.json().map((h: Json) => h.action)).toEqual(['email', 'email', 'finalize', 'create']);
  });

  it('needs invoices:read (403); another tenant’s invoice is not found (404)', async () => {
    const closed = await close((await orderWithWork()).id);
    expect((await call('GET', `/api/invoice/${closed.invoice.id}`, tok.tech)).status).toBe(403);
    expect((await call('GET', '/api/invoices', tok.tech)).status).toBe(403);
    expect((await call('GET', `/api/invoice/${closed.invoice.id}`, tok.adminB, undefined, b.host)).status).toBe(404);
    expect((await call('GET', `/api/invoice/history/${closed.invoice.id}`, tok.adminB, undefined, b.host)).status).toBe(
      404,
    );
    expect((await call('GET', '/api/invoice/not-a-uuid', tok.admin)).status).toBe(404);
  });

  it('apply pdf downloads the invoice; apply email sends it to the customer’s invoice e-mail and answers the recipients', async () => {
    const smtp = await startSmtpPeer();
    setMailer(new SmtpMailer(smtp.url, 'Ordo <no-reply@ordo.test>'));
    try {
      await withTenant(tenantA, (trx) =>
        trx('customers').where({ id: ref.customer }).update({ invoice_email: 'faktura@eken.se' }),
      );
      const closed = await close((await orderWithWork()).id);
      const pdf = await call('POST', '/api/invoice/apply', tok.admin, { invoiceId: closed.invoice.id, type: 'pdf' });
      expect(pdf.status).toBe(200);
      expect(pdf.headers['content-type']).toBe('application/pdf');
      expect(pdf.headers['content-disposition']).toContain(`invoice-${closed.invoice.invoiceNr}.pdf`);
      const mail = await call('POST', '/api/invoice/apply', tok.admin, { invoiceId: closed.invoice.id, type: 'email' });
      expect(mail.status, mail.text).toBe(200);
      expect(mail.json()).toMatchObject({ message: 'EMAIL_SENT_TO', recipients: ['faktura@eken.se'] });
      const got = await smtp.waitForMail((m) => m.to.includes('faktura@eken.se'));
      expect(got.raw).toContain('application/pdf');
      const history = await call('GET', `/api/invoice/history/${closed.invoice.id}`, tok.admin);
      expect(history.json()[0]).toMatchObject({ action: 'email', data: { recipients: ['faktura@eken.se'] } });
      // visma-xml needs an ERP that takes files
      const file = await call('POST', '/api/invoice/apply', tok.admin, {
        invoiceId: closed.invoice.id,
        type: 'visma-xml',
      });
      expect(file.status).toBe(409);
      expect(file.json().code).toBe('ERP_CANNOT_MAKE_FILE');
      const bad = await call('POST', '/api/invoice/apply', tok.admin, { invoiceId: closed.invoice.id, type: 'fax' });
      expect(bad.status).toBe(400);
    } finally {
      setMailer(undefined);
      await smtp.close();
    }
  });

  it('offers the apply types the tenant leaves on: one turned off is neither offered nor accepted; every apply is in the history', async () => {
    const closed = await close((await orderWithWork()).id);
    const id = closed.invoice.id;
    // the built-in ERP takes no file and sends nothing: the PDF, e-mail and the Peppol e-invoice
    expect((await getInvoice(id)).applyTypes).toEqual(['pdf', 'email', 'peppol']);
    try {
      const put = await call('PUT', '/api/instance/invoicerules', tok.admin, { applyTypesOff: ['email', 'peppol'] });
      expect(put.status, put.text).toBe(200);
      expect(put.json().applyTypesOff).toEqual(['email', 'peppol']);
      expect((await getInvoice(id)).applyTypes).toEqual(['pdf']);
      for (const type of ['email', 'peppol']) {
        const refused = await call('POST', '/api/invoice/apply', tok.admin, { invoiceId: id, type });
        expect(refused.status, type).toBe(409);
        expect(refused.json().code).toBe('INVOICE_APPLY_TYPE_OFF');
      }
      const pdf = await call('POST', '/api/invoice/apply', tok.admin, { invoiceId: id, type: 'pdf' });
      expect(pdf.status).toBe(200);
      const history = await call('GET', `/api/invoice/history/${id}`, tok.admin);
      expect(history.json().map((h: Json) => h.action)).toEqual(['pdf', 'finalize', 'create']);
      // what is not an apply type is refused by its field, and nothing changes
      const bad = await call('PUT', '/api/instance/invoicerules', tok.admin, { applyTypesOff: ['fax'] });
      expect(bad.status).toBe(400);
      expect(Object.keys(bad.json().fields ?? {})[0]).toMatch(/^applyTypesOff/);
      expect((await getInvoice(id)).applyTypes).toEqual(['pdf']);
    } finally {
      await call('PUT', '/api/instance/invoicerules', tok.admin, { applyTypesOff: [] });
    }
    expect((await getInvoice(id)).applyTypes).toEqual(['pdf', 'email', 'peppol']);
  });

  it('apply erp without an ERP that takes invoices is refused (409 ERP_CANNOT_SEND_INVOICES)', async () => {
    const closed = await close((await orderWithWork()).id);
    const res = await call('POST', '/api/invoice/apply', tok.admin, { invoiceId: closed.invoice.id, type: 'erp' });
    expect(res.status).toBe(409);
    expect(res.json().code).toBe('ERP_CANNOT_SEND_INVOICES');
  });
});
