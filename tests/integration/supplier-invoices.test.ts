import { readFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTenant } from '~/core/db/with-tenant';
import { buildPeppolDocument, type PeppolInvoiceInput, type PeppolLineInput, type PeppolParty } from '~/core/invoicing/peppol';
import { add, formatDecimal, markup, mul, sub, sum } from '~/core/pricing';
import type { Tenant } from '~/core/tenancy/tenant';
import { getTenantBySlug } from '~/tenants/registry';
import { testApi } from '~/tests/helpers/api';
import { createTestTenant, startTestServer, type TestServer, type TestTenant } from '~/tests/helpers/app';
import { multipart, request } from '~/tests/helpers/http';

/*
 * Supplier invoices end to end over the API (issue 33 items 1–4): a Peppol BIS 3 invoice uploaded or
 * posted to the tenant's inbound address, matched to its supplier and work order, refused when
 * broken or already here; the two approvals with the badge; who sees what; a PDF typed by a person;
 * and the money: a supplier's amount followed to the order's billable rows, the customer's invoice
 * and the project's costs, each exactly once.
 */

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let srv: TestServer;
let a: TestTenant;
let b: TestTenant;
let tenantA: Tenant;
const tok = {} as Record<'admin' | 'tech' | 'adminB', string>;
const ids = {} as Record<'admin' | 'tech' | 'supplier' | 'customer' | 'project' | 'article' | 'wo' | 'woOther', string>;
const numbers = {} as Record<'wo' | 'woOther', string>;

const { signIn, call } = testApi(() => ({ url: srv.url, host: a.host }));

const sql = async (text: string, bindings: unknown[] = []) =>
  withTenant(tenantA, async (trx) => (await trx.raw(text, bindings as never[])).rows as Json[]);

const wholesaler: PeppolParty = {
  name: 'Elgrossisten Norr AB',
  country: 'SE',
  endpoint: { scheme: '0007', id: '5567321707' },
  legalId: { id: '5567321707', scheme: '0007' },
  vatNumber: 'SE556732170701',
  street: 'Lagergatan 3',
  postIndex: '903 27',
  city: 'Umeå',
};
const us: PeppolParty = {
  name: 'Testlarm AB',
  country: 'SE',
  endpoint: { scheme: '0007', id: '5566778899' },
  legalId: { id: '5566778899', scheme: '0007' },
  vatNumber: 'SE556677889901',
  street: 'Larmvägen 1',
  postIndex: '111 22',
  city: 'Stockholm',
};
const line = (over: Partial<PeppolLineInput>): PeppolLineInput => ({
  kind: 'article',
  title: 'Kabel EKK 3G1,5',
  description: null,
  articleNumber: 'EKK-315',
  unit: 'm',
  amount: '25',
  price: '12.37',
  discount: null,
  vatPercent: '25',
  isText: false,
  ...over,
});

/** A wholesaler's e-invoice as an access point would deliver it, made by Ordo's own (Schematron-checked) Peppol writer. */
function eInvoice(over: Partial<PeppolInvoiceInput>): { xml: string; payable: string } {
  return buildPeppolDocument({
    number: 'F-1',
    issueDate: '2026-03-02',
    dueDate: '2026-04-01',
    deliveryDate: null,
    currency: 'SEK',
    buyerReference: 'Tess Tekniker',
    orderReference: null,
    seller: wholesaler,
    buyer: us,
    reverseVat: false,
    lines: [line({}), line({ title: 'Rörelsedetektor', articleNumber: 'RD-100', unit: 'st', amount: '2', price: '449.50' })],
    notes: [],
    payment: { reference: '7712345', bankgiro: '5050-1055', iban: null, bic: null, termsText: '30 dagar netto' },
    prepaid: null,
    texts: { reverseVat: 'Omvänd betalningsskyldighet' },
    ...over,
  });
}

