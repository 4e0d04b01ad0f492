/**
 * Issue 13, proposal and sales-order documents: POST /proposals/pdf, /proposals/word,
 * /proposals/pdf/email, /salesorders/pdf and /salesorders/word, and the screens' document routes.
 * The PDF is read back as text (pdf.js) and the Word file as XML: the rows, subtotals, monthly
 * prices and totals are there, purchase prices and margins never; the e-mail reaches a real SMTP
 * peer once the unit of work committed, and a relay that is down leaves the mail to be retried.
 */
import { RouterContextProvider } from 'react-router';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authContext, requestContext, tenantContext } from '~/app/context';
import { i18nextMiddleware } from '~/app/middleware/i18n.server';
import { action as proposalAction, loader as proposalLoader } from '~/app/routes/proposals.$id.document';
import { loader as salesOrderLoader } from '~/app/routes/sales.$id.document';
import { validateSession } from '~/core/auth/session.service';
import { withTenant } from '~/core/db/with-tenant';
import { closeBrowser } from '~/core/documents/pdf';
import { updateCompanyDetails } from '~/core/instance/instance.service';
import { setMailer, SmtpMailer } from '~/core/mail/mailer';
import { mailSettled } from '~/core/mail/templates/deliver';
import { documentMailJob } from '~/core/documents/mail';
import { PermanentJobError, runJob } from '~/core/jobs/define-job';
import { setOutboxQueue } from '~/core/jobs/outbox';
import {
  buildProposalDocumentModel,
  buildSalesOrderDocumentModel,
  proposalHtml,
} from '~/core/proposals/proposal-documents.service';
import type { Tenant } from '~/core/tenancy/tenant';
import { inTenant, sessionPolicy } from '~/core/unit-of-work';
import { ensureUser } from '~/core/users/create-user';
import { getTenantBySlug } from '~/tenants/registry';
import { testApi } from '~/tests/helpers/api';
import { createTestTenant, PASSWORD, startTestServer, type TestServer, type TestTenant } from '~/tests/helpers/app';
import { testAuth } from '~/tests/helpers/auth';
import { pdfTitle, postBinary as postBinaryTo } from '~/tests/helpers/binary';
import { pdfText } from '~/tests/helpers/pdf-text';
import { startSmtpPeer, type SmtpPeer } from '~/tests/helpers/smtp';
import { unzipEntry } from '~/tests/helpers/zip';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let srv: TestServer;
let smtp: SmtpPeer;
let a: TestTenant;
let b: TestTenant;
let tenantA: Tenant;
const tok = {} as Record<'admin' | 'reader' | 'nobody' | 'adminB', string>;
const ref = {} as Record<
  'admin' | 'customer' | 'english' | 'detector' | 'install' | 'proposal' | 'bare' | 'salesOrder',
  string
>;
const refB = {} as Record<'proposal' | 'salesOrder', string>;
let number = '';
let salesOrderNumber = '';

const { signIn, call } = testApi(() => ({ url: srv.url, host: a.host }));
const postBinary = (path: string, token: string, body: unknown, host = a.host) =>
  postBinaryTo(srv.url, path, host, token, body);

/** What the PDF of the sample proposal must say, in Swedish as the tenant's language. */
const PRINTED = [
  'Offert',
  'Nordlarm Säkerhet AB',
  '556677-8899',
  'Brf Eken',
  '2001',
  'Ekvägen 5',
  'Eva Ek',
  'eva@eken.se',
  'Leveransadress',
  'Trapphus B, port 2',
  'Giltig till',
  '2026-12-31',
  'LARM-77',
  'Inbrottslarm Brf Eken',
  'Välkommen till vår offert.',
  'Fyra detektorer och en central.',
  'Montering och driftsättning',
  'Kabeldragning i betong',
  'Betalning 30 dagar netto',
  'Rörelsedetektor',
  'Montage dagtid', // the comment row
  '1 250,00', // the detector's price
  '10 %',
  '4 500,00', // 4 × 1 250 − 10 %
  '1 950,00', // 3 × 650
  'Delsumma',
  '6 450,00', // the subtotal
  'Månadspris',
  '199,00',
  '540,00', // (199 − 19) × 3 a month
  'Summa exkl. moms',
  '6 950,00 kr',
  'Summa per månad exkl. moms',
  // issue 28 item 13: VAT and the total a private customer pays, and the customer's acceptance
  'Moms 25 %',
  '1 737,50 kr', // 25 % of 6 950
  'Totalt inkl. moms',
  '8 687,50 kr',
  'Godkännande',
  'Ort och datum',
  'Namnförtydligande',
  'Underskrift',
];
/** Purchase prices (600, 2 400 in all) and the margin (4 550) are never printed. */
const NEVER = ['600,00', '2 400,00', '4 550,00', 'Inköp', 'Marginal'];

