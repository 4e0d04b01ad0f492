import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErpError } from '~/core/extension-points/erp-http';
import {
  ErpStop,
  erpStopOf,
  type ErpCredentials,
  type ErpInvoice,
  type ErpInvoiceRow,
  type ErpProvider,
} from '~/core/extension-points/erp-provider';
import {
  feeRow,
  prepareInvoice,
  prepareSupplierInvoice,
  sampleInvoice,
  sampleSupplierInvoice,
  testSession,
} from '~/tests/erp-contract/erp-contract';
import {
  consentAsBrowser,
  startVismaEaccountingFake,
  type VismaEaccountingFake,
} from '~/tests/fakes/visma-eaccounting';
import visma from './index';

type Json = Record<string, unknown>;

let fake: VismaEaccountingFake;
let provider: ErpProvider;
let credentials: ErpCredentials;
let customerSeq = 500_000 + Math.floor(Math.random() * 1e5);
const nextCustomer = () => String(++customerSeq);

beforeAll(async () => {
  // Three rows a page: every list the plugin reads (terms, units, codings, articles) spans pages.
  fake = await startVismaEaccountingFake({ maxPageSize: 3 });
  provider = visma.create(
    visma.options.parse({
      clientId: fake.clientId,
      clientSecret: fake.clientSecret,
      identityBaseUrl: fake.url,
      apiBaseUrl: fake.url,
    }),
  );
  if (provider.auth.type !== 'oauth2') throw new Error('oauth2 expected');
  const redirectUri = 'https://ordo.test/callback';
  const { code } = await consentAsBrowser(provider.auth.authorizeUrl({ redirectUri, state: 's' }));
  credentials = await provider.auth.exchangeCode({ code, redirectUri, tenantId: randomUUID() });
});

afterAll(async () => {
  await fake?.close();
});

async function send(invoice: ErpInvoice) {
  const { session } = testSession(credentials);
  const prepared = await prepareInvoice(provider, session, invoice);
  const key = `ordo-${invoice.id}`;
  const sent = await provider.sendInvoice(session, prepared, key, { firstAttempt: true });
  return { sent, key, session, prepared, draft: fake.invoice(sent.externalId) as Json };
}

const rowsOf = (draft: Json) => draft.Rows as Json[];
const articleRows = (draft: Json) => rowsOf(draft).filter((r) => !r.IsTextRow);

const fee: ErpInvoiceRow = feeRow();

/** The sample as the contract describes an invoice: its fee also present as a row. */
function sampleWithFeeRow(customerNumber = nextCustomer()) {
  const invoice = sampleInvoice(customerNumber);
  return { ...invoice, rows: [...invoice.rows, fee] };
}

/** A private customer's ROT job: 2 h of eligible labour and material; 30 % of the labour with VAT is asked for. */
function rotInvoice(overrides: Partial<ErpInvoice['taxReduction']> = {}): ErpInvoice {
  const base = sampleInvoice(nextCustomer());
  return {
    ...base,
    customer: {
      ...base.customer,
      name: 'Anna Svensson',
      type: 'private',
      organizationalNumber: null,
      personId: '19800101-1234',
      vatNumber: null,
    },
    rows: [{ ...base.rows[0]!, houseWork: true }, base.rows[1]!, fee],
    taxReduction: {
      kind: 'ROT',
      amount: '487.00',
      propertyDesignation: 'Stockholm Hammarby 1:23',
      housingAssociationOrgNr: null,
      persons: [{ personId: '19800101-1234', amount: '487.00' }],
      ...overrides,
    },
  };
}

