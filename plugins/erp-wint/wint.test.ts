import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErpError } from '~/core/extension-points/erp-http';
import {
  isErpCustomerConflict,
  type ErpCustomerConflict,
  type ErpInvoice,
  type ErpProvider,
} from '~/core/extension-points/erp-provider';
import { companyInvoice, feeRow, prepareInvoice, testSession } from '~/tests/erp-contract/erp-contract';
import { startWintFake, type WintFake } from '~/tests/fakes/wint';
import wint, { articleNumberOf, rowPricing, wintMessage } from './index';

/* What is particular to Wint, against tests/fakes/wint.ts (field names as in Wint's OpenAPI document). */

let fake: WintFake;
let provider: ErpProvider;
let marking: ErpProvider;
let credentials: { username: string; apiKey: string };
let seq = 7000;

beforeAll(async () => {
  fake = await startWintFake({ rateLimit: { requests: 50, perMs: 1000 } });
  const base = { apiBaseUrl: fake.url, requestsPerWindow: 50, windowMs: 1000 };
  provider = wint.create(wint.options.parse(base));
  marking = wint.create(wint.options.parse({ ...base, sendMethod: 'MarkAsSent', rotWorkTypeName: 'El' }));
  credentials = { username: fake.username, apiKey: fake.apiKey };
});
afterAll(() => fake.close());

const session = () => testSession(credentials).session;
async function send(invoice: ErpInvoice, p = provider) {
  const prepared = await prepareInvoice(p, session(), invoice);
  const sent = await p.sendInvoice(session(), prepared, `ordo-${prepared.id}`, { firstAttempt: true });
  return { prepared, sent, stored: fake.invoice(sent.externalId)! };
}
const refusal = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: unknown) => e as ErpError,
  );

