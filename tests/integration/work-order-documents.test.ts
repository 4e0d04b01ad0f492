import http from 'node:http';
import { RouterContextProvider } from 'react-router';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authContext, requestContext, tenantContext } from '~/app/context';
import { i18nextMiddleware } from '~/app/middleware/i18n.server';
import { action as documentAction, loader as documentLoader } from '~/app/routes/work-orders.$id.document';
import { validateSession } from '~/core/auth/session.service';
import { sessionPolicy } from '~/core/unit-of-work';
import { closeBrowser, currentBrowserForTests, htmlToPdf } from '~/core/documents/pdf';
import { withTenant } from '~/core/db/with-tenant';
import { getInstance, updateCompanyDetails, updateInstance } from '~/core/instance/instance.service';
import { setMailer, SmtpMailer } from '~/core/mail/mailer';
import type { Permission } from '~/core/permissions/permissions';
import type { Tenant } from '~/core/tenancy/tenant';
import { inTenant } from '~/core/unit-of-work';
import { ensureUser } from '~/core/users/create-user';
import {
  buildWorkOrderDocumentModel,
  documentFilename,
  loadDocumentsPanel,
  workOrderHtml,
} from '~/core/work-orders/documents.service';
import { getTenantBySlug } from '~/tenants/registry';
import { unzipEntry } from '~/tests/helpers/zip';
import { pdfTitle, postBinary as postBinaryTo } from '~/tests/helpers/binary';
import { createTestTenant, startTestServer, type TestServer, type TestTenant } from '~/tests/helpers/app';
import { testApi } from '~/tests/helpers/api';
import { startSmtpPeer, type SmtpPeer } from '~/tests/helpers/smtp';
import { testAuth } from '~/tests/helpers/auth';

let srv: TestServer;
let smtp: SmtpPeer;
let a: TestTenant;
let b: TestTenant;
let tenantA: Tenant;
const tok = {} as Record<'admin' | 'reader' | 'nobody' | 'adminB', string>;
const ref = {} as Record<'admin' | 'tech' | 'wo' | 'woEmpty' | 'woEvil' | 'woB', string>;
let number = '';

const { signIn, call } = testApi(() => ({ url: srv.url, host: a.host }));

/** A POST whose answer is kept as bytes, to tenant A's host unless told. */
const postBinary = (path: string, token: string, body: unknown, host = a.host) =>
  postBinaryTo(srv.url, path, host, token, body);

const authOf = (userId: string, perms: Permission[]) => testAuth(userId, perms, []);

const model = (id: string) =>
  inTenant({ tenant: tenantA, auth: authOf(ref.admin, ['workorders:read']), lang: 'sv' }, (ctx) =>
    buildWorkOrderDocumentModel(ctx, id),
  );

