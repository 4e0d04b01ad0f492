import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErpCredentials, ErpInvoice, ErpInvoiceRow, ErpProvider } from '~/core/extension-points/erp-provider';
import { invoiceFigures } from '~/core/invoicing/invoice-math';
import { ErpError } from '~/core/extension-points/erp-http';
import {
  feeRow,
  prepareInvoice,
  prepareSupplierInvoice,
  sampleInvoice,
  sampleSupplierInvoice,
  testSession,
} from '~/tests/erp-contract/erp-contract';
import { consentAsBrowser, startFortnoxFake, type FortnoxFake } from '~/tests/fakes/fortnox';
import plugin, { externalReference } from './index';
import { supplierInvoiceReference } from './supplier-invoice';

/*
 * What is particular to Fortnox beyond the shared contract: how Ordo's invoice lands in Fortnox's
 * Invoice resource (house work, reverse charge, the fee, long texts and keys), and that the sums
 * Fortnox computes from what we send are the ones Ordo printed.
 */

const redirectUri = 'https://ordo.example/settings/erp/fortnox/callback';

async function connect(provider: ErpProvider): Promise<ErpCredentials> {
  if (provider.auth.type !== 'oauth2') throw new Error('Fortnox connects with OAuth2');
  const state = randomUUID();
  const back = await consentAsBrowser(provider.auth.authorizeUrl({ redirectUri, state }));
  return provider.auth.exchangeCode({ code: back.searchParams.get('code')!, redirectUri, tenantId: randomUUID() });
}

let fake: FortnoxFake;
let provider: ErpProvider;
let credentials: ErpCredentials;
let customerSeq = 5000;
const nextCustomer = () => String(++customerSeq);

/** Maps customer and articles, sends, and answers what Fortnox stored. */
async function send(invoice: ErpInvoice, key = `ordo-${invoice.id}`) {
  const { session } = testSession(credentials);
  const prepared = await prepareInvoice(provider, session, invoice);
  const sent = await provider.sendInvoice(session, prepared, key, { firstAttempt: true });
  const stored = fake.invoice(sent.externalId)!;
  return { sent, stored, rows: stored.InvoiceRows as Record<string, unknown>[], session, prepared };
}

beforeAll(async () => {
  // A company default fee, which Fortnox adds to any invoice that does not state its own.
  fake = await startFortnoxFake({ invoiceDefaults: { administrationFee: 29 } });
  provider = plugin.create(
    plugin.options.parse({
      clientId: fake.clientId,
      clientSecret: fake.clientSecret,
      authBaseUrl: fake.url,
      apiBaseUrl: fake.url,
    }),
  );
  credentials = await connect(provider);
});
afterAll(async () => {
  await fake?.close();
});

