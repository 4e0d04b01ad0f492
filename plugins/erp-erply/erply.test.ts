import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErpError } from '~/core/extension-points/erp-http';
import { erpStopOf, type ErpCredentials, type ErpInvoice, type ErpStop } from '~/core/extension-points/erp-provider';
import {
  feeRow,
  prepareInvoice,
  prepareSupplierInvoice,
  sampleInvoice,
  sampleSupplierInvoice,
  testSession,
  textRow,
} from '~/tests/erp-contract/erp-contract';
import { startErplyFake, type ErplyFake } from '~/tests/fakes/erply';
import plugin, { IDEMPOTENCY_ATTRIBUTE, INVOICE_NR_ATTRIBUTE } from './index';

/*
 * What is particular to Erply, against the local fake: the numbered row parameters and attributes as
 * Erply stores them, sums as Erply computes them, reverse VAT, refused ROT/RUT, the session key that is
 * cached in the credentials and renewed when Erply says it expired, the hourly quota's error 1002 and
 * Erply's error codes with their texts.
 */

type Json = Record<string, unknown>;
let fake: ErplyFake;
let credentials: ErpCredentials;
let seq = Math.floor(Math.random() * 1e6) + 2e6;
const next = () => String(++seq);

const noError = (): never => {
  throw new Error('expected an ErpError');
};

const provider = () =>
  plugin.create(plugin.options.parse({ apiBaseUrl: `${fake.url}/api/`, requestsPerHour: 1000, hourMs: 60_000 }));

beforeAll(async () => {
  fake = await startErplyFake({ clientCode: '417001' });
  credentials = { clientCode: fake.clientCode, username: fake.username, password: fake.password };
});
afterAll(() => fake.close());

/** An invoice with a fee row and an amount discount, in euro. */
function euroInvoice(overrides: Partial<ErpInvoice> = {}): ErpInvoice {
  const base = sampleInvoice(next(), { currency: 'EUR' });
  return {
    ...base,
    rows: [
      ...base.rows,
      {
        kind: 'article',
        articleId: '00000000-0000-4000-8000-00000000a003',
        articleNumber: 'KABEL-2',
        externalArticleId: null,
        description: 'Cable',
        amount: '10',
        unit: 'm',
        price: '3.50',
        discount: { type: 'REGULAR', value: '0.50' },
        total: '30.00',
        vatPercent: '25',
        houseWork: false,
        account: '3001',
      },
      feeRow('40.00', 'Invoice fee'),
      textRow('Work done on 19 November'),
    ],
    totalPrice: '1910.00',
    totalVat: '477.50',
    total: '2387.50',
    ...overrides,
  };
}