const upload = (xml: string, token = tok.admin) => call('POST', '/api/supplierinvoices/peppol', token, { document: xml });
const get = async (id: string, token = tok.admin) => {
  const res = await call('GET', `/api/supplierinvoices/${id}`, token);
  expect(res.status, res.text).toBe(200);
  return res.json() as Json;
};
const badge = async (token: string) => (await call('GET', '/api/supplierinvoices/badge', token)).json() as Json;

beforeAll(async () => {
  srv = await startTestServer();
  a = await createTestTenant('si-a');
  b = await createTestTenant('si-b');
  tenantA = (await getTenantBySlug(a.slug))!;
  tok.admin = await signIn(a, a.adminEmail);
  tok.tech = await signIn(a, a.technicianEmail);
  tok.adminB = await signIn(b, b.adminEmail);
  const users = await sql('select id, email from users');
  ids.admin = users.find((u) => u.email === a.adminEmail)!.id;
  ids.tech = users.find((u) => u.email === a.technicianEmail)!.id;
  const supplier = await call('POST', '/api/suppliers', tok.admin, {
    supplier: { number: '3001', title: 'Elgrossisten', name: 'Elgrossisten Norr AB', organizationNumber: '556732-1707', erpAccount: '4010' },
  });
  expect(supplier.status, supplier.text).toBe(200);
  ids.supplier = supplier.json().id;
  const [customer] = await sql(`insert into customers (customer_id, name) values ('30001', 'Brf Eken') returning id`);
  ids.customer = customer!.id;
  const [project] = await sql(
    `insert into projects (number, title, status, responsible_user_id) values (7001, 'Passage Eken', 'ongoing', ?) returning id`,
    [ids.tech],
  );
  ids.project = project!.id;
  const [article] = await sql(
    `insert into articles (article_id, title, price, purchase_price, unit) values ('EKK-315', 'Kabel EKK', 20, 11, 'm') returning id`,
  );
  ids.article = article!.id;
  for (const key of ['wo', 'woOther'] as const) {
    const res = await call('POST', '/api/wo', tok.admin, { workOrder: { title: `Kortläsare ${key}`, customerId: ids.customer } });
    expect(res.status, res.text).toBe(200);
    ids[key] = res.json().workOrder.id;
    const [row] = await sql('select number from work_orders where id = ?', [ids[key]]);
    numbers[key] = row!.number;
  }
  await sql('update work_orders set project_id = ? where id = ?', [ids.project, ids.wo]);
  await sql('insert into work_order_assignees (work_order_id, user_id) values (?, ?)', [ids.woOther, ids.tech]);
});
afterAll(() => srv?.close());