beforeAll(async () => {
  srv = await startTestServer();
  smtp = await startSmtpPeer();
  setMailer(new SmtpMailer(smtp.url, 'Ordo <no-reply@ordo.test>'));
  a = await createTestTenant('doc-a');
  b = await createTestTenant('doc-b');
  tenantA = (await getTenantBySlug(a.slug))!;
  await withTenant(tenantA, async (trx) => {
    await trx('access_levels').insert([
      { display_name: 'Readers', permissions: ['workorders:read'], work_order_limit: 'none' },
      { display_name: 'Nobodies', permissions: ['customers:read'], work_order_limit: 'none' },
    ]);
    await ensureUser(trx, {
      email: `reader@${a.slug}.se`,
      name: 'Rut Läsare',
      password: 'correct-horse-battery',
      accessLevels: ['Readers'],
    });
    await ensureUser(trx, {
      email: `nobody@${a.slug}.se`,
      name: 'Nils Ingen',
      password: 'correct-horse-battery',
      accessLevels: ['Nobodies'],
    });
    ref.admin = (await trx('users').where({ email: a.adminEmail }).first('id')).id;
    ref.tech = (await trx('users').where({ email: a.technicianEmail }).first('id')).id;
  });
  // The company details documents print (admin context, as the settings page saves them).
  await inTenant({ tenant: tenantA, auth: authOf(ref.admin, ['instance:edit']), lang: 'sv' }, (ctx) =>
    updateCompanyDetails(ctx, {
      companyName: 'Nordlarm Säkerhet AB',
      companyNr: '556677-8899',
      address: 'Larmgatan 1',
      postIndex: '721 30',
      city: 'Västerås',
      email: 'info@nordlarm.se',
      vatRegistrationNr: 'SE556677889901',
      bgAccount: '123-4567',
    }),
  );
  tenantA = (await getTenantBySlug(a.slug))!;
  tok.admin = await signIn(a, a.adminEmail);
  tok.reader = await signIn(a, `reader@${a.slug}.se`);
  tok.nobody = await signIn(a, `nobody@${a.slug}.se`);
  tok.adminB = await signIn(b, b.adminEmail);

  const create = async (workOrder: Record<string, unknown>, token = tok.admin, host = a.host) => {
    const res = await call('POST', '/api/wo', token, { workOrder }, host);
    expect(res.status, res.text).toBe(200);
    return res.json().workOrder as { id: string; number: string };
  };
  const [customer] = await withTenant(tenantA, (trx) =>
    trx('customers').insert({ customer_id: '10001', name: 'Brf Solgläntan', invoice_language: null }).returning('id'),
  );
  await withTenant(tenantA, (trx) =>
    trx('customer_addresses').insert({
      customer_id: customer.id,
      street: 'Solvägen 3',
      post_index: '722 14',
      city: 'Västerås',
      is_primary: true,
    }),
  );
  const [bo] = await withTenant(tenantA, (trx) =>
    trx('business_objects').insert({ serial_code: 'SN-4711', customer_id: customer.id }).returning('id'),
  );
  const wo = await create({
    title: 'Byte av centralapparat',
    description: 'Byt Galaxy Flex\nmot ny',
    internalInfo: 'HEMLIG-NYCKELKOD',
    summary: 'Utfört enligt offert',
    customerId: customer.id,
    businessObjectId: bo.id,
    contactName: 'Anna Ek',
    customerOrderNumber: 'PO-778',
    invoiceMarking: 'Projekt 12',
    assignees: [ref.tech],
  });
  ref.wo = wo.id;
  number = wo.number;
  await withTenant(tenantA, async (trx) => {
    const [article] = await trx('articles')
      .insert({ article_id: 'DET-100', title: 'Rörelsedetektor IR', unit: 'st', price: 450, purchase_price: 123.45 })
      .returning('id');
    await trx('work_order_articles').insert([
      {
        work_order_id: wo.id,
        article_id: article.id,
        title: 'Rörelsedetektor IR',
        amount: 2,
        price: 450,
        purchase_price: 123.45,
        discount_type: 'PERCENTAGE',
        discount_value: 10,
        total: 810,
        sort_order: 0,
      },
      {
        work_order_id: wo.id,
        article_id: article.id,
        title: 'Kabel 10 m',
        amount: 1.5,
        price: 1000.5,
        purchase_price: 321.09,
        total: 1500.75,
        sort_order: 1,
      },
    ]);
    await trx('work_order_time').insert([
      {
        work_order_id: wo.id,
        user_id: ref.tech,
        date: '2026-11-20',
        work_minutes: 90,
        travel_minutes: 30,
        distance_km: 12.5,
      },
      {
        work_order_id: wo.id,
        user_id: ref.tech,
        date: '2026-11-21',
        work_minutes: 45,
        travel_minutes: 0,
        distance_km: 0,
      },
    ]);
  });
  ref.woEmpty = (await create({ title: 'Tom order' })).id;
  ref.woEvil = (
    await create({ title: '<script>alert(1)</script>', description: '<img src=x onerror=alert(2)> & "q"' })
  ).id;
  ref.woB = (await create({ title: 'Annan tenant' }, tok.adminB, b.host)).id;
});

afterAll(async () => {
  await closeBrowser();
  setMailer(undefined);
  await smtp?.close();
  await srv?.close();
});

