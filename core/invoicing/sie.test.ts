import { describe, expect, it } from 'vitest';
import { decodePc8, formatOre, readSie, SieReadError } from '~/tests/helpers/sie-reader';
import { invoiceFigures, type InvoiceInput, type InvoiceLineInput } from './invoice-math';
import type { InvoiceRowKind } from './invoice-lines';
import { bookAccounts, invoiceVerification, verificationText, type InvoiceForBooks } from './invoice-verification';
import { buildSie, cp437Text, encodeCp437, sieOrgNr, sieText, type SieDocument } from './sie';

/*
 * The SIE 4I writer (issue 15 item 3) on a reference set of invoices worked out by hand: four VAT
 * rates and a fee on one invoice, reverse VAT, ROT (part of the receivable is on Skatteverket), a
 * credit (negative rows) and öre rounding both ways. Each file is read back with the independent
 * reader (tests/helpers/sie-reader.ts): every verification balances to the öre and each account's
 * total is the one computed by hand.
 */

type Row = InvoiceLineInput & { kind?: InvoiceRowKind };
const row = (amount: string, price: string, vat: Row['vatPercent'], extra: Partial<Row> = {}): Row => ({
  amount,
  price,
  vatPercent: vat,
  ...extra,
});

function booksOf(nr: string, date: string, customer: string, rows: Row[], extra: Partial<InvoiceInput> = {}) {
  const figures = invoiceFigures({
    lines: rows,
    reverseVat: false,
    taxReduction: 'none',
    reductionDay: date,
    ...extra,
  });
  return {
    invoiceNr: nr,
    invoiceDate: date,
    customerName: customer,
    rowKinds: rows.map((r) => r.kind ?? (r.isText ? 'text' : 'article')),
    figures,
  } satisfies InvoiceForBooks;
}

/** The reference set, with each verification's rows as worked out by hand. */
const REFERENCE: { name: string; invoice: InvoiceForBooks; rows: Record<string, string> }[] = [
  {
    name: '25, 12, 6 and 0 % on one invoice, a fee and a text row; rounded down by 0.06',
    // 25 %: 1.75 × 650 = 1137.50, 3 × 199.90 = 599.70, fee 39.00 → base 1776.20, VAT 444.05
    // 12 %: 2 × 45.50 = 91.00 → 10.92; 6 %: 99.90 → 5.994 → 5.99; 0 %: 250.00
    // net 2217.10 + VAT 460.96 = 2678.06 → 2678.00 (−0.06)
    invoice: booksOf('1001', '2026-11-10', 'Brf Eken', [
      row('1.75', '650', '25', { kind: 'labour', work: 'labour' }),
      row('3', '199.90', '25'),
      row('0', '0', '25', { kind: 'text', isText: true }),
      row('2', '45.50', '12'),
      row('1', '99.90', '6'),
      row('1', '250', '0'),
      row('1', '39', '25', { kind: 'fee' }),
    ]),
    rows: {
      '1510': '2678.00',
      '3001': '-1737.20',
      '3002': '-91.00',
      '3003': '-99.90',
      '3004': '-250.00',
      '3540': '-39.00',
      '2611': '-444.05',
      '2621': '-10.92',
      '2631': '-5.99',
      '3740': '0.06',
    },
  },
  {
    name: 'reverse VAT (construction): no VAT, sales on 3231; rounded up by 0.44',
    // 10 × 500 = 5000.00 + 1234.56 = 6234.56, no VAT → 6235.00 (+0.44)
    invoice: booksOf(
      '1002',
      '2026-11-12',
      'Bygg & Montage AB',
      [row('10', '500', '25', { kind: 'labour', work: 'labour' }), row('1', '1234.56', '12')],
      { reverseVat: true },
    ),
    rows: { '1510': '6235.00', '3231': '-6234.56', '3740': '-0.44' },
  },
  {
    name: 'ROT: the customer pays the total less the reduction, Skatteverket the reduction',
    // labour 8 × 600 = 4800, material 1000 → net 5800, VAT 1450, total 7250.00
    // ROT 30 % (paid in 2027) of labour incl. VAT 6000.00 = 1800.00; the customer pays 5450.00
    invoice: booksOf(
      '1003',
      '2026-11-30',
      'Anna Privat',
      [row('8', '600', '25', { kind: 'labour', work: 'labour' }), row('1', '1000', '25')],
      { taxReduction: 'ROT', reductionDay: '2027-01-15' },
    ),
    rows: { '1510': '5450.00', '1513': '1800.00', '3001': '-5800.00', '2611': '-1450.00' },
  },
  {
    name: 'a credit (negative rows): the same accounts with opposite signs; rounded by −0.37',
    // −3 × 199.90 = −599.70, VAT −149.925 → −149.93, −749.63 → −750.00 (−0.37)
    invoice: booksOf('1004', '2026-11-30', 'Brf Eken', [row('-3', '199.90', '25')]),
    rows: { '1510': '-750.00', '3001': '599.70', '2611': '149.93', '3740': '0.37' },
  },
];