describe('[supplier invoices] arrival and matching', () => {
  it('an uploaded e-invoice finds its supplier by organisation number and its order by the order reference; the same invoice again is refused, naming the first', async () => {
    const doc = eInvoice({ number: 'F-100', orderReference: numbers.woOther });
    const res = await upload(doc.xml);
    expect(res.status, res.text).toBe(200);
    const { supplierInvoice: si, can, suggestions } = await get(res.json().id);
    expect(si).toMatchObject({
      source: 'peppol',
      status: 'pending',
      invoiceNumber: 'F-100',
      supplierId: ids.supplier,
      workOrderId: ids.woOther,
      workOrderNumber: numbers.woOther,
      // the order is not on a project: the technician on it is responsible
      responsibleUserId: ids.tech,
      total: formatDecimal(doc.payable),
      ocr: '7712345',
      matched: true,
      hasDocument: true,
    });
    // rows keep amount, price and VAT; they add up to the total without VAT
    expect(si.rows.map((r: Json) => [r.articleNumber, r.amount, r.price, r.vatPercent])).toEqual([
      ['EKK-315', '25', '12.37', '25'],
      ['RD-100', '2', '449.50', '25'],
    ]);
    expect(formatDecimal(sum(si.rows.map((r: Json) => r.total)))).toBe(si.totalCost);
    // with VAT and the öre rounding the writer put on it (BT-114), the amount due
    expect(formatDecimal(add(add(si.totalCost, si.totalVat), si.rounding))).toBe(si.total);
    expect(suggestions).toBeNull();
    expect(can).toMatchObject({ approveContent: false, approvePayment: false, decline: true });
    // the document itself is kept
    const kept = await call('GET', `/api/supplierinvoices/${si.id}/document`, tok.admin);
    expect(kept.text).toBe(doc.xml);

    const again = await upload(doc.xml);
    expect(again.status).toBe(409);
    expect(again.json()).toMatchObject({ code: 'SUPPLIER_INVOICE_DUPLICATE', duplicateOf: si.id });
    expect(again.json().message).toContain('F-100');
    // the same number from another seller is another invoice
    const other = eInvoice({
      number: 'F-100',
      seller: { ...wholesaler, name: 'Annan Grossist AB', endpoint: { scheme: '0007', id: '5560000001' }, legalId: { id: '5560000001', scheme: '0007' }, vatNumber: 'SE556000000101' },
    });
    expect((await upload(other.xml)).status).toBe(200);
  });

  it('a work order on a project brings the project and its responsible person', async () => {
    const res = await upload(eInvoice({ number: 'F-101', orderReference: numbers.wo }).xml);
    const { supplierInvoice: si } = await get(res.json().id);
    expect(si).toMatchObject({ workOrderId: ids.wo, projectId: ids.project, projectNumber: 7001, responsibleUserId: ids.tech });
    const byProject = await call('GET', `/api/supplierinvoices?status=all&projectId=${ids.project}`, tok.admin);
    expect(byProject.json().invoices.map((i: Json) => i.id)).toContain(si.id);
  });

  it("the inbound address takes what an access point posts with the tenant's secret, and nothing without it", async () => {
    const post = (xml: string, secret?: string) =>
      request(srv.url, {
        method: 'POST',
        path: '/api/supplierinvoices/inbound',
        host: a.host,
        body: xml,
        headers: { 'content-type': 'application/xml', ...(secret ? { authorization: `Bearer ${secret}` } : {}) },
      });
    const xml = readFileSync(path.resolve('tests/fixtures/peppol/examples/base-example.xml'), 'utf8');
    // no secret set yet: nobody gets in
    expect((await post(xml, 'guess')).status).toBe(401);
    const rotated = await call('POST', '/api/supplierinvoices/inbound/secret', tok.admin);
    expect(rotated.status, rotated.text).toBe(200);
    const secret = rotated.json().secret as string;
    expect((await post(xml)).status).toBe(401);
    expect((await post(xml, `${secret}x`)).status).toBe(401);
    // the secret is asked before the body is read: 21 MB without it is refused as unauthenticated,
    // not read to its size limit (413)
    expect((await post(`<Invoice>${' '.repeat(21 * 1024 * 1024)}</Invoice>`, 'guess')).status).toBe(401);
    // a technician cannot make one
    expect((await call('POST', '/api/supplierinvoices/inbound/secret', tok.tech)).status).toBe(403);
    const before = await sql('select count(*)::int as n from supplier_invoices');
    // broken: refused with the rule, nothing kept
    const broken = await post(xml.replace('<cbc:PayableAmount currencyID="EUR">1656.25', '<cbc:PayableAmount currencyID="EUR">1600'), secret);
    expect(broken.status).toBe(400);
    expect(broken.json()).toMatchObject({
      code: 'SUPPLIER_INVOICE_INVALID',
      fields: { document: ['SUPPLIER_INVOICE_TOTALS_DIFFER'] },
    });
    expect(broken.json().message).toContain('BR-CO-16');
    expect(await sql('select count(*)::int as n from supplier_invoices')).toEqual(before);
    // Peppol's own example: a seller Ordo does not know, no order reference → waits for a person
    const ok = await post(xml, secret);
    expect(ok.status, ok.text).toBe(200);
    const id = ok.json().id as string;
    const { supplierInvoice: si, suggestions } = await get(id);
    expect(si).toMatchObject({ supplierId: null, workOrderId: null, projectId: null, matched: false, currency: 'EUR' });
    expect(suggestions.workOrders.length).toBeGreaterThan(0);
    // a person matches it; the order brings its responsible person
    const patched = await call('PATCH', '/api/supplierinvoices', tok.admin, { id, supplierId: ids.supplier, workOrderId: ids.woOther });
    expect(patched.status, patched.text).toBe(200);
    expect((await get(id)).supplierInvoice).toMatchObject({ supplierId: ids.supplier, workOrderId: ids.woOther, responsibleUserId: ids.tech, matched: true });
    // the access point retries: the same document again is the duplicate of the first
    const retry = await post(xml, secret);
    expect(retry.status).toBe(409);
    expect(retry.json().duplicateOf).toBe(id);
  });
});

