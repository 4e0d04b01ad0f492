import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  approvedPeople,
  decimalText,
  employeeNumberOf,
  PAXML_TIME_CODES,
  payrollCodeOf,
  payrollLines,
  summarize,
  type ApprovedPeriod,
  type PayrollInput,
  type PayrollLine,
} from './payroll-lines';

const A = 'user-a';
const B = 'user-b';

const input = (over: Partial<PayrollInput>): PayrollInput => ({
  time: [],
  workOrderTime: [],
  compensation: [],
  distance: [],
  workOrderTags: { work: { code: 'ARB', payrollCode: null }, travel: { code: 'RES', payrollCode: null } },
  defaultDistance: { code: '821', payrollCode: null, unitPrice: 2.5 },
  ...over,
});

/** The lines without the fields a case does not look at. */
const brief = (lines: PayrollLine[]) =>
  lines.map((l) => [l.userId, l.date, l.kind, l.code, l.quantity, l.unitPrice, l.amount] as const);

describe('payrollCodeOf', () => {
  it.each([
    // [code, payroll code, what payroll gets]
    ['SEM', null, 'SEM'],
    ['VAB', '', 'VAB'],
    ['SJK', '  ', 'SJK'],
    ['SEM', 'SEM_BET', 'SEM_BET'],
    ['ARB', ' 110 ', '110'],
    // Ordo's ASCII codes as PAXml spells them
    ['NAR', null, 'NÄR'],
    ['RES', null, 'RE1'],
    ['FRA', null, 'FR1'],
    // … unless the office set its own
    ['NAR', 'NÄR_X', 'NÄR_X'],
    ['811', null, '811'],
    ['892', '7300', '7300'],
  ] as const)('%s with payroll code %j → %s', (code, payroll, expected) => {
    expect(payrollCodeOf(code, payroll)).toBe(expected);
  });
});