const accounts = bookAccounts({ sales: {} });

function fileOf(invoices: InvoiceForBooks[], over: Partial<SieDocument> = {}) {
  const booked = invoices.map((i) => invoiceVerification(i, accounts, 'A')!);
  const declared = new Map<string, string>();
  for (const b of booked) for (const a of b.used) if (a.basName) declared.set(a.number, a.basName);
  const doc: SieDocument = {
    program: { name: 'Ordo', version: '1.0' },
    generated: { date: '2026-12-01', sign: 'Åke Öhman' },
    company: { name: 'Larmteknik i Göteborg AB', orgNr: '5566778899' },
    currency: 'SEK',
    accounts: [...declared].map(([number, name]) => ({ number, name })),
    verifications: booked.map((b) => b.verification),
    ...over,
  };
  return encodeCp437(buildSie(doc));
}

describe('[invoicing] SIE 4I: code page 437', () => {
  it('writes the Swedish letters as PC8 bytes', () => {
    expect([...encodeCp437('åäöÅÄÖéü')]).toEqual([0x86, 0x84, 0x94, 0x8f, 0x8e, 0x99, 0x82, 0x81]);
    expect([...encodeCp437('AZaz09 #{}"\\\r\n')]).toEqual([...Buffer.from('AZaz09 #{}"\\\r\n', 'latin1')]);
  });

  it('has every byte 0x80–0xFF as the reader decodes it (two tables written apart agree)', () => {
    for (let b = 0x80; b <= 0xff; b++)
      expect([...encodeCp437(decodePc8(Uint8Array.of(b)))], `0x${b.toString(16)}`).toEqual([b]);
  });

  it('writes a whole SIE line with ÅÄÖ as PC8, not as UTF-8 or Latin-1', () => {
    const bytes = encodeCp437(`#FNAMN ${sieText('Rörläggare Åström & Ädel AB')}\r\n`);
    expect(bytes.toString('latin1')).toBe('#FNAMN "R\x94rl\x84ggare \x8fstr\x94m & \x8edel AB"\r\n');
    expect(decodePc8(bytes)).toBe('#FNAMN "Rörläggare Åström & Ädel AB"\r\n');
  });

  it('refuses what the code page lacks, and a control character', () => {
    expect(() => encodeCp437('€')).toThrow(RangeError);
    expect(() => encodeCp437('ā')).toThrow(RangeError);
    expect(() => encodeCp437('a\tb')).toThrow(RangeError);
  });

  it.each([
    ['Åsa Öberg', 'Åsa Öberg'],
    ['Jānis Bērziņš SIA', 'Janis Berzins SIA'],
    ['Tõnu Õun OÜ', 'Tonu Oun OÜ'],
    ['ООО Ромашка', 'OOO Romashka'],
    ['Moms 25 € – netto', 'Moms 25 EUR - netto'],
    ['rad 1\nrad 2\ttab\u00a0nbsp', 'rad 1 rad 2 tab nbsp'],
    ['日本', '??'],
  ])('spells %j as %j', (input, expected) => {
    expect(cp437Text(input)).toBe(expected);
    expect(() => encodeCp437(cp437Text(input))).not.toThrow();
  });

  it('quotes a text: a quotation mark after a backslash, a backslash as a slash', () => {
    expect(sieText('Kassa "special"')).toBe('"Kassa \\"special\\""');
    expect(sieText('C:\\temp\\')).toBe('"C:/temp/"');
  });

  it('writes an organisation number with a hyphen after the sixth digit', () => {
    expect(sieOrgNr('5566778899')).toBe('556677-8899');
    expect(sieOrgNr('556677-8899')).toBe('556677-8899');
    expect(sieOrgNr('19121212-1212')).toBe('121212-1212');
    expect(sieOrgNr('EE123')).toBeNull();
    expect(sieOrgNr(null)).toBeNull();
  });
});