describe('[erp] Fortnox invoice mapping', () => {
  it('sends the fee as AdministrationFee, not as a row, and Fortnox arrives at Ordo’s total', async () => {
    const base = sampleInvoice(nextCustomer());
    const invoice = { ...base, rows: [...base.rows, feeRow('40.00')] };
    const { stored, rows } = await send(invoice);
    expect(stored.AdministrationFee).toBe(40);
    expect(stored.AdministrationFeeVAT).toBe(10);
    expect(rows.map((r) => r.Description)).toEqual(['Labour', 'Smoke detector']);
    expect(rows[1]).toMatchObject({
      ArticleNumber: 'DET-100',
      DeliveredQuantity: 3,
      Price: 200,
      Discount: 10,
      DiscountType: 'PERCENT',
      Total: 540,
      VAT: 25,
      AccountNumber: 3001,
    });
    expect(stored).toMatchObject({
      Net: 1840,
      TotalVAT: Number(invoice.totalVat),
      RoundOff: Number(invoice.rounding),
      Total: Number(invoice.total),
      VATIncluded: false,
      TaxReductionType: 'none',
      ExternalInvoiceReference1: `ordo-${invoice.id}`,
      YourOrderNumber: 'PO-77',
      YourReference: 'Erik Holm',
      OurReference: 'Maria Lindqvist',
      InvoiceDate: '2026-11-20',
      DueDate: '2026-12-20',
      DeliveryDate: '2026-11-19',
    });
    expect(stored.Remarks).toBe('Service of alarm\nRef 12');
  });

  it('states a zero fee, so the company’s default fee is not added behind Ordo’s back', async () => {
    const invoice = sampleInvoice(nextCustomer(), {
      fee: null,
      totalPrice: '1840.00',
      totalVat: '460.00',
      total: '2300.00',
    });
    const { stored } = await send(invoice);
    expect(stored.AdministrationFee).toBe(0);
    expect(stored.Total).toBe(2300);
  });

  it('rounds like Ordo: an amount discount per unit, several VAT rates and the öre rounding', async () => {
    const base = sampleInvoice(nextCustomer());
    const rows: ErpInvoiceRow[] = [
      { ...base.rows[0]!, amount: '1.5', price: '99.99', total: '149.99' },
      {
        ...base.rows[1]!,
        amount: '3',
        price: '12.34',
        discount: { type: 'REGULAR', value: '1.00' },
        total: '34.02',
        vatPercent: '12',
        account: '3002',
      },
    ];
    const figures = invoiceFigures({
      lines: [
        { amount: '1.5', price: '99.99', vatPercent: '25' },
        { amount: '3', price: '12.34', vatPercent: '12', discount: { type: 'REGULAR', value: '1.00' } },
        { amount: '1', price: '40.00', vatPercent: '25' },
      ],
      reverseVat: false,
      taxReduction: 'none',
      reductionDay: base.dueDate,
    });
    const invoice = {
      ...base,
      rows: [...rows, feeRow('40.00')],
      totalPrice: figures.net,
      totalVat: figures.vatTotal,
      rounding: figures.rounding,
      total: figures.total,
    };
    const { stored, rows: sentRows } = await send(invoice);
    // Fortnox's AMOUNT comes off the row once, so 1.00 per unit on 3 units is sent as 3.
    expect(sentRows[1]).toMatchObject({ Discount: 3, DiscountType: 'AMOUNT', Total: 34.02, VAT: 12 });
    expect(stored.TotalVAT).toBe(Number(figures.vatTotal));
    expect(stored.RoundOff).toBe(Number(figures.rounding));
    expect(stored.Total).toBe(Number(figures.total));
  });

  it('a ROT invoice: house-work rows, TaxReductionType rot and one application per person', async () => {
    const base = sampleInvoice(nextCustomer());
    const invoice: ErpInvoice = {
      ...base,
      customer: {
        ...base.customer,
        type: 'private',
        name: 'Anna Andersson',
        organizationalNumber: null,
        personId: '19800101-0019',
        vatNumber: null,
      },
      rows: [
        {
          ...base.rows[0]!,
          articleNumber: 'ROT-ARB',
          articleId: randomUUID(),
          houseWork: true,
          amount: '2.5',
          total: '1625.00',
        },
        base.rows[1]!,
      ],
      fee: null,
      totalPrice: '2165.00',
      totalVat: '541.25',
      rounding: '-0.25',
      total: '2706.00',
      taxReduction: {
        kind: 'ROT',
        amount: '609.00',
        propertyDesignation: 'Hammarby 1:23',
        housingAssociationOrgNr: null,
        persons: [{ personId: '19800101-0019', amount: '609.00' }],
      },
    };
    const { stored, rows, sent, session, prepared } = await send(invoice);
    expect(stored).toMatchObject({ TaxReductionType: 'rot', HouseWork: true, Total: 2706, BasisTaxReduction: 2031.25 });
    expect(rows[0]).toMatchObject({
      ArticleNumber: 'ROT-ARB',
      HouseWork: true,
      HouseWorkType: 'CONSTRUCTION',
      HouseWorkHoursToReport: 3,
    });
    expect(rows[1]).toMatchObject({ ArticleNumber: 'DET-100', HouseWork: false, HouseWorkType: 'OTHERCOSTS' });
    expect(fake.article('ROT-ARB')).toMatchObject({ Housework: true, HouseworkType: 'CONSTRUCTION', Type: 'SERVICE' });
    expect(fake.customer(invoice.customer.customerNumber)).toMatchObject({
      Type: 'PRIVATE',
      OrganisationNumber: '19800101-0019',
    });
    const applications = () => fake.taxReductions().filter((t) => String(t.ReferenceNumber) === sent.externalId);
    expect(applications()).toEqual([
      expect.objectContaining({
        ReferenceDocumentType: 'INVOICE',
        SocialSecurityNumber: '19800101-0019',
        AskedAmount: 609,
        PropertyDesignation: 'Hammarby 1:23',
      }),
    ]);
    expect(fake.invoice(sent.externalId)).toMatchObject({ TaxReduction: 609, TotalToPay: 2097 });
    // A retry of the same delivery finds the invoice and files nothing twice.
    const again = await provider.sendInvoice(session, prepared, `ordo-${invoice.id}`, { firstAttempt: false });
    expect(again.externalId).toBe(sent.externalId);
    expect(applications()).toHaveLength(1);
  });

  it('a reverse-VAT invoice: no VAT on any row or on the fee, the legal text in Remarks', async () => {
    const base = sampleInvoice(nextCustomer());
    const legal = 'Omvänd betalningsskyldighet gäller för byggtjänster.';
    const invoice: ErpInvoice = {
      ...base,
      reverseVat: true,
      customer: { ...base.customer, reverseVat: true },
      // The rows keep their articles' rate; reverse charge must still put 0 on them.
      rows: [...base.rows.map((r) => ({ ...r, account: '3231' })), feeRow('40.00')],
      totalPrice: '1880.00',
      totalVat: '0.00',
      rounding: '0.00',
      total: '1880.00',
      notes: [legal],
    };
    const { stored, rows } = await send(invoice);
    expect(rows.map((r) => r.VAT)).toEqual([0, 0]);
    expect(rows.map((r) => r.AccountNumber)).toEqual([3231, 3231]);
    expect(String(stored.Remarks)).toContain(legal);
    expect(stored).toMatchObject({ TotalVAT: 0, AdministrationFeeVAT: 0, Total: Number(invoice.total) });
    expect(fake.customer(invoice.customer.customerNumber)).toMatchObject({ VATType: 'SEREVERSEDVAT' });
  });

  it('continues a description longer than Fortnox’s 50 characters on text rows', async () => {
    const base = sampleInvoice(nextCustomer());
    const long = 'Replacement of the smoke detectors in the stairwell, the basement storage rooms and the attic';
    const invoice = { ...base, rows: [base.rows[0]!, { ...base.rows[1]!, description: long }] };
    const { rows } = await send(invoice);
    expect(rows).toHaveLength(4);
    expect(rows.slice(1).every((r) => String(r.Description).length <= 50)).toBe(true);
    expect(
      rows
        .slice(1)
        .map((r) => r.Description)
        .join(' '),
    ).toBe(long);
    // Text rows: a description and nothing else (RowId is Fortnox's own).
    expect(rows.slice(2).map((r) => Object.keys(r).filter((k) => k !== 'RowId'))).toEqual([
      ['Description'],
      ['Description'],
    ]);
  });

  it('shortens a key longer than ExternalInvoiceReference1 takes, the same way on every try', async () => {
    const invoice = sampleInvoice(nextCustomer());
    const key = `ordo-delivery-${'x'.repeat(80)}-${invoice.id}`;
    const ref = externalReference(key);
    expect(ref).toHaveLength(80);
    expect(externalReference(key)).toBe(ref);
    expect(externalReference(`${key}-other`)).not.toBe(ref);
    const { sent, session, prepared } = await send(invoice, key);
    expect(fake.invoice(sent.externalId)!.ExternalInvoiceReference1).toBe(ref);
    const again = await provider.sendInvoice(session, prepared, key, { firstAttempt: false });
    expect(again.externalId).toBe(sent.externalId);
    expect(fake.invoiceCount(ref)).toBe(1);
  });

  it('brings a customer card that changed in Ordo up to date instead of creating another', async () => {
    const invoice = sampleInvoice(nextCustomer());
    const { session } = testSession(credentials);
    const id = await provider.ensureCustomer(session, invoice.customer, null);
    const count = fake.customerCount();
    const moved = { ...invoice.customer, address: { street: 'Nygatan 5', postIndex: '222 33', city: 'Lund' } };
    expect(await provider.ensureCustomer(session, moved, id)).toBe(id);
    expect(fake.customerCount()).toBe(count);
    expect(fake.customer(id)).toMatchObject({ Address1: 'Nygatan 5', ZipCode: '222 33', City: 'Lund' });
  });
});

