import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErpError } from '~/core/extension-points/erp-http';
import type { ErpCredentials, ErpInvoice, ErpProvider } from '~/core/extension-points/erp-provider';
import {
  feeRow,
  prepareInvoice,
  prepareSupplierInvoice,
  sampleInvoice,
  sampleSupplierInvoice,
  testSession,
  textRow,
} from '~/tests/erp-contract/erp-contract';
import { consentAsBrowser, startQuickBooksFake, type QuickBooksFake } from '~/tests/fakes/quickbooks-online';
import quickbooks, { linePricing } from './index';

type Json = Record<string, unknown>;

let fake: QuickBooksFake;
let provider: ErpProvider;
let credentials: ErpCredentials;
let seq = 700_000 + Math.floor(Math.random() * 1e5);
const next = () => String(++seq);
const redirectUri = 'https://ordo.test/settings/erp/callback';

function make(f: QuickBooksFake, extra: Json = {}) {
  return quickbooks.create(
    quickbooks.options.parse({
      clientId: f.clientId,
      clientSecret: f.clientSecret,
      authorizeUrl: f.authorizeUrl,
      tokenUrl: f.tokenUrl,
      apiBaseUrl: f.url,
      ...extra,
    }),
  );
}

async function connect(p: ErpProvider): Promise<ErpCredentials> {
  if (p.auth.type !== 'oauth2') throw new Error('oauth2 expected');
  const back = await consentAsBrowser(p.auth.authorizeUrl({ redirectUri, state: 's' }));
  return p.auth.exchangeCode({
    code: back.searchParams.get('code')!,
    redirectUri,
    tenantId: randomUUID(),
    params: { realmId: back.searchParams.get('realmId')! },
  });
}

beforeAll(async () => {
  fake = await startQuickBooksFake();
  provider = make(fake);
  credentials = await connect(provider);
});
afterAll(async () => {
  await fake?.close();
});

async function send(invoice: ErpInvoice) {
  const { session } = testSession(credentials);
  const prepared = await prepareInvoice(provider, session, invoice);
  const key = `ordo-${invoice.id}`;
  const sent = await provider.sendInvoice(session, prepared, key, { firstAttempt: true });
  return { sent, key, session, prepared, txn: fake.invoice(sent.externalId) as Json };
}
const lines = (txn: Json) => (txn.Line as Json[]).filter((l) => l.DetailType !== 'SubTotalLineDetail');
const detail = (line: Json) => line.SalesItemLineDetail as Json;
const errorOf = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: unknown) => e as ErpError,
  );

describe('[erp quickbooks] connecting', () => {
  it('sends the browser to Intuit with the accounting scope and keeps the realmId the callback carries', async () => {
    if (provider.auth.type !== 'oauth2') throw new Error('oauth2 expected');
    const url = new URL(provider.auth.authorizeUrl({ redirectUri, state: 'abc' }));
    expect(url.searchParams.get('scope')).toBe('com.intuit.quickbooks.accounting');
    expect(url.searchParams.get('response_type')).toBe('code');
    expect(url.searchParams.get('state')).toBe('abc');
    expect(credentials.realmId).toBe(fake.realmId);
    expect(credentials.refreshToken).toBeTruthy();
  });

  it('refuses a callback without realmId, and a cancelled consent gives no code', async () => {
    if (provider.auth.type !== 'oauth2') throw new Error('oauth2 expected');
    const err = await errorOf(provider.auth.exchangeCode({ code: 'x', redirectUri, tenantId: randomUUID() }));
    expect(err?.code).toBe('ERP_AUTH_FAILED');
    const back = await consentAsBrowser(provider.auth.authorizeUrl({ redirectUri, state: 's' }), 'Cancel');
    expect(back.searchParams.get('error')).toBe('access_denied');
    expect(back.searchParams.get('code')).toBeNull();
  });

  it('answers the company name from CompanyInfo', async () => {
    const { session } = testSession(credentials);
    await expect(provider.testConnection(session)).resolves.toEqual({ companyName: 'Ordo Testbolag AB' });
  });

  it('a revoked connection (refresh token refused) is ERP_AUTH_FAILED; no realm is ERP_NOT_CONNECTED', async () => {
    const other = await startQuickBooksFake();
    try {
      const p = make(other);
      const creds = await connect(p);
      other.revokeTokens();
      const err = await errorOf(p.testConnection(testSession(creds).session));
      expect(err?.code).toBe('ERP_AUTH_FAILED');
      expect(err?.vendorMessage).toBe('invalid_grant');
      const noRealm = await errorOf(p.testConnection(testSession({ ...creds, realmId: undefined }).session));
      expect(noRealm?.code).toBe('ERP_NOT_CONNECTED');
    } finally {
      await other.close();
    }
  });
});

