import { describe, expect, it } from 'vitest';
import { ErpError } from '~/core/extension-points/erp-http';
import type { ErpFile, ErpFileContext, ErpInvoice, ErpInvoiceRow } from '~/core/extension-points/erp-provider';
import { fileContext, sampleInvoice, testSession } from '~/tests/erp-contract/erp-contract';
import {
  checkVismaAdministrationFile,
  startVismaAdministrationFake,
  VismaImportError,
} from '~/tests/fakes/visma-administration';
import { formatOre, type SieFileRead } from '~/tests/helpers/sie-reader';
import plugin from './index';

/*
 * Visma Administration's file (issue 31 item 5): one SIE 4I verification per invoice, read back by
 * the import checker of tests/fakes/visma-administration.ts (the tests' own SIE reader and the 4I
 * rules of "SIE filformat, utgåva 4B"), with each account's amount worked out by hand.
 */

const provider = plugin.create(plugin.options.parse({}));
const fileOf = (invoice: ErpInvoice, context: ErpFileContext = fileContext()) =>
  provider.invoiceFile!(invoice, context);
const readBack = (invoice: ErpInvoice, context?: ErpFileContext) =>
  checkVismaAdministrationFile(fileOf(invoice, context));

/** The one verification's rows as account → amount. */
function booked(sie: SieFileRead): Record<string, string> {
  expect(sie.verifications).toHaveLength(1);
  return Object.fromEntries(sie.verifications[0]!.transactions.map((t) => [t.account, formatOre(t.ore)]));
}

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
      labourRow({
        kind: 'fee',
        articleId: null,
        articleNumber: null,
        description: 'Fakturaavgift',
        amount: '1',
        unit: null,
        price: '40.00',
        total: '40.00',
        account: '3541',
      }),
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

const refusalOf = (fn: () => unknown): ErpError => {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(ErpError);
    return e as ErpError;
  }
  throw new Error('expected a refusal');
};