describe('[erp] Fortnox OAuth and limits (the fake as Fortnox)', () => {
  it('refuses an unknown client at the consent page', async () => {
    const q = new URLSearchParams({
      client_id: 'nope',
      redirect_uri: redirectUri,
      scope: 'invoice',
      state: 's',
      response_type: 'code',
    });
    const res = await fetch(`${fake.url}/oauth-v1/auth?${q.toString()}`);
    expect(res.status).toBe(400);
  });

  it('rotates refresh tokens: the one used stops working', async () => {
    const own = await connect(provider);
    const refresh = (token: string) =>
      fetch(`${fake.url}/oauth-v1/token`, {
        method: 'POST',
        headers: {
          authorization: `Basic ${Buffer.from(`${fake.clientId}:${fake.clientSecret}`).toString('base64')}`,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: token }).toString(),
      });
    const first = await refresh(own.refreshToken!);
    expect(first.status).toBe(200);
    expect(await first.json()).toMatchObject({ expires_in: 3600, token_type: 'bearer' });
    const second = await refresh(own.refreshToken!);
    expect(second.status).toBe(400);
    expect(await second.json()).toMatchObject({ error: 'invalid_grant' });
  });

  it('answers 429 with Retry-After past its limit, per tenant', async () => {
    const limited = await startFortnoxFake({ rateLimit: { requests: 3, perMs: 60_000 } });
    try {
      const p = plugin.create(
        plugin.options.parse({
          clientId: limited.clientId,
          clientSecret: limited.clientSecret,
          authBaseUrl: limited.url,
          apiBaseUrl: limited.url,
        }),
      );
      const { accessToken } = await connect(p);
      const get = () =>
        fetch(`${limited.url}/3/companyinformation`, { headers: { authorization: `Bearer ${accessToken}` } });
      for (let i = 0; i < 3; i++) expect((await get()).status).toBe(200);
      const refused = await get();
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(limited.rateLimitedCount()).toBe(1);
    } finally {
      await limited.close();
    }
  });
});