describe('[erp quickbooks] invoices', () => {
  it('maps an invoice verbatim: DocNumber, dates, lines with ItemRef/Qty/UnitPrice/TaxCodeRef, memo, key in PrivateNote', async () => {
    const invoice = sampleInvoice(next(), {
      rows: [...sampleInvoice('1').rows, feeRow('40.00', 'Invoice fee'), textRow('Work done on floor 3')],
    });
    const { sent, key, prepared, txn } = await send(invoice);
    expect(sent.externalInvoiceNr).toBe(invoice.invoiceNr);
    expect(txn.DocNumber).toBe(invoice.invoiceNr);
    expect(txn.TxnDate).toBe('2026-11-20');
    expect(txn.DueDate).toBe('2026-12-20');
    expect((txn.CustomerRef as Json).value).toBe(prepared.customer.externalId);
    expect((txn.CustomerMemo as Json).value).toBe('Service of alarm\nRef 12\nPO-77\nErik Holm');
    expect(String(txn.PrivateNote).split('\n')).toContain(`ordo-key: ${key}`);
    const [labour, detector, fee, text] = lines(txn);
    expect(detail(labour!)).toMatchObject({
      ItemRef: { value: prepared.rows[0]!.externalArticleId },
      Qty: 2,
      UnitPrice: 650,
      TaxCodeRef: { value: '3' },
    });
    expect(labour!.Amount).toBe(1300);
    expect(detail(labour!).ServiceDate).toBe('2026-11-19');
    // 10 % off 3 × 200: QuickBooks has no line discount, so the net unit price carries it
    expect(detail(detector!)).toMatchObject({ Qty: 3, UnitPrice: 180 });
    expect(detector!.Amount).toBe(540);
    // the fee goes on the company's "Services" item
    expect((detail(fee!).ItemRef as Json).value).toBe('1');
    expect(text).toMatchObject({ DetailType: 'DescriptionOnly', Description: 'Work done on floor 3' });
    // QuickBooks' sums are Ordo's
    expect((txn.TxnTaxDetail as Json).TotalTax).toBe(470);
    expect(txn.TotalAmt).toBe(2350);
  });

  it('maps each VAT rate to its TaxCode, and reverse VAT to the reverse-charge code on every line', async () => {
    const base = sampleInvoice(next());
    const rows = base.rows.map((r, i) => ({ ...r, vatPercent: (['12', '6'] as const)[i]! }));
    const { txn } = await send({ ...base, rows, totalVat: '188.40', total: '2068.40' });
    expect(lines(txn).map((l) => (detail(l).TaxCodeRef as Json).value)).toEqual(['4', '5']);
    expect((txn.TxnTaxDetail as Json).TotalTax).toBe(188.4);

    const reverse = sampleInvoice(next(), {
      reverseVat: true,
      totalVat: '0.00',
      total: '1840.00',
      notes: ['Omvänd betalningsskyldighet'],
    });
    const r = await send(reverse);
    expect(lines(r.txn).map((l) => (detail(l).TaxCodeRef as Json).value)).toEqual(['7', '7']);
    expect((r.txn.TxnTaxDetail as Json).TotalTax).toBe(0);
    expect((r.txn.CustomerMemo as Json).value).toContain('Omvänd betalningsskyldighet');
  });

  it('refuses an invoice with ROT/RUT before sending anything (QuickBooks has no tax reductions)', async () => {
    const { session } = testSession(credentials);
    const before = fake.requestCount();
    const invoice = sampleInvoice(next(), {
      taxReduction: {
        kind: 'ROT',
        amount: '390.00',
        propertyDesignation: 'Lund 1:2',
        housingAssociationOrgNr: null,
        persons: [],
      },
    });
    const err = await errorOf(provider.sendInvoice(session, invoice, `ordo-${invoice.id}`, { firstAttempt: true }));
    expect(err).toBeInstanceOf(ErpError);
    expect(err?.code).toBe('INVOICE_WAS_NOT_CREATED_IN_ERP');
    expect(err?.retryable).toBe(false);
    expect(err?.vendorMessage).toMatch(/make this invoice in QuickBooks/);
    expect(fake.requestCount()).toBe(before);
  });

  it('sends DocNumber only when the company keeps its own numbers (Preferences.SalesFormsPrefs.CustomTxnNumbers)', async () => {
    const own = await startQuickBooksFake({ customTxnNumbers: false });
    try {
      const p = make(own);
      const creds = await connect(p);
      const { session } = testSession(creds);
      const invoice = await prepareInvoice(p, session, sampleInvoice(next()));
      const sent = await p.sendInvoice(session, invoice, `ordo-${invoice.id}`, { firstAttempt: true });
      const txn = own.invoice(sent.externalId)!;
      // QuickBooks numbered it from its own series; Ordo's number is still on the invoice's note.
      expect(txn.DocNumber).toBe('1001');
      expect(sent.externalInvoiceNr).toBe('1001');
      expect(String(txn.PrivateNote)).toContain(`Ordo ${invoice.invoiceNr}`);

      // The office turns custom numbers on in QuickBooks: the next invoice carries Ordo's number.
      own.setCustomTxnNumbers(true);
      const second = await prepareInvoice(p, session, sampleInvoice(next()));
      const s2 = await p.sendInvoice(session, second, `ordo-${second.id}`, { firstAttempt: true });
      expect(own.invoice(s2.externalId)!.DocNumber).toBe(second.invoiceNr);
      expect(s2.externalInvoiceNr).toBe(second.invoiceNr);
    } finally {
      await own.close();
    }
  });

  it('a repeated create with the same key is answered from the requestid, not created again', async () => {
    const { session } = testSession(credentials);
    const invoice = await prepareInvoice(provider, session, sampleInvoice(next()));
    const key = `ordo-${invoice.id}`;
    const a = await provider.sendInvoice(session, invoice, key, { firstAttempt: true });
    // a second "first" try (no lookup): Intuit replays the stored answer
    const b = await provider.sendInvoice(session, invoice, key, { firstAttempt: true });
    expect(b.externalId).toBe(a.externalId);
    expect(fake.invoiceCount(key)).toBe(1);
  });

  it('refusals carry Intuit’s Message and Detail and are not retryable', async () => {
    const { session } = testSession(credentials);
    const invoice = await prepareInvoice(provider, session, sampleInvoice(next()));
    const broken = { ...invoice, rows: invoice.rows.map((r) => ({ ...r, externalArticleId: '999999' })) };
    const err = await errorOf(provider.sendInvoice(session, broken, `ordo-${invoice.id}`, { firstAttempt: true }));
    expect(err?.code).toBe('INVOICE_WAS_NOT_CREATED_IN_ERP');
    expect(err?.status).toBe(400);
    expect(err?.vendorMessage).toMatch(
      /^Invalid Reference Id: Invalid Reference Id : Line\[0\]\.SalesItemLineDetail\.ItemRef/,
    );
  });

  it('a 429 that lasts is ERP_RATE_LIMITED and retryable', async () => {
    const { session } = testSession(credentials);
    fake.failNext(429, 120);
    const err = await errorOf(provider.testConnection(session));
    expect(err?.code).toBe('ERP_RATE_LIMITED');
    expect(err?.retryable).toBe(true);
    expect(err?.vendorMessage).toMatch(/ThrottleExceeded/);
  });

  it('reads an invoice back, and one QuickBooks no longer has is unknown', async () => {
    const { sent, session } = await send(sampleInvoice(next()));
    await expect(provider.readInvoice(session, sent.externalId)).resolves.toEqual(sent);
    await expect(provider.readInvoice(session, '987654')).resolves.toMatchObject({ state: 'unknown' });
  });
});