beforeAll(async () => {
  srv = await startTestServer();
  smtp = await startSmtpPeer();
  setMailer(new SmtpMailer(smtp.url, 'Ordo <no-reply@ordo.test>'));
  a = await createTestTenant('pdoc-a');
  b = await createTestTenant('pdoc-b');
  tenantA = (await getTenantBySlug(a.slug))!;
  await withTenant(tenantA, async (trx) => {
    await trx('access_levels').insert([
      {
        display_name: 'Säljläsare',
        permissions: ['proposal:read', 'salesorder:read'],
        work_order_limit: 'none',
      },
      { display_name: 'Ingen', permissions: ['customers:read'], work_order_limit: 'none' },
    ]);
    await ensureUser(trx, {
      email: `reader@${a.slug}.se`,
      name: 'Rut Läsare',
      password: PASSWORD,
      accessLevels: ['Säljläsare'],
    });
    await ensureUser(trx, {
      email: `nobody@${a.slug}.se`,
      name: 'Nils Ingen',
      password: PASSWORD,
      accessLevels: ['Ingen'],
    });
    ref.admin = (await trx('users').where({ email: a.adminEmail }).first('id')).id;
    await trx('proposal_settings').update({ monthly_price: true, valid_to: true });
  });
  await inTenant({ tenant: tenantA, auth: testAuth(ref.admin, ['instance:edit'], []), lang: 'sv' }, (ctx) =>
    updateCompanyDetails(ctx, {
      companyName: 'Nordlarm Säkerhet AB',
      companyNr: '556677-8899',
      address: 'Larmgatan 1',
      postIndex: '721 30',
      city: 'Västerås',
    }),
  );
  tenantA = (await getTenantBySlug(a.slug))!;
  tok.admin = await signIn(a, a.adminEmail);
  tok.reader = await signIn(a, `reader@${a.slug}.se`);
  tok.nobody = await signIn(a, `nobody@${a.slug}.se`);
  tok.adminB = await signIn(b, b.adminEmail);

  ref.customer = (
    await call('POST', '/api/customers', tok.admin, { customer: { customerId: '2001', name: 'Brf Eken' } })
  ).json().id;
  ref.english = (
    await call('POST', '/api/customers', tok.admin, { customer: { customerId: '2002', name: 'Oak Ltd' } })
  ).json().id;
  await withTenant(tenantA, async (trx) => {
    await trx('customer_addresses').insert({
      customer_id: ref.customer,
      street: 'Ekvägen 5',
      post_index: '722 14',
      city: 'Västerås',
      is_primary: true,
    });
    await trx('customers').where({ id: ref.english }).update({ invoice_language: 'en' });
  });
  const bo = (
    await call('POST', '/api/bo', tok.admin, { bo: { serialCode: 'LARM-77', customerId: ref.customer } })
  ).json().id as string;
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

  const rows = [
    { articleId: ref.detector, articleAmount: '4', articleDiscountType: 'percentage', articleDiscountValue: '10' },
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
  ];
  const created = (await call('POST', '/api/proposals', tok.admin, { customerId: ref.customer })).json();
  const p = (await call('GET', `/api/proposals/${created.id}`, tok.admin)).json() as Json;
  const saved = await call('PUT', '/api/proposals', tok.admin, {
    proposal: {
      ...p,
      title: 'Inbrottslarm Brf Eken',
      contactName: 'Eva Ek',
      contactEmail: 'eva@eken.se',
      contactPhone: '070-111',
      deliveryLocationDescription: 'Trapphus B, port 2',
      businessObjectId: bo,
      descriptionIntro: 'Välkommen till vår offert.',
      description: 'Fyra detektorer och en central.',
      description2: 'Montering och driftsättning',
      descriptionOfExceptions: 'Kabeldragning i betong',
      generalTerms: 'Allmänna villkor enligt AA VVS',
      paymentTerms: 'Betalning 30 dagar netto',
      validTo: '2026-12-31',
      rows,
    },
  });
  expect(saved.status, saved.text).toBe(200);
  expect(saved.json()).toMatchObject({ totalPrice: '6950.00', totalPurchasePrice: '2400.00' });
  ref.proposal = p.id;
  number = String(p.sequenceNumber);

  ref.bare = (await call('POST', '/api/proposals', tok.admin, { customerId: ref.english })).json().id;

  const so = (
    await call('POST', '/api/salesorders', tok.admin, { customerId: ref.customer, title: 'Order Brf Eken' })
  ).json() as Json;
  const soSaved = await call('PUT', '/api/salesorders', tok.admin, {
    salesOrder: { id: so.id, version: so.version, referenceUserId: ref.admin, rows },
  });
  expect(soSaved.status, soSaved.text).toBe(200);
  ref.salesOrder = so.id;
  salesOrderNumber = String(so.number);

  refB.proposal = (await call('POST', '/api/proposals', tok.adminB, {}, b.host)).json().id;
  refB.salesOrder = (await call('POST', '/api/salesorders', tok.adminB, {}, b.host)).json().id;
});

