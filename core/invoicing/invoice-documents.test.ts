/**
 * Issue 14, the invoice as a document: POST /invoice/apply with type pdf and email, through the
 * services on a real tenant. The PDF is read back as text (pdf.js): number, OCR, rows, VAT per
 * rate, öre rounding, totals, the reverse-charge text and the ROT block are there; a draft prints
 * without a number and marked as a draft, and stays a draft. The e-mail reaches a real SMTP peer
 * with the PDF attached and finalizes a draft first, once the unit of work committed (decision
 * 049): a commit that fails sends nothing and uses up no number; a relay that is down is retried.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig, setConfig } from '~/core/config/env';
import type { Auth, Ctx } from '~/core/context';
import type { Database } from '~/core/db/database';
import { withTenant } from '~/core/db/with-tenant';
import { closeBrowser } from '~/core/documents/pdf';
import { loadRegistry } from '~/core/extension-points/registry';
import { defaultInstanceConfig } from '~/core/instance/instance-config';
import { setMailer, SmtpMailer } from '~/core/mail/mailer';
import { mailSettled } from '~/core/mail/templates/deliver';
import { documentMailJob } from '~/core/documents/mail';
import { PermanentJobError, runJob } from '~/core/jobs/define-job';
import { setOutboxQueue } from '~/core/jobs/outbox';
import type { Permission } from '~/core/permissions/permissions';
import type { Tenant } from '~/core/tenancy/tenant';
import { inTenant } from '~/core/unit-of-work';
import { getTenantBySlug, setInstanceConfig } from '~/tenants/registry';
import { provisionTenant } from '~/tenants/provision';
import { testAuth } from '~/tests/helpers/auth';
import { pdfTitle } from '~/tests/helpers/binary';
import { openTestDatabase, uniqueSlug } from '~/tests/helpers/db';
import { pdfText } from '~/tests/helpers/pdf-text';
import { startSmtpPeer, type SmtpPeer } from '~/tests/helpers/smtp';
import { buildInvoiceDocumentModel, emailInvoice, invoiceHtml, invoicePdf } from './invoice-documents.service';
import type { InvoiceLine } from './invoice-lines';
import { finalizeInvoice, insertInvoice, INVOICE_ENTITY, type InvoiceHeader } from './invoice-store';
import { ocrReference } from './ocr';

let db: Database;
let smtp: SmtpPeer;
let tenant: Tenant;
let adminId = '';
const ref = {} as Record<'eken' | 'bygg' | 'villa' | 'silent', string>;
const inv = {} as Record<
  'standard' | 'reverse' | 'rot' | 'draft' | 'mailDraft' | 'failDraft' | 'relayDown' | 'noEmail',
  string
>;
const nr = {} as Record<'standard' | 'reverse' | 'rot', string>;

const EDITOR: Permission[] = ['invoices:read', 'workorders:close'];
const as = <T>(auth: Auth, fn: (ctx: Ctx) => Promise<T>) => inTenant({ tenant, auth, lang: 'sv' }, fn);
const editor = () => testAuth(adminId, EDITOR);
const reader = () => testAuth(adminId, ['invoices:read']);

const line = (over: Partial<InvoiceLine> & Pick<InvoiceLine, 'title'>): InvoiceLine => ({
  kind: 'article',
  articleId: null,
  articleNumber: null,
  description: null,
  unit: 'st',
  amount: '1',
  price: '0',
  discountType: null,
  discountValue: null,
  vatPercent: '25',
  work: 'material',
  green: null,
  userId: null,
  ...over,
});

const header = (customerId: string, over: Partial<InvoiceHeader> = {}): InvoiceHeader => ({
  customerId,
  invoiceDate: '2026-03-02',
  deliveryDate: '2026-02-27',
  paymentTermDays: 30,
  paymentDueDate: '2026-04-01',
  marking: null,
  description: null,
  customerOrderNumber: null,
  ourReference: null,
  yourReference: null,
  invoiceFee: null,
  vatPercentage: '25',
  reverseVat: false,
  bgAccount: '5050-1055',
  bankAccount: 'SE45 5000 0000 0583 9825 7466',
  taxReduction: 'none',
  propertyDesignation: null,
  housingOrgNr: null,
  taxReductionPersons: [],
  data: {},
  ...over,
});

/** Inserts an invoice as the close does and, unless told otherwise, finalizes it; answers its id and number. */
async function makeInvoice(h: InvoiceHeader, lines: InvoiceLine[], finalize = true) {
  return as(editor(), async (ctx) => {
    const id = await insertInvoice(ctx, h, lines);
    const number = finalize ? (await finalizeInvoice(ctx, id)).invoiceNr : null;
    return { id, number };
  });
}