describe('[erp quickbooks] customers and items', () => {
  it('a customer is found by DisplayName and updated sparsely with its SyncToken when it changed', async () => {
    const { session } = testSession(credentials);
    const invoice = sampleInvoice(next());
    const id = await provider.ensureCustomer(session, invoice.customer, null);
    const card = fake.customer(id)!;
    expect(card).toMatchObject({
      DisplayName: `${invoice.customer.name} (${invoice.customer.customerNumber})`,
      CompanyName: invoice.customer.name,
      PrimaryEmailAddr: { Address: 'invoice@customer.se' },
      BillAddr: { Line1: 'Storgatan 1', PostalCode: '111 22', City: 'Stockholm' },
      SyncToken: '0',
    });
    const again = await provider.ensureCustomer(session, { ...invoice.customer, email: 'new@customer.se' }, null);
    expect(again).toBe(id);
    expect(fake.customer(id)).toMatchObject({ PrimaryEmailAddr: { Address: 'new@customer.se' }, SyncToken: '1' });
  });

  it('an inactive namesake is found (Active IN (true,false)) and made active again, not created twice (6240)', async () => {
    const { session } = testSession(credentials);
    const invoice = sampleInvoice(next());
    const id = await provider.ensureCustomer(session, invoice.customer, null);
    // Someone made the card inactive in QuickBooks; its name stays taken (6240 on a create).
    const card = fake.customer(id)!;
    card.Active = false;
    const count = fake.customerCount();
    // Without a known id (a first delivery from another Ordo install, or the mapping lost) …
    const found = await provider.ensureCustomer(session, { ...invoice.customer, phone: '08-123 45' }, null);
    expect(found).toBe(id);
    expect(fake.customer(id)).toMatchObject({ Active: true, PrimaryPhone: { FreeFormNumber: '08-123 45' } });
    // … and with the known id of the inactive card.
    fake.customer(id)!.Active = false;
    expect(await provider.ensureCustomer(session, invoice.customer, id)).toBe(id);
    expect(fake.customer(id)).toMatchObject({ Active: true });
    expect(fake.customerCount()).toBe(count);
    // An invoice to it goes through (an inactive customer is refused with 610).
    const sent = await provider.sendInvoice(
      session,
      { ...invoice, customer: { ...invoice.customer, externalId: id } },
      `ordo-${invoice.id}`,
      { firstAttempt: true },
    );
    expect(fake.invoice(sent.externalId)).toMatchObject({ CustomerRef: { value: id } });
  });

  it('an inactive item of the article number is made active again instead of a create refused with 6240', async () => {
    const { session } = testSession(credentials);
    const article = {
      id: randomUUID(),
      articleNumber: `ART-${next()}`,
      title: 'Hinge',
      unit: 'st',
      price: '99.00',
      isService: false,
      houseWork: false,
      vatPercent: '25' as const,
    };
    const id = await provider.ensureArticle(session, article, null);
    fake.item(id)!.Active = false;
    const count = fake.articleCount();
    expect(await provider.ensureArticle(session, article, null)).toBe(id);
    expect(await provider.ensureArticle(session, article, id)).toBe(id);
    expect(fake.articleCount()).toBe(count);
    expect(fake.item(id)).toMatchObject({ Active: true });
  });

  it('an item is named by the article number, with its title, type, price, income account and tax code', async () => {
    const { session } = testSession(credentials);
    const number = `ART-${next()}`;
    const id = await provider.ensureArticle(
      session,
      {
        id: randomUUID(),
        articleNumber: number,
        title: 'Door closer',
        unit: 'st',
        price: '1250.50',
        isService: false,
        houseWork: false,
        vatPercent: '12',
      },
      null,
    );
    expect(fake.item(id)).toMatchObject({
      Name: number,
      Sku: number,
      Description: 'Door closer',
      Type: 'NonInventory',
      UnitPrice: 1250.5,
      IncomeAccountRef: { value: '5' },
      SalesTaxCodeRef: { value: '4' },
    });
  });
});