afterAll(async () => {
  await closeBrowser();
  setMailer(undefined);
  await smtp?.close();
  await srv?.close();
});

describe('[proposals] the document model and HTML', () => {
  it('holds the rows as printed, with the summary row’s subtotal and the monthly figures, and no purchase price', async () => {
    const m = await inTenant(
      { tenant: tenantA, auth: testAuth(ref.admin, ['proposal:read'], ['crm']), lang: 'sv' },
      (ctx) => buildProposalDocumentModel(ctx, ref.proposal),
    );
    expect(m.rows.map((r) => [r.kind, r.title, r.total ?? r.subtotal, r.discount])).toEqual([
      ['article', 'Rörelsedetektor', '4500.00', '10 %'],
      ['comment', 'Montage dagtid', null, ''],
      ['article', 'Installation', '1950.00', ''],
      ['summary', null, '6450.00', ''],
      ['article', 'Installation', '500.00', ''],
    ]);
    expect(m.rows[2]).toMatchObject({ monthlyPrice: '199.00', monthlyDiscount: '19,00 kr/st', monthlyTotal: '540.00' });
    expect(m.rows[3]!.monthlySubtotal).toBe('540.00');
    expect(m).toMatchObject({ total: '6950.00', monthlyTotal: '540.00', showMonthly: true, lang: 'sv' });
    expect(JSON.stringify(m)).not.toMatch(/purchase|margin|600\.00|2400/i);
    const html = proposalHtml(m);
    expect(html).toContain('<html lang="sv-SE">');
    expect(html).toContain('Inbrottslarm Brf Eken');
  });

  it('reckons the VAT per rate and the total including VAT; a proposal has an acceptance area, a sales order none', async () => {
    const m = await inTenant(
      { tenant: tenantA, auth: testAuth(ref.admin, ['proposal:read'], ['crm']), lang: 'sv' },
      (ctx) => buildProposalDocumentModel(ctx, ref.proposal),
    );
    expect(m).toMatchObject({
      total: '6950.00',
      vat: [{ percent: '25', base: '6950.00', vat: '1737.50' }],
      vatTotal: '1737.50',
      totalInclVat: '8687.50',
      reverseVat: false,
      acceptance: true,
    });
    const html = proposalHtml(m);
    expect(html).toMatch(/Moms 25 %<\/td>\s*<td class="num">1 737,50 kr/);
    expect(html).toMatch(/Totalt inkl\. moms<\/td>\s*<td class="num">8 687,50 kr/);
    expect(html).toContain('Vi godkänner offert');
    const so = await inTenant(
      { tenant: tenantA, auth: testAuth(ref.admin, ['salesorder:read'], ['crm']), lang: 'sv' },
      (ctx) => buildSalesOrderDocumentModel(ctx, ref.salesOrder),
    );
    expect(so).toMatchObject({ totalInclVat: '8687.50', acceptance: false });
    expect(proposalHtml(so)).not.toContain('Underskrift');
  });

  it('prints standard terms when neither the proposal nor the tenant has any, in the customer’s language', async () => {
    await withTenant(tenantA, (trx) => trx('proposal_settings').update({ general_terms: '', payment_terms: '' }));
    await withTenant(tenantA, (trx) =>
      trx('proposals').where({ id: ref.bare }).update({ general_terms: null, payment_terms: null }),
    );
    const m = await inTenant(
      { tenant: tenantA, auth: testAuth(ref.admin, ['proposal:read'], ['crm']), lang: 'sv' },
      (ctx) => buildProposalDocumentModel(ctx, ref.bare),
    );
    expect(m.lang).toBe('en');
    expect(m.document.generalTerms).toMatch(/^This proposal is valid for 30 days/);
    expect(m.document.paymentTerms).toMatch(/^30 days net/);
    const html = proposalHtml(m);
    expect(html).toContain('General terms');
    expect(html).toContain('This proposal is valid for 30 days');
  });

  it('escapes what users typed: a title or comment with markup stays text', async () => {
    const p = (await call('GET', `/api/proposals/${ref.bare}`, tok.admin)).json() as Json;
    const evil = await call('PUT', '/api/proposals', tok.admin, {
      proposal: { ...p, title: '<script>alert(1)</script>', rows: [{ comment: '<img src=x onerror=alert(2)>' }] },
    });
    expect(evil.status, evil.text).toBe(200);
    const m = await inTenant(
      { tenant: tenantA, auth: testAuth(ref.admin, ['proposal:read'], ['crm']), lang: 'sv' },
      (ctx) => buildProposalDocumentModel(ctx, ref.bare),
    );
    const html = proposalHtml(m);
    expect(html).not.toContain('<script>alert(1)</script>');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).not.toContain('<img src=x');
    // back to an empty proposal for the tests below
    const reset = await call('PUT', '/api/proposals', tok.admin, {
      proposal: { ...evil.json(), title: 'Oak alarm', rows: [] },
    });
    expect(reset.status, reset.text).toBe(200);
  });
});