describe('[erp] visma-e mapping', () => {
  it('creates customers with Visma fields: company with org and VAT number, private person with the person id', async () => {
    const { session } = testSession(credentials);
    const company = sampleInvoice(nextCustomer()).customer;
    await provider.ensureCustomer(session, { ...company, paymentTermDays: 14 }, null);
    const c = fake.customers().find((x) => x.CustomerNumber === company.customerNumber)!;
    expect(c).toMatchObject({
      Name: company.name,
      IsPrivatePerson: false,
      CorporateIdentityNumber: '556677-8899',
      VatNumber: 'SE556677889901',
      EmailAddress: 'invoice@customer.se',
      Telephone: '08-123 45 67',
      InvoiceAddress1: 'Storgatan 1',
      InvoicePostalCode: '111 22',
      InvoiceCity: 'Stockholm',
      ReverseChargeOnConstructionServices: false,
      IsActive: true,
    });
    // No 14-day terms in this company: the nearest are chosen, the draft states its own due date.
    expect((c.TermsOfPayment as Json).NumberOfDays).toBe(15);

    const person = rotInvoice().customer;
    await provider.ensureCustomer(session, person, null);
    expect(fake.customers().find((x) => x.CustomerNumber === person.customerNumber)).toMatchObject({
      IsPrivatePerson: true,
      CorporateIdentityNumber: '19800101-1234',
      VatNumber: null,
    });
  });

  it('creates articles with a unit and the coding for their VAT rate and kind', async () => {
    const { prepared } = await send(sampleInvoice(nextCustomer()));
    const labour = fake.articles().find((a) => a.Id === prepared.rows[0]!.externalArticleId)!;
    const detector = fake.articles().find((a) => a.Id === prepared.rows[1]!.externalArticleId)!;
    expect(labour).toMatchObject({ Number: 'ARB', UnitAbbreviation: 'tim', IsServiceArticle: true, NetPrice: 650 });
    expect(labour.CodingName).toBe('Tjänster 25 %');
    expect(detector).toMatchObject({
      Number: 'DET-100',
      UnitAbbreviation: 'st',
      IsServiceArticle: false,
      NetPrice: 200,
    });
    expect(detector.CodingName).toBe('Varor 25 %');
  });

  it('maps a ROT invoice: work-cost rows, the reduction, the persons and the property', async () => {
    const invoice = rotInvoice();
    const { draft, key } = await send(invoice);
    expect(draft).toMatchObject({
      SubscriptionNumber: key,
      RotReducedInvoicingType: 1,
      RotPropertyType: 2,
      RotReducedInvoicingPropertyName: 'Stockholm Hammarby 1:23',
      RotReducedInvoicingOrgNumber: null,
      RotReducedInvoicingAmount: 487,
      RotReducedInvoicingAutomaticDistribution: false,
      CustomerIsPrivatePerson: true,
      YourReference: 'Erik Holm',
      OurReference: 'Maria Lindqvist',
      BuyersOrderReference: 'PO-77',
      InvoiceDate: '2026-11-20T00:00:00',
      DueDate: '2026-12-20T00:00:00',
      DeliveryDate: '2026-11-19T00:00:00',
    });
    expect(draft.Persons).toEqual([expect.objectContaining({ Ssn: '19800101-1234', Amount: 487 })]);
    const [labour, material, fee] = articleRows(draft);
    expect(labour).toMatchObject({ IsWorkCost: true, WorkCostType: 1, WorkHours: 2, Quantity: 2, UnitPrice: 650 });
    expect(material).toMatchObject({ IsWorkCost: false, WorkCostType: 0, DiscountPercentage: 0.1, Amount: 540 });
    expect(fee).toMatchObject({ IsWorkCost: false, UnitPrice: 40 });
    expect(
      rowsOf(draft)
        .filter((r) => r.IsTextRow)
        .map((r) => r.Text),
    ).toEqual(['Service of alarm', 'Märkning: Ref 12']);
    expect(draft.TotalAmount).toBe(Number(invoice.total));
  });

  it('maps ROT in an apartment to the housing association, and RUT to its work type without a property', async () => {
    const apartment = await send(
      rotInvoice({ propertyDesignation: 'Lgh 1102', housingAssociationOrgNr: '769600-1234' }),
    );
    expect(apartment.draft).toMatchObject({
      RotReducedInvoicingType: 1,
      RotPropertyType: 1,
      RotReducedInvoicingOrgNumber: '769600-1234',
      RotReducedInvoicingPropertyName: 'Lgh 1102',
    });

    const rut = await send(rotInvoice({ kind: 'RUT', propertyDesignation: null }));
    expect(rut.draft).toMatchObject({ RotReducedInvoicingType: 2, RotPropertyType: null });
    expect(articleRows(rut.draft)[0]).toMatchObject({ IsWorkCost: true, WorkCostType: 9 });
  });

  it('sends a private person unit prices with VAT when "ShowPricesExclVatPC" is checked, as Visma documents IncludesVat; the totals hold', async () => {
    fake.companySettings.ShowPricesExclVatPC = true;
    try {
      const invoice = rotInvoice();
      const { draft } = await send(invoice);
      expect(draft.IncludesVat).toBe(true);
      expect(articleRows(draft).map((r) => r.UnitPrice)).toEqual([812.5, 250, 50]);
      expect(draft.TotalAmount).toBe(Number(invoice.total));
      expect(draft.TotalVatAmount).toBe(Number(invoice.totalVat));
    } finally {
      fake.companySettings.ShowPricesExclVatPC = false;
    }
  });

  it('sends a private person unit prices without VAT when the setting is not checked; a company always without', async () => {
    const invoice = rotInvoice();
    const { draft } = await send(invoice);
    expect(draft.IncludesVat).toBe(false);
    expect(articleRows(draft).map((r) => r.UnitPrice)).toEqual([650, 200, 40]);
    expect(draft).toMatchObject({ TotalAmount: Number(invoice.total), TotalVatAmount: Number(invoice.totalVat) });
    fake.companySettings.ShowPricesExclVatPC = true;
    try {
      const company = await send(sampleWithFeeRow());
      expect(company.draft.IncludesVat).toBe(false);
      expect(articleRows(company.draft).map((r) => r.UnitPrice)).toEqual([650, 200, 40]);
    } finally {
      fake.companySettings.ShowPricesExclVatPC = false;
    }
  });

  it('spreads the VAT of prices with VAT so that each rate comes out as Ordo computed it, to the öre', async () => {
    fake.companySettings.ShowPricesExclVatPC = true;
    try {
      const base = rotInvoice();
      // 3 × 99.99 = 299.97 at 25 %: with VAT 124.9875 a piece, which Visma takes to two decimals
      const invoice: ErpInvoice = {
        ...base,
        rows: [{ ...base.rows[1]!, amount: '3', price: '99.99', discount: null, total: '299.97' }, fee],
        fee: '40.00',
        taxReduction: null,
        totalPrice: '339.97',
        totalVat: '84.99',
        rounding: '0.04',
        total: '425.00',
      };
      const { draft } = await send(invoice);
      expect(draft).toMatchObject({ IncludesVat: true, TotalVatAmount: 84.99, TotalAmount: 425, TotalRoundings: 0.04 });
    } finally {
      fake.companySettings.ShowPricesExclVatPC = false;
    }
  });

  it("deletes a draft whose total is not the invoice's and fails with ERP_INVOICE_TOTAL_DIFFERS, so nothing wrong is booked", async () => {
    const { session } = testSession(credentials);
    const invoice = await prepareInvoice(provider, session, sampleWithFeeRow());
    // the row's article in Visma has 12 % VAT where the invoice says 25 %: Visma computes another total
    const twelve = await provider.ensureArticle(
      session,
      {
        id: randomUUID(),
        articleNumber: `V12-${nextCustomer()}`,
        title: 'Moms 12',
        unit: 'st',
        price: '200.00',
        isService: false,
        houseWork: false,
        vatPercent: '12',
      },
      null,
    );
    const wrong = { ...invoice, rows: invoice.rows.map((r, i) => (i === 1 ? { ...r, externalArticleId: twelve } : r)) };
    const key = `ordo-${invoice.id}`;
    const err = await provider.sendInvoice(session, wrong, key, { firstAttempt: true }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ErpStop);
    expect(erpStopOf(err)).toEqual({ reason: 'ERP_INVOICE_TOTAL_DIFFERS', needsChecking: false, references: [] });
    expect((err as ErpStop).retryable).toBe(false);
    expect((err as ErpStop).vendorMessage).toMatch(
      /2279\.80 with 399\.80 VAT.*the invoice is 2350\.00 with 470\.00 VAT; the draft was deleted/,
    );
    expect(fake.invoiceCount(key)).toBe(0);
  });

  it('maps reverse construction VAT: the customer flag, VAT-free rows, and no VAT on the draft', async () => {
    const base = sampleInvoice(nextCustomer());
    const invoice: ErpInvoice = {
      ...base,
      reverseVat: true,
      customer: { ...base.customer, reverseVat: true },
      rows: base.rows.map((r) => ({ ...r, account: '3231' })),
      fee: null,
      totalPrice: '1840.00',
      totalVat: '0.00',
      total: '1840.00',
      notes: ['Omvänd betalningsskyldighet för byggtjänster'],
    };
    const { draft } = await send(invoice);
    expect(fake.customers().find((c) => c.Id === draft.CustomerId)).toMatchObject({
      ReverseChargeOnConstructionServices: true,
      VatNumber: 'SE556677889901',
    });
    expect(draft.ReverseChargeOnConstructionServices).toBe(true);
    expect(articleRows(draft).every((r) => r.ReversedConstructionServicesVatFree === true)).toBe(true);
    expect(draft.TotalVatAmount).toBe(0);
    expect(draft.TotalAmount).toBe(Number(invoice.total));
    // Visma prints the reverse-charge text itself; it is not added as a row a second time.
    expect(rowsOf(draft).some((r) => String(r.Text).includes('Omvänd'))).toBe(false);
  });

  it('sends the fee row as the fee article, created once and then reused', async () => {
    const first = await send(sampleWithFeeRow());
    const fee = fake.articles().find((a) => a.Number === 'AVGIFT')!;
    expect(fee).toMatchObject({ Name: 'Fakturaavgift', IsServiceArticle: true, UnitAbbreviation: 'st' });
    expect(articleRows(first.draft)[2]).toMatchObject({ ArticleId: fee.Id, UnitPrice: 40, Quantity: 1 });
    const articles = fake.articleCount();
    const second = await send(sampleWithFeeRow());
    expect(articleRows(second.draft)[2]).toMatchObject({ ArticleId: fee.Id });
    expect(fake.articleCount()).toBe(articles);
  });

  it("has Visma's totals equal Ordo's: TotalAmount is the total with VAT and the öre rounding", async () => {
    const sample = sampleWithFeeRow();
    const { draft } = await send(sample);
    expect(draft.TotalAmount).toBe(Number(sample.total));
    expect(draft.TotalVatAmount).toBe(Number(sample.totalVat));
    expect(draft.TotalRoundings).toBe(Number(sample.rounding));
    expect(round2(Number(draft.TotalAmount) - Number(draft.TotalVatAmount) - Number(draft.TotalRoundings))).toBe(
      Number(sample.totalPrice),
    );

    const base = sampleInvoice(nextCustomer());
    const odd: ErpInvoice = {
      ...base,
      rows: [{ ...base.rows[1]!, amount: '1', price: '99.99', discount: null, total: '99.99' }],
      fee: null,
      totalPrice: '99.99',
      totalVat: '25.00',
      rounding: '0.01',
      total: '125.00',
    };
    const rounded = await send(odd);
    expect(rounded.draft).toMatchObject({ TotalAmount: 125, TotalVatAmount: 25, TotalRoundings: 0.01 });
  });

  it('reads the invoice number once the accountant converted the draft, and a retry finds the converted invoice', async () => {
    const { sent, key, session, prepared } = await send(sampleInvoice(nextCustomer()));
    expect(await provider.readInvoice(session, sent.externalId)).toEqual({
      externalId: sent.externalId,
      externalInvoiceNr: null,
      state: 'success',
    });
    const converted = await fetch(`${fake.url}/v2/customerinvoicedrafts/${sent.externalId}/convert`, {
      method: 'POST',
      headers: { authorization: `Bearer ${session.credentials!.accessToken}` },
    });
    expect(converted.status).toBe(201);
    const number = String(((await converted.json()) as Json).InvoiceNumber);
    expect(await provider.readInvoice(session, sent.externalId)).toEqual({
      externalId: sent.externalId,
      externalInvoiceNr: number,
      state: 'success',
    });
    const again = await provider.sendInvoice(session, prepared, key, { firstAttempt: false });
    expect(again).toEqual({ externalId: sent.externalId, externalInvoiceNr: number, state: 'success' });
    expect(fake.invoiceCount(key)).toBe(1);
  });

  it('answers "unknown" for a draft deleted in eEkonomi', async () => {
    const { sent, session } = await send(sampleInvoice(nextCustomer()));
    await fetch(`${fake.url}/v2/customerinvoicedrafts/${sent.externalId}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${session.credentials!.accessToken}` },
    });
    expect((await provider.readInvoice(session, sent.externalId)).state).toBe('unknown');
  });

  it("attaches Visma's DeveloperErrorMessage and field errors to a refusal", async () => {
    const invoice = rotInvoice({ persons: [] });
    const err = await send(invoice).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ErpError);
    expect((err as ErpError).code).toBe('INVOICE_WAS_NOT_CREATED_IN_ERP');
    expect((err as ErpError).retryable).toBe(false);
    expect((err as ErpError).vendorMessage).toMatch(/Persons are required/);
    expect(fake.invoiceCount(`ordo-${invoice.id}`)).toBe(0);
  });

  it("refuses a euro invoice to a customer Visma keeps in kronor, since the draft takes the customer's currency", async () => {
    const invoice = { ...sampleInvoice(nextCustomer()), currency: 'EUR' as const };
    const err = await send(invoice).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ErpError);
    expect((err as ErpError).vendorMessage).toMatch(/currency/);
    expect(fake.invoiceCount(`ordo-${invoice.id}`)).toBe(0);
  });

  it('refuses a green technology reduction before sending anything', async () => {
    const invoice = rotInvoice({ kind: 'green' });
    const requests = fake.requestCount();
    const { session } = testSession(credentials);
    const prepared = await prepareInvoice(provider, session, invoice);
    const before = fake.requestCount();
    expect(before).toBeGreaterThan(requests);
    const err = await provider.sendInvoice(session, prepared, `ordo-${invoice.id}`, { firstAttempt: true }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ErpError);
    expect((err as ErpError).retryable).toBe(false);
    expect(fake.requestCount()).toBe(before);
  });

  it("takes Ordo's three-decimal quantities with two: the row's total kept, Ordo's quantity and price in its text", async () => {
    const base = sampleWithFeeRow();
    const invoice: ErpInvoice = {
      ...base,
      rows: [base.rows[0]!, { ...base.rows[1]!, amount: '1.125', price: '40.00', discount: null, total: '45.00' }, fee],
      totalPrice: '1385.00',
      totalVat: '346.25',
      rounding: '-0.25',
      total: '1731.00',
    };
    const { draft } = await send(invoice);
    expect(articleRows(draft)[1]).toMatchObject({
      Quantity: 1.13,
      UnitPrice: 39.82,
      Amount: 45,
      Text: 'Smoke detector (1.125 × 40.00)',
    });
    expect(draft).toMatchObject({ TotalAmount: 1731, TotalVatAmount: 346.25 });
  });

  it('refuses before sending anything a row whose total two-decimal figures cannot keep', async () => {
    const base = sampleInvoice(nextCustomer());
    // 1.125 × 45.00 = 50.63 at 12 %, the only row at that rate: 1.13 × 44.80 = 50.62, 1.13 × 44.81 = 50.64
    const invoice: ErpInvoice = {
      ...base,
      rows: [
        base.rows[0]!,
        { ...base.rows[1]!, amount: '1.125', price: '45.00', discount: null, total: '50.63', vatPercent: '12' },
      ],
      fee: null,
      totalPrice: '1350.63',
      totalVat: '331.08',
      rounding: '0.29',
      total: '1682.00',
    };
    const { session } = testSession(credentials);
    const prepared = await prepareInvoice(provider, session, invoice);
    const before = fake.requestCount();
    const err = await provider.sendInvoice(session, prepared, `ordo-${invoice.id}`, { firstAttempt: true }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(erpStopOf(err)).toMatchObject({ reason: 'ERP_ROW_NOT_SENDABLE', needsChecking: false });
    expect((err as ErpStop).vendorMessage).toMatch(/Smoke detector.*1\.125 × 45\.00 = 50\.63/);
    expect(fake.requestCount()).toBe(before);
    expect(fake.invoiceCount(`ordo-${invoice.id}`)).toBe(0);
  });

  it('refuses, as Visma does, a quantity of three decimals', async () => {
    const { session, prepared } = await send(sampleInvoice(nextCustomer()));
    const res = await fetch(`${fake.url}/v2/customerinvoicedrafts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${session.credentials!.accessToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        CustomerId: prepared.customer.externalId,
        EuThirdParty: false,
        RotReducedInvoicingType: 0,
        Rows: [
          {
            ArticleId: prepared.rows[1]!.externalArticleId,
            IsTextRow: false,
            Quantity: 1.125,
            UnitPrice: 40,
            ReversedConstructionServicesVatFree: false,
          },
        ],
      }),
    });
    expect(res.status).toBe(400);
    const body = (await res.json()) as Json;
    expect(body).toMatchObject({ ErrorCode: 2000, Errors: [expect.objectContaining({ Field: 'Rows[0].Quantity' })] });
  });

  it('reports a ROT job of less than an hour as the one hour Visma takes', async () => {
    const base = rotInvoice();
    const invoice: ErpInvoice = {
      ...base,
      rows: [{ ...base.rows[0]!, amount: '0.5', total: '325.00' }, base.rows[1]!, fee],
      totalPrice: '905.00',
      totalVat: '226.25',
      rounding: '-0.25',
      total: '1131.00',
      // 30 % of 325 × 1.25 = 121.875, whole kronor down
      taxReduction: {
        ...base.taxReduction!,
        amount: '121.00',
        persons: [{ personId: '19800101-1234', amount: '121.00' }],
      },
    };
    const { draft } = await send(invoice);
    expect(articleRows(draft)[0]).toMatchObject({ IsWorkCost: true, Quantity: 0.5, WorkHours: 1, Amount: 325 });
    expect(draft.TotalAmount).toBe(1131);
  });

  it("a retry compares SubscriptionNumber itself: a list answered unfiltered does not make another delivery's draft ours", async () => {
    const other = await send(sampleInvoice(nextCustomer()));
    const { session } = testSession(credentials);
    const invoice = await prepareInvoice(provider, session, sampleInvoice(nextCustomer()));
    const key = `ordo-${invoice.id}`;
    fake.filterSupport('SubscriptionNumber', 'ignores');
    try {
      const sent = await provider.sendInvoice(session, invoice, key, { firstAttempt: false });
      expect(sent.externalId).not.toBe(other.sent.externalId);
      expect(fake.invoice(sent.externalId)).toMatchObject({ SubscriptionNumber: key });
      expect(fake.invoiceCount(key)).toBe(1);
      // and the next retry finds this one among all the drafts
      expect(await provider.sendInvoice(session, invoice, key, { firstAttempt: false })).toEqual(sent);
      expect(fake.invoiceCount(key)).toBe(1);
    } finally {
      fake.filterSupport('SubscriptionNumber', 'filters');
    }
  });

  it('stops as "needs checking" when Visma refuses to search for the key, instead of making a second draft', async () => {
    const { session } = testSession(credentials);
    const invoice = await prepareInvoice(provider, session, sampleInvoice(nextCustomer()));
    const key = `ordo-${invoice.id}`;
    // the first try's draft is made, but its answer is lost
    fake.dropNextCreateResponse();
    await expect(provider.sendInvoice(session, invoice, key, { firstAttempt: true })).rejects.toThrow();
    expect(fake.invoiceCount(key)).toBe(1);
    fake.filterSupport('SubscriptionNumber', 'refuses');
    try {
      const err = await provider.sendInvoice(session, invoice, key, { firstAttempt: false }).then(
        () => null,
        (e: unknown) => e,
      );
      expect(erpStopOf(err)).toEqual({ reason: 'ERP_NEEDS_CHECKING', needsChecking: true, references: [] });
      expect((err as ErpStop).vendorMessage).toContain(key);
      expect(fake.invoiceCount(key)).toBe(1);
    } finally {
      fake.filterSupport('SubscriptionNumber', 'filters');
    }
  });

  it('stops as "needs checking" with both drafts when Visma holds the key twice', async () => {
    const { sent, key, session, prepared } = await send(sampleInvoice(nextCustomer()));
    // someone copied the draft in eEkonomi, SubscriptionNumber and all
    const copy = await fetch(`${fake.url}/v2/customerinvoicedrafts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${session.credentials!.accessToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        CustomerId: prepared.customer.externalId,
        EuThirdParty: false,
        RotReducedInvoicingType: 0,
        SubscriptionNumber: key,
      }),
    });
    expect(copy.status).toBe(201);
    const copyId = String(((await copy.json()) as Json).Id);
    const err = await provider.sendInvoice(session, prepared, key, { firstAttempt: false }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(erpStopOf(err)).toEqual({
      reason: 'ERP_NEEDS_CHECKING',
      needsChecking: true,
      references: [sent.externalId, copyId],
    });
    expect(fake.invoiceCount(key)).toBe(2);
  });

  it('lists every article over all pages', async () => {
    const { session } = testSession(credentials);
    const article = { houseWork: false, isService: false, price: '12.50', unit: 'km' } as const;
    await provider.ensureArticle(
      session,
      { ...article, id: randomUUID(), articleNumber: 'MIL', title: 'Milersättning', vatPercent: '25' },
      null,
    );
    await provider.ensureArticle(
      session,
      { ...article, id: randomUUID(), articleNumber: 'BOK', title: 'Handbok', vatPercent: '6', unit: null },
      null,
    );
    expect(fake.articles().find((a) => a.Number === 'MIL')).toMatchObject({
      UnitAbbreviation: 'km',
      CodingName: 'Varor 25 %',
    });
    expect(fake.articles().find((a) => a.Number === 'BOK')).toMatchObject({
      UnitAbbreviation: 'st',
      CodingName: 'Varor 6 %',
    });
    const list = await provider.listArticles(session);
    expect(fake.articleCount()).toBeGreaterThan(3);
    expect(list).toHaveLength(fake.articleCount());
    expect(list.find((a) => a.articleNumber === 'ARB')).toMatchObject({
      title: 'Labour',
      unit: 'tim',
      price: '650.00',
    });
  });
});