describe('[supplier invoices] two approvals', () => {
  it('the responsible technician approves the content, finance the payment; the badges fall', async () => {
    const res = await upload(eInvoice({ number: 'F-200', orderReference: numbers.woOther }).xml);
    const id = res.json().id as string;
    const techBadge = await badge(tok.tech);
    const adminBadge = await badge(tok.admin);
    expect(techBadge.count).toBeGreaterThan(0);
    // payment before content: refused
    const early = await call('POST', `/api/supplierinvoices/${id}/payment/approve`, tok.admin);
    expect(early.status).toBe(409);
    expect(early.json().code).toBe('SUPPLIER_INVOICE_CONTENT_NOT_APPROVED');
    // finance is not the responsible person: the content is not theirs
    expect((await call('POST', `/api/supplierinvoices/${id}/content/approve`, tok.admin)).status).toBe(403);
    const view = await get(id, tok.tech);
    expect(view.can).toMatchObject({ approveContent: true, approvePayment: false });
    const content = await call('POST', `/api/supplierinvoices/${id}/content/approve`, tok.tech);
    expect(content.status, content.text).toBe(200);
    expect((await badge(tok.tech)).count).toBe(techBadge.count - 1);
    expect((await call('POST', `/api/supplierinvoices/${id}/content/approve`, tok.tech)).json().code).toBe(
      'SUPPLIER_INVOICE_CONTENT_ALREADY_APPROVED',
    );
    expect((await call('POST', `/api/supplierinvoices/${id}/payment/approve`, tok.tech)).status).toBe(403);
    const list = await call('GET', '/api/supplierinvoices?status=pending', tok.admin);
    expect(list.json().paymentPendingCount).toBeGreaterThan(0);
    // now it waits for finance: one more on finance's badge
    const adminBefore = (await badge(tok.admin)).count;
    expect(adminBefore).toBe(adminBadge.count + 1);
    const paid = await call('POST', `/api/supplierinvoices/${id}/payment/approve`, tok.admin);
    expect(paid.status, paid.text).toBe(200);
    // the test tenant's ERP is none: it cannot book supplier invoices, so nothing is queued and the screen says so
    expect(paid.json()).toEqual({ ok: true, erpQueued: false });
    expect((await get(id)).erp).toMatchObject({ kind: 'none', canBook: false });
    expect((await badge(tok.admin)).count).toBe(adminBefore - 1);
    const approved = await call('GET', '/api/supplierinvoices?status=approved', tok.admin);
    expect(approved.json().invoices.map((i: Json) => i.id)).toContain(id);
    expect((await call('POST', `/api/supplierinvoices/${id}/payment/approve`, tok.admin)).json().code).toBe(
      'SUPPLIER_INVOICE_NOT_PENDING',
    );
    const history = await sql(`select action from history where entity = 'supplier_invoice' and entity_id = ? order by id`, [id]);
    expect(history.map((h) => h.action)).toEqual(['create', 'content.approve', 'payment.approve']);
  });

  it('anyone who sees it declines with a comment; the comments thread', async () => {
    const id = (await upload(eInvoice({ number: 'F-201', orderReference: numbers.woOther }).xml)).json().id as string;
    const c1 = await call('POST', `/api/supplierinvoices/${id}/comments`, tok.tech, { text: 'Detektorerna kom inte' });
    expect(c1.status, c1.text).toBe(200);
    const noComment = await call('POST', `/api/supplierinvoices/${id}/decline`, tok.tech, { comment: ' ' });
    expect(noComment.status).toBe(400);
    expect(noComment.json().fields.comment).toEqual(['ERROR_REQUIRED_FIELD']);
    const declined = await call('POST', `/api/supplierinvoices/${id}/decline`, tok.tech, { comment: 'Fel pris på kabeln' });
    expect(declined.status, declined.text).toBe(200);
    const thread = await call('GET', `/api/supplierinvoices/${id}/comments`, tok.admin);
    expect(thread.json().comments.map((c: Json) => [c.kind, c.text, c.userId])).toEqual([
      ['comment', 'Detektorerna kom inte', ids.tech],
      ['decline', 'Fel pris på kabeln', ids.tech],
    ]);
    expect((await get(id)).supplierInvoice.status).toBe('declined');
    expect((await call('POST', `/api/supplierinvoices/${id}/content/approve`, tok.tech)).json().code).toBe(
      'SUPPLIER_INVOICE_NOT_PENDING',
    );
  });

  it("a user without read_all sees only what they are responsible for; another tenant's invoice is not found", async () => {
    const mine = (await upload(eInvoice({ number: 'F-202', orderReference: numbers.woOther }).xml)).json().id as string;
    const notMine = (await upload(eInvoice({ number: 'F-203' }).xml)).json().id as string;
    const list = await call('GET', '/api/supplierinvoices?status=all&limit=200', tok.tech);
    const seen = list.json().invoices.map((i: Json) => i.id);
    expect(seen).toContain(mine);
    expect(seen).not.toContain(notMine);
    expect(list.json().invoices.every((i: Json) => i.responsibleUserId === ids.tech)).toBe(true);
    expect((await call('GET', `/api/supplierinvoices/${notMine}`, tok.tech)).status).toBe(404);
    expect((await call('POST', `/api/supplierinvoices/${notMine}/decline`, tok.tech, { comment: 'x' })).status).toBe(404);
    expect((await call('GET', `/api/supplierinvoices/${mine}`, tok.adminB, undefined, b.host)).status).toBe(404);
  });
});

