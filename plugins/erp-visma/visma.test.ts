import { describe, expect, it } from 'vitest';
import { ErpError } from '~/core/extension-points/erp-http';
import type { ErpInvoice, ErpInvoiceRow } from '~/core/extension-points/erp-provider';
import { sampleInvoice, testSession } from '~/tests/erp-contract/erp-contract';
import {
  checkVismaAdministrationFile,
  startVismaAdministrationFake,
  VismaImportError,
} from '~/tests/fakes/visma-administration';
import plugin from './index';

const provider = plugin.create(plugin.options.parse({}));
const fileOf = (invoice: ErpInvoice) => provider.invoiceFile!(invoice);
const readBack = (invoice: ErpInvoice) => checkVismaAdministrationFile(fileOf(invoice).body);

const labourRow = (over: Partial<ErpInvoiceRow> = {}): ErpInvoiceRow => ({
  kind: 'labour',
  articleId: '00000000-0000-4000-8000-00000000a001',
  articleNumber: 'ARB',
  externalArticleId: null,
  description: 'Labour',
  amount: '2',
  unit: 'h',
  price: '650.00',
  discount: null,
  total: '1300.00',
  vatPercent: '25',
  houseWork: false,
  account: '3001',
  ...over,
});

/** Reverse charge (byggtjänst): no VAT on any row or the fee, the legal wording in the notes. */
function reverseVatInvoice(): ErpInvoice {
  const base = sampleInvoice('2002');
  return {
    ...base,
    reverseVat: true,
    customer: { ...base.customer, reverseVat: true },
    rows: base.rows.map((r) => ({ ...r, vatPercent: '0', account: '3231' })),
    totalVat: '0.00',
    rounding: '0.00',
    total: '1880.00',
    notes: ['Omvänd betalningsskyldighet'],
  };
}

/** ROT for a private person, shared by two; the fee comes as a row of kind "fee" as well. */
function rotInvoice(): ErpInvoice {
  const base = sampleInvoice('3003');
  return {
    ...base,
    customer: {
      ...base.customer,
      name: 'Anna Öberg',
      type: 'private',
      organizationalNumber: null,
      personId: '19800101-1234',
      vatNumber: null,
    },
    rows: [
      labourRow({ houseWork: true }),
      base.rows[1]!,
      {
        kind: 'fee',
        articleId: null,
        articleNumber: null,
        externalArticleId: null,
        description: 'Fakturaavgift',
        amount: '1',
        unit: null,
        price: '40.00',
        discount: null,
        total: '40.00',
        vatPercent: '25',
        houseWork: false,
        account: '3541',
      },
    ],
    fee: '40.00',
    // 1300 × 1.25 = 1625 of labour with VAT; 30 % of it, whole kronor down: 487.
    taxReduction: {
      kind: 'ROT',
      amount: '487.00',
      propertyDesignation: 'Stockholm Söder 1:23',
      housingAssociationOrgNr: null,
      persons: [
        { personId: '198001011234', amount: '244.00' },
        { personId: '198202022345', amount: '243.00' },
      ],
    },
  };
}

describe('erp-visma: the provider', () => {
  it('is a file provider: nothing to connect, nothing to send, ROT/RUT carried in the file', async () => {
    expect(plugin.id).toBe('visma');
    expect(plugin.erpKind).toBe('visma');
    expect(plugin.displayName).toBe('Visma Administration');
    expect(() => plugin.options.parse({ extra: 1 })).toThrow();
    expect(provider.capabilities).toEqual({
      sendInvoices: false,
      invoiceFile: true,
      readInvoice: false,
      listArticles: false,
      taxReduction: true,
      supplierInvoices: false,
    });
    expect(provider.auth).toEqual({ type: 'none' });
    const { session } = testSession(null);
    expect(await provider.testConnection(session)).toEqual({ companyName: null });
    expect(await provider.listArticles(session)).toEqual([]);
    const invoice = sampleInvoice('1000');
    for (const call of [
      () => provider.ensureCustomer(session, invoice.customer, null),
      () => provider.sendInvoice(session, invoice, 'ordo-x', { firstAttempt: true }),
      () => provider.readInvoice(session, '1'),
    ]) {
      const err = await call().then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(ErpError);
      expect((err as ErpError).code).toBe('ERP_NOT_CONNECTED');
    }
  });
});