describe('[erply] an invoice as Erply stores it', () => {
  it('sends numbered rows verbatim, attributes for the key and Ordo number, and Erply sums to Ordo’s totals', async () => {
    const p = provider();
    const { session } = testSession(credentials);
    const invoice = await prepareInvoice(p, session, euroInvoice());
    const sent = await p.sendInvoice(session, invoice, `ordo-${invoice.id}`, { firstAttempt: true });
    const doc = fake.invoice(sent.externalId)!;
    expect(sent.externalInvoiceNr).toBe(doc.number);
    expect(doc).toMatchObject({
      type: 'INVWAYBILL',
      currencyCode: 'EUR',
      customerID: Number(invoice.customer.externalId),
      date: '2026-11-20',
      paymentDays: '30',
      confirmed: '1',
      netTotal: 1910,
      vatTotal: 477.5,
      total: 2387.5,
    });
    const rows = doc.rows as Json[];
    expect(rows.map((r) => [r.productID, r.itemName, r.amount, r.price, r.discount, r.vatrateID])).toEqual([
      [invoice.rows[0]!.externalArticleId, 'Labour', '2', '650.00', '0', '1'],
      [invoice.rows[1]!.externalArticleId, 'Smoke detector', '3', '200.00', '10', '1'],
      // an amount discount off each unit goes as the net unit price
      [invoice.rows[2]!.externalArticleId, 'Cable', '10', '3.00', '0', '1'],
      // the fee is a free-text row
      ['0', 'Invoice fee', '1', '40.00', '0', '1'],
    ]);
    expect(doc.attributes).toEqual([
      { attributeName: IDEMPOTENCY_ATTRIBUTE, attributeType: 'text', attributeValue: `ordo-${invoice.id}` },
      { attributeName: INVOICE_NR_ATTRIBUTE, attributeType: 'text', attributeValue: invoice.invoiceNr },
    ]);
    // Erply has no text rows: title, marking, references and text rows are printed as notes
    expect(doc.notes).toBe(
      [
        'Service of alarm',
        'Märkning / Marking: Ref 12',
        'PO: PO-77',
        'Your reference: Erik Holm',
        'Our reference: Maria Lindqvist',
        'Work done on 19 November',
      ].join('\n'),
    );
  });

  it('creates labour as a non-stock product and goods as a stock product, in a product group, found again by code', async () => {
    const p = provider();
    const { session } = testSession(credentials);
    const invoice = await prepareInvoice(p, session, euroInvoice());
    const articles = fake.articleCount();
    const again = await prepareInvoice(p, session, {
      ...invoice,
      rows: invoice.rows.map((r) => ({ ...r, externalArticleId: null })),
    });
    expect(fake.articleCount()).toBe(articles);
    expect(again.rows.map((r) => r.externalArticleId)).toEqual(invoice.rows.map((r) => r.externalArticleId));
    const list = await p.listArticles(session);
    const labour = list.find((a) => a.articleNumber === 'ARB')!;
    expect(labour).toMatchObject({ title: 'Labour', price: '650.00' });
  });

  it('reverse VAT goes on the account’s reverse-charge rate, with the legal text in the notes', async () => {
    const p = provider();
    const { session } = testSession(credentials);
    const base = euroInvoice();
    const invoice = await prepareInvoice(p, session, {
      ...base,
      reverseVat: true,
      customer: { ...base.customer, reverseVat: true },
      notes: ['Omvänd betalningsskyldighet'],
      totalVat: '0.00',
      total: '1910.00',
    });
    const sent = await p.sendInvoice(session, invoice, `ordo-${invoice.id}`, { firstAttempt: true });
    const doc = fake.invoice(sent.externalId)!;
    const reverse = fake.vatRates().find((r) => r.isReverseVat === 1)!;
    expect((doc.rows as Json[]).every((r) => r.vatrateID === reverse.id)).toBe(true);
    expect(doc).toMatchObject({ vatTotal: 0, total: 1910 });
    expect(String(doc.notes)).toContain('Omvänd betalningsskyldighet');
  });

  it('refuses a ROT or RUT invoice without sending anything (Erply has no tax reductions)', async () => {
    const p = provider();
    const { session } = testSession(credentials);
    const invoice = await prepareInvoice(p, session, euroInvoice());
    const before = fake.requestCount();
    const err = await p
      .sendInvoice(
        session,
        {
          ...invoice,
          taxReduction: {
            kind: 'ROT',
            amount: '390.00',
            propertyDesignation: 'Gården 1:2',
            housingAssociationOrgNr: null,
            persons: [],
          },
        },
        `ordo-${invoice.id}`,
        { firstAttempt: true },
      )
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ErpError);
    expect(err).toMatchObject({ code: 'INVOICE_WAS_NOT_CREATED_IN_ERP', retryable: false });
    expect((err as ErpError).vendorMessage).toContain('ROT');
    expect(fake.requestCount()).toBe(before);
    expect(fake.invoiceCount(`ordo-${invoice.id}`)).toBe(0);
  });

  it('a product Erply does not know is refused with Erply’s code, field and text, not retryable', async () => {
    const p = provider();
    const { session } = testSession(credentials);
    const invoice = await prepareInvoice(p, session, euroInvoice());
    const err = await p
      .sendInvoice(
        session,
        { ...invoice, rows: invoice.rows.map((r, i) => (i === 1 ? { ...r, externalArticleId: '999999' } : r)) },
        `ordo-${invoice.id}`,
        { firstAttempt: true },
      )
      .then(noError, (e: unknown) => e as ErpError);
    expect(err).toMatchObject({ code: 'INVOICE_WAS_NOT_CREATED_IN_ERP', retryable: false });
    expect(err.vendorMessage).toBe(
      'saveSalesDocument: Erply error 1011 (errorField: productID2): Invalid classifier ID, there is no such item.',
    );
  });
});