describe('[supplier invoices] a PDF typed by a person', () => {
  it('computes the totals from the rows, the fee and the rounding, and refuses the same number twice', async () => {
    const body = {
      supplierId: ids.supplier,
      invoiceNumber: 'PDF-9',
      invoiceDate: '2026-03-05',
      dueDate: '2026-04-04',
      projectId: ids.project,
      fee: '39',
      rounding: '-0.25',
      rows: [
        { description: 'Kopplingsdosa', amount: '10', price: '8.90', vatPercent: '25' },
        { description: 'Handbok', amount: '1', price: '120.00', vatPercent: '6' },
      ],
    };
    const res = await call('POST', '/api/supplierinvoices', tok.admin, body);
    expect(res.status, res.text).toBe(200);
    const { supplierInvoice: si } = await get(res.json().id);
    const net = sum(body.rows.map((r) => mul(r.amount, r.price)));
    const vat = add(add(mul(mul('10', '8.90'), '0.25'), mul('120.00', '0.06')), mul('39', '0.25'));
    expect(si).toMatchObject({
      source: 'pdf',
      projectId: ids.project,
      responsibleUserId: ids.tech,
      totalCost: formatDecimal(add(net, '39')),
      totalVat: formatDecimal(vat),
      fee: '39.00',
      rounding: '-0.25',
      total: formatDecimal(add(add(add(net, '39'), vat), '-0.25')),
    });
    const again = await call('POST', '/api/supplierinvoices', tok.admin, { ...body, invoiceNumber: 'pdf-9' });
    expect(again.status).toBe(409);
    expect(again.json()).toMatchObject({ code: 'SUPPLIER_INVOICE_DUPLICATE', duplicateOf: si.id });
    const bad = await call('POST', '/api/supplierinvoices', tok.admin, { ...body, invoiceNumber: 'PDF-10', rows: [] });
    expect(bad.status).toBe(400);
    expect(bad.json().fields.rows).toEqual(['ERROR_REQUIRED_FIELD']);
    expect((await call('POST', '/api/supplierinvoices', tok.tech, body)).status).toBe(403);
  });
});