const round2 = (x: number) => Math.round(x * 100) / 100;

describe('[erp] Visma eEkonomi supplier invoices', () => {
  let supplierSeq = 80_000 + Math.floor(Math.random() * 1e4);
  const nextSupplier = () => String(++supplierSeq);

  async function book(invoice = sampleSupplierInvoice(nextSupplier()), firstAttempt = true) {
    const { session } = testSession(credentials);
    const prepared = await prepareSupplierInvoice(provider, session, invoice);
    const key = `ordo-si-${invoice.id}`;
    const sent = await provider.sendSupplierInvoice!(session, prepared, key, { firstAttempt });
    return { sent, key, session, prepared, draft: fake.supplierInvoice(sent.externalId) as Json };
  }

  it('sends the cost rows without VAT on the accounts supplierRowAccounts chose; Visma books 2440 and the VAT', async () => {
    const invoice = sampleSupplierInvoice(nextSupplier());
    const { sent, draft, key } = await book(invoice);
    expect(sent.externalNr).toBeNull();
    expect(draft).toMatchObject({
      InvoiceNumber: invoice.invoiceNumber,
      InvoiceDate: '2026-11-18T00:00:00',
      DueDate: '2026-12-18T00:00:00',
      TotalAmount: 1474,
      Vat: 274,
      IsCreditInvoice: false,
      CurrencyCode: 'SEK',
      OcrNumber: '4512300014',
      // The payment message stays free: it is what the supplier sees when there is no OCR.
      Message: null,
    });
    expect(
      (draft.Rows as Json[]).map((r) => [r.AccountNumber, r.DebitAmount, r.CreditAmount, r.TransactionText]),
    ).toEqual([
      [4010, 1000, 0, 'Smoke detectors'],
      [5831, 200, 0, 'Food for the crew'],
    ]);
    expect(JSON.stringify(draft)).not.toContain(key);
  });

  it('books the öre rounding as a row of its own on the tenant’s rounding account', async () => {
    const base = sampleSupplierInvoice(nextSupplier());
    const { draft } = await book({
      ...base,
      rows: [{ ...base.rows[0]!, amount: '999.70', vat: '249.93' }, base.rows[1]!],
      totalPrice: '1199.70',
      totalVat: '273.93',
      rounding: '0.37',
      total: '1474.00',
    });
    expect((draft.Rows as Json[]).at(-1)).toMatchObject({
      AccountNumber: 3740,
      DebitAmount: 0.37,
      TransactionText: 'Öresavrundning',
    });
    expect(draft).toMatchObject({ TotalAmount: 1474, Vat: 273.93 });
  });

  it('a credit invoice: negative total, IsCreditInvoice and the costs as credits', async () => {
    const base = sampleSupplierInvoice(nextSupplier());
    const { draft } = await book({
      ...base,
      rows: [{ ...base.rows[1]!, amount: '-200.00', vat: '-24.00' }],
      totalPrice: '-200.00',
      totalVat: '-24.00',
      total: '-224.00',
    });
    expect(draft).toMatchObject({ TotalAmount: -224, Vat: -24, IsCreditInvoice: true });
    expect((draft.Rows as Json[])[0]).toMatchObject({ AccountNumber: 5831, DebitAmount: 0, CreditAmount: 200 });
  });

  it('creates the supplier with its bank details and terms for purchases, and updates a changed card without losing the company’s own fields', async () => {
    const invoice = sampleSupplierInvoice(nextSupplier());
    const supplier = { ...invoice.supplier, iban: 'SE45 5000 0000 0583 9825 7466', bic: 'essesess' };
    const { session } = testSession(credentials);
    const id = await provider.ensureSupplier!(session, supplier, null);
    const card = () => fake.suppliers().find((x) => x.Id === id)!;
    expect(card()).toMatchObject({
      SupplierNumber: supplier.supplierNumber,
      Name: supplier.name,
      CorporateIdentityNumber: '556012-3456',
      VatNumber: 'SE556012345601',
      EmailAddress: 'faktura@supplier.se',
      Telephone: '031-12 34 56',
      Address1: 'Industrigatan 4',
      PostalCode: '415 05',
      City: 'Göteborg',
      CountryCode: 'SE',
      BankgiroNumber: '5050-1055',
      BankIban: 'SE4550000000058398257466',
      BankBic: 'ESSESESS',
      IsActive: true,
    });
    expect(card().PlusgiroNumber).toBeNull();
    // The company adds a note of its own in eEkonomi; then the bankgiro changes in Ordo.
    card().Note = 'Ring före leverans';
    const count = fake.supplierCount();
    expect(await provider.ensureSupplier!(session, { ...supplier, bankgiro: '5555-1234' }, id)).toBe(id);
    expect(fake.supplierCount()).toBe(count);
    expect(card()).toMatchObject({ BankgiroNumber: '5555-1234', Note: 'Ring före leverans' });
  });

  it('a retry after the accountant converted the draft answers the supplier invoice it became', async () => {
    const { sent, session, prepared, key } = await book();
    const invoice = fake.convertSupplierInvoiceDraft(sent.externalId);
    const again = await provider.sendSupplierInvoice!(session, prepared, key, { firstAttempt: false });
    expect(again).toEqual({ externalId: sent.externalId, externalNr: String(invoice.Number) });
    expect(fake.supplierInvoiceCount(key)).toBe(1);
  });

  it('asks Visma to refuse an invoice number the supplier already has there, and shows Visma’s text', async () => {
    const { session, prepared } = await book();
    const err = await provider.sendSupplierInvoice!(
      session,
      { ...prepared, id: randomUUID() },
      `ordo-si-${randomUUID()}`,
      { firstAttempt: true },
    ).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ErpError);
    expect((err as ErpError).code).toBe('INVOICE_WAS_NOT_CREATED_IN_ERP');
    expect((err as ErpError).vendorMessage).toMatch(/already exists/);
  });

  it('refuses figures that do not add up before sending anything', async () => {
    const { session } = testSession(credentials);
    const invoice = await prepareSupplierInvoice(provider, session, sampleSupplierInvoice(nextSupplier()));
    const before = fake.requestCount();
    await expect(
      provider.sendSupplierInvoice!(session, { ...invoice, totalVat: '270.00' }, `ordo-si-${invoice.id}`, {
        firstAttempt: true,
      }),
    ).rejects.toMatchObject({ code: 'INVOICE_WAS_NOT_CREATED_IN_ERP', retryable: false });
    expect(fake.requestCount()).toBe(before);
  });

  it('asks for the ea:purchase scope', () => {
    if (provider.auth.type !== 'oauth2') throw new Error('oauth2 expected');
    const url = new URL(provider.auth.authorizeUrl({ redirectUri: 'https://ordo.test/cb', state: 's' }));
    expect(url.searchParams.get('scope')?.split(' ')).toContain('ea:purchase');
  });
});