describe('[documents] the work-order model and HTML', () => {
  it('prints the order, customer, object, company, articles with totals and time; never internal info or purchase prices', async () => {
    const m = await model(ref.wo);
    expect(m.company).toMatchObject({ name: 'Nordlarm Säkerhet AB', vatRegistrationNr: 'SE556677889901' });
    expect(m.articles.map((r) => [r.title, r.total, r.discount])).toEqual([
      ['Rörelsedetektor IR', '810.00', '10 %'],
      ['Kabel 10 m', '1500.75', ''],
    ]);
    expect(m.articlesTotal).toBe('2310.75');
    expect(m.timeTotals).toEqual({ workMinutes: 135, travelMinutes: 30, distanceKm: '12.5' });
    const html = workOrderHtml(m);
    for (const text of [
      number,
      'Byte av centralapparat',
      'Brf Solgläntan',
      '10001',
      'Solvägen 3',
      'SN-4711',
      'Rörelsedetektor IR',
      'Nordlarm Säkerhet AB',
      '556677-8899',
      'SE556677889901',
      '123-4567',
      'PO-778',
      'Projekt 12',
      'Tess Tekniker',
      '2 310,75',
      '1 000,50',
      '1,50', // 90 minutes
      '2,25', // 135 minutes in total
      'Arbetsorder',
      'Fakturamärkning',
    ])
      expect(html, text).toContain(text);
    expect(html).not.toContain('HEMLIG-NYCKELKOD');
    expect(html).not.toContain('123,45');
    expect(html).not.toContain('321,09');
    expect(html).toContain('<html lang="sv-SE">');
  });

  it('escapes what users typed: a title with a script stays text', async () => {
    const html = workOrderHtml(await model(ref.woEvil));
    expect(html).not.toContain('<script>alert(1)</script>');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).not.toContain('<img src=x');
    expect(html).toContain('&lt;img src&#x3D;x onerror&#x3D;alert(2)&gt; &amp; &quot;q&quot;');
  });

  it('is written in the customer’s invoice language when it has one', async () => {
    const [c] = await withTenant(tenantA, (trx) =>
      trx('customers').insert({ customer_id: '10009', name: 'English Ltd', invoice_language: 'en' }).returning('id'),
    );
    const res = await call('POST', '/api/wo', tok.admin, { workOrder: { title: 'In English', customerId: c.id } });
    const m = await model(res.json().workOrder.id);
    expect(m.lang).toBe('en');
    const html = workOrderHtml(m);
    expect(html).toContain('Work order');
    expect(html).toContain('No articles');
    expect((await model(ref.woEmpty)).lang).toBe('sv');
  });

  it('names the file from the order number, safely', () => {
    expect(documentFilename('10042', 'pdf')).toBe('work-order-10042.pdf');
    expect(documentFilename('../a b"c', 'docx')).toBe('work-order-a_b_c.docx');
  });

  it('offers the standard template; e-mail only to editors', async () => {
    const panel = (perms: Permission[]) =>
      inTenant({ tenant: tenantA, auth: authOf(ref.admin, perms), lang: 'en' }, (ctx) => loadDocumentsPanel(ctx));
    expect(await panel(['workorders:read', 'workorders:edit'])).toEqual({
      templates: [{ id: 'default', name: 'Standard' }],
      canEmail: true,
    });
    expect((await panel(['workorders:read'])).canEmail).toBe(false);
  });
});