const pdfOf = (invoiceId: string, auth = reader()) => as(auth, (ctx) => invoicePdf(ctx, { invoiceId }));
const stateOf = (id: string) =>
  withTenant(tenant, (trx) => trx('invoices').where({ id }).first('status', 'invoice_nr', 'ocr'));
const nextNumber = () =>
  withTenant(tenant, async (trx) => String((await trx('invoice_settings').first('next_invoice_nr')).next_invoice_nr));
const historyOf = (id: string, action: string) =>
  withTenant(tenant, (trx) =>
    trx('history').where({ entity: INVOICE_ENTITY, entity_id: id, action }).select('action', 'data', 'user_id'),
  );

/** The attachment of a mail as nodemailer writes it: base64 after the part's headers. */
function attachmentOf(raw: string): Buffer {
  const m = /Content-Disposition: attachment[^\n]*\r?\n(?:[^\r\n]+\r?\n)*\r?\n([A-Za-z0-9+/=\r\n]+)/i.exec(raw);
  expect(m, 'an attachment').toBeTruthy();
  return Buffer.from(m![1]!.replace(/\s+/g, ''), 'base64');
}

beforeAll(async () => {
  setConfig(
    parseConfig({
      NODE_ENV: 'test',
      SECRET_KEY: process.env.SECRET_KEY,
      DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'ordo-invdoc-')),
      DEFAULT_TENANT: 'no-such-default',
    }),
  );
  db = await openTestDatabase();
  await loadRegistry({});
  smtp = await startSmtpPeer();
  setMailer(new SmtpMailer(smtp.url, 'Ordo <no-reply@ordo.test>'));
  const slug = uniqueSlug('invdoc');
  const { tenantId } = await provisionTenant({
    slug,
    name: 'Invdoc AB',
    hosts: [`${slug}.ordo.test`],
    adminEmail: `admin@${slug}.se`,
    adminPassword: 'password-1',
  });
  await setInstanceConfig(
    tenantId,
    defaultInstanceConfig('SE', {
      company: {
        companyName: 'Nordlarm Säkerhet AB',
        companyNr: '556677-8899',
        address: 'Larmgatan 1',
        postIndex: '721 30',
        city: 'Västerås',
        email: 'faktura@nordlarm.se',
        phone: '021-10 20 30',
        vatRegistrationNr: 'SE556677889901',
        bgAccount: '5050-1055',
      },
    }),
  );
  tenant = (await getTenantBySlug(slug))!;
  await withTenant(tenant, async (trx) => {
    adminId = (
      await trx('users')
        .where({ email: `admin@${slug}.se` })
        .first('id')
    ).id;
    const [eken, bygg, villa, silent] = await trx('customers')
      .insert([
        {
          customer_id: '2001',
          name: 'Brf Eken',
          invoice_email: 'ekonomi@eken.se',
          organizational_number: '769600-1234',
        },
        {
          customer_id: '2002',
          name: 'Bygg & Montage AB',
          email: 'info@bygg.se',
          vat_number: 'SE559988776601',
          reverse_vat: true,
        },
        { customer_id: '2003', name: 'Vera Villa', type: 'private', person_id: '198001011234' },
        { customer_id: '2004', name: 'Tyst AB' },
      ])
      .returning('id');
    Object.assign(ref, { eken: eken.id, bygg: bygg.id, villa: villa.id, silent: silent.id });
    await trx('customer_addresses').insert([
      { customer_id: ref.eken, street: 'Ekvägen 5', post_index: '722 14', city: 'Västerås', is_primary: true },
      { customer_id: ref.villa, street: 'Villagatan 3', post_index: '724 60', city: 'Västerås', is_primary: true },
    ]);
  });

  // 4 × 1 250 − 10 % + 3 × 650 at 25 %, a book at 6 %: VAT 1 612,50 + 5,99, 8 168,39 rounds to 8 168
  let made = await makeInvoice(
    header(ref.eken, {
      description: 'Inbrottslarm Brf Eken',
      ourReference: 'Olle Larm',
      yourReference: 'Eva Ek',
      customerOrderNumber: 'PO-778',
      marking: 'Trapphus B',
      data: {
        instance: { companyName: 'Nordlarm Säkerhet AB', companyNr: '556677-8899', bgAccount: '5050-1055' },
        customer: { displayName: 'Brf Eken', customerId: '2001', organizationalNumber: '769600-1234' },
      },
    }),
    [
      line({ title: 'Rörelsedetektor', amount: '4', price: '1250', discountType: 'PERCENTAGE', discountValue: '10' }),
      line({ kind: 'text', title: 'Montage dagtid', unit: null }),
      line({ kind: 'labour', title: 'Installation', unit: 'tim', amount: '3', price: '650', work: 'labour' }),
      line({ title: 'Handbok larm', price: '99.90', vatPercent: '6' }),
    ],
  );
  inv.standard = made.id;
  nr.standard = made.number!;

  made = await makeInvoice(header(ref.bygg, { reverseVat: true, vatPercentage: '0', description: 'Larm i nybygge' }), [
    line({ title: 'Larmcentral', price: '10000' }),
  ]);
  inv.reverse = made.id;
  nr.reverse = made.number!;

  // ROT on 10 h labour (8 000 + 25 % = 10 000), 30 % in 2026: 3 000 off 12 500
  made = await makeInvoice(
    header(ref.villa, {
      taxReduction: 'ROT',
      propertyDesignation: 'Västerås Eken 1:23',
      taxReductionPersons: [{ personId: '198001011234' }],
    }),
    [
      line({ kind: 'labour', title: 'Elarbete', unit: 'tim', amount: '10', price: '800', work: 'labour' }),
      line({ title: 'Kabel och dosor', price: '2000' }),
    ],
  );
  inv.rot = made.id;
  nr.rot = made.number!;

  const draft = (customerId: string) =>
    makeInvoice(header(customerId), [line({ title: 'Service larm', price: '1000' })], false).then((m) => m.id);
  inv.draft = await draft(ref.eken);
  inv.mailDraft = await draft(ref.eken);
  inv.failDraft = await draft(ref.eken);
  inv.relayDown = await draft(ref.eken);
  inv.noEmail = await draft(ref.silent);
});