describe('[erp quickbooks] bills', () => {
  it('books a supplier invoice as a Bill: VendorRef, DocNumber, accounts by number, purchase tax codes, sums', async () => {
    const { session } = testSession(credentials);
    const invoice = await prepareSupplierInvoice(provider, session, sampleSupplierInvoice(next()));
    const key = `ordo-si-${invoice.id}`;
    const sent = await provider.sendSupplierInvoice!(session, invoice, key, { firstAttempt: true });
    const bill = fake.supplierInvoice!(sent.externalId)!;
    expect(bill).toMatchObject({
      VendorRef: { value: invoice.supplier.externalId },
      DocNumber: invoice.invoiceNumber,
      TxnDate: '2026-11-18',
      DueDate: '2026-12-18',
      TotalAmt: 1474,
      TxnTaxDetail: { TotalTax: 274 },
    });
    expect(String(bill.PrivateNote)).toContain('OCR 4512300014');
    const [a, b] = bill.Line as Json[];
    expect(a!.AccountBasedExpenseLineDetail).toMatchObject({ AccountRef: { value: '11' }, TaxCodeRef: { value: '3' } });
    expect(b!.AccountBasedExpenseLineDetail).toMatchObject({ AccountRef: { value: '12' }, TaxCodeRef: { value: '4' } });
    expect(fake.vendor(invoice.supplier.externalId!)).toMatchObject({
      DisplayName: `${invoice.supplier.name} (${invoice.supplier.supplierNumber})`,
    });
  });

  it('a row on an account QuickBooks does not have is ERP_SUPPLIER_ACCOUNT_MISSING, and nothing is booked', async () => {
    const { session } = testSession(credentials);
    const prepared = await prepareSupplierInvoice(provider, session, sampleSupplierInvoice(next()));
    const invoice = { ...prepared, rows: prepared.rows.map((r) => ({ ...r, account: '9999' })) };
    const key = `ordo-si-${invoice.id}`;
    const err = await errorOf(provider.sendSupplierInvoice!(session, invoice, key, { firstAttempt: true }));
    expect(err?.code).toBe('ERP_SUPPLIER_ACCOUNT_MISSING');
    expect(err?.vendorMessage).toBe('QuickBooks has no account numbered 9999');
    expect(fake.supplierInvoiceCount!(key)).toBe(0);
  });
});