describe('erp-visma: the invoice file', () => {
  it('writes the sample invoice as a file Visma Administration accepts, with its sums', () => {
    const invoice = sampleInvoice('1001');
    const file = fileOf(invoice);
    expect(file.fileName).toBe(`faktura-${invoice.invoiceNr}.xml`);
    expect(file.contentType).toBe('application/xml; charset=ISO-8859-1');
    expect(file.body.subarray(0, 44).toString('ascii')).toBe('<?xml version="1.0" encoding="ISO-8859-1"?>\r');

    const read = checkVismaAdministrationFile(file.body);
    expect(read.customer).toMatchObject({
      CUSTOMER_NUMBER: '1001',
      CUSTOMER_NAME: 'Contract Customer 1001',
      CUSTOMER_MAILING_ADDRESS: 'Storgatan 1',
      CUSTOMER_ZIPCODE: '111 22',
      CUSTOMER_CITY: 'Stockholm',
      CUSTOMER_ORGANISATION_NUMBER: '556677-8899',
      CUSTOMER_VAT_NUMBER: 'SE556677889901',
      CUSTOMER_EMAIL: 'invoice@customer.se',
      CUSTOMER_BUILDSERVICE: '0',
    });
    expect(read.head).toMatchObject({
      OOI_HEAD_DOCUMENT_NUMBER: invoice.invoiceNr,
      OOI_HEAD_DOCUMENT_DATE1: '2026-11-20',
      OOI_HEAD_DOCUMENT_DATE2: '2026-12-20',
      OOI_HEAD_CUSTOMER_NUMBER: '1001',
      OOI_HEAD_CUSTOMER_REFERENCE_NAME: 'Erik Holm',
      OOI_HEAD_OUR_REFERENCE_NAME: 'Maria Lindqvist',
      OOI_HEAD_CUSTOMER_ORDER_NUMBER: 'PO-77',
      OOI_HEAD_CURRENCY_CODE: 'SEK',
      OOI_HEAD_TEXT1: 'Service of alarm',
      OOI_HEAD_TEXT2: 'Ref 12',
      OOI_HEAD_BUILDSERVICE: '0',
      OOI_HEAD_DISPATCH_FEE: '40.00',
      OOI_HEAD_VAT_CODE_DISPATCH_FEE: '1',
      OOI_HEAD_BASIS_OF_VAT1: '1880.00',
      OOI_HEAD_AMOUNT_OF_VAT1: '470.00',
      OOI_HEAD_EXCLUDING_OF_VAT: '1880.00',
      OOI_HEAD_VAT_AMOUNT: '470.00',
      OOI_HEAD_ROUND_OFF: '0.00',
      OOI_HEAD_TOTAL_AMOUNT: '2350.00',
      OOI_HEAD_NROWS: '2',
    });
    expect(read.head.OOI_HEAD_OCR_NUMBER).toBeUndefined();
    expect(read.head.OOI_HEAD_TAX_REDUCTION_INCLUDED).toBeUndefined();
    expect(read.rows).toEqual([
      {
        OOI_ROW_ROWNUMBER: '1',
        OOI_ROW_ARTICLE_NUMBER: 'ARB',
        OOI_ROW_TEXT: 'Labour',
        OOI_ROW_QUANTITY1: '2',
        OOI_ROW_UNIT: 'h',
        OOI_ROW_PRICE_EACH_CURRENT_CURRENCY: '650.00',
        OOI_ROW_AMOUNT_CURRENT_CURRENCY: '1300.00',
        OOI_ROW_VAT_CODE: '1',
        OOI_ROW_ACCOUNT_NUMBER: '3001',
      },
      {
        OOI_ROW_ROWNUMBER: '2',
        OOI_ROW_ARTICLE_NUMBER: 'DET-100',
        OOI_ROW_TEXT: 'Smoke detector',
        OOI_ROW_QUANTITY1: '3',
        OOI_ROW_UNIT: 'st',
        OOI_ROW_PRICE_EACH_CURRENT_CURRENCY: '200.00',
        OOI_ROW_DISCOUNT: '10',
        OOI_ROW_AMOUNT_DISCOUNT_FLAG: '0',
        OOI_ROW_AMOUNT_CURRENT_CURRENCY: '540.00',
        OOI_ROW_VAT_CODE: '1',
        OOI_ROW_ACCOUNT_NUMBER: '3001',
      },
    ]);
    expect(read.taxReductions).toEqual([]);
  });

  it('writes a reverse-VAT invoice as byggtjänst: no VAT anywhere, the buyer’s VAT number and the legal text', () => {
    const read = readBack(reverseVatInvoice());
    expect(read.customer.CUSTOMER_BUILDSERVICE).toBe('1');
    expect(read.head).toMatchObject({
      OOI_HEAD_BUILDSERVICE: '1',
      OOI_HEAD_CUSTOMER_INVOICE_VAT_NUMBER: 'SE556677889901',
      OOI_HEAD_TEXT3: 'Omvänd betalningsskyldighet',
      OOI_HEAD_VAT_CODE_DISPATCH_FEE: '0',
      OOI_HEAD_BASIS_OF_VAT0: '1880.00',
      OOI_HEAD_BASIS_OF_VAT1: '0.00',
      OOI_HEAD_AMOUNT_OF_VAT1: '0.00',
      OOI_HEAD_VAT_AMOUNT: '0.00',
      OOI_HEAD_TOTAL_AMOUNT: '1880.00',
    });
    expect(read.rows.map((r) => [r.OOI_ROW_VAT_CODE, r.OOI_ROW_ACCOUNT_NUMBER])).toEqual([
      ['0', '3231'],
      ['0', '3231'],
    ]);
  });

  it('writes a ROT invoice with its basis, the persons’ shares and what is left to pay; the fee row once', () => {
    const invoice = rotInvoice();
    const read = readBack(invoice);
    expect(read.customer).toMatchObject({ CUSTOMER_NAME: 'Anna Öberg', CUSTOMER_ORGANISATION_NUMBER: '19800101-1234' });
    expect(read.head).toMatchObject({
      OOI_HEAD_TAX_REDUCTION_INCLUDED: '1',
      OOI_HEAD_TAX_REDUCTION_BUILDING_WORK: '1',
      OOI_HEAD_TAX_REDUCTION_GREEN_TECHNOLOGY: '0',
      OOI_HEAD_TAX_REDUCTION_TAX_BASIS: '1625.00',
      OOI_HEAD_TAX_REDUCTION: '487.00',
      OOI_HEAD_TAX_REDUCTION_NUMBER_OF_PERSONS: '2',
      OOI_HEAD_TAX_REDUCTION_DESCRIPTION_OF_PROPERTY: 'Stockholm Söder 1:23',
      OOI_HEAD_TAX_REDUCTION_AMOUNT_TO_PAY: '1863.00',
      // the fee row is the head's fee, not a third row
      OOI_HEAD_DISPATCH_FEE: '40.00',
      OOI_HEAD_DISPATCH_FEE_ACCOUNT: '3541',
      OOI_HEAD_EXCLUDING_OF_VAT: '1880.00',
      OOI_HEAD_TOTAL_AMOUNT: '2350.00',
      OOI_HEAD_NROWS: '2',
    });
    expect(read.rows[0]).toMatchObject({ OOI_ROW_LABOUR_COST: '1', OOI_ROW_HOURS_WORKED: '2' });
    expect(read.rows[1]!.OOI_ROW_LABOUR_COST).toBeUndefined();
    expect(read.taxReductions).toEqual([
      {
        TAX_REDUCTION_DOCUMENT_CONNECTION_NUMBER: invoice.invoiceNr,
        TAX_REDUCTION_PERSONAL_IDENTITY_NUMBER: '198001011234',
        TAX_REDUCTION_APPLIED_AMOUNT: '244.00',
      },
      {
        TAX_REDUCTION_DOCUMENT_CONNECTION_NUMBER: invoice.invoiceNr,
        TAX_REDUCTION_PERSONAL_IDENTITY_NUMBER: '198202022345',
        TAX_REDUCTION_APPLIED_AMOUNT: '243.00',
      },
    ]);
  });

  it('writes 12 % and 6 % rows, an amount discount, a text row and the öre rounding', () => {
    const base = sampleInvoice('4004');
    const invoice: ErpInvoice = {
      ...base,
      rows: [
        labourRow({
          kind: 'article',
          articleNumber: 'MAT-12',
          description: 'Food',
          amount: '4',
          unit: 'st',
          price: '100.00',
          discount: { type: 'REGULAR', value: '5' },
          total: '380.00',
          vatPercent: '12',
        }),
        { ...labourRow(), kind: 'text', articleId: null, articleNumber: null, description: 'Note for the customer' },
        labourRow({
          kind: 'article',
          articleNumber: 'BOK',
          description: 'Book',
          amount: '1',
          unit: 'st',
          price: '99.99',
          total: '99.99',
          vatPercent: '6',
        }),
      ],
      fee: null,
      totalPrice: '479.99',
      // 12 % of 380.00 = 45.60; 6 % of 99.99 = 6.00
      totalVat: '51.60',
      rounding: '0.41',
      total: '532.00',
    };
    const read = readBack(invoice);
    expect(read.rows[0]).toMatchObject({
      OOI_ROW_VAT_CODE: '2',
      OOI_ROW_DISCOUNT: '20.00',
      OOI_ROW_AMOUNT_DISCOUNT_FLAG: '1',
      OOI_ROW_AMOUNT_CURRENT_CURRENCY: '380.00',
    });
    expect(read.rows[1]).toEqual({ OOI_ROW_ROWNUMBER: '2', OOI_ROW_TEXT: 'Note for the customer' });
    expect(read.rows[2]).toMatchObject({ OOI_ROW_ROWNUMBER: '3', OOI_ROW_VAT_CODE: '3' });
    expect(read.head).toMatchObject({
      OOI_HEAD_AMOUNT_OF_VAT2: '45.60',
      OOI_HEAD_AMOUNT_OF_VAT3: '6.00',
      OOI_HEAD_ROUND_OFF: '0.41',
      OOI_HEAD_TOTAL_AMOUNT: '532.00',
    });
    expect(read.head.OOI_HEAD_DISPATCH_FEE).toBeUndefined();
  });

  it('escapes & < > and quotes in texts, and encodes ISO-8859-1 with references for the rest', () => {
    const base = sampleInvoice('5005');
    const invoice: ErpInvoice = {
      ...base,
      description: 'Rör & <kopplingar> "A" \'B\' – 5 €',
      marking: 'Skiftnyckel 🔧',
      customer: { ...base.customer, name: 'Åkesson & Öberg <AB>' },
      rows: [{ ...base.rows[0]!, description: 'Ventil <DN15> & packning' }, base.rows[1]!],
    };
    const body = fileOf(invoice).body;
    const raw = body.toString('latin1');
    expect(raw).toContain('<OOI_HEAD_TEXT1>Rör &amp; &lt;kopplingar&gt; "A" \'B\' &#8211; 5 &#8364;</OOI_HEAD_TEXT1>');
    expect(raw).toContain('<OOI_ROW_TEXT>Ventil &lt;DN15&gt; &amp; packning</OOI_ROW_TEXT>');
    expect(raw).toContain('<OOI_HEAD_TEXT2>Skiftnyckel &#128295;</OOI_HEAD_TEXT2>');
    // one byte a letter: Å is 0xC5 and Ö 0xD6, never UTF-8's two bytes
    expect(body.includes(Buffer.from([0x3e, 0xc5, 0x6b]))).toBe(true);
    expect(body.includes(Buffer.from('Å', 'utf8'))).toBe(false);
    expect([...body].every((b) => b < 0x80 || b >= 0xa0)).toBe(true);

    const read = checkVismaAdministrationFile(body);
    expect(read.head.OOI_HEAD_TEXT1).toBe(invoice.description);
    expect(read.head.OOI_HEAD_TEXT2).toBe(invoice.marking);
    expect(read.customer.CUSTOMER_NAME).toBe('Åkesson & Öberg <AB>');
    expect(read.rows[0]!.OOI_ROW_TEXT).toBe('Ventil <DN15> & packning');
  });

  it('is deterministic: the same invoice gives the same bytes', () => {
    for (const invoice of [sampleInvoice('6006'), reverseVatInvoice(), rotInvoice()]) {
      const a = fileOf(invoice);
      const b = fileOf(structuredClone(invoice));
      expect(b.fileName).toBe(a.fileName);
      expect(b.body.equals(a.body)).toBe(true);
    }
  });

  it('refuses an invoice it cannot write: a number that is not a number, figures that do not add up', () => {
    for (const broken of [
      sampleInvoice('7007', { invoiceNr: 'F-12' }),
      sampleInvoice('7007', { totalPrice: '1900.00' }),
      sampleInvoice('7007', { totalVat: '471.00' }),
      sampleInvoice('7007', { total: '2351.00' }),
    ]) {
      const err = (() => {
        try {
          fileOf(broken);
          return null;
        } catch (e) {
          return e;
        }
      })();
      expect(err).toBeInstanceOf(ErpError);
      expect((err as ErpError).code).toBe('INVOICE_WAS_NOT_CREATED_IN_ERP');
      expect((err as ErpError).vendorMessage).toBeTruthy();
    }
  });
});

