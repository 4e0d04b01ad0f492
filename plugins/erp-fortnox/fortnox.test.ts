import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErpCredentials, ErpInvoice, ErpInvoiceRow, ErpProvider } from '~/core/extension-points/erp-provider';
import { invoiceFigures } from '~/core/invoicing/invoice-math';
import { ErpError } from '~/core/extension-points/erp-http';
import { isErpCustomerConflict, type ErpCustomerConflict } from '~/core/extension-points/erp-provider';
import { splitTaxReduction } from '~/core/invoicing/tax-reduction';
import {
  feeRow,
  prepareInvoice,
  prepareSupplierInvoice,
  companyInvoice,
  sampleOrgNumber,
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
    const base = companyInvoice(nextCustomer());
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
    const invoice = companyInvoice(nextCustomer(), {
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
    const base = companyInvoice(nextCustomer());
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
    const base = companyInvoice(nextCustomer());
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
    const base = companyInvoice(nextCustomer());
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
    const base = companyInvoice(nextCustomer());
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
    const invoice = companyInvoice(nextCustomer());
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
    const invoice = companyInvoice(nextCustomer());
    const { session } = testSession(credentials);
    const id = await provider.ensureCustomer(session, invoice.customer, null);
    const count = fake.customerCount();
    const moved = { ...invoice.customer, address: { street: 'Nygatan 5', postIndex: '222 33', city: 'Lund' } };
    expect(await provider.ensureCustomer(session, moved, id)).toBe(id);
    expect(fake.customerCount()).toBe(count);
    expect(fake.customer(id)).toMatchObject({ Address1: 'Nygatan 5', ZipCode: '222 33', City: 'Lund' });
  });
});

