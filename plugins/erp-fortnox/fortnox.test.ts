import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErpCredentials, ErpInvoice, ErpInvoiceRow, ErpProvider } from '~/core/extension-points/erp-provider';
import { invoiceFigures } from '~/core/invoicing/invoice-math';
import { prepareInvoice, sampleInvoice, testSession } from '~/tests/erp-contract/erp-contract';
import { consentAsBrowser, startFortnoxFake, type FortnoxFake } from '~/tests/fakes/fortnox';
import plugin, { externalReference } from './index';

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

const feeRow = (fee: string): ErpInvoiceRow => ({
  kind: 'fee',
  articleId: null,
  articleNumber: null,
  externalArticleId: null,
  description: 'Fakturaavgift',
  amount: '1',
  unit: null,
  price: fee,
  discount: null,
  total: fee,
  vatPercent: '25',
  houseWork: false,
  account: '3541',
});

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
