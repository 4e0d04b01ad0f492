import { describe, expect, it } from 'vitest';
import { parseCsv } from '~/core/import-export/csv';
import { readPaxml } from '~/tests/helpers/paxml-reader';
import { writePaxml } from './paxml';
import { PAYROLL_CSV_COLUMNS, writePayrollCsv } from './payroll-csv';
import { payrollLines, type PayrollEmployee, type PayrollInput } from './payroll-lines';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const people: PayrollEmployee[] = [
  { userId: 'b', name: 'Åsa "Bo" <Öberg> & Co', employeeNumber: '17' },
  { userId: 'a', name: 'Anna', employeeNumber: 'a' },
];

const input: PayrollInput = {
  time: [
    { userId: 'a', date: '2026-03-02', tagType: 'work', code: 'ARB', payrollCode: null, minutes: 450 },
    { userId: 'a', date: '2026-03-03', tagType: 'absence', code: 'SEM', payrollCode: null, minutes: 480 },
    // the office's own code: not a PAXml time code, so a salary line
    { userId: 'b', date: '2026-03-04', tagType: 'absence', code: 'UTB', payrollCode: '350', minutes: 90 },
  ],
  workOrderTime: [],
  compensation: [
    {
      userId: 'b',
      date: '2026-03-05',
      tagType: 'expense',
      code: '892',
      payrollCode: null,
      unitPrice: null,
      quantity: 1,
      amount: 149.9,
      comment: 'Parkering <P-hus> & "kaffe"\u0007',
    },
  ],
  distance: [
    { userId: 'b', date: '2026-03-05', code: '821', payrollCode: null, unitPrice: 2.5, km: 42.4, comment: null },
  ],
  workOrderTags: { work: { code: 'ARB', payrollCode: null }, travel: { code: 'RES', payrollCode: null } },
  defaultDistance: { code: '821', payrollCode: null, unitPrice: 2.5 },
};

const header = {
  companyName: 'Larm & Lås AB',
  orgNr: '556036-0793',
  createdAt: new Date('2026-04-02T08:30:00.123Z'),
  month: '2026-03',
};
const parse = (xml: string): Json => readPaxml(xml);

describe('PAXml text through the XML writer', () => {
  it.each([
    ['a & b', '<foretagnamn>a &amp; b</foretagnamn>', 'a & b'],
    ['<x y="1">', '<foretagnamn>&lt;x y="1"&gt;</foretagnamn>', '<x y="1">'],
    ["it's", "<foretagnamn>it's</foretagnamn>", "it's"],
    ['bell\u0007 lone\uD800 tab\t', '<foretagnamn>bell lone tab\t</foretagnamn>', 'bell lone tab'], // the reader trims
    ['Öl å ä', '<foretagnamn>Öl å ä</foretagnamn>', 'Öl å ä'],
  ])('%j is written %j and read back as %j', (raw, written, read) => {
    const xml = writePaxml({ ...header, companyName: raw }, people, []);
    expect(xml).toContain(written);
    expect((parse(xml).paxml as Json).header).toMatchObject({ foretagnamn: read });
  });
});

describe('writePaxml', () => {
  const xml = writePaxml(header, people, payrollLines(input));
  const doc = parse(xml).paxml as Json;

  it('is PAXml 2.0 with the company in the header', () => {
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<paxml ')).toBe(true);
    expect(doc['@xsi:noNamespaceSchemaLocation']).toBe('http://www.paxml.se/2.0/paxml.xsd');
    expect(doc.header).toEqual({
      format: 'LÖNIN',
      version: '2.0',
      datum: '2026-04-02T08:30:00Z',
      foretagorgnr: '556036-0793',
      foretagnamn: 'Larm & Lås AB',
      programnamn: 'Ordo',
      info: 'Löneunderlag 2026-03',
    });
  });

  it('writes time under PAXml codes as tidtrans, per person in the order given', () => {
    expect(doc.tidtransaktioner.tidtrans).toEqual([
      { '@postid': '1', '@anstid': 'a', tidkod: 'ARB', datum: '2026-03-02', timmar: '7.5' },
      { '@postid': '2', '@anstid': 'a', tidkod: 'SEM', datum: '2026-03-03', timmar: '8' },
    ]);
  });

  it('writes other time, compensation and mileage as lonetrans with the code as lonart, escaped', () => {
    expect(doc.lonetransaktioner.lonetrans).toEqual([
      { '@postid': '3', '@anstid': '17', lonart: '350', datum: '2026-03-04', antal: '1.5' },
      {
        '@postid': '4',
        '@anstid': '17',
        lonart: '892',
        datum: '2026-03-05',
        antal: '1',
        belopp: '149.9',
        kommentar: 'Parkering <P-hus> & "kaffe"',
      },
      {
        '@postid': '5',
        '@anstid': '17',
        lonart: '821',
        datum: '2026-03-05',
        antal: '42.4',
        apris: '2.5',
        belopp: '106',
      },
    ]);
    expect(xml).toContain('<kommentar>Parkering &lt;P-hus&gt; &amp; "kaffe"</kommentar>');
  });

  it('leaves out empty sections and an organisation number that does not fit', () => {
    const empty = writePaxml({ ...header, orgNr: '5560360793-0000-1' }, people, []);
    expect(empty).not.toContain('tidtransaktioner');
    expect(empty).not.toContain('lonetransaktioner');
    expect(empty).not.toContain('foretagorgnr');
    expect(writePaxml({ ...header, orgNr: 'SE 556036-0793 01' }, people, [])).toContain(
      '<foretagorgnr>556036079301</foretagorgnr>',
    );
  });
});

describe('writePayrollCsv', () => {
  const csv = writePayrollCsv(people, payrollLines(input));

  it('starts with a byte-order mark and the columns, semicolon-separated with CRLF', () => {
    expect(csv.startsWith(`\uFEFF${PAYROLL_CSV_COLUMNS.join(';')}\r\n`)).toBe(true);
    expect(csv.endsWith('\r\n')).toBe(true);
  });

  it('has a row per line with decimal commas, quoting what needs it', () => {
    const [head, ...rows] = parseCsv(csv, ';');
    expect(head).toEqual([...PAYROLL_CSV_COLUMNS]);
    expect(rows).toEqual([
      ['17', 'Åsa "Bo" <Öberg> & Co', 'absence', '350', '2026-03-04', '1,5', 'h', '', '', ''],
      [
        '17',
        'Åsa "Bo" <Öberg> & Co',
        'compensation',
        '892',
        '2026-03-05',
        '1',
        'pcs',
        '',
        '149,9',
        'Parkering <P-hus> & "kaffe"\u0007',
      ],
      ['17', 'Åsa "Bo" <Öberg> & Co', 'distance', '821', '2026-03-05', '42,4', 'km', '2,5', '106', ''],
      ['a', 'Anna', 'work', 'ARB', '2026-03-02', '7,5', 'h', '', '', ''],
      ['a', 'Anna', 'absence', 'SEM', '2026-03-03', '8', 'h', '', '', ''],
    ]);
  });

  it('defuses a cell a spreadsheet would run as a formula', () => {
    const lines = payrollLines({
      ...input,
      time: [],
      distance: [],
      compensation: [{ ...input.compensation[0]!, comment: '=HYPERLINK("x")' }],
    });
    expect(writePayrollCsv(people, lines)).toContain(`"'=HYPERLINK(""x"")"`);
  });
});