afterAll(async () => {
  await closeBrowser();
  setMailer(undefined);
  await smtp?.close();
  await db?.close();
});

describe('[invoices] the document model', () => {
  it('holds the rows as printed, the VAT per rate, the rounding and the payment details', async () => {
    const m = await as(reader(), (ctx) => buildInvoiceDocumentModel(ctx, inv.standard));
    expect(m.invoice).toMatchObject({ number: nr.standard, isDraft: false, ocr: ocrReference(nr.standard) });
    expect(m.rows.map((r) => [r.isText, r.title, r.total, r.discount, r.vatPercent])).toEqual([
      [false, 'Rörelsedetektor', '4500.00', '10 %', '25'],
      [true, 'Montage dagtid', null, '', null],
      [false, 'Installation', '1950.00', '', '25'],
      [false, 'Handbok larm', '99.90', '', '6'],
    ]);
    expect(m.vat).toEqual([
      { percent: '25', base: '6450.00', vat: '1612.50' },
      { percent: '6', base: '99.90', vat: '5.99' },
    ]);
    expect(m).toMatchObject({ net: '6549.90', vatTotal: '1618.49', rounding: '-0.39', total: '8168.00' });
    expect(m).toMatchObject({ toPay: '8168.00', taxReduction: null, lang: 'sv', currency: 'kr' });
    expect(m.payment).toEqual({
      bgAccount: '5050-1055',
      bankAccount: 'SE45 5000 0000 0583 9825 7466',
      ocr: m.invoice.ocr,
    });
    expect(m.customer).toMatchObject({ name: 'Brf Eken', number: '2001', street: 'Ekvägen 5', orgNr: '769600-1234' });
    expect(m.notes).toEqual({ reverseVatKey: null, footer: null });
  });

  it('writes in the customer’s invoice language, and escapes what users typed', async () => {
    await withTenant(tenant, (trx) => trx('customers').where({ id: ref.bygg }).update({ invoice_language: 'en' }));
    try {
      const m = await as(reader(), (ctx) => buildInvoiceDocumentModel(ctx, inv.reverse));
      expect(m).toMatchObject({ lang: 'en', locale: 'en-GB' });
      const html = invoiceHtml({ ...m, invoice: { ...m.invoice, description: '<script>alert(1)</script>' } });
      expect(html).toContain('<html lang="en-GB">');
      expect(html).toContain('Invoice');
      expect(html).toContain('Reverse charge');
      expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
      expect(html).not.toContain('<script>alert(1)</script>');
    } finally {
      await withTenant(tenant, (trx) => trx('customers').where({ id: ref.bygg }).update({ invoice_language: null }));
    }
  });

  it('refuses another id (404) and one without invoices:read (403)', async () => {
    await expect(as(reader(), (ctx) => buildInvoiceDocumentModel(ctx, 'nope'))).rejects.toMatchObject({ status: 404 });
    await expect(
      as(reader(), (ctx) => buildInvoiceDocumentModel(ctx, '00000000-0000-4000-8000-000000000000')),
    ).rejects.toMatchObject({ status: 404 });
    await expect(
      as(testAuth(adminId, ['customers:read']), (ctx) => invoicePdf(ctx, { invoiceId: inv.standard })),
    ).rejects.toMatchObject({ status: 403 });
  });
});