describe('[proposals] POST /api/proposals/pdf and /word', () => {
  it('answers a PDF named from the number whose text has the rows, subtotal, monthly prices and totals, never the purchase price', async () => {
    const res = await postBinary('/api/proposals/pdf', tok.reader, { proposal: ref.proposal, templateId: 'default' });
    expect(res.status, res.body.toString()).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toContain(`attachment; filename="proposal-${number}.pdf"`);
    expect(res.body.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(pdfTitle(res.body)).toBe(`Offert ${number}`);
    const text = await pdfText(res.body);
    for (const s of PRINTED) expect(text, s).toContain(s);
    for (const s of NEVER) expect(text, s).not.toContain(s);
  });

  it('leaves the monthly column out when the setting is off, and writes in the customer’s language', async () => {
    await withTenant(tenantA, (trx) => trx('proposal_settings').update({ monthly_price: false }));
    try {
      const text = await pdfText(
        (await postBinary('/api/proposals/pdf', tok.admin, { proposal: { id: ref.proposal } })).body,
      );
      expect(text).toContain('6 950,00');
      expect(text).not.toContain('Månadspris');
      expect(text).not.toContain('540,00');
    } finally {
      await withTenant(tenantA, (trx) => trx('proposal_settings').update({ monthly_price: true }));
    }
    const english = await postBinary('/api/proposals/pdf', tok.admin, { proposal: ref.bare });
    expect(english.status).toBe(200);
    const text = await pdfText(english.body);
    expect(text).toContain('Proposal');
    expect(text).toContain('Oak Ltd');
    expect(text).toContain('No articles');
  });

  it('answers a Word document (a zip) with the title, rows and totals, never the purchase price', async () => {
    const res = await postBinary('/api/proposals/word', tok.reader, { proposal: ref.proposal });
    expect(res.status, res.body.toString()).toBe(200);
    expect(res.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.wordprocessingml.document');
    expect(res.headers['content-disposition']).toContain(`filename="proposal-${number}.docx"`);
    expect(res.body.subarray(0, 2).toString()).toBe('PK');
    const xml = unzipEntry(res.body, 'word/document.xml')!;
    expect(xml).toBeTruthy();
    for (const s of [
      `Offert ${number}`,
      'Inbrottslarm Brf Eken',
      'Rörelsedetektor',
      'Montage dagtid',
      'Delsumma',
      '6 450,00',
      '540,00',
      '6 950,00 kr',
      'Allmänna villkor enligt AA VVS',
      'Nordlarm Säkerhet AB',
      'Moms 25 %',
      '1 737,50 kr',
      'Totalt inkl. moms',
      '8 687,50 kr',
    ])
      expect(xml, s).toContain(s);
    for (const s of NEVER) expect(xml, s).not.toContain(s);
  });

  it('refuses an unknown template (400), another tenant’s proposal and a bad id (404), no proposal:read (403)', async () => {
    const bad = await call('POST', '/api/proposals/pdf', tok.admin, { proposal: ref.proposal, templateId: 'fancy' });
    expect(bad.status).toBe(400);
    expect(bad.json()).toEqual({ code: 'VALIDATION_FAILED', fields: { templateId: ['ERROR_INVALID_VALUE'] } });
    expect((await call('POST', '/api/proposals/pdf', tok.admin, { proposal: refB.proposal })).json()).toEqual({
      code: 'NOT_FOUND',
    });
    expect((await call('POST', '/api/proposals/word', tok.admin, { proposal: refB.proposal })).status).toBe(404);
    expect((await call('POST', '/api/proposals/pdf', tok.admin, { proposal: 'pdf' })).status).toBe(404);
    expect((await call('POST', '/api/proposals/pdf', tok.admin, {})).status).toBe(400);
    expect((await call('POST', '/api/proposals/pdf', tok.nobody, { proposal: ref.proposal })).status).toBe(403);
    expect((await call('POST', '/api/proposals/word', tok.nobody, { proposal: ref.proposal })).status).toBe(403);
    expect((await call('POST', '/api/proposals/pdf', undefined, { proposal: ref.proposal })).status).toBe(401);
    // the document calls do not shadow the proposal's own calls
    expect((await call('GET', `/api/proposals/${ref.proposal}`, tok.admin)).status).toBe(200);
  });
});

describe('[proposals] POST /api/salesorders/pdf and /word', () => {
  it('answers the sales order as PDF and Word with its rows, reference and totals, never the purchase price', async () => {
    const pdf = await postBinary('/api/salesorders/pdf', tok.reader, { salesOrder: ref.salesOrder });
    expect(pdf.status, pdf.body.toString()).toBe(200);
    expect(pdf.headers['content-disposition']).toContain(`attachment; filename="sales-order-${salesOrderNumber}.pdf"`);
    expect(pdfTitle(pdf.body)).toBe(`Försäljningsorder ${salesOrderNumber}`);
    const text = await pdfText(pdf.body);
    for (const s of [
      'Försäljningsorder',
      'Order Brf Eken',
      'Brf Eken',
      'Vår referens',
      'Rörelsedetektor',
      'Montage dagtid',
      'Delsumma',
      '6 450,00',
      '540,00',
      '6 950,00 kr',
    ])
      expect(text, s).toContain(s);
    for (const s of NEVER) expect(text, s).not.toContain(s);
    const word = await postBinary('/api/salesorders/word', tok.reader, { salesOrder: { id: ref.salesOrder } });
    expect(word.status).toBe(200);
    expect(word.headers['content-disposition']).toContain(`filename="sales-order-${salesOrderNumber}.docx"`);
    const xml = unzipEntry(word.body, 'word/document.xml')!;
    expect(xml).toContain('Order Brf Eken');
    expect(xml).toContain('6 950,00 kr');
    for (const s of NEVER) expect(xml, s).not.toContain(s);
  });

  it('refuses another tenant’s order (404) and no salesorder:read (403)', async () => {
    expect((await call('POST', '/api/salesorders/pdf', tok.admin, { salesOrder: refB.salesOrder })).status).toBe(404);
    expect((await call('POST', '/api/salesorders/word', tok.admin, { salesOrder: refB.salesOrder })).status).toBe(404);
    expect((await call('POST', '/api/salesorders/pdf', tok.nobody, { salesOrder: ref.salesOrder })).status).toBe(403);
    expect((await call('POST', '/api/salesorders/word', tok.nobody, { salesOrder: ref.salesOrder })).status).toBe(403);
  });
});

const emailRows = () =>
  withTenant(tenantA, (trx) =>
    trx('history')
      .where({ entity: 'proposal', entity_id: ref.proposal })
      .whereRaw(`data->'fields' @> '["email"]'::jsonb`)
      .select('action', 'data'),
  );

describe('[proposals] POST /api/proposals/pdf/email', () => {
  it('sends the PDF to the contact e-mail when no address is given, answers EMAIL_SENT_TO and writes history', async () => {
    const before = smtp.mails.length;
    const res = await call('POST', '/api/proposals/pdf/email', tok.admin, { proposal: ref.proposal });
    expect(res.status, res.text).toBe(200);
    expect(res.json()).toEqual({ message: 'EMAIL_SENT_TO', recipient: 'eva@eken.se', recipients: ['eva@eken.se'] });
    const mail = await smtp.waitForMail((m) => m.to.includes('eva@eken.se'));
    expect(smtp.mails.length).toBe(before + 1);
    expect(mail.subject).toBe(`Offert ${number}: Inbrottslarm Brf Eken`);
    expect(mail.text).toContain('Nordlarm Säkerhet AB');
    expect(mail.raw).toMatch(/Content-Type: application\/pdf; name=proposal-\d+\.pdf/i);
    const attachment = /Content-Disposition: attachment[^\n]*\r?\n(?:[^\r\n]+\r?\n)*\r?\n([A-Za-z0-9+/=\r\n]+)/i.exec(
      mail.raw,
    );
    const pdf = Buffer.from(attachment![1]!.replace(/\s+/g, ''), 'base64');
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect(await pdfText(pdf)).toContain('6 950,00 kr');
    const history = await emailRows();
    expect(history).toHaveLength(1);
    expect(history[0]).toMatchObject({ action: 'edit', data: { recipients: ['eva@eken.se'], document: 'pdf' } });
  });

  it('sends to the given recipients instead', async () => {
    const res = await call('POST', '/api/proposals/pdf/email', tok.admin, {
      proposal: ref.proposal,
      templateId: 'default',
      emailTarget: 'styrelsen@eken.se, kassor@eken.se',
    });
    expect(res.status, res.text).toBe(200);
    expect(res.json()).toMatchObject({ recipient: 'styrelsen@eken.se, kassor@eken.se' });
    const mail = await smtp.waitForMail((m) => m.to.includes('styrelsen@eken.se'));
    expect(mail.to.sort()).toEqual(['kassor@eken.se', 'styrelsen@eken.se']);
  });

  it('answers at once while the mail relay is down: the history row and the mail job are one commit, sent when the relay is back', async () => {
    const before = (await emailRows()).length;
    setMailer(new SmtpMailer('smtp://127.0.0.1:1', 'Ordo <no-reply@ordo.test>'));
    const payloads: unknown[] = [];
    setOutboxQueue({ enqueue: async (_def: unknown, data: unknown) => void payloads.push(data) } as never);
    try {
      const res = await call('POST', '/api/proposals/pdf/email', tok.admin, {
        proposal: ref.proposal,
        emailTarget: 'eva@eken.se',
      });
      expect(res.status).toBe(200);
      await mailSettled();
      expect(payloads).toHaveLength(1);
      await expect(runJob(documentMailJob, payloads[0], { jobId: 'down', attempt: 1 })).rejects.not.toBeInstanceOf(
        PermanentJobError,
      );
    } finally {
      setOutboxQueue(null);
      setMailer(new SmtpMailer(smtp.url, 'Ordo <no-reply@ordo.test>'));
    }
    expect((await emailRows()).length).toBe(before + 1);
    await runJob(documentMailJob, payloads[0], { jobId: 'back', attempt: 2 });
    const mail = await smtp.waitForMail((m) => m.to.includes('eva@eken.se'));
    expect(mail.raw).toMatch(/Content-Type: application\/pdf/i);
  });

  it('refuses a bad address or none at all (400), a reader (403) and another tenant’s proposal (404), sending nothing', async () => {
    const before = smtp.mails.length;
    const bad = await call('POST', '/api/proposals/pdf/email', tok.admin, {
      proposal: ref.proposal,
      emailTarget: 'not-an-address',
    });
    expect(bad.status).toBe(400);
    expect(bad.json()).toEqual({ code: 'VALIDATION_FAILED', fields: { emailTarget: ['ERROR_INVALID_EMAIL'] } });
    const none = await call('POST', '/api/proposals/pdf/email', tok.admin, { proposal: ref.bare });
    expect(none.status).toBe(400);
    expect(none.json()).toEqual({ code: 'VALIDATION_FAILED', fields: { emailTarget: ['ERROR_REQUIRED_FIELD'] } });
    const reader = await call('POST', '/api/proposals/pdf/email', tok.reader, {
      proposal: ref.proposal,
      emailTarget: 'a@b.se',
    });
    expect(reader.status).toBe(403);
    const other = await call('POST', '/api/proposals/pdf/email', tok.admin, {
      proposal: refB.proposal,
      emailTarget: 'a@b.se',
    });
    expect(other.status).toBe(404);
    await new Promise((r) => setTimeout(r, 200));
    expect(smtp.mails.length).toBe(before);
  });
});

describe('[proposals] the screens’ document routes', () => {
  /** Runs a route's loader (GET ?query) or action (POST form) as React Router would, after the i18n middleware. */
  async function runRoute(
    kind: 'proposals' | 'sales',
    token: string,
    id: string,
    query: string,
    form?: Record<string, string>,
  ) {
    const auth = await withTenant(tenantA, (trx) => validateSession(trx, token, new Date(), sessionPolicy()));
    const context = new RouterContextProvider();
    context.set(tenantContext, tenantA);
    context.set(authContext, auth);
    context.set(requestContext, { ip: null, requestId: 'test', token });
    const url = `http://${a.host}/${kind}/${id}/document${query}`;
    const body = form ? new FormData() : undefined;
    for (const [k, v] of Object.entries(form ?? {})) body!.append(k, v);
    const request = new Request(url, form ? { method: 'POST', body } : undefined);
    let answer: unknown;
    await i18nextMiddleware({ request, context, params: { id }, url: new URL(url), pattern: '' } as never, async () => {
      const args = { request, context, params: { id } } as never;
      try {
        answer = form
          ? await proposalAction(args)
          : kind === 'proposals'
            ? await proposalLoader(args)
            : await salesOrderLoader(args);
      } catch (thrown) {
        answer = thrown;
      }
      return new Response(null);
    });
    return answer;
  }

  it('download the proposal and the sales order as PDF and Word', async () => {
    const pdf = (await runRoute('proposals', tok.reader, ref.proposal, '?format=pdf')) as Response;
    expect(pdf).toBeInstanceOf(Response);
    expect(pdf.headers.get('content-disposition')).toBe(`attachment; filename="proposal-${number}.pdf"`);
    expect(await pdfText(Buffer.from(await pdf.arrayBuffer()))).toContain('6 950,00 kr');
    const word = (await runRoute('proposals', tok.reader, ref.proposal, '?format=docx')) as Response;
    expect(unzipEntry(Buffer.from(await word.arrayBuffer()), 'word/document.xml')).toContain('Inbrottslarm Brf Eken');
    const so = (await runRoute('sales', tok.reader, ref.salesOrder, '?format=pdf')) as Response;
    expect(so.headers.get('content-disposition')).toBe(`attachment; filename="sales-order-${salesOrderNumber}.pdf"`);
  });

  it('refuse an unknown format (400) and another tenant’s ids (404)', async () => {
    expect(await runRoute('proposals', tok.reader, ref.proposal, '?format=exe')).toMatchObject({
      init: { status: 400 },
    });
    expect(await runRoute('proposals', tok.reader, refB.proposal, '?format=pdf')).toMatchObject({
      init: { status: 404 },
    });
    expect(await runRoute('sales', tok.reader, refB.salesOrder, '?format=pdf')).toMatchObject({
      init: { status: 404 },
    });
  });

  it('e-mail the PDF and answer EMAIL_SENT_TO, or the field error', async () => {
    const sent = await runRoute('proposals', tok.admin, ref.proposal, '', { emailTarget: 'ordf@eken.se' });
    expect(sent).toMatchObject({ data: { ok: true, message: 'EMAIL_SENT_TO', recipient: 'ordf@eken.se' } });
    await smtp.waitForMail((m) => m.to.includes('ordf@eken.se'));
    const bad = await runRoute('proposals', tok.admin, ref.proposal, '', { emailTarget: 'ordf' });
    expect(bad).toMatchObject({
      data: { code: 'VALIDATION_FAILED', fields: { emailTarget: ['ERROR_INVALID_EMAIL'] } },
      init: { status: 400 },
    });
    expect(await runRoute('proposals', tok.reader, ref.proposal, '', { emailTarget: 'a@b.se' })).toMatchObject({
      init: { status: 403 },
    });
  });
});