describe('erp-visma: the import checker (tests/fakes/visma-administration)', () => {
  const good = () => fileOf(rotInvoice()).body;
  const refusal = (body: Buffer) => {
    try {
      checkVismaAdministrationFile(body);
      return [];
    } catch (e) {
      expect(e).toBeInstanceOf(VismaImportError);
      return (e as VismaImportError).problems;
    }
  };
  const edit = (body: Buffer, from: string, to: string) => {
    const text = body.toString('latin1');
    expect(text).toContain(from);
    return Buffer.from(text.replace(from, to), 'latin1');
  };

  it('refuses a row whose amount is not quantity × price, and totals that no longer add up', () => {
    const problems = refusal(
      edit(good(), '<OOI_ROW_AMOUNT_CURRENT_CURRENCY>540.00<', '<OOI_ROW_AMOUNT_CURRENT_CURRENCY>541.00<'),
    );
    expect(problems.join('\n')).toMatch(/row 2: 541.00 is not quantity × price/);
    expect(problems.join('\n')).toMatch(/EXCLUDING_OF_VAT/);
  });

  it('refuses UTF-8 bytes, another declared encoding, unknown fields and broken markup', () => {
    expect(refusal(Buffer.from(good().toString('latin1'), 'utf8')).join('\n')).toMatch(/C1 control/);
    expect(refusal(edit(good(), 'encoding="ISO-8859-1"', 'encoding="UTF-8"')).join('\n')).toMatch(/not ISO-8859-1/);
    expect(refusal(edit(good(), '<OOI_HEAD_NROWS>', '<OOI_HEAD_FOO>1</OOI_HEAD_FOO><OOI_HEAD_NROWS>'))).toContain(
      'DB_INVOICE_HEAD: unknown field OOI_HEAD_FOO',
    );
    expect(refusal(edit(good(), '</OOI_HEAD_TEXT2>', '')).join('\n')).toMatch(/not well-formed/);
    expect(
      refusal(edit(good(), '<TAX_REDUCTION_APPLIED_AMOUNT>243.00', '<TAX_REDUCTION_APPLIED_AMOUNT>242.00')),
    ).toContain("the persons' shares add up to 486.00, the reduction is 487.00");
  });

  it('imports a file once: the same invoice number again is refused', () => {
    const fake = startVismaAdministrationFake();
    const invoice = sampleInvoice('8008');
    fake.importFile(fileOf(invoice));
    expect(() => fake.importFile(fileOf(invoice))).toThrow(VismaImportError);
    expect(fake.invoiceCount()).toBe(1);
    expect(fake.invoiceCount(invoice.invoiceNr)).toBe(1);
    expect(fake.customerCount()).toBe(1);
    expect(fake.articleCount()).toBe(2);
    expect(fake.invoice(invoice.invoiceNr)).toMatchObject({ OOI_HEAD_TOTAL_AMOUNT: '2350.00' });
  });
});