describe('erp-visma: the provider', () => {
  it('is a file provider: nothing to connect, nothing to send, ROT/RUT carried in the books', async () => {
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

describe('erp-visma: the SIE 4I file', () => {
  it('writes the invoice as one 4I verification Visma Administration imports: header, code page, books', () => {
    const invoice = sampleInvoice('1001');
    const file = fileOf(invoice);
    expect(file.fileName).toBe(`FAKT_${invoice.invoiceNr}.SI`);
    expect(file.contentType).toBe('text/plain; charset=IBM437');
    // #FLAGGA first, then the identification; CR LF line ends
    expect(file.body.subarray(0, 37).toString('ascii')).toBe('#FLAGGA 0\r\n#FORMAT PC8\r\n#SIETYP 4\r\n#P');

    const sie = checkVismaAdministrationFile(file);
    expect(sie.header).toMatchObject({
      '#FLAGGA': ['0'],
      '#FORMAT': ['PC8'],
      '#SIETYP': ['4'],
      '#PROGRAM': ['Ordo', '1.0'],
      '#GEN': ['20261121', 'Maria Lindqvist'],
      '#FNAMN': ['Contract Service AB'],
      '#ORGNR': ['556677-8899'],
      '#KPTYP': ['EUBAS97'],
    });
    expect(sie.header['#VALUTA']).toBeUndefined();
    const [v] = sie.verifications;
    // series and number left to Visma; the text names the invoice
    expect(v).toMatchObject({
      series: '',
      number: '',
      date: '2026-11-20',
      text: `Faktura ${invoice.invoiceNr} Contract Customer 1001`,
    });
    // 1300 + 540 on the 25 % sales account the tenant chose, the fee (given as the invoice's figure)
    // on its fee account, 25 % VAT of 1880 on 2611, the total on the receivable
    expect(booked(sie)).toEqual({ '1510': '2350.00', '3001': '-1840.00', '3541': '-40.00', '2611': '-470.00' });
    // only BAS's own accounts are declared: the tenant's choices exist in its chart under its names
    expect([...sie.accounts]).toEqual([
      ['1510', 'Kundfordringar'],
      ['2611', 'Utgående moms på försäljning inom Sverige, 25 %'],
    ]);
  });

  it("books on BAS's accounts, declared with their names, where the tenant chose none", () => {
    const sie = readBack(sampleInvoice('1101'), fileContext({ accounts: { sales: {} } }));
    expect(booked(sie)).toEqual({ '1510': '2350.00', '3001': '-1840.00', '3540': '-40.00', '2611': '-470.00' });
    expect(sie.accounts.get('3001')).toBe('Försäljning inom Sverige, 25 % moms');
    expect(sie.accounts.get('3540')).toBe('Faktureringsavgifter');
  });

  it('books a reverse-VAT invoice on the reverse-VAT sales account without any VAT', () => {
    const sie = readBack(reverseVatInvoice());
    expect(booked(sie)).toEqual({ '1510': '1880.00', '3231': '-1840.00', '3541': '-40.00' });
  });

  it('books a ROT invoice: the customer owes the total less the reduction, Skatteverket the reduction; the fee row once', () => {
    const invoice = rotInvoice();
    const sie = readBack(invoice);
    expect(booked(sie)).toEqual({
      '1510': '1863.00',
      '1513': '487.00',
      '3001': '-1840.00',
      '3541': '-40.00',
      '2611': '-470.00',
    });
    // BAS's name, its dash spelt "-" in code page 437
    expect(sie.accounts.get('1513')).toBe('Kundfordringar - delad faktura');
    expect(sie.verifications[0]!.text).toBe(`Faktura ${invoice.invoiceNr} Anna Öberg`);
  });

  it('books 12 % and 6 % rows, leaves out a text row, and books the öre rounding', () => {
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
    expect(booked(readBack(invoice))).toEqual({
      '1510': '532.00',
      '3002': '-380.00',
      '3003': '-99.99',
      '2621': '-45.60',
      '2631': '-6.00',
      '3740': '-0.41',
    });
  });

  it('writes texts in code page 437: Swedish letters as PC8 bytes, quotes escaped, other letters spelt', () => {
    const base = sampleInvoice('5005');
    const invoice: ErpInvoice = { ...base, customer: { ...base.customer, name: 'Åkesson "Öberg" – Šķēle €' } };
    const file = fileOf(invoice);
    // Å is 0x8F and Ö 0x99 in code page 437, never UTF-8's two bytes or Latin-1's 0xC5
    expect(file.body.includes(Buffer.from([0x20, 0x8f, 0x6b]))).toBe(true);
    expect(file.body.includes(Buffer.from([0x99, 0x62]))).toBe(true);
    expect(file.body.includes(Buffer.from('Å', 'utf8'))).toBe(false);
    expect(file.body.toString('latin1')).toContain('\\"');
    const sie = checkVismaAdministrationFile(file);
    // cut to 50 characters by the one rule of the SIE export (invoice-verification.ts)
    expect(sie.verifications[0]!.text).toBe(`Faktura ${invoice.invoiceNr} Åkesson "Öberg" - Skele EUR`.slice(0, 50));
  });

  it('is deterministic: the same invoice and day give the same bytes', () => {
    for (const invoice of [sampleInvoice('6006'), reverseVatInvoice(), rotInvoice()]) {
      const a = fileOf(invoice);
      const b = fileOf(structuredClone(invoice));
      expect(b.fileName).toBe(a.fileName);
      expect(b.body.equals(a.body)).toBe(true);
    }
  });

  it('refuses what it cannot book right: a number that is not a number, figures that do not add up, euros', () => {
    for (const broken of [
      sampleInvoice('7007', { invoiceNr: 'F-12' }),
      sampleInvoice('7007', { totalPrice: '1900.00' }),
      sampleInvoice('7007', { totalVat: '471.00' }),
      sampleInvoice('7007', { total: '2351.00' }),
      sampleInvoice('7007', { currency: 'EUR' }),
    ]) {
      const err = refusalOf(() => fileOf(broken));
      expect(err.code).toBe('INVOICE_WAS_NOT_CREATED_IN_ERP');
      expect(err.vendorMessage).toBeTruthy();
    }
    expect(refusalOf(() => fileOf(sampleInvoice('7007', { currency: 'EUR' }))).vendorMessage).toMatch(/kronor/);
    expect(refusalOf(() => provider.invoiceFile!(sampleInvoice('7008'))).vendorMessage).toMatch(/company/);
  });
});

describe('erp-visma: the import checker (tests/fakes/visma-administration)', () => {
  const good = () => fileOf(rotInvoice());
  const refusal = (file: ErpFile) => {
    try {
      checkVismaAdministrationFile(file);
      return '';
    } catch (e) {
      expect(e).toBeInstanceOf(VismaImportError);
      return (e as VismaImportError).problems.join('\n');
    }
  };
  const edit = (file: ErpFile, from: string, to: string): ErpFile => {
    const text = file.body.toString('latin1');
    expect(text).toContain(from);
    return { ...file, body: Buffer.from(text.replace(from, to), 'latin1') };
  };

  it('accepts the plugin’s file and keeps its verification', () => {
    const fake = startVismaAdministrationFake();
    const invoice = sampleInvoice('8008');
    fake.importFile(fileOf(invoice));
    expect(fake.invoiceCount()).toBe(1);
    expect(fake.invoiceCount(invoice.invoiceNr)).toBe(1);
    expect(fake.imported()[0]!.fileName).toBe(`FAKT_${invoice.invoiceNr}.SI`);
  });

  it('refuses a verification that does not balance, and an account that is not a number', () => {
    expect(refusal(edit(good(), '#TRANS 1513 {} 487.00', '#TRANS 1513 {} 488.00'))).toMatch(/sum to 1\.00, not 0\.00/);
    expect(refusal(edit(good(), '#TRANS 1513 {}', '#TRANS 15X3 {}'))).toMatch(/not an account/);
  });

  it('refuses what 4I does not allow or lacks: balances, another type or flag, no company, not PC8, not .SI', () => {
    expect(refusal(edit(good(), '#VER ', '#IB 0 1510 100.00\r\n#VER '))).toMatch(/#IB .* may not appear/);
    expect(refusal(edit(good(), '#SIETYP 4', '#SIETYP 3'))).toMatch(/#SIETYP is 3/);
    expect(refusal(edit(good(), '#FLAGGA 0', '#FLAGGA 1'))).toMatch(/#FLAGGA must be 0/);
    expect(refusal(edit(good(), '#FORMAT PC8', '#FORMAT PC7'))).toMatch(/not PC8/);
    expect(refusal(edit(good(), '#FNAMN "Contract Service AB"\r\n', ''))).toMatch(/#FNAMN is required/);
    expect(refusal({ ...good(), fileName: 'faktura.xml' })).toMatch(/not named \.SI/);
    expect(refusal({ ...good(), contentType: 'text/plain; charset=UTF-8' })).toMatch(/not PC8/);
    // the reader's own checks: a control character inside a text
    expect(refusal(edit(good(), 'Anna ', 'Anna\u0007'))).toMatch(/control character/);
  });
});