describe('[invoices] the PDF', () => {
  it('prints a final invoice: number, OCR, dates, customer, rows, VAT per rate, rounding, total and payment', async () => {
    const file = await pdfOf(inv.standard);
    expect(file).toMatchObject({ filename: `invoice-${nr.standard}.pdf`, contentType: 'application/pdf' });
    expect(file.body.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(pdfTitle(file.body)).toBe(`Faktura ${nr.standard}`);
    const text = await pdfText(file.body);
    for (const s of [
      'Faktura',
      'Nordlarm Säkerhet AB',
      '556677-8899',
      `Fakturanummer ${nr.standard}`,
      `OCR-nummer ${ocrReference(nr.standard)}`,
      'Fakturadatum 2026-03-02',
      'Leveransdatum 2026-02-27',
      'Förfallodatum 2026-04-01',
      '30 dagar netto',
      'Brf Eken',
      'Ekvägen 5',
      '722 14 Västerås',
      'Vår referens Olle Larm',
      'Er referens Eva Ek',
      'PO-778',
      'Trapphus B',
      'Inbrottslarm Brf Eken',
      'Rörelsedetektor',
      '1 250,00',
      '10 %',
      '4 500,00',
      'Montage dagtid',
      'Installation',
      '1 950,00',
      'Handbok larm',
      'Momssats',
      '25 % 6 450,00 1 612,50',
      '6 % 99,90 5,99',
      'Summa exkl. moms 6 549,90',
      'Moms 1 618,49',
      'Öresavrundning -0,39',
      'Totalt inkl. moms 8 168,00 kr',
      'Att betala 8 168,00 kr',
      'Bankgiro 5050-1055',
      'SE45 5000 0000 0583 9825 7466',
    ])
      expect(text, s).toContain(s);
    for (const s of ['Utkast', 'Omvänd betalningsskyldighet', 'Skattereduktion']) expect(text, s).not.toContain(s);
  });

  it('prints the reverse-charge text, the customer’s VAT number and no VAT on a reverse-VAT invoice', async () => {
    const text = await pdfText((await pdfOf(inv.reverse)).body);
    for (const s of [
      `Fakturanummer ${nr.reverse}`,
      'Bygg & Montage AB',
      'SE559988776601',
      'Larmcentral',
      '0 % 10 000,00 0,00',
      'Moms 0,00',
      'Att betala 10 000,00 kr',
      'Omvänd betalningsskyldighet',
    ])
      expect(text, s).toContain(s);
    expect(text).not.toContain('25 %');
  });

  it('prints the ROT block with the reduction, the property and the amount to pay', async () => {
    const text = await pdfText((await pdfOf(inv.rot)).body);
    for (const s of [
      `Fakturanummer ${nr.rot}`,
      'Vera Villa',
      'Elarbete',
      '8 000,00',
      'Totalt inkl. moms 12 500,00 kr',
      'ROT-avdrag -3 000,00 kr',
      'Att betala 9 500,00 kr',
      'Skattereduktion: ROT-avdrag',
      'Underlag för skattereduktion (inkl. moms) 10 000,00 kr',
      'Fastighetsbeteckning Västerås Eken 1:23',
      'Personnummer 198001011234',
    ])
      expect(text, s).toContain(s);
  });

  it('prints a draft without a number, marked as a draft, and leaves it a draft', async () => {
    const next = await nextNumber();
    const file = await pdfOf(inv.draft);
    expect(file.filename).toBe(`invoice-draft-${inv.draft.slice(0, 8)}.pdf`);
    expect(pdfTitle(file.body)).toBe('Faktura Utkast');
    const text = await pdfText(file.body);
    expect(text).toContain('Utkast – inte en giltig faktura');
    expect(text).toContain('Service larm');
    for (const s of ['Fakturanummer', 'OCR-nummer', 'Bankgiro 5050-1055']) expect(text, s).not.toContain(s);
    expect(await stateOf(inv.draft)).toEqual({ status: 'draft', invoice_nr: null, ocr: null });
    expect(await nextNumber()).toBe(next);
  });
});

describe('[invoices] the e-mail', () => {
  it('finalizes a draft, sends the PDF to the customer’s invoice e-mail and writes history', async () => {
    const before = smtp.mails.length;
    const answer = await as(editor(), (ctx) => emailInvoice(ctx, { invoiceId: inv.mailDraft, type: 'email' }));
    expect(answer).toEqual({ message: 'EMAIL_SENT_TO', recipient: 'ekonomi@eken.se', recipients: ['ekonomi@eken.se'] });
    const state = await stateOf(inv.mailDraft);
    expect(state.status).toBe('finalized');
    const number = String(state.invoice_nr);
    const mail = await smtp.waitForMail((m) => m.to.includes('ekonomi@eken.se') && m.subject.includes(number));
    expect(smtp.mails.length).toBe(before + 1);
    expect(mail.subject).toBe(`Faktura ${number} från Nordlarm Säkerhet AB`);
    expect(mail.text).toContain('Att betala: 1 250,00 kr, senast 2026-04-01.');
    expect(mail.raw).toMatch(new RegExp(`Content-Type: application/pdf; name=invoice-${number}\\.pdf`, 'i'));
    const text = await pdfText(attachmentOf(mail.raw));
    expect(text).toContain(`Fakturanummer ${number}`);
    expect(text).toContain(`OCR-nummer ${ocrReference(number)}`);
    expect(text).not.toContain('Utkast');
    expect(await historyOf(inv.mailDraft, 'email')).toEqual([
      { action: 'email', data: { recipients: ['ekonomi@eken.se'] }, user_id: adminId },
    ]);
    expect(await historyOf(inv.mailDraft, 'finalize')).toHaveLength(1);
  });

  it('sends a final invoice to the given recipients instead, keeping its number', async () => {
    const answer = await as(editor(), (ctx) =>
      emailInvoice(ctx, { invoiceId: inv.standard, emailTarget: 'styrelsen@eken.se; kassor@eken.se' }),
    );
    expect(answer).toMatchObject({ recipient: 'styrelsen@eken.se, kassor@eken.se' });
    const mail = await smtp.waitForMail((m) => m.to.includes('styrelsen@eken.se'));
    expect(mail.to.sort()).toEqual(['kassor@eken.se', 'styrelsen@eken.se']);
    expect(mail.raw).toMatch(new RegExp(`name=invoice-${nr.standard}\\.pdf`));
    expect((await stateOf(inv.standard)).invoice_nr).toBe(nr.standard);
  });

  it('sends nothing when the commit fails after the mail was promised: the draft keeps no number, no history, and the next invoice gets the number', async () => {
    const next = await nextNumber();
    const before = smtp.mails.length;
    // the commit itself fails: a deferred trigger refuses the e-mail's history row only at COMMIT,
    // after the invoice was numbered and the mail promised (issue 30 item 1)
    await withTenant(tenant, (trx) =>
      trx.raw(`
        create function refuse_at_commit() returns trigger language plpgsql as $$
          begin raise exception 'commit refused by the test'; end $$;
        create constraint trigger refuse_at_commit after insert on history deferrable initially deferred
          for each row when (new.action = 'email' and new.entity_id = '${inv.failDraft}') execute function refuse_at_commit();`),
    );
    try {
      await expect(as(editor(), (ctx) => emailInvoice(ctx, { invoiceId: inv.failDraft }))).rejects.toThrow(
        /commit refused by the test/,
      );
    } finally {
      await withTenant(tenant, (trx) =>
        trx.raw('drop trigger refuse_at_commit on history; drop function refuse_at_commit()'),
      );
    }
    await mailSettled();
    expect(smtp.mails.length).toBe(before);
    expect(await stateOf(inv.failDraft)).toEqual({ status: 'draft', invoice_nr: null, ocr: null });
    expect(await historyOf(inv.failDraft, 'email')).toEqual([]);
    expect(await historyOf(inv.failDraft, 'finalize')).toEqual([]);
    expect(await withTenant(tenant, (trx) => trx('job_outbox').where({ job: 'documents.email' }))).toEqual([]);
    // nobody saw the rolled-back number: the next invoice e-mailed gets it, and only that one is sent
    expect(await nextNumber()).toBe(next);
    await as(editor(), (ctx) => emailInvoice(ctx, { invoiceId: inv.failDraft }));
    expect((await stateOf(inv.failDraft)).invoice_nr).toBe(next);
    await smtp.waitForMail((m) => m.subject.includes(`Faktura ${next} `));
    await mailSettled();
    expect(smtp.mails.filter((m) => m.subject.includes(`Faktura ${next} `))).toHaveLength(1);
  });

  it('numbers the invoice and answers at once while the relay is down; the mail job fails to be retried, and an SMTP 5xx is given up', async () => {
    setMailer(new SmtpMailer('smtp://127.0.0.1:1', 'Ordo <no-reply@ordo.test>'));
    const payloads: unknown[] = [];
    setOutboxQueue({ enqueue: async (_def: unknown, data: unknown) => void payloads.push(data) } as never);
    try {
      const answer = await as(editor(), (ctx) => emailInvoice(ctx, { invoiceId: inv.relayDown }));
      expect(answer).toMatchObject({ message: 'EMAIL_SENT_TO', recipient: 'ekonomi@eken.se' });
      await mailSettled();
      const number = (await stateOf(inv.relayDown)).invoice_nr;
      expect(number).toMatch(/^\d+$/);
      // handed to the queue once, with the document as it was at commit
      expect(payloads).toHaveLength(1);
      const payload = payloads[0] as { to: string[]; document: { model: { invoice: { number: string } } } };
      expect(payload.to).toEqual(['ekonomi@eken.se']);
      expect(payload.document.model.invoice.number).toBe(number);
      // the relay refuses the connection: an error the queue retries (not a permanent one)
      const run = runJob(documentMailJob, payload, { jobId: 'j1', attempt: 1 });
      await expect(run).rejects.toThrow();
      await expect(run).rejects.not.toBeInstanceOf(PermanentJobError);
      // the relay answers 550: given up at once
      setMailer({
        kind: 'smtp',
        send: () => Promise.reject(Object.assign(new Error('550 no such mailbox'), { responseCode: 550 })),
        close: async () => {},
      });
      await expect(runJob(documentMailJob, payload, { jobId: 'j2', attempt: 1 })).rejects.toBeInstanceOf(
        PermanentJobError,
      );
      // the relay is back: the retried job sends the numbered invoice
      setMailer(new SmtpMailer(smtp.url, 'Ordo <no-reply@ordo.test>'));
      await runJob(documentMailJob, payload, { jobId: 'j3', attempt: 2 });
      const mail = await smtp.waitForMail((m) => m.subject.includes(`Faktura ${number} `));
      expect(await pdfText(attachmentOf(mail.raw))).toContain(`Fakturanummer ${number}`);
    } finally {
      setOutboxQueue(null);
      setMailer(new SmtpMailer(smtp.url, 'Ordo <no-reply@ordo.test>'));
    }
  });

  it('refuses no address (409), a bad one (400), a reader (403) and an unknown invoice (404), sending nothing', async () => {
    const before = smtp.mails.length;
    await expect(as(editor(), (ctx) => emailInvoice(ctx, { invoiceId: inv.noEmail }))).rejects.toMatchObject({
      code: 'INVOICE_EMAIL_MISSING',
      status: 409,
    });
    expect((await stateOf(inv.noEmail)).status).toBe('draft');
    await expect(
      as(editor(), (ctx) => emailInvoice(ctx, { invoiceId: inv.standard, emailTarget: 'not-an-address' })),
    ).rejects.toMatchObject({ status: 400, details: { fields: { emailTarget: ['ERROR_INVALID_EMAIL'] } } });
    await expect(
      as(reader(), (ctx) => emailInvoice(ctx, { invoiceId: inv.standard, emailTarget: 'a@b.se' })),
    ).rejects.toMatchObject({ status: 403 });
    await expect(
      as(editor(), (ctx) => emailInvoice(ctx, { invoiceId: '00000000-0000-4000-8000-000000000000' })),
    ).rejects.toMatchObject({ status: 404 });
    await new Promise((r) => setTimeout(r, 200));
    expect(smtp.mails.length).toBe(before);
  });
});