describe('[erp quickbooks] throttling', () => {
  it('keeps at most 10 requests in flight per realm, as Intuit allows', async () => {
    const slow = await startQuickBooksFake({ responseDelayMs: 150 });
    try {
      const p = make(slow);
      const creds = await connect(p);
      const { session } = testSession(creds);
      await Promise.all(Array.from({ length: 25 }, () => p.testConnection(session)));
      expect(slow.maxInFlight()).toBeLessThanOrEqual(10);
      expect(slow.maxInFlight()).toBeGreaterThan(1);
      expect(slow.rateLimitedCount()).toBe(0);
    } finally {
      await slow.close();
    }
  });
});

describe('[erp quickbooks] linePricing', () => {
  const row = (amount: string, price: string, total: string, discount: string | null = null) => ({
    amount,
    price,
    total,
    discount: discount ? { type: 'PERCENTAGE' as const, value: discount } : null,
  });
  it.each([
    [row('2', '650.00', '1300.00'), { Qty: 2, UnitPrice: 650, Amount: 1300 }],
    [row('3', '200.00', '540.00', '10'), { Qty: 3, UnitPrice: 180, Amount: 540 }],
    [row('1.5', '99.90', '149.85'), { Qty: 1.5, UnitPrice: 99.9, Amount: 149.85 }],
    [row('3', '33.33', '89.99', '10'), { Qty: 3, UnitPrice: 29.996667, Amount: 89.99 }],
    [row('7', '10.00', '10.00', '85.7143'), { Qty: 7, UnitPrice: 1.428571, Amount: 10 }],
    // no six-decimal unit price gives the total back: one unit at the row's total
    [row('3000000', '0.01', '1.00', '96.6667'), { Qty: 1, UnitPrice: 1, Amount: 1 }],
  ])('%o → %o', (input, expected) => {
    expect(linePricing(input)).toEqual(expected);
  });
});