describe('[erply] a retry, with temporaryUUID remembered only 24 hours', () => {
  const hoursAgo = (h: number) => new Date(Date.now() - h * 3600_000).toISOString();
  const stopOf = (e: unknown) => e as ErpStop;

  it('within the 24 hours repeats the call as Erply says; its 1206 leads to the document, compared by its key', async () => {
    const p = provider();
    const { session } = testSession(credentials);
    const invoice = await prepareInvoice(p, session, euroInvoice());
    const key = `ordo-${invoice.id}`;
    fake.dropNextCreateResponse();
    await expect(p.sendInvoice(session, invoice, key, { firstAttempt: true })).rejects.toBeInstanceOf(ErpError);
    // Another invoice of the same customer and day, which the look-up must not take.
    const other = await prepareInvoice(p, session, { ...euroInvoice(), customer: invoice.customer });
    await p.sendInvoice(session, other, `ordo-${other.id}`, { firstAttempt: true });
    const sent = await p.sendInvoice(session, invoice, key, { firstAttempt: false, queuedAt: hoursAgo(1) });
    expect(fake.invoiceCount(key)).toBe(1);
    expect(fake.salesDocuments().find((d) => String(d.id) === sent.externalId)).toMatchObject({
      attributes: expect.arrayContaining([expect.objectContaining({ attributeValue: key })]),
    });
  });

  it('within the 24 hours, a first try that never reached Erply is made by the repeat, once', async () => {
    const p = provider();
    const { session } = testSession(credentials);
    const invoice = await prepareInvoice(p, session, euroInvoice());
    const key = `ordo-${invoice.id}`;
    const sent = await p.sendInvoice(session, invoice, key, { firstAttempt: false, queuedAt: hoursAgo(2) });
    expect(sent.externalId).toMatch(/^\d+$/);
    expect(fake.invoiceCount(key)).toBe(1);
  });

  it('after the 24 hours stops as needs checking with the key and Ordo’s number, and sends nothing', async () => {
    const p = provider();
    const { session } = testSession(credentials);
    const invoice = await prepareInvoice(p, session, euroInvoice());
    const key = `ordo-${invoice.id}`;
    fake.dropNextCreateResponse();
    await expect(p.sendInvoice(session, invoice, key, { firstAttempt: true })).rejects.toBeInstanceOf(ErpError);
    fake.forgetTemporaryUUIDs();
    const before = fake.invoiceCount();
    const err = await p.sendInvoice(session, invoice, key, { firstAttempt: false, queuedAt: hoursAgo(25) }).then(
      noError,
      stopOf,
    );
    expect(erpStopOf(err)).toMatchObject({ reason: 'ERP_NEEDS_CHECKING', needsChecking: true, references: [key] });
    expect(err.vendorMessage).toContain(IDEMPOTENCY_ATTRIBUTE);
    expect(err.vendorMessage).toContain(invoice.invoiceNr);
    expect(fake.invoiceCount()).toBe(before);
    expect(fake.invoiceCount(key)).toBe(1);
    // A retry that does not say when the delivery was queued cannot know the window either.
    const unknown = await p.sendInvoice(session, invoice, key, { firstAttempt: false }).then(noError, stopOf);
    expect(erpStopOf(unknown)?.needsChecking).toBe(true);
    expect(fake.invoiceCount()).toBe(before);
  });
});

describe('[erply] the session key', () => {
  it('logs in once, keeps the session key in the credentials, and reuses it', async () => {
    const p = provider();
    const first = testSession({ ...credentials });
    await p.testConnection(first.session);
    expect(first.saved).toHaveLength(1);
    expect(first.saved[0]).toMatchObject({ ...credentials, sessionKey: expect.any(String) });
    expect(Date.parse(String(first.saved[0]!.sessionExpiresAt)) - Date.now()).toBeGreaterThan(3500_000);
    const sessions = fake.sessionCount();
    const again = testSession(first.saved[0]!);
    expect(await p.testConnection(again.session)).toEqual({ companyName: 'Ordo Test OÜ' });
    expect(again.saved).toHaveLength(0);
    expect(fake.sessionCount()).toBe(sessions);
  });

  it('when Erply says the session expired (1054), calls verifyUser again, saves the new key once and carries on', async () => {
    const p = provider();
    const first = testSession({ ...credentials });
    await p.testConnection(first.session);
    const cached = first.saved[0]!;
    fake.expireAccessTokens();
    const { session, saved } = testSession(cached);
    const invoice = await prepareInvoice(p, session, euroInvoice());
    await p.sendInvoice(session, invoice, `ordo-${invoice.id}`, { firstAttempt: true });
    expect(saved).toHaveLength(1);
    expect(saved[0]!.sessionKey).not.toBe(cached.sessionKey);
    expect(fake.invoiceCount(`ordo-${invoice.id}`)).toBe(1);
    // the renewed key works without another login
    const nextSession = testSession(saved[0]!);
    await p.testConnection(nextSession.session);
    expect(nextSession.saved).toHaveLength(0);
  });

  it('a wrong password is ERP_AUTH_FAILED with Erply’s text; missing fields are ERP_NOT_CONNECTED', async () => {
    const p = provider();
    const bad = await p
      .testConnection(testSession({ ...credentials, password: 'nope' }).session)
      .catch((e: unknown) => e);
    expect(bad).toMatchObject({
      code: 'ERP_AUTH_FAILED',
      vendorMessage: 'verifyUser: Erply error 1051: Login failed.',
    });
    const missing = await p
      .testConnection(testSession({ clientCode: fake.clientCode }).session)
      .catch((e: unknown) => e);
    expect(missing).toMatchObject({ code: 'ERP_NOT_CONNECTED' });
    // the client code becomes a host name: anything but letters and digits is refused before any request
    const before = fake.requestCount();
    const odd = await p
      .testConnection(testSession({ ...credentials, clientCode: 'evil.example/x' }).session)
      .catch((e: unknown) => e);
    expect(odd).toMatchObject({ code: 'ERP_AUTH_FAILED' });
    expect(fake.requestCount()).toBe(before);
  });
});