describe('payrollLines', () => {
  it.each<[string, Partial<PayrollInput>, ReturnType<typeof brief>]>([
    [
      'work-order time inside the own work of a day is not paid on top of it',
      {
        time: [{ userId: A, date: '2026-03-02', tagType: 'work', code: 'ARB', payrollCode: null, minutes: 480 }],
        workOrderTime: [{ userId: A, date: '2026-03-02', workMinutes: 390, travelMinutes: 60 }],
      },
      [[A, '2026-03-02', 'work', 'ARB', 8, null, null]],
    ],
    [
      'only the work-order time beyond the own work adds: work first covered, then travel',
      {
        time: [{ userId: A, date: '2026-03-02', tagType: 'work', code: 'ARB', payrollCode: null, minutes: 240 }],
        workOrderTime: [{ userId: A, date: '2026-03-02', workMinutes: 210, travelMinutes: 60 }],
      },
      [
        [A, '2026-03-02', 'work', 'ARB', 4, null, null],
        [A, '2026-03-02', 'work', 'RE1', 0.5, null, null],
      ],
    ],
    [
      'work-order time on a day without own work is paid as work and travel',
      {
        workOrderTime: [{ userId: A, date: '2026-03-02', workMinutes: 210, travelMinutes: 30 }],
      },
      [
        [A, '2026-03-02', 'work', 'ARB', 3.5, null, null],
        [A, '2026-03-02', 'work', 'RE1', 0.5, null, null],
      ],
    ],
    [
      'the work tag’s payroll code applies to work-order time too',
      {
        workOrderTime: [{ userId: A, date: '2026-03-02', workMinutes: 60, travelMinutes: 0 }],
        workOrderTags: { work: { code: 'ARB', payrollCode: 'TID' }, travel: { code: 'RES', payrollCode: null } },
      },
      [[A, '2026-03-02', 'work', 'TID', 1, null, null]],
    ],
    [
      'absence per code and day; attendance is left out',
      {
        time: [
          { userId: A, date: '2026-03-03', tagType: 'absence', code: 'SEM', payrollCode: null, minutes: 480 },
          { userId: A, date: '2026-03-03', tagType: 'attend', code: 'JOUR', payrollCode: null, minutes: 840 },
          { userId: A, date: '2026-03-04', tagType: 'absence', code: 'VAB', payrollCode: null, minutes: 200 },
          { userId: A, date: '2026-03-04', tagType: 'absence', code: 'NAR', payrollCode: null, minutes: 100 },
        ],
      },
      [
        [A, '2026-03-03', 'absence', 'SEM', 8, null, null],
        [A, '2026-03-04', 'absence', 'NÄR', 1.67, null, null],
        [A, '2026-03-04', 'absence', 'VAB', 3.33, null, null],
      ],
    ],
    [
      'compensation: a typed amount wins, else quantity × price; nothing at all is no line',
      {
        compensation: [
          {
            userId: A,
            date: '2026-03-05',
            tagType: 'travel',
            code: '811',
            payrollCode: null,
            unitPrice: 290,
            quantity: 2,
            amount: 580,
            comment: null,
          },
          {
            userId: A,
            date: '2026-03-05',
            tagType: 'expense',
            code: '892',
            payrollCode: '7300',
            unitPrice: null,
            quantity: 1,
            amount: 149.9,
            comment: ' Parkering ',
          },
          {
            userId: A,
            date: '2026-03-06',
            tagType: 'travel',
            code: '8118',
            payrollCode: null,
            unitPrice: null,
            quantity: 1,
            amount: 0,
            comment: null,
          },
          {
            userId: A,
            date: '2026-03-07',
            tagType: 'expense',
            code: '892',
            payrollCode: null,
            unitPrice: null,
            quantity: 0,
            amount: 0,
            comment: null,
          },
        ],
      },
      [
        [A, '2026-03-05', 'compensation', '7300', 1, null, 149.9],
        [A, '2026-03-05', 'compensation', '811', 2, 290, 580],
        [A, '2026-03-06', 'compensation', '8118', 1, null, null],
      ],
    ],
    [
      'mileage in km priced per km; an untagged trip takes the default code and joins its day',
      {
        distance: [
          { userId: B, date: '2026-03-09', code: '821', payrollCode: null, unitPrice: 2.5, km: 40.5, comment: 'Lund' },
          { userId: B, date: '2026-03-09', code: null, payrollCode: null, unitPrice: null, km: 12, comment: null },
          { userId: B, date: '2026-03-09', code: '822', payrollCode: null, unitPrice: 1.2, km: 10, comment: null },
          { userId: B, date: '2026-03-10', code: '831', payrollCode: null, unitPrice: null, km: 7.3, comment: null },
        ],
      },
      [
        [B, '2026-03-09', 'distance', '821', 52.5, 2.5, 131.25],
        [B, '2026-03-09', 'distance', '822', 10, 1.2, 12],
        [B, '2026-03-10', 'distance', '831', 7.3, null, null],
      ],
    ],
    [
      'lines come per person by day, work before absence before compensation before mileage',
      {
        time: [
          { userId: B, date: '2026-03-02', tagType: 'absence', code: 'SJK', payrollCode: null, minutes: 480 },
          { userId: A, date: '2026-03-02', tagType: 'work', code: 'ARB', payrollCode: null, minutes: 60 },
        ],
        distance: [
          { userId: A, date: '2026-03-01', code: '821', payrollCode: null, unitPrice: 2.5, km: 2, comment: null },
        ],
        workOrderTime: [{ userId: B, date: '2026-03-02', workMinutes: 0, travelMinutes: 0 }],
      },
      [
        [A, '2026-03-01', 'distance', '821', 2, 2.5, 5],
        [A, '2026-03-02', 'work', 'ARB', 1, null, null],
        [B, '2026-03-02', 'absence', 'SJK', 8, null, null],
      ],
    ],
  ])('%s', (_name, over, expected) => {
    expect(brief(payrollLines(input(over)))).toEqual(expected);
  });

  it('keeps the exact minutes of time lines and joins mileage comments', () => {
    const lines = payrollLines(
      input({
        time: [{ userId: A, date: '2026-03-02', tagType: 'work', code: 'ARB', payrollCode: null, minutes: 20 }],
        workOrderTime: [{ userId: A, date: '2026-03-02', workMinutes: 40, travelMinutes: 0 }],
        distance: [
          { userId: A, date: '2026-03-02', code: '821', payrollCode: null, unitPrice: 2.5, km: 3, comment: 'a' },
          { userId: A, date: '2026-03-02', code: null, payrollCode: null, unitPrice: null, km: 4, comment: 'b' },
        ],
      }),
    );
    expect(lines[0]).toMatchObject({ kind: 'work', minutes: 40, quantity: 0.67, unit: 'h' });
    expect(lines[1]).toMatchObject({ kind: 'distance', quantity: 7, unit: 'km', amount: 17.5, comment: 'a; b' });
  });
});