/** A request to the fake as another Fortnox user of the same company would make it. */
async function fortnoxCall(method: string, path: string, body?: unknown) {
  for (;;) {
    const res = await fetch(`${fake.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${credentials.accessToken}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    // the company's limit counts this user's requests too: wait as Fortnox says
    if (res.status === 429) {
      await new Promise((r) => setTimeout(r, Number(res.headers.get('retry-after') ?? 1) * 1000));
      continue;
    }
    return { status: res.status, body: (await res.json()) as Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any
  }
}

/** A ROT invoice for a private couple: one labour row (house work), the reduction asked by both. */
function rotInvoice(amount: string, persons: string[]): ErpInvoice {
  const base = companyInvoice(nextCustomer());
  const shares = splitTaxReduction(amount, persons.length);
  return {
    ...base,
    customer: {
      ...base.customer,
      type: 'private',
      name: `Familjen ${base.customer.customerNumber}`,
      organizationalNumber: null,
      // the household's own card: a personal identity number of its own
      personId: `19700101-${base.customer.customerNumber.padStart(4, '0').slice(-4)}`,
      vatNumber: null,
    },
    rows: [{ ...base.rows[0]!, articleNumber: 'ROT-ARB', articleId: randomUUID(), houseWork: true }],
    fee: null,
    totalPrice: '1300.00',
    totalVat: '325.00',
    rounding: '0.00',
    total: '1625.00',
    taxReduction: {
      kind: 'ROT',
      amount,
      propertyDesignation: 'Hammarby 1:23',
      housingAssociationOrgNr: null,
      persons: persons.map((personId, i) => ({ personId, amount: shares[i]! })),
    },
  };
}

describe('[erp] Fortnox ROT/RUT per person (issue 31 items 1 and 8)', () => {
  it('asks whole kronor per person: 1,001 kr between two is 501 and 500, and Fortnox takes both', async () => {
    const invoice = rotInvoice('1001.00', ['19800101-0019', '19820202-0028']);
    const { sent } = await send(invoice);
    const applications = fake.taxReductions().filter((t) => String(t.ReferenceNumber) === sent.externalId);
    expect(applications.map((t) => [t.SocialSecurityNumber, t.AskedAmount])).toEqual([
      ['19800101-0019', 501],
      ['19820202-0028', 500],
    ]);
    expect(fake.invoice(sent.externalId)).toMatchObject({ TaxReduction: 1001 });
  });

  it('refuses a share with öre before the invoice is made, so nothing is left half-sent', async () => {
    const invoice = rotInvoice('1001.00', ['19800101-0019', '19820202-0028']);
    const split = {
      ...invoice,
      taxReduction: {
        ...invoice.taxReduction!,
        persons: invoice.taxReduction!.persons.map((p) => ({ ...p, amount: '500.50' })),
      },
    };
    const invoices = fake.invoiceCount();
    const err = await send(split).then(
      () => null,
      (e: unknown) => e as ErpError,
    );
    expect(err).toBeInstanceOf(ErpError);
    expect(err!.code).toBe('INVOICE_WAS_NOT_CREATED_IN_ERP');
    expect(err!.retryable).toBe(false);
    expect(err!.vendorMessage).toContain('500.50');
    expect(fake.invoiceCount()).toBe(invoices);
  });

  it('the fake refuses a decimal AskedAmount as Fortnox does (2004217)', async () => {
    const { sent } = await send(rotInvoice('609.00', ['19800101-0019']));
    const res = await fortnoxCall('POST', '/3/taxreductions', {
      TaxReduction: {
        ReferenceDocumentType: 'INVOICE',
        ReferenceNumber: Number(sent.externalId),
        CustomerName: 'Anna Andersson',
        SocialSecurityNumber: '19820202-0028',
        AskedAmount: 304.5,
      },
    });
    expect(res.status).toBe(400);
    expect(res.body.ErrorInformation).toMatchObject({ code: 2004217 });
  });

  it('a retry files the applications its own invoice lacks, not trusting another invoice’s with a like number', async () => {
    const person = '19750505-0055';
    const invoice = rotInvoice('609.00', [person]);
    const key = `ordo-${invoice.id}`;
    const { session } = testSession(credentials);
    const prepared = await prepareInvoice(provider, session, invoice);
    // the invoice is made, its answer lost: no application was filed for it
    fake.dropNextCreateResponse();
    await expect(provider.sendInvoice(session, prepared, key, { firstAttempt: true })).rejects.toBeInstanceOf(ErpError);
    const made = fake.invoices().find((i) => i.ExternalInvoiceReference1 === key)!;
    const number = String(made.DocumentNumber);
    // meanwhile someone in Fortnox made invoice <number>1 for the same person, with its application
    const decoyNumber = `${number}1`;
    const decoy = await fortnoxCall('POST', '/3/invoices', {
      Invoice: {
        DocumentNumber: decoyNumber,
        CustomerNumber: prepared.customer.externalId,
        TaxReductionType: 'rot',
        InvoiceRows: [
          {
            ArticleNumber: prepared.rows[0]!.externalArticleId,
            DeliveredQuantity: 1,
            Price: 1000,
            HouseWork: true,
            HouseWorkType: 'CONSTRUCTION',
          },
        ],
      },
    });
    expect(decoy.status, JSON.stringify(decoy.body)).toBe(201);
    const filed = await fortnoxCall('POST', '/3/taxreductions', {
      TaxReduction: {
        ReferenceDocumentType: 'INVOICE',
        ReferenceNumber: Number(decoyNumber),
        CustomerName: 'Decoy',
        SocialSecurityNumber: person,
        AskedAmount: 300,
      },
    });
    expect(filed.status, JSON.stringify(filed.body)).toBe(201);

    const sent = await provider.sendInvoice(session, prepared, key, { firstAttempt: false });
    expect(sent.externalId).toBe(number);
    const own = fake.taxReductions().filter((t) => String(t.ReferenceNumber) === number);
    expect(own.map((t) => [t.SocialSecurityNumber, t.AskedAmount])).toEqual([[person, 609]]);
    // and a second retry files nothing twice
    await provider.sendInvoice(session, prepared, key, { firstAttempt: false });
    expect(fake.taxReductions().filter((t) => String(t.ReferenceNumber) === number)).toHaveLength(1);
  });
});

describe('[erp] Fortnox article units (issue 31 item 2)', () => {
  const article = (unit: string | null) => ({
    id: randomUUID(),
    articleNumber: `U-${randomUUID().slice(0, 8)}`,
    title: 'Unit test article',
    unit,
    price: '10.00',
    isService: false,
    houseWork: false,
    vatPercent: '25' as const,
  });

  it('gives an article a unit code the company has, creating the one it lacks', async () => {
    const { session } = testSession(credentials);
    // "Styck" is the description of the company's "st"
    const styck = await provider.ensureArticle(session, article('Styck'), null);
    expect(fake.article(styck)).toMatchObject({ Unit: 'st' });
    const metres = await provider.ensureArticle(session, article('m'), null);
    expect(fake.article(metres)).toMatchObject({ Unit: 'm' });
    expect(fake.units().map((u) => u.Code)).toContain('m');
    // an hour unit meets the company's hour unit, whatever Ordo calls it
    const hours = await provider.ensureArticle(session, article('h'), null);
    expect(fake.article(hours)).toMatchObject({ Unit: 'h' });
    const timmar = await provider.ensureArticle(session, article('timmar'), null);
    expect(fake.article(timmar)).toMatchObject({ Unit: 'h' });
    expect(fake.units().filter((u) => /^(h|tim|timmar)$/i.test(String(u.Code)))).toHaveLength(1);
  });

  it('cuts a long unit to Fortnox’s 20-character code and keeps the whole text as its description', async () => {
    const { session } = testSession(credentials);
    const long = 'förpackning om tio rullar';
    const id = await provider.ensureArticle(session, article(long), null);
    const code = String(fake.article(id)!.Unit);
    expect(code).toBe(long.slice(0, 20).trimEnd());
    expect(fake.units().find((u) => u.Code === code)).toMatchObject({ Description: long });
  });

  it('the fake refuses an article whose Unit the company lacks', async () => {
    const res = await fortnoxCall('POST', '/3/articles', {
      Article: { ArticleNumber: `X-${randomUUID().slice(0, 8)}`, Description: 'No such unit', Unit: 'kartong' },
    });
    expect(res.status).toBe(400);
    expect(String(res.body.ErrorInformation.message)).toContain('Unit');
  });
});

describe('[erp] Fortnox customers of a company with a ledger of its own (issue 31 item 10)', () => {
  const conflictOf = (p: Promise<unknown>) =>
    p.then(
      () => null,
      (e: unknown) => (isErpCustomerConflict(e) ? e : Promise.reject(e)),
    ) as Promise<ErpCustomerConflict | null>;

  it('finds Fortnox’s card by organisation number under another number, and updates only what Ordo owns', async () => {
    const invoice = companyInvoice(nextCustomer());
    const theirs = String(Number(invoice.customer.customerNumber) + 500_000);
    fake.addCustomer({
      CustomerNumber: theirs,
      Name: invoice.customer.name,
      OrganisationNumber: invoice.customer.organizationalNumber,
      Email: 'old@customer.se',
      Comments: 'Betalar alltid sent',
      TermsOfPayment: '20',
    });
    const { session } = testSession(credentials);
    const count = fake.customerCount();
    expect(await provider.ensureCustomer(session, { ...invoice.customer, email: null }, null)).toBe(theirs);
    expect(fake.customerCount()).toBe(count);
    expect(fake.customer(invoice.customer.customerNumber)).toBeNull();
    // Ordo's fields are brought up to date; what Ordo lacks or does not own is left as Fortnox has it
    expect(fake.customer(theirs)).toMatchObject({
      Address1: 'Storgatan 1',
      Email: 'old@customer.se',
      Comments: 'Betalar alltid sent',
      TermsOfPayment: '20',
      OrganisationNumber: invoice.customer.organizationalNumber,
    });
    const { sent } = await send({ ...invoice, customer: { ...invoice.customer } });
    expect(fake.invoice(sent.externalId)).toMatchObject({ CustomerNumber: theirs });
  });

  it('stops with a conflict when Ordo’s number is another company’s in Fortnox, changing nothing', async () => {
    const invoice = companyInvoice(nextCustomer());
    const other = {
      CustomerNumber: invoice.customer.customerNumber,
      Name: 'Helt Annat Bolag AB',
      OrganisationNumber: sampleOrgNumber(String(Number(invoice.customer.customerNumber) + 900_000)),
      Address1: 'Annan gata 9',
    };
    fake.addCustomer(other);
    const { session } = testSession(credentials);
    const count = fake.customerCount();
    const conflict = await conflictOf(provider.ensureCustomer(session, invoice.customer, null));
    expect(conflict).not.toBeNull();
    expect(conflict!.code).toBe('ERP_CUSTOMER_CONFLICT');
    expect(conflict!.reason).toBe('number_taken');
    expect(conflict!.candidates).toEqual([
      {
        externalId: other.CustomerNumber,
        number: other.CustomerNumber,
        name: other.Name,
        organizationalNumber: other.OrganisationNumber,
        vatNumber: null,
      },
    ]);
    expect(fake.customerCount()).toBe(count);
    expect(fake.customer(other.CustomerNumber)).toMatchObject({ Name: other.Name, Address1: 'Annan gata 9' });

    // the office chose "a new customer": Fortnox gives it a number of its own
    const created = await provider.ensureCustomer(session, invoice.customer, null, { createNew: true });
    expect(created).not.toBe(other.CustomerNumber);
    expect(fake.customer(created)).toMatchObject({
      Name: invoice.customer.name,
      OrganisationNumber: invoice.customer.organizationalNumber,
    });
    expect(fake.customer(other.CustomerNumber)).toMatchObject({ Name: other.Name });

    // or "that one is ours": the mapping names it, and its identity stays Fortnox's
    expect(await provider.ensureCustomer(session, invoice.customer, other.CustomerNumber)).toBe(other.CustomerNumber);
    expect(fake.customer(other.CustomerNumber)).toMatchObject({
      Name: invoice.customer.name,
      OrganisationNumber: other.OrganisationNumber,
    });
  });

  it('stops with a conflict when several Fortnox cards have the organisation number', async () => {
    const invoice = companyInvoice(nextCustomer());
    const base = Number(invoice.customer.customerNumber) + 600_000;
    for (const n of [base, base + 1])
      fake.addCustomer({
        CustomerNumber: String(n),
        Name: `${invoice.customer.name} ${n}`,
        OrganisationNumber: invoice.customer.organizationalNumber,
      });
    const { session } = testSession(credentials);
    const conflict = await conflictOf(provider.ensureCustomer(session, invoice.customer, null));
    expect(conflict?.reason).toBe('several_matches');
    expect(conflict!.candidates.map((c) => c.number).sort()).toEqual([String(base), String(base + 1)]);
  });

  it('asks about a card with the organisation number under another number and another name', async () => {
    const invoice = companyInvoice(nextCustomer());
    const site = String(Number(invoice.customer.customerNumber) + 700_000);
    fake.addCustomer({
      CustomerNumber: site,
      Name: 'Bostadsbolaget, Norra förvaltningen',
      OrganisationNumber: invoice.customer.organizationalNumber,
    });
    const { session } = testSession(credentials);
    const count = fake.customerCount();
    const conflict = await conflictOf(provider.ensureCustomer(session, invoice.customer, null));
    expect(conflict?.reason).toBe('other_name');
    expect(conflict!.candidates.map((c) => c.number)).toEqual([site]);
    expect(fake.customerCount()).toBe(count);
    expect(fake.customer(site)).toMatchObject({ Name: 'Bostadsbolaget, Norra förvaltningen' });
  });

  it('takes the card under Ordo’s number when it is the same party (no organisation number there, the same name)', async () => {
    const invoice = companyInvoice(nextCustomer());
    fake.addCustomer({ CustomerNumber: invoice.customer.customerNumber, Name: invoice.customer.name });
    const { session } = testSession(credentials);
    expect(await provider.ensureCustomer(session, invoice.customer, null)).toBe(invoice.customer.customerNumber);
    // an identity Fortnox lacked is filled in
    expect(fake.customer(invoice.customer.customerNumber)).toMatchObject({
      OrganisationNumber: invoice.customer.organizationalNumber,
    });
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

describe('[erp] Fortnox supplier invoices typed in Fortnox (issue 33 item 1)', () => {
  type Row = Record<string, unknown>;
  let seq = 900;

  /** A supplier invoice a person typed in Fortnox: cable at 25 % and a manual at 6 %, öre rounded. */
  function typed(extra: Row = {}) {
    const number = String(++seq);
    fake.addSupplier({
      SupplierNumber: `S${number}`,
      Name: `Grossist ${number}`,
      OrganisationNumber: '556677-8899',
      VATNumber: 'SE556677889901',
    });
    return fake.addSupplierInvoice({
      SupplierNumber: `S${number}`,
      InvoiceNumber: `T-${number}`,
      InvoiceDate: '2026-05-04',
      DueDate: '2026-06-03',
      Total: 1381,
      VAT: 256.2,
      RoundOffValue: -0.2,
      OCR: '123456',
      YourReference: '10042',
      OurReference: 'Anna',
      Project: 'P-7',
      SupplierInvoiceRows: [
        { Code: 'TOT', Account: 2440, Credit: 1381 },
        { Code: 'VAT', Account: 2641, Debit: 256.2 },
        { Code: 'ROV', Account: 3740, Credit: 0.2 },
        { Account: 4010, Debit: 1000, TransactionInformation: 'Kabel', Quantity: 100, Price: 10 },
        { Account: 4010, Debit: 125, TransactionInformation: 'Handbok' },
      ],
      ...extra,
    });
  }

  const list = (since: string | null) => provider.listSupplierInvoices!(testSession(credentials).session, { since });

  it('lists those awaiting approval with rows, supplier identity and references; not Ordo’s own, not cancelled', async () => {
    const first = typed();
    const gone = typed();
    gone.Cancelled = true;
    const ours = typed({ ExternalInvoiceNumber: 'ordo-si-11111111-2222-3333-4444-555555555555' });
    const { invoices, cursor } = await list(null);
    const mine = invoices.filter((i) => [first, gone, ours].some((t) => String(t.GivenNumber) === i.externalId));
    expect(mine).toHaveLength(1);
    expect(mine[0]).toEqual({
      externalId: String(first.GivenNumber),
      supplier: {
        externalId: String(first.SupplierNumber),
        name: String(first.SupplierName),
        organizationalNumber: '556677-8899',
        vatNumber: 'SE556677889901',
      },
      invoiceNumber: String(first.InvoiceNumber),
      invoiceType: 'invoice',
      invoiceDate: '2026-05-04',
      dueDate: '2026-06-03',
      currency: 'SEK',
      ocr: '123456',
      references: ['10042', 'Anna', 'P-7'],
      rows: [
        {
          description: 'Kabel',
          articleNumber: null,
          account: '4010',
          amount: '100',
          unit: null,
          price: '10',
          total: '1000.00',
          vatPercent: '25',
        },
        // no quantity typed: one unit at the row's total
        {
          description: 'Handbok',
          articleNumber: null,
          account: '4010',
          amount: '1',
          unit: null,
          price: '125.00',
          total: '125.00',
          vatPercent: '25',
        },
      ],
      totalPrice: '1125.00',
      totalVat: '256.20',
      rounding: '-0.20',
      total: '1381.00',
      cursor: String(first.GivenNumber),
    });
    expect(Number(cursor)).toBeGreaterThanOrEqual(Number(ours.GivenNumber));
    // from the cursor on, nothing new costs a request for its rows
    const before = fake.requestCount();
    expect((await list(cursor)).invoices).toEqual([]);
    expect(fake.requestCount() - before).toBe(1);
    const next = typed();
    expect((await list(cursor)).invoices.map((i) => i.externalId)).toEqual([String(next.GivenNumber)]);
  });

  it('approves the payment once: a retry finds it approved and approves nothing more', async () => {
    const invoice = typed();
    const given = String(invoice.GivenNumber);
    const { session } = testSession(credentials);
    expect(await provider.approveSupplierInvoicePayment!(session, given, { firstAttempt: true })).toEqual({
      externalId: given,
      externalNr: given,
    });
    expect(fake.supplierInvoicePaymentApprovals(given)).toBe(1);
    // approved, it no longer awaits approval
    expect((await list(null)).invoices.map((i) => i.externalId)).not.toContain(given);
    expect(await provider.approveSupplierInvoicePayment!(session, given, { firstAttempt: false })).toMatchObject({
      externalId: given,
    });
    expect(fake.supplierInvoicePaymentApprovals(given)).toBe(1);
    // the fake refuses a second approval, so a caller that forgot to look would be seen
    await expect(
      provider.approveSupplierInvoicePayment!(session, given, { firstAttempt: true }),
    ).rejects.toBeInstanceOf(ErpError);
    expect(fake.supplierInvoicePaymentApprovals(given)).toBe(1);
  });

  it('refuses an unknown or cancelled invoice, on the first try and on a retry', async () => {
    const { session } = testSession(credentials);
    for (const firstAttempt of [true, false])
      await expect(provider.approveSupplierInvoicePayment!(session, '987654', { firstAttempt })).rejects.toBeInstanceOf(
        ErpError,
      );
    const gone = typed();
    gone.Cancelled = true;
    for (const firstAttempt of [true, false])
      await expect(
        provider.approveSupplierInvoicePayment!(session, String(gone.GivenNumber), { firstAttempt }),
      ).rejects.toBeInstanceOf(ErpError);
    expect(fake.supplierInvoicePaymentApprovals(String(gone.GivenNumber))).toBe(0);
  });

  it('says it reads supplier invoices', () => {
    expect(provider.capabilities.readSupplierInvoices).toBe(true);
  });
});