describe('[supplier invoices] costs and re-invoicing', () => {
  const approve = async (id: string) => {
    expect((await call('POST', `/api/supplierinvoices/${id}/content/approve`, tok.tech)).status).toBe(200);
    const paid = await call('POST', `/api/supplierinvoices/${id}/payment/approve`, tok.admin);
    expect(paid.status, paid.text).toBe(200);
  };
  const orderRows = (workOrderId: string) =>
    sql(
      `select amount::text, price::text, purchase_price::text, total::text, article_id from work_order_articles where work_order_id = ?`,
      [workOrderId],
    );

  it("follows a supplier's amount to the order at the tenant's markup and to the customer's invoice, exactly once", async () => {
    const settings = await call('PUT', '/api/supplierinvoices/settings', tok.admin, { rebill: true, rebillMarkup: '20' });
    expect(settings.status, settings.text).toBe(200);
    const before = await orderRows(ids.woOther);
    const id = (await upload(eInvoice({ number: 'F-300', orderReference: numbers.woOther, lines: [line({})] }).xml)).json()
      .id as string;
    // pending: nothing on the order yet
    expect(await orderRows(ids.woOther)).toEqual(before);
    await approve(id);
    const rows = await orderRows(ids.woOther);
    expect(rows.slice(before.length)).toEqual([
      {
        amount: '25.000',
        purchase_price: '12.37',
        price: markup('12.37', '20'),
        total: formatDecimal(mul('25', markup('12.37', '20'))),
        article_id: ids.article,
      },
    ]);
    expect((await get(id)).supplierInvoice.rows.map((r: Json) => r.rebilled)).toEqual([true]);
    // approving again cannot bill it twice
    expect((await call('POST', `/api/supplierinvoices/${id}/payment/approve`, tok.admin)).status).toBe(409);
    expect(await orderRows(ids.woOther)).toHaveLength(before.length + 1);
    // the customer's invoice: closing the order bills the cable once, at the marked-up price
    const closed = await call('POST', '/api/wo/close', tok.admin, { workOrderId: ids.woOther });
    expect(closed.status, closed.text).toBe(200);
    const billed = await sql(
      `select r.amount::text as amount, r.price::text as price, r.total::text as total
         from invoice_rows r join invoices i on i.id = r.invoice_id
        where i.work_order_id = ? and r.article_id = ?`,
      [ids.woOther, ids.article],
    );
    expect(billed).toHaveLength(1);
    expect(Number(billed[0]!.amount)).toBe(25);
    expect(billed[0]).toMatchObject({ price: markup('12.37', '20'), total: rows.at(-1)!.total });
  });

  it("counts an approved invoice in its project's costs once: re-invoiced rows as articles, the rest as supplier invoices", async () => {
    const costs = async () => (await call('GET', `/api/projects/${ids.project}/costs`, tok.admin)).json().costs as Json;
    const costsBefore = await costs();
    // dated the day the ongoing period began: inside it, and in the chart's last 12 months
    const issueDate = costsBefore.ongoing.since as string;
    const doc = eInvoice({
      number: 'F-301',
      issueDate,
      orderReference: numbers.wo,
      lines: [
        line({}),
        line({ kind: 'fee', title: 'Fakturaavgift', articleNumber: null, unit: null, amount: '1', price: '39.00' }),
      ],
    });
    const id = (await upload(doc.xml)).json().id as string;
    expect((await costs()).total).toBe(costsBefore.total);
    await approve(id);
    const { supplierInvoice: si } = await get(id);
    // the cable (an article of ours) became a billable row of the order; the fee (no article fits) did not
    expect(si.rows.map((r: Json) => [r.articleNumber, r.rebilled])).toEqual([
      ['EKK-315', true],
      [null, false],
    ]);
    const after = await costs();
    expect(formatDecimal(sub(after.total, costsBefore.total))).toBe(si.totalCost);
    expect(formatDecimal(sub(after.articles.cost, costsBefore.articles.cost))).toBe(formatDecimal(mul('25', '12.37')));
    expect(formatDecimal(sub(after.supplierInvoices.cost, costsBefore.supplierInvoices.cost))).toBe('39.00');
    expect(after.supplierInvoices.count).toBe(costsBefore.supplierInvoices.count + 1);
    // the month of its date and the ongoing period count it too, the fee there, the cable among the articles
    const month = (c: Json) => (c.byMonth as Json[]).find((m) => m.month === issueDate.slice(0, 7))!;
    expect(formatDecimal(sub(month(after).supplierInvoiceCost, month(costsBefore).supplierInvoiceCost))).toBe('39.00');
    expect(formatDecimal(sub(after.ongoing.supplierInvoiceCost, costsBefore.ongoing.supplierInvoiceCost))).toBe('39.00');
    expect(formatDecimal(sub(after.ongoing.cost, costsBefore.ongoing.cost))).toBe(
      formatDecimal(add('39.00', sub(after.ongoing.articleCost, costsBefore.ongoing.articleCost))),
    );
  });
});