describe('summarize', () => {
  it('sums each person’s month per code, in the order of the people, leaving out people without lines', () => {
    const lines = payrollLines(
      input({
        time: [
          { userId: A, date: '2026-03-02', tagType: 'work', code: 'ARB', payrollCode: null, minutes: 20 },
          { userId: A, date: '2026-03-03', tagType: 'work', code: 'ARB', payrollCode: null, minutes: 20 },
          { userId: A, date: '2026-03-04', tagType: 'absence', code: 'SEM', payrollCode: null, minutes: 480 },
          { userId: A, date: '2026-03-05', tagType: 'absence', code: 'SEM', payrollCode: null, minutes: 480 },
          { userId: A, date: '2026-03-06', tagType: 'absence', code: 'VAB', payrollCode: null, minutes: 240 },
        ],
        compensation: [
          {
            userId: A,
            date: '2026-03-05',
            tagType: 'travel',
            code: '811',
            payrollCode: null,
            unitPrice: 290,
            quantity: 1,
            amount: 290,
            comment: null,
          },
        ],
        distance: [
          { userId: A, date: '2026-03-02', code: '821', payrollCode: null, unitPrice: 2.5, km: 10, comment: null },
          { userId: A, date: '2026-03-03', code: '821', payrollCode: null, unitPrice: 2.5, km: 5.5, comment: null },
        ],
      }),
    );
    const people = [
      { userId: B, name: 'Bo', employeeNumber: '2' },
      { userId: A, name: 'Anna', employeeNumber: '1' },
    ];
    const [anna, ...rest] = summarize(people, lines);
    expect(rest).toEqual([]);
    expect(anna).toMatchObject({
      userId: A,
      work: [{ code: 'ARB', hours: 0.67 }],
      absence: [
        { code: 'SEM', hours: 16 },
        { code: 'VAB', hours: 4 },
      ],
      compensation: [
        { code: '811', kind: 'compensation', unit: 'day', quantity: 1, amount: 290 },
        { code: '821', kind: 'distance', unit: 'km', quantity: 15.5, amount: 38.75 },
      ],
      // the month's hours come from its minutes (40), not from the rounded days (0.33 + 0.33)
      totals: { workHours: 0.67, absenceHours: 20, amount: 328.75, distanceKm: 15.5 },
    });
  });
});

describe('employeeNumberOf', () => {
  it.each([
    ['1001', '1001'],
    [' 17 ', '17'],
    [42, '42'],
    // never the user's id instead (issue 28: a UUID reached the PAXml file)
    ['', null],
    ['  ', null],
    [null, null],
    [undefined, null],
    [{ n: 1 }, null],
  ])('configured %j → %j', (configured, expected) => {
    expect(employeeNumberOf(configured)).toBe(expected);
  });
});

describe('approvedPeople', () => {
  const line = (userId: string, date: string): PayrollLine => ({
    userId,
    date,
    kind: 'work',
    code: 'ARB',
    minutes: 60,
    quantity: 1,
    unit: 'h',
    unitPrice: null,
    amount: null,
    comment: null,
  });
  const lines = [line(A, '2026-03-02'), line(A, '2026-03-30'), line(B, '2026-03-02'), line(B, '2026-03-20')];
  it.each([
    ['nobody approved', [], []],
    ['the month approved for A', [{ userId: A, start: '2026-03-01', end: '2026-03-31' }], [A]],
    [
      'B approved for two weeks only: a day outside stays unapproved',
      [{ userId: B, start: '2026-03-01', end: '2026-03-14' }],
      [],
    ],
    [
      'B approved in two periods covering its days',
      [
        { userId: B, start: '2026-03-01', end: '2026-03-14' },
        { userId: B, start: '2026-03-15', end: '2026-03-31' },
      ],
      [B],
    ],
    ["A's approval does not cover B", [{ userId: A, start: '2026-02-01', end: '2026-04-30' }], [A]],
  ] as [string, ApprovedPeriod[], string[]][])('%s', (_, approved, expected) => {
    expect([...approvedPeople(lines, approved)].sort()).toEqual(expected.sort());
  });
});

describe('decimalText', () => {
  it.each([
    [7.5, '7.5'],
    [8, '8'],
    [0, '0'],
    [100, '100'],
    [1234567.891, '1234567.89'],
    [0.1 + 0.2, '0.3'],
    [1.005, '1.01'],
    [1e-9, '0'],
  ])('%s → %s', (n, expected) => {
    expect(decimalText(n)).toBe(expected);
  });
});

describe('PAXML_TIME_CODES', () => {
  it('are the committed XSD’s tidkodTYPE values, verbatim', () => {
    const xsd = new TextDecoder('windows-1252').decode(readFileSync(path.join(import.meta.dirname, 'paxml-2.0.xsd')));
    const type = /<xs:simpleType name="tidkodTYPE">([\s\S]*?)<\/xs:simpleType>/.exec(xsd)?.[1] ?? '';
    const values = [...type.matchAll(/<xs:enumeration value="([^"]+)"\/>/g)].map((m) => m[1]);
    expect(values.length).toBeGreaterThan(100);
    expect([...PAXML_TIME_CODES]).toEqual(values);
  });
});