describe('[invoicing] SIE 4I: invoices as verifications', () => {
  it.each(REFERENCE)('$name', ({ invoice, rows }) => {
    const booked = invoiceVerification(invoice, accounts, 'A')!;
    const got = Object.fromEntries(booked.verification.transactions.map((t) => [t.account, t.amount]));
    expect(got).toEqual(rows);
  });

  it('reads back: every verification balances, each account totals as by hand, the header is there', () => {
    const file = readSie(fileOf(REFERENCE.map((r) => r.invoice)));
    expect(file.header['#FLAGGA']).toEqual(['0']);
    expect(file.header['#FORMAT']).toEqual(['PC8']);
    expect(file.header['#SIETYP']).toEqual(['4']);
    expect(file.header['#PROGRAM']).toEqual(['Ordo', '1.0']);
    expect(file.header['#GEN']).toEqual(['20261201', 'Åke Öhman']);
    expect(file.header['#FNAMN']).toEqual(['Larmteknik i Göteborg AB']);
    expect(file.header['#ORGNR']).toEqual(['556677-8899']);
    expect(file.header['#KPTYP']).toEqual(['EUBAS97']);
    expect(file.header['#VALUTA']).toBeUndefined();
    // 4I: no balances, no financial year we do not know
    for (const label of ['#RAR', '#IB', '#UB', '#RES', '#PSALDO', '#OMFATTN', '#BKOD'])
      expect(
        file.records.some((r) => r.label === label),
        label,
      ).toBe(false);
    expect(file.verifications.map((v) => [v.series, v.number, v.date])).toEqual([
      ['A', '1001', '2026-11-10'],
      ['A', '1002', '2026-11-12'],
      ['A', '1003', '2026-11-30'],
      ['A', '1004', '2026-11-30'],
    ]);
    for (const v of file.verifications) {
      expect(formatOre(v.transactions.reduce((s, t) => s + t.ore, 0n)), `#VER ${v.number}`).toBe('0.00');
      expect(v.transactions.every((t) => t.objects.length === 0 && t.ore !== 0n)).toBe(true);
    }
    const totals = new Map<string, bigint>();
    for (const v of file.verifications)
      for (const t of v.transactions) totals.set(t.account, (totals.get(t.account) ?? 0n) + t.ore);
    const expected = new Map<string, bigint>();
    for (const r of REFERENCE)
      for (const [account, amount] of Object.entries(r.rows))
        expected.set(account, (expected.get(account) ?? 0n) + BigInt(amount.replace('.', '')));
    expect(new Map([...totals].map(([a, o]) => [a, formatOre(o)]))).toEqual(
      new Map([...expected].map(([a, o]) => [a, formatOre(o)])),
    );
    // the accounts used are declared with BAS's names
    expect([...file.accounts.keys()].sort()).toEqual([...totals.keys()].sort());
    expect(file.accounts.get('1513')).toBe('Kundfordringar – delad faktura'.replace('–', '-'));
    expect(file.accounts.get('3740')).toBe('Öres- och kronutjämning');
    expect(file.verifications[3]!.text).toBe('Kreditfaktura 1004 Brf Eken');
    expect(file.verifications[1]!.text).toBe('Faktura 1002 Bygg & Montage AB');
  });

  it("books on the tenant's accounts where it chose them, and declares only BAS's", () => {
    const own = bookAccounts({ sales: { '25': '3010', reverse: '3232' }, fee: '3590', rounding: '3741' });
    const booked = invoiceVerification(REFERENCE[0]!.invoice, own, 'F')!;
    expect(booked.verification.transactions.map((t) => t.account)).toEqual(
      expect.arrayContaining(['3010', '3590', '3741', '3002', '2611']),
    );
    expect(booked.used.find((a) => a.number === '3010')?.basName).toBeNull();
    expect(booked.used.find((a) => a.number === '3002')?.basName).toBe('Försäljning inom Sverige, 12 % moms');
  });

  it('quotes texts so the reader gets them back, in PC8', () => {
    const invoice = booksOf('1005', '2026-11-30', 'Åsa "Bygg" Öberg \\ Co', [row('1', '100', '25')]);
    const bytes = fileOf([invoice]);
    expect(bytes.includes(Buffer.from([0x8f]))).toBe(true); // Å
    const [v] = readSie(bytes).verifications;
    expect(v!.text).toBe('Faktura 1005 Åsa "Bygg" Öberg / Co');
  });

  it('cuts a long customer name so the text stays within 50 characters', () => {
    const text = verificationText('100234', 'Bostadsrättsföreningen Kungsholmens Strand nr 12 i Stockholm', '10');
    expect(text.length).toBeLessThanOrEqual(50);
    expect(text.startsWith('Faktura 100234 Bostadsrättsföreningen')).toBe(true);
  });

  it('leaves out an invoice that moves no money', () => {
    expect(invoiceVerification(booksOf('1006', '2026-11-30', 'X', [row('1', '0', '25')]), accounts, 'A')).toBeNull();
  });

  it('writes #VALUTA for another currency than SEK', () => {
    const file = readSie(fileOf([REFERENCE[0]!.invoice], { currency: 'EUR' }));
    expect(file.header['#VALUTA']).toEqual(['EUR']);
  });

  it('refuses a verification that does not balance', () => {
    const doc: SieDocument = {
      program: { name: 'Ordo', version: '1.0' },
      generated: { date: '2026-12-01', sign: null },
      company: { name: 'X', orgNr: null },
      currency: 'SEK',
      accounts: [],
      verifications: [
        {
          series: 'A',
          number: '1',
          date: '2026-12-01',
          text: 'x',
          transactions: [
            { account: '1510', amount: '100.00' },
            { account: '3001', amount: '-99.99' },
          ],
        },
      ],
    };
    expect(() => buildSie(doc)).toThrow(/does not balance: 0.01/);
  });

  it('the reader refuses what the spec forbids (it is strict enough to trust)', () => {
    const bytes = (s: string) => Buffer.from(s, 'latin1');
    expect(() => readSie(bytes('#SIETYP 4\r\n'))).toThrow(SieReadError);
    expect(() => readSie(bytes('#FLAGGA 0\r\n#VER A 1 20261301 "x"\r\n{\r\n}\r\n'))).toThrow(/no such day/);
    expect(() => readSie(bytes('#FLAGGA 0\r\n#VER A 1 20261201 "x"\r\n{\r\n#TRANS 1510 {} +1.00\r\n}\r\n'))).toThrow(
      /not an amount/,
    );
    expect(() => readSie(bytes('#FLAGGA 0\r\n#VER A 1 20261201 "x"\r\n{\r\n#TRANS 1510 {} 1.005\r\n}\r\n'))).toThrow(
      /not an amount/,
    );
    expect(() => readSie(bytes('#FLAGGA 0\r\n#TRANS 1510 {} 1.00\r\n'))).toThrow(/outside a #VER/);
    expect(() => readSie(bytes('#FLAGGA 0\r\n#VER A 1 20261201 "x" {\r\n}\r\n'))).toThrow(SieReadError);
    expect(() => readSie(bytes('#FLAGGA 0\r\n#KONTO 1510 "a\\"\r\n'))).toThrow(/not closed/);
  });
});