describe('[supplier invoices] a PDF invoice typed by a person', () => {
  const pdf = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
  const typed = (number: string, over: Json = {}) => ({
    supplierId: ids.supplier,
    invoiceNumber: number,
    invoiceDate: '2026-11-02',
    dueDate: '2026-12-02',
    orderReference: String(numbers.woOther),
    fee: '29',
    rounding: '0.25',
    rows: [
      { description: 'Kortläsare', articleNumber: 'KL-1', amount: '2', unit: 'st', price: '1249.50', vatPercent: '25' },
      { description: 'Skyddsglasögon', amount: '3', price: '80', vatPercent: '12' },
    ],
    ...over,
  });
  const send = (body: Buffer, type: string, token = tok.admin) =>
    request(srv.url, {
      method: 'POST',
      path: '/api/supplierinvoices',
      host: a.host,
      body,
      headers: { 'content-type': type, authorization: `Bearer ${token}` },
    });
  const withPdf = (invoice: Json, file: { body: Buffer; filename: string; type: string } = { body: pdf, filename: 'F-900.pdf', type: 'application/pdf' }) =>
    multipart([{ name: 'invoice', body: JSON.stringify(invoice) }, { name: 'pdf', ...file }]);
  const storedKeys = async () => (await sql(`select count(*)::int as n from files where owner_type = 'supplier_invoice'`))[0]!.n as number;

  it('keeps the PDF sent with the typed fields as the invoice’s file, computes the totals, and matches the order by its number', async () => {
    const m = withPdf(typed('F-900'));
    const res = await send(m.body, m.type);
    expect(res.status, res.text).toBe(200);
    const { supplierInvoice: si } = await get(res.json().id);
    // hand-computed: 2 × 1,249.50 + 3 × 80 + fee 29 = 2,768.00 net; VAT 2,499 × 25 % + 240 × 12 % + 29 × 25 %
    // = 624.75 + 28.80 + 7.25 = 660.80; to pay 2,768.00 + 660.80 + 0.25 = 3,429.05
    expect(si).toMatchObject({
      source: 'pdf',
      workOrderId: ids.woOther,
      responsibleUserId: ids.tech,
      totalCost: '2768.00',
      total: '3429.05',
      hasDocument: false,
    });
    expect(si.fileId).toBeTruthy();
    const file = await call('GET', `/api/file/${si.fileId}`, tok.admin);
    expect(file.status).toBe(200);
    expect(file.headers['content-type']).toMatch(/^application\/pdf/);
    expect(file.text).toBe(pdf.toString('utf8'));
    // the technician responsible sees it; another tenant does not
    expect((await call('GET', `/api/file/${si.fileId}`, tok.tech)).status).toBe(200);
    expect((await call('GET', `/api/file/${si.fileId}`, tok.adminB, undefined, b.host)).status).toBe(404);
  });

  it('refuses anything but one PDF, and bad fields, keeping nothing', async () => {
    const before = { invoices: (await sql('select count(*)::int as n from supplier_invoices'))[0]!.n, files: await storedKeys() };
    // a photo of the invoice is a file Ordo keeps elsewhere, but not an invoice's PDF
    const photo = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#fff' } }).png().toBuffer();
    const png = withPdf(typed('F-901'), {
      body: photo,
      filename: 'faktura.png',
      type: 'image/png',
    });
    const notPdf = await send(png.body, png.type);
    expect(notPdf.status, notPdf.text).toBe(400);
    expect(notPdf.json().fields).toEqual({ pdf: ['SUPPLIER_INVOICE_PDF_ONLY'] });
    const noRows = withPdf(typed('F-902', { rows: [] }));
    const bad = await send(noRows.body, noRows.type);
    expect(bad.status).toBe(400);
    expect(bad.json().fields.rows).toEqual(['ERROR_REQUIRED_FIELD']);
    const broken = multipart([{ name: 'invoice', body: '{"supplierId": ' }, { name: 'pdf', body: pdf, filename: 'x.pdf', type: 'application/pdf' }]);
    expect((await send(broken.body, broken.type)).json().fields).toEqual({ invoice: ['ERROR_INVALID_VALUE'] });
    // the technician may not add invoices
    const asTech = withPdf(typed('F-903'));
    expect((await send(asTech.body, asTech.type, tok.tech)).status).toBe(403);
    expect((await sql('select count(*)::int as n from supplier_invoices'))[0]!.n).toBe(before.invoices);
    expect(await storedKeys()).toBe(before.files);
  });

  it('takes the fields as JSON and the PDF afterwards among the invoice’s files; deleting the invoice deletes it', async () => {
    const res = await call('POST', '/api/supplierinvoices', tok.admin, typed('F-904', { orderReference: null }));
    expect(res.status, res.text).toBe(200);
    const id = res.json().id as string;
    expect((await get(id)).supplierInvoice.fileId).toBeNull();
    const m = multipart([{ name: 'file', body: pdf, filename: 'F-904.pdf', type: 'application/pdf' }]);
    const up = await request(srv.url, {
      method: 'POST',
      path: `/api/file/generic/supplier_invoice/${id}`,
      host: a.host,
      body: m.body,
      headers: { 'content-type': m.type, authorization: `Bearer ${tok.admin}` },
    });
    expect(up.status, up.text).toBe(200);
    const fileId = up.json().files[0].id as string;
    expect((await get(id)).supplierInvoice.fileId).toBe(fileId);
    // nobody is responsible for an unmatched invoice: the technician (read alone) sees neither it nor its PDF
    expect((await call('GET', `/api/file/${fileId}`, tok.tech)).status).toBe(404);
    expect((await call('DELETE', `/api/supplierinvoices/${id}`, tok.admin)).status).toBe(200);
    expect(await sql('select id from files where id = ?', [fileId])).toEqual([]);
  });
});