describe('[erp] Fortnox supplier invoices', () => {
  type Row = Record<string, unknown>;
  let supplierSeq = 70_000;
  const nextSupplier = () => String(++supplierSeq);

  /** Maps the supplier, books the invoice, and answers what Fortnox stored. */
  async function book(invoice = sampleSupplierInvoice(nextSupplier()), key = `ordo-si-${invoice.id}`) {
    const { session } = testSession(credentials);
    const prepared = await prepareSupplierInvoice(provider, session, invoice);
    const sent = await provider.sendSupplierInvoice!(session, prepared, key, { firstAttempt: true });
    const stored = fake.supplierInvoice(sent.externalId)!;
    return { sent, stored, rows: stored.SupplierInvoiceRows as Row[], session, prepared };
  }
  const byCode = (rows: Row[], code: string) => rows.filter((r) => r.Code === code);
  const costRows = (rows: Row[]) => rows.filter((r) => r.Code === '');

  it('books the debt, the input VAT and each cost row on the account supplierRowAccounts chose', async () => {
    const invoice = sampleSupplierInvoice(nextSupplier());
    const { sent, stored, rows } = await book(invoice);
    expect(sent.externalNr).toBe(sent.externalId);
    expect(byCode(rows, 'TOT')).toEqual([expect.objectContaining({ Account: 2440, Credit: 1474, Debit: 0 })]);
    expect(byCode(rows, 'VAT')).toEqual([expect.objectContaining({ Account: 2641, Debit: 274, Credit: 0 })]);
    expect(byCode(rows, 'ROV')).toEqual([]);
    // The first row has no account of its own: the supplier's default (4010); the second its own.
    expect(costRows(rows)).toEqual([
      expect.objectContaining({ Account: 4010, Debit: 1000, TransactionInformation: 'Smoke detectors' }),
      expect.objectContaining({ Account: 5831, Debit: 200, TransactionInformation: 'Food for the crew' }),
    ]);
    expect(stored).toMatchObject({
      SupplierNumber: invoice.supplier.supplierNumber,
      InvoiceNumber: invoice.invoiceNumber,
      InvoiceDate: '2026-11-18',
      DueDate: '2026-12-18',
      OCR: '4512300014',
      OurReference: 'Maria Lindqvist',
      Comments: 'Detectors for the Brf Test job',
      ExternalInvoiceNumber: `ordo-si-${invoice.id}`,
      VATType: 'NORMAL',
      Total: '1474',
      VAT: '274',
      RoundOffValue: '0',
    });
  });

  it('books the öre rounding on the tenant’s rounding account, so the rows still balance', async () => {
    const base = sampleSupplierInvoice(nextSupplier());
    const invoice = {
      ...base,
      rows: [{ ...base.rows[0]!, amount: '999.70', vat: '249.93' }, base.rows[1]!],
      totalPrice: '1199.70',
      totalVat: '273.93',
      rounding: '0.37',
      total: '1474.00',
    };
    const { rows } = await book(invoice);
    expect(byCode(rows, 'ROV')).toEqual([expect.objectContaining({ Account: 3740, Debit: 0.37, Credit: 0 })]);
    expect(byCode(rows, 'VAT')[0]).toMatchObject({ Debit: 273.93 });
    const debit = rows.reduce((s, r) => s + Math.round(Number(r.Debit) * 100), 0);
    const credit = rows.reduce((s, r) => s + Math.round(Number(r.Credit) * 100), 0);
    expect(debit).toBe(credit);
  });

  it('a credit note: the debt is debited and the costs credited', async () => {
    const base = sampleSupplierInvoice(nextSupplier());
    const invoice = {
      ...base,
      rows: [{ ...base.rows[0]!, amount: '-100.00', vat: '-25.00' }],
      totalPrice: '-100.00',
      totalVat: '-25.00',
      total: '-125.00',
    };
    const { stored, rows } = await book(invoice);
    expect(byCode(rows, 'TOT')[0]).toMatchObject({ Debit: 125, Credit: 0 });
    expect(byCode(rows, 'VAT')[0]).toMatchObject({ Debit: 0, Credit: 25 });
    expect(costRows(rows)[0]).toMatchObject({ Account: 4010, Debit: 0, Credit: 100 });
    expect(stored.Credit).toBe(true);
  });

  it('carries the project on the rows, and on the invoice when the rows share one', async () => {
    const base = sampleSupplierInvoice(nextSupplier());
    const shared = await book({ ...base, rows: base.rows.map((r) => ({ ...r, projectNumber: 'P-12' })) });
    expect(shared.stored.Project).toBe('P-12');
    expect(costRows(shared.rows).map((r) => r.Project)).toEqual(['P-12', 'P-12']);
    const other = sampleSupplierInvoice(nextSupplier());
    const mixed = await book({
      ...other,
      rows: [
        { ...other.rows[0]!, projectNumber: 'P-12' },
        { ...other.rows[1]!, projectNumber: 'P-13' },
      ],
    });
    expect(mixed.stored.Project).toBe('');
    expect(costRows(mixed.rows).map((r) => r.Project)).toEqual(['P-12', 'P-13']);
  });

  it('books the supplier’s fee given as a figure on the supplier’s default account', async () => {
    const base = sampleSupplierInvoice(nextSupplier());
    const { rows } = await book({ ...base, fee: '29.00', totalPrice: '1229.00', totalVat: '281.25', total: '1510.25' });
    expect(costRows(rows).at(-1)).toMatchObject({ Account: 4010, Debit: 29, TransactionInformation: 'Fakturaavgift' });
  });

  it('refuses figures that do not add up before sending anything', async () => {
    const { session } = testSession(credentials);
    const invoice = await prepareSupplierInvoice(provider, session, sampleSupplierInvoice(nextSupplier()));
    const before = fake.requestCount();
    const err = await provider.sendSupplierInvoice!(
      session,
      { ...invoice, total: '1475.00' },
      `ordo-si-${invoice.id}`,
      { firstAttempt: true },
    ).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ErpError);
    expect((err as ErpError).code).toBe('INVOICE_WAS_NOT_CREATED_IN_ERP');
    expect((err as ErpError).vendorMessage).toMatch(/balance/);
    expect(fake.requestCount()).toBe(before);
  });

  it('refuses a supplier invoice in euro with a message saying to register it in Fortnox', async () => {
    const { session } = testSession(credentials);
    const invoice = sampleSupplierInvoice(nextSupplier(), { currency: 'EUR' });
    await expect(
      provider.sendSupplierInvoice!(session, invoice, `ordo-si-${invoice.id}`, { firstAttempt: true }),
    ).rejects.toMatchObject({ code: 'INVOICE_WAS_NOT_CREATED_IN_ERP', retryable: false });
  });

  it('creates the supplier with its bank details and default account, and updates them when they change', async () => {
    const invoice = sampleSupplierInvoice(nextSupplier());
    const supplier = { ...invoice.supplier, iban: 'SE45 5000 0000 0583 9825 7466', bic: 'essesess' };
    const { session } = testSession(credentials);
    const number = await provider.ensureSupplier!(session, supplier, null);
    expect(fake.supplier(number)).toMatchObject({
      SupplierNumber: supplier.supplierNumber,
      Name: supplier.name,
      OrganisationNumber: '556012-3456',
      VATNumber: 'SE556012345601',
      Email: 'faktura@supplier.se',
      Phone1: '031-12 34 56',
      Address1: 'Industrigatan 4',
      ZipCode: '415 05',
      City: 'Göteborg',
      BG: '5050-1055',
      PG: '',
      IBAN: 'SE4550000000058398257466',
      BIC: 'ESSESESS',
      PreDefinedAccount: '4010',
    });
    const suppliers = fake.supplierCount();
    const again = await provider.ensureSupplier!(
      session,
      { ...supplier, bankgiro: '5555-1234', defaultAccount: '4000' },
      number,
    );
    expect(again).toBe(number);
    expect(fake.supplierCount()).toBe(suppliers);
    expect(fake.supplier(number)).toMatchObject({ BG: '5555-1234', PreDefinedAccount: '4000' });
  });

  it('shortens a key longer than ExternalInvoiceNumber takes, and a retry still finds the invoice', async () => {
    const invoice = sampleSupplierInvoice(nextSupplier());
    const key = `ordo-si-${invoice.id}-${'x'.repeat(40)}`;
    const ref = supplierInvoiceReference(key);
    expect(ref.length).toBeLessThanOrEqual(50);
    expect(supplierInvoiceReference(key)).toBe(ref);
    const { sent, session, prepared } = await book(invoice, key);
    expect(fake.supplierInvoiceCount(ref)).toBe(1);
    const again = await provider.sendSupplierInvoice!(session, prepared, key, { firstAttempt: false });
    expect(again.externalId).toBe(sent.externalId);
    expect(fake.supplierInvoiceCount(ref)).toBe(1);
  });

  it('asks for the supplier and supplierinvoice scopes', () => {
    if (provider.auth.type !== 'oauth2') throw new Error('oauth2 expected');
    const scope = new URL(provider.auth.authorizeUrl({ redirectUri, state: 's' })).searchParams.get('scope');
    expect(scope?.split(' ')).toEqual(expect.arrayContaining(['supplier', 'supplierinvoice']));
  });
});