describe('[documents] POST /api/wo/pdf and /api/wo/word', () => {
  it('answers a PDF attachment named from the order number', async () => {
    const res = await postBinary('/api/wo/pdf', tok.admin, { workOrder: ref.wo, templateId: 'default' });
    expect(res.status, res.body.toString()).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toContain(`attachment; filename="work-order-${number}.pdf"`);
    expect(res.body.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(res.body.subarray(-8).toString('latin1')).toContain('%%EOF');
    // Chromium writes the page title into the PDF's metadata: the order number is there.
    expect(pdfTitle(res.body)).toBe(`Arbetsorder ${number}`);
  });

  it('takes the order as an object with its id too, and the default template when none is named', async () => {
    const res = await postBinary('/api/wo/pdf', tok.reader, { workOrder: { id: ref.woEmpty } });
    expect(res.status, res.body.toString()).toBe(200);
    expect(res.body.subarray(0, 4).toString()).toBe('%PDF');
  });

  it('answers a Word document (a zip) with the order in word/document.xml, without internal info', async () => {
    const res = await postBinary('/api/wo/word', tok.reader, { workOrder: ref.wo, templateId: 'default' });
    expect(res.status, res.body.toString()).toBe(200);
    expect(res.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.wordprocessingml.document');
    expect(res.headers['content-disposition']).toContain(`filename="work-order-${number}.docx"`);
    expect(res.body.subarray(0, 2).toString()).toBe('PK');
    const xml = unzipEntry(res.body, 'word/document.xml');
    expect(xml).toBeTruthy();
    for (const text of [number, 'Brf Solgläntan', 'Rörelsedetektor IR', 'Nordlarm Säkerhet AB', '2 310,75'])
      expect(xml, text).toContain(text);
    expect(xml).not.toContain('HEMLIG-NYCKELKOD');
    const evil = await postBinary('/api/wo/word', tok.admin, { workOrder: ref.woEvil });
    expect(unzipEntry(evil.body, 'word/document.xml')).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
  });

  it('refuses an unknown template (400), another tenant’s order and a bad id (404), no workorders:read (403)', async () => {
    const bad = await call('POST', '/api/wo/pdf', tok.admin, { workOrder: ref.wo, templateId: 'fancy' });
    expect(bad.status).toBe(400);
    expect(bad.json()).toEqual({ code: 'VALIDATION_FAILED', fields: { templateId: ['ERROR_INVALID_VALUE'] } });
    expect((await call('POST', '/api/wo/pdf', tok.admin, { workOrder: ref.woB })).json()).toEqual({
      code: 'NOT_FOUND',
    });
    expect((await call('POST', '/api/wo/word', tok.admin, { workOrder: ref.woB })).status).toBe(404);
    expect((await call('POST', '/api/wo/pdf', tok.admin, { workOrder: 'nope' })).status).toBe(404);
    expect((await call('POST', '/api/wo/pdf', tok.admin, {})).status).toBe(400);
    expect((await call('POST', '/api/wo/pdf', tok.nobody, { workOrder: ref.wo })).status).toBe(403);
    expect((await call('POST', '/api/wo/word', tok.nobody, { workOrder: ref.wo })).status).toBe(403);
    expect((await call('POST', '/api/wo/pdf', undefined, { workOrder: ref.wo })).status).toBe(401);
  });
});

describe('[documents] POST /api/wo/pdf/email', () => {
  it('sends one mail with the PDF attached to the target, answers EMAIL_SENT_TO and writes history', async () => {
    const before = smtp.mails.length;
    const res = await call('POST', '/api/wo/pdf/email', tok.admin, {
      workOrder: ref.wo,
      templateId: 'default',
      emailTarget: 'kund@solglantan.se',
    });
    expect(res.status, res.text).toBe(200);
    expect(res.json()).toEqual({ message: 'EMAIL_SENT_TO', recipient: 'kund@solglantan.se' });
    const mail = await smtp.waitForMail((m) => m.to.includes('kund@solglantan.se'));
    expect(smtp.mails.length).toBe(before + 1);
    expect(mail.subject).toBe(`Arbetsorder ${number}: Byte av centralapparat`);
    expect(mail.text).toContain('Nordlarm Säkerhet AB');
    expect(mail.raw).toMatch(/Content-Type: application\/pdf; name=work-order-\d+\.pdf/i);
    const attachment = /Content-Disposition: attachment[^\n]*\r?\n(?:[^\r\n]+\r?\n)*\r?\n([A-Za-z0-9+/=\r\n]+)/i.exec(
      mail.raw,
    );
    expect(attachment).toBeTruthy();
    expect(Buffer.from(attachment![1]!.replace(/\s+/g, ''), 'base64').subarray(0, 5).toString()).toBe('%PDF-');
    const history = await call('GET', `/api/wo/history/${ref.wo}`, tok.admin);
    const row = history.json().rows.find((r: { data: { recipients?: string[] } }) => r.data?.recipients);
    expect(row).toMatchObject({ action: 'edit', data: { recipients: ['kund@solglantan.se'] } });
  });

  it('refuses a bad address (400), a reader (403) and another tenant’s order (404), sending nothing', async () => {
    const before = smtp.mails.length;
    const bad = await call('POST', '/api/wo/pdf/email', tok.admin, {
      workOrder: ref.wo,
      emailTarget: 'not-an-address',
    });
    expect(bad.status).toBe(400);
    expect(bad.json()).toEqual({ code: 'VALIDATION_FAILED', fields: { emailTarget: ['ERROR_INVALID_EMAIL'] } });
    const reader = await call('POST', '/api/wo/pdf/email', tok.reader, { workOrder: ref.wo, emailTarget: 'a@b.se' });
    expect(reader.status).toBe(403);
    const other = await call('POST', '/api/wo/pdf/email', tok.admin, { workOrder: ref.woB, emailTarget: 'a@b.se' });
    expect(other.status).toBe(404);
    await new Promise((r) => setTimeout(r, 200));
    expect(smtp.mails.length).toBe(before);
  });
});

describe('[documents] the warm browser', () => {
  it('is reused between documents, and launched again after it was closed or crashed', async () => {
    await htmlToPdf('<p>one</p>');
    const first = currentBrowserForTests();
    expect(first).not.toBeNull();
    const res = await postBinary('/api/wo/pdf', tok.admin, { workOrder: ref.woEmpty });
    expect(res.status).toBe(200);
    expect(currentBrowserForTests()).toBe(first);

    await closeBrowser();
    expect(currentBrowserForTests()).toBeNull();
    expect((await htmlToPdf('<p>two</p>')).subarray(0, 4).toString()).toBe('%PDF');
    const second = currentBrowserForTests();
    expect(second).not.toBeNull();
    expect(second).not.toBe(first);

    second!.process()?.kill('SIGKILL');
    await new Promise<void>((resolve) =>
      second!.connected ? second!.once('disconnected', () => resolve()) : resolve(),
    );
    expect((await htmlToPdf('<p>three</p>')).subarray(0, 4).toString()).toBe('%PDF');
    const third = currentBrowserForTests();
    expect(third).not.toBe(second);
    expect(third!.connected).toBe(true);
  });

  it('renders several documents at once within the page cap', async () => {
    const pdfs = await Promise.all(Array.from({ length: 5 }, (_, i) => htmlToPdf(`<p>doc ${i}</p>`)));
    for (const pdf of pdfs) expect(pdf.subarray(0, 4).toString()).toBe('%PDF');
  });

  it('loads nothing from the network and runs no script', async () => {
    const hits: string[] = [];
    const server = http.createServer((req, res) => {
      hits.push(req.url ?? '');
      res.end('x');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const port = (server.address() as { port: number }).port;
    try {
      const pdf = await htmlToPdf(
        `<img src="http://127.0.0.1:${port}/img.png"><link rel="stylesheet" href="http://127.0.0.1:${port}/s.css">` +
          `<script>fetch('http://127.0.0.1:${port}/js')</script><p>ok</p>`,
      );
      expect(pdf.subarray(0, 4).toString()).toBe('%PDF');
      expect(hits).toEqual([]);
    } finally {
      await new Promise((r) => server.close(r));
    }
  });
});

describe('[documents] company details in the instance configuration', () => {
  const asAdmin = <T>(fn: Parameters<typeof inTenant<T>>[1], perms: Permission[] = ['instance:edit']) =>
    getTenantBySlug(a.slug).then((tenant) =>
      inTenant({ tenant: tenant!, auth: authOf(ref.admin, perms), lang: 'sv' }, fn),
    );

  it('survive a save of the general settings, and blank clears a field', async () => {
    const before = (await getTenantBySlug(a.slug))!;
    await asAdmin((ctx) =>
      updateInstance(ctx, {
        displayName: before.displayName,
        country: 'SE',
        languageKey: 'se',
        dateFormat: 'YYYY-MM-DD',
        currencySymbol: 'kr',
        logoUrl: '',
      }),
    );
    const kept = await asAdmin(async (ctx) => getInstance(ctx).configuration.company);
    expect(kept).toMatchObject({ companyName: 'Nordlarm Säkerhet AB', vatRegistrationNr: 'SE556677889901' });
    await asAdmin((ctx) => updateCompanyDetails(ctx, { ...kept, phone: ' 021-12 34 56 ', bgAccount: '' }));
    const after = (await getTenantBySlug(a.slug))!.config.company;
    expect(after).toMatchObject({ phone: '021-12 34 56', bgAccount: null, companyName: 'Nordlarm Säkerhet AB' });
    await asAdmin((ctx) => updateCompanyDetails(ctx, { ...after, bgAccount: '123-4567' }));
  });

  it('check the e-mail and lengths, and need instance:edit', async () => {
    await expect(asAdmin((ctx) => updateCompanyDetails(ctx, { email: 'nope' }))).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
      details: { fields: { email: ['ERROR_INVALID_EMAIL'] } },
    });
    await expect(asAdmin((ctx) => updateCompanyDetails(ctx, { companyNr: 'x'.repeat(51) }))).rejects.toMatchObject({
      details: { fields: { companyNr: ['ERROR_MAX_LENGTH'] } },
    });
    await expect(
      asAdmin((ctx) => updateCompanyDetails(ctx, { companyName: 'X' }), ['settings:read']),
    ).rejects.toMatchObject({ status: 403 });
    expect((await getTenantBySlug(a.slug))!.config.company.companyName).toBe('Nordlarm Säkerhet AB');
  });

  it('print the tenant name when no company name is set', async () => {
    const other = (await getTenantBySlug(b.slug))!;
    const [wo] = await withTenant(other, (trx) => trx('work_orders').where({ id: ref.woB }).select('id'));
    const adminB = await withTenant(other, (trx) => trx('users').where({ email: b.adminEmail }).first('id'));
    const m = await inTenant({ tenant: other, auth: authOf(adminB.id, ['workorders:read']), lang: 'sv' }, (ctx) =>
      buildWorkOrderDocumentModel(ctx, wo.id),
    );
    expect(m.company).toMatchObject({ name: other.displayName, companyNr: null, logo: null });
  });
});

describe('[documents] the order screen route /work-orders/:id/document', () => {
  /** Runs the route's loader (GET ?query) or action (POST form) as React Router would, after the i18n middleware. */
  async function runRoute(token: string, id: string, query: string, form?: Record<string, string>) {
    const auth = await withTenant(tenantA, (trx) => validateSession(trx, token, new Date(), sessionPolicy()));
    const context = new RouterContextProvider();
    context.set(tenantContext, tenantA);
    context.set(authContext, auth);
    context.set(requestContext, { ip: null, requestId: 'test', token });
    const url = `http://${a.host}/work-orders/${id}/document${query}`;
    const body = form ? new FormData() : undefined;
    for (const [k, v] of Object.entries(form ?? {})) body!.append(k, v);
    const request = new Request(url, form ? { method: 'POST', body } : undefined);
    let answer: unknown;
    await i18nextMiddleware({ request, context, params: { id }, url: new URL(url), pattern: '' } as never, async () => {
      const args = { request, context, params: { id } } as never;
      try {
        answer = form ? await documentAction(args) : await documentLoader(args);
      } catch (thrown) {
        answer = thrown;
      }
      return new Response(null);
    });
    return answer;
  }

  it('downloads the PDF and the Word file as attachments', async () => {
    const pdf = (await runRoute(tok.reader, ref.wo, '?format=pdf')) as Response;
    expect(pdf).toBeInstanceOf(Response);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(pdf.headers.get('content-disposition')).toBe(`attachment; filename="work-order-${number}.pdf"`);
    expect(
      Buffer.from(await pdf.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');
    const word = (await runRoute(tok.reader, ref.wo, '?format=docx')) as Response;
    const bytes = Buffer.from(await word.arrayBuffer());
    expect(unzipEntry(bytes, 'word/document.xml')).toContain(number);
  });

  it('refuses an unknown format (400) and another tenant’s order (404)', async () => {
    expect(await runRoute(tok.reader, ref.wo, '?format=exe')).toMatchObject({ init: { status: 400 } });
    expect(await runRoute(tok.reader, ref.woB, '?format=pdf')).toMatchObject({ init: { status: 404 } });
  });

  it('e-mails the PDF and answers EMAIL_SENT_TO, or the field error', async () => {
    const sent = await runRoute(tok.admin, ref.wo, '', {
      emailTarget: 'styrelsen@solglantan.se',
      templateId: 'default',
    });
    expect(sent).toMatchObject({
      data: { ok: true, message: 'EMAIL_SENT_TO', recipient: 'styrelsen@solglantan.se' },
    });
    await smtp.waitForMail((m) => m.to.includes('styrelsen@solglantan.se'));
    const bad = await runRoute(tok.admin, ref.wo, '', { emailTarget: 'styrelsen' });
    expect(bad).toMatchObject({
      data: { code: 'VALIDATION_FAILED', fields: { emailTarget: ['ERROR_INVALID_EMAIL'] } },
      init: { status: 400 },
    });
    const reader = await runRoute(tok.reader, ref.wo, '', { emailTarget: 'a@b.se' });
    expect(reader).toMatchObject({ init: { status: 403 } });
  });
});

describe('[work-order documents] input declared at the boundary (issue 29)', () => {
  it('refuses a malformed body with 400 and the field, and /api/openapi.json shows the shapes', async () => {
    const noOrder = await call('POST', '/api/wo/word', tok.admin, { workOrder: 42 });
    expect(noOrder.status).toBe(400);
    expect(noOrder.json()).toEqual({ code: 'VALIDATION_FAILED', fields: { workOrder: ['ERROR_REQUIRED_FIELD'] } });

    const doc = (await call('GET', '/api/openapi.json')).json();
    const email = doc.paths['/wo/pdf/email'].post.requestBody.content['application/json'].schema;
    expect(email.required).toEqual(['workOrder', 'emailTarget']);
    expect(email.properties.templateId.enum).toEqual(['default']);
  });
});