describe('[erply] the hourly quota', () => {
  it('error 1002 (HTTP 200) becomes a retryable ERP_RATE_LIMITED that waits for the next window', async () => {
    const small = await startErplyFake({ clientCode: '417002', hourlyQuota: { requests: 2, perMs: 60_000 } });
    try {
      const p = plugin.create(plugin.options.parse({ apiBaseUrl: `${small.url}/api/`, hourMs: 60_000 }));
      const { session } = testSession({
        clientCode: small.clientCode,
        username: small.username,
        password: small.password,
      });
      await p.testConnection(session); // verifyUser + getCompanyInfo use the quota up
      const err = await p.testConnection(session).then(noError, (e: unknown) => e as ErpError);
      expect(err).toBeInstanceOf(ErpError);
      expect(err).toMatchObject({ code: 'ERP_RATE_LIMITED', retryable: true });
      expect(err.vendorMessage).toContain('Erply error 1002');
      expect(err.retryAfterMs).toBeGreaterThan(0);
      expect(err.retryAfterMs).toBeLessThanOrEqual(60_000);
      expect(small.rateLimitedCount()).toBe(1);
    } finally {
      await small.close();
    }
  });
});

describe('[erply] supplier invoices', () => {
  it('books a purchase invoice (PRCINVOICEONLY) with the supplier’s number, due days, cost accounts in the row text and Ordo’s totals', async () => {
    const p = provider();
    const { session } = testSession(credentials);
    const invoice = await prepareSupplierInvoice(p, session, sampleSupplierInvoice(next(), { currency: 'EUR' }));
    const sent = await p.sendSupplierInvoice!(session, invoice, `ordo-si-${invoice.id}`, { firstAttempt: true });
    const doc = fake.supplierInvoice(sent.externalId)!;
    expect(sent.externalNr).toBe(doc.regnumber);
    expect(doc).toMatchObject({
      type: 'PRCINVOICEONLY',
      supplierID: Number(invoice.supplier.externalId),
      number: invoice.invoiceNumber,
      date: '2026-11-18',
      paymentDays: '30',
      currencyCode: 'EUR',
      referenceNumber: '4512300014',
      netTotal: 1200,
      vatTotal: 274,
      total: 1474,
    });
    expect((doc.rows as Json[]).map((r) => [r.itemName, r.amount, r.price, r.vatrateID])).toEqual([
      ['4010 Smoke detectors', '1', '1000.00', '1'],
      ['5831 Food for the crew', '1', '200.00', '2'],
    ]);
  });

  it('the supplier’s fee becomes a row at the VAT rate the invoice’s VAT implies', async () => {
    const p = provider();
    const { session } = testSession(credentials);
    const invoice = await prepareSupplierInvoice(
      p,
      session,
      sampleSupplierInvoice(next(), { fee: '20.00', totalPrice: '1220.00', totalVat: '279.00', total: '1499.00' }),
    );
    const sent = await p.sendSupplierInvoice!(session, invoice, `ordo-si-${invoice.id}`, { firstAttempt: true });
    const doc = fake.supplierInvoice(sent.externalId)!;
    expect((doc.rows as Json[]).at(-1)).toMatchObject({ itemName: 'Invoice fee', price: '20.00', vatrateID: '1' });
    expect(doc).toMatchObject({ netTotal: 1220, vatTotal: 279, total: 1499 });
  });
});