describe('wint', () => {
  it('boots from {} with Wint production URL and connects with a username and an API key', () => {
    const o = wint.options.parse({});
    expect(o.apiBaseUrl).toBe('https://superkollapi.wint.se');
    expect(o.sendMethod).toBe('Draft');
    expect(provider.auth).toEqual({ type: 'api-key', fields: ['username', 'apiKey'] });
    expect(provider.capabilities.supplierInvoices).toBe(false);
  });

  it('answers the company name, and maps missing and refused credentials', async () => {
    await expect(provider.testConnection(session())).resolves.toEqual({ companyName: 'Larmteknik i Norr AB' });
    const missing = await refusal(provider.testConnection(testSession({ username: fake.username }).session));
    expect(missing?.code).toBe('ERP_NOT_CONNECTED');
    const refused = await refusal(
      provider.testConnection(testSession({ username: fake.username, apiKey: 'wrong' }).session),
    );
    expect(refused?.code).toBe('ERP_AUTH_FAILED');
    expect(refused?.status).toBe(401);
  });

  it('writes the invoice in Wint fields: draft, references, notes, article rows overridden, the fee as a free row', async () => {
    const { sent, stored, prepared } = await send(companyInvoice(String(++seq)));
    expect(sent.externalInvoiceNr).toBeNull();
    expect(stored).toMatchObject({
      Status: 'NotSent',
      SerialNumber: null,
      CustomerId: Number(prepared.customer.externalId),
      Currency: 'SEK',
      Language: 'SV',
      PostingDate: '2026-11-20T00:00:00',
      DueDate: '2026-12-20T00:00:00',
      DeliveryDate: '2026-11-19T00:00:00',
      ContactPerson: 'Maria Lindqvist',
      CustomerReference: { ReferenceName: 'Erik Holm' },
      ExternalInvoiceReferences: [{ SystemName: 'Ordo', ExternalId: `ordo-${prepared.id}` }],
      InvoiceHouseWorkType: 'None',
      Notes: 'Service of alarm\nMärkning: Ref 12\nEr ordernr: PO-77',
    });
    const rows = stored.Rows as Record<string, unknown>[];
    // 3 × 200 less 10 % = 540: the net unit price 180 carries the discount Wint rows cannot hold.
    expect(rows[1]).toMatchObject({
      ArticleId: Number(prepared.rows[1]!.externalArticleId),
      Quantity: 3,
      OverriddenUnitPrice: 180,
      OverriddenVat: 25,
      OverriddenDescription: 'Smoke detector',
    });
    // Wint's sums are Ordo's: 1300 + 540 (+ the fee when it is a row) with 25 % VAT.
    expect(stored.TotalTax).toBe(460);
    expect(stored.TotalAmount).toBe(2300);
  });

  it('sends the fee once, as a row of the free-row article with its own text, price and VAT (ArticleId cannot be left out)', async () => {
    const base = companyInvoice(String(++seq));
    const invoice: ErpInvoice = {
      ...base,
      rows: [...base.rows, feeRow()],
    };
    const { stored } = await send(invoice);
    const rows = stored.Rows as Record<string, unknown>[];
    expect(rows).toHaveLength(3);
    const free = fake.articles().filter((a) => a.Text === 'ORDO-FRI – Fri rad');
    expect(free).toHaveLength(1);
    expect(rows[2]).toMatchObject({
      ArticleId: free[0]!.Id,
      OverriddenDescription: 'Fakturaavgift',
      OverriddenUnitPrice: 40,
      OverriddenVat: 25,
      Quantity: 1,
    });
    expect(stored.TotalAmount).toBe(2350);
    // a second invoice's free rows name the same article
    await send({ ...companyInvoice(String(++seq)), rows: [...base.rows, feeRow()] });
    expect(fake.articles().filter((a) => a.Text === 'ORDO-FRI – Fri rad')).toHaveLength(1);
  });

  it('a discount that does not divide to the öre goes as one unit at the row total, the quantity in the text', () => {
    const row = companyInvoice('1').rows[1]!;
    expect(
      rowPricing({
        ...row,
        amount: '3',
        price: '99.99',
        total: '269.97',
        discount: { type: 'PERCENTAGE', value: '10' },
      }),
    ).toEqual({
      quantity: 3,
      unitPrice: 89.99,
      note: null,
    });
    expect(
      rowPricing({ ...row, amount: '3', price: '100.00', total: '290.00', discount: { type: 'REGULAR', value: '10' } }),
    ).toEqual({ quantity: 1, unitPrice: 290, note: '3.00 st à 100.00' });
  });

  it('reverse VAT: every row at 0 % and the legal text in Notes', async () => {
    const base = companyInvoice(String(++seq));
    const { stored } = await send({
      ...base,
      reverseVat: true,
      rows: base.rows.map((r) => ({ ...r, vatPercent: '0' as const })),
      totalVat: '0.00',
      notes: ['Omvänd betalningsskyldighet för byggtjänster gäller'],
    });
    expect((stored.Rows as Record<string, unknown>[]).map((r) => r.OverriddenVat)).toEqual([0, 0]);
    expect(String(stored.Notes)).toContain('Omvänd betalningsskyldighet för byggtjänster gäller');
    expect(stored.TotalTax).toBe(0);
  });

  it('ROT: the house-work type, the person number, the property and the work type on labour rows', async () => {
    const base = companyInvoice(String(++seq));
    const invoice: ErpInvoice = {
      ...base,
      customer: {
        ...base.customer,
        type: 'private',
        organizationalNumber: null,
        vatNumber: null,
        personId: '19700101-1234',
      },
      rows: base.rows.map((r, i) => (i === 0 ? { ...r, houseWork: true } : r)),
      taxReduction: {
        kind: 'ROT',
        amount: '487.50',
        propertyDesignation: 'Umeå Sävar 1:23',
        housingAssociationOrgNr: null,
        persons: [{ personId: '19700101-1234', amount: '487.50' }],
      },
    };
    const { stored } = await send(invoice, marking);
    expect(stored).toMatchObject({
      InvoiceHouseWorkType: 'ROT',
      CustomerPersonNumber: '19700101-1234',
      InvoiceRotPropertyType: 'House',
      PropertyDesignation: 'Umeå Sävar 1:23',
    });
    const rows = stored.Rows as Record<string, unknown>[];
    // rotWorkTypeName "El" picks that RutRotWorkType; hours go as HouseWorkHours.
    expect(rows[0]).toMatchObject({ Rot: true, Rut: false, HouseWorkTypeId: 2, HouseWorkHours: 2 });
    expect(rows[1]).toMatchObject({ Rot: false });
  });

  it('refuses what Wint cannot carry: green technology, and a reduction split between several persons', async () => {
    const base = await prepareInvoice(provider, session(), companyInvoice(String(++seq)));
    const tr = { amount: '100.00', propertyDesignation: 'X 1:1', housingAssociationOrgNr: null };
    const green = await refusal(
      provider.sendInvoice(session(), { ...base, taxReduction: { ...tr, kind: 'green', persons: [] } }, 'ordo-g', {
        firstAttempt: true,
      }),
    );
    expect(green?.code).toBe('INVOICE_WAS_NOT_CREATED_IN_ERP');
    expect(green?.retryable).toBe(false);
    expect(green?.vendorMessage).toMatch(/green/);
    const two = await refusal(
      provider.sendInvoice(
        session(),
        {
          ...base,
          taxReduction: {
            ...tr,
            kind: 'ROT',
            persons: [
              { personId: '19700101-1234', amount: '50.00' },
              { personId: '19720202-2345', amount: '50.00' },
            ],
          },
        },
        'ordo-two',
        { firstAttempt: true },
      ),
    );
    expect(two?.vendorMessage).toMatch(/one person number/);
    expect(fake.invoiceCount('ordo-g') + fake.invoiceCount('ordo-two')).toBe(0);
  });

  it('MarkAsSent books and numbers the invoice at once; a draft sent later in Wint is read back with its number', async () => {
    const marked = await send(companyInvoice(String(++seq)), marking);
    expect(marked.stored.Status).toBe('Unpaid');
    expect(marked.sent.externalInvoiceNr).toBe(String(marked.stored.SerialNumber));

    const draft = await send(companyInvoice(String(++seq)));
    expect(draft.sent.externalInvoiceNr).toBeNull();
    fake.sendInWint(draft.sent.externalId);
    const read = await provider.readInvoice(session(), draft.sent.externalId);
    expect(read).toEqual({
      externalId: draft.sent.externalId,
      externalInvoiceNr: String(fake.invoice(draft.sent.externalId)!.SerialNumber),
      state: 'success',
    });
    await expect(provider.readInvoice(session(), '999999')).resolves.toMatchObject({ state: 'unknown' });
  });

  it('a retry of a draft whose MarkAsSent failed finds it by its reference and sends it, making no second invoice', async () => {
    const prepared = await prepareInvoice(marking, session(), companyInvoice(String(++seq)));
    const key = `ordo-${prepared.id}`;
    // a try that created the draft but never got to MarkAsSent (here: made by the Draft configuration)
    await provider.sendInvoice(session(), prepared, key, { firstAttempt: true });
    const sent = await marking.sendInvoice(session(), prepared, key, { firstAttempt: false });
    expect(fake.invoiceCount(key)).toBe(1);
    expect(sent.externalInvoiceNr).not.toBeNull();
  });

  it('the fake refuses a row whose ArticleId is null or left out, as the non-nullable int32 of the schema', async () => {
    const { prepared } = await send(companyInvoice(String(++seq)));
    const post = (row: Record<string, unknown>) =>
      fetch(`${fake.url}/api/Invoice`, {
        method: 'POST',
        headers: {
          authorization: `Basic ${Buffer.from(`${fake.username}:${fake.apiKey}`).toString('base64')}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify({
          CustomerId: Number(prepared.customer.externalId),
          Currency: 'SEK',
          Language: 'SV',
          DueDate: '2026-12-20T00:00:00',
          Rows: [{ Quantity: 1, Description: 'Fri rad', UnitPrice: 10, Vat: 25, ...row }],
        }),
      });
    const nulled = await post({ ArticleId: null });
    expect(nulled.status).toBe(400);
    expect(JSON.stringify(await nulled.json())).toContain('System.Int32');
    const omitted = await post({});
    expect(omitted.status).toBe(400);
    expect(((await omitted.json()) as { detail: string }).detail).toBe('Article with id 0 does not exist');
  });

  it('finds a customer by organisation number and name (Wint has no customer number), and updates a changed card', async () => {
    const invoice = companyInvoice(String(++seq));
    const id = await provider.ensureCustomer(session(), invoice.customer, null);
    const again = await provider.ensureCustomer(
      session(),
      { ...invoice.customer, email: 'new@customer.se', address: { ...invoice.customer.address, city: 'Umeå' } },
      null,
    );
    expect(again).toBe(id);
    const card = fake.customers().find((c) => String(c.Id) === id)!;
    expect(card).toMatchObject({
      Name: invoice.customer.name,
      Type: 'Company',
      OrgNumber: invoice.customer.organizationalNumber,
      VatNumber: invoice.customer.vatNumber,
      EmailAddress: 'new@customer.se',
      PaymentTerms: 30,
      BillingAddress: { Street1: 'Storgatan 1', ZipCode: '111 22', City: 'Umeå', CountryCode: 'SE' },
    });
  });

  it('an update keeps what Wint holds and Ordo does not: the PUT is the whole card with Ordo’s fields changed', async () => {
    const invoice = companyInvoice(String(++seq));
    // a card the company's bookkeeper keeps in Wint, with what Ordo knows nothing of
    const card = fake.addCustomer({
      Name: invoice.customer.name,
      Type: 'Company',
      OrgNumber: invoice.customer.organizationalNumber!.replace('-', ''),
      EmailAddress: 'ekonomi@customer.se',
      PhoneNumber: '08-111 11 11',
      Language: 'EN',
      BillingAddress: { Street1: 'Box 12', Street2: 'Att: Ekonomi', ZipCode: '111 22', City: 'Stockholm' },
      DeliveryAddress: { Street1: 'Lagervägen 3', ZipCode: '123 45', City: 'Solna' },
      ReferencePersonsList: [{ Name: 'Eva Ek' }],
    });
    const ordo = {
      ...invoice.customer,
      email: null,
      phone: null,
      address: { ...invoice.customer.address, street: 'Storgatan 1' },
    };
    // found by its organisation number, written without the dash in Wint
    expect(await provider.ensureCustomer(session(), ordo, null)).toBe(String(card.Id));
    expect(fake.customers().find((c) => c.Id === card.Id)).toMatchObject({
      Name: invoice.customer.name,
      OrgNumber: invoice.customer.organizationalNumber!.replace('-', ''),
      EmailAddress: 'ekonomi@customer.se',
      PhoneNumber: '08-111 11 11',
      Language: 'EN',
      BillingAddress: { Street1: 'Storgatan 1', Street2: 'Att: Ekonomi', ZipCode: '111 22', City: 'Stockholm' },
      DeliveryAddress: { Street1: 'Lagervägen 3', ZipCode: '123 45', City: 'Solna' },
      ReferencePersonsList: [{ Name: 'Eva Ek' }],
    });
  });

  it('asks the office when Wint’s cards leave it unclear: the organisation number under another name, or the name without a number', async () => {
    const conflictOf = (p: Promise<unknown>) =>
      p.then(
        () => null,
        (e: unknown) => (isErpCustomerConflict(e) ? e : Promise.reject(e)),
      ) as Promise<ErpCustomerConflict | null>;
    const invoice = companyInvoice(String(++seq));
    const site = fake.addCustomer({
      Name: 'Fastighets AB Norr, Umeåkontoret',
      Type: 'Company',
      OrgNumber: invoice.customer.organizationalNumber,
      BillingAddress: { City: 'Umeå' },
    });
    const count = fake.customerCount();
    const otherName = await conflictOf(provider.ensureCustomer(session(), invoice.customer, null));
    expect(otherName?.reason).toBe('other_name');
    expect(otherName!.candidates).toEqual([
      {
        externalId: String(site.Id),
        number: null,
        name: 'Fastighets AB Norr, Umeåkontoret',
        organizationalNumber: invoice.customer.organizationalNumber,
        vatNumber: null,
      },
    ]);
    expect(fake.customerCount()).toBe(count);
    // the office said "a new customer"
    const created = await provider.ensureCustomer(session(), invoice.customer, null, { createNew: true });
    expect(created).not.toBe(String(site.Id));
    expect(fake.customers().find((c) => String(c.Id) === String(site.Id))).toMatchObject({
      Name: 'Fastighets AB Norr, Umeåkontoret',
    });

    const unnumbered = companyInvoice(String(++seq));
    const same = fake.addCustomer({
      Name: unnumbered.customer.name,
      Type: 'Company',
      BillingAddress: { City: 'Luleå' },
    });
    const sameName = await conflictOf(provider.ensureCustomer(session(), unnumbered.customer, null));
    expect(sameName?.reason).toBe('same_name');
    expect(sameName!.candidates.map((c) => c.externalId)).toEqual([String(same.Id)]);
    // the office said "that one": the mapping names it, and the number it lacked is filled in
    expect(await provider.ensureCustomer(session(), unnumbered.customer, String(same.Id))).toBe(String(same.Id));
    expect(fake.customers().find((c) => c.Id === same.Id)).toMatchObject({
      OrgNumber: unnumbered.customer.organizationalNumber,
      BillingAddress: { City: 'Stockholm' },
    });
  });

  it('keeps Ordo article numbers in the article Text and lists them back', async () => {
    const id = await provider.ensureArticle(
      session(),
      {
        id: 'a',
        articleNumber: 'KAB-5',
        title: 'Kabel 5 m',
        unit: 'st',
        price: '129.50',
        isService: false,
        houseWork: false,
        vatPercent: '25',
      },
      null,
    );
    const stored = fake.articles().find((a) => String(a.Id) === id)!;
    expect(stored).toMatchObject({ Text: 'KAB-5 – Kabel 5 m', UnitPrice: 129.5, Vat: 25 });
    expect(articleNumberOf({ Id: 9, Text: 'Serviceavgift' })).toBe('9');
    const listed = (await provider.listArticles(session())).find((a) => a.externalId === id);
    expect(listed).toEqual({ externalId: id, articleNumber: 'KAB-5', title: 'Kabel 5 m', unit: null, price: '129.50' });
  });

  it("Wint's refusals keep Wint's text: ProblemDetails detail, title and field errors", async () => {
    expect(wintMessage({ title: 'Bad Request', status: 400, detail: 'VAT must be either 0, 6, 12 or 25' }, '')).toBe(
      'VAT must be either 0, 6, 12 or 25',
    );
    expect(
      wintMessage({ title: 'One or more validation errors occurred.', errors: { '$.Rows[1].ArticleId': ['bad'] } }, ''),
    ).toBe('One or more validation errors occurred.; $.Rows[1].ArticleId: bad');
    const base = await prepareInvoice(provider, session(), companyInvoice(String(++seq)));
    const err = await refusal(
      provider.sendInvoice(
        session(),
        { ...base, rows: base.rows.map((r) => ({ ...r, externalArticleId: '424242' })) },
        'ordo-x',
        {
          firstAttempt: true,
        },
      ),
    );
    expect(err).toBeInstanceOf(ErpError);
    expect(err?.code).toBe('INVOICE_WAS_NOT_CREATED_IN_ERP');
    expect(err?.status).toBe(400);
    expect(err?.vendorMessage).toBe('Article with id 424242 does not exist');
  });
});
