import { describe, expect, it } from 'vitest';
import { csvHead, csvLine, csvRecords, detectDelimiter, parseCsv } from './csv';

describe('[import-export] CSV', () => {
  it('parses quoted cells with delimiters, doubled quotes and line breaks', () => {
    expect(parseCsv('a;b;c\r\n"x;y";"say ""hi""";"two\nlines"\n', ';')).toEqual([
      ['a', 'b', 'c'],
      ['x;y', 'say "hi"', 'two\nlines'],
    ]);
  });

  it('detects semicolon, comma and tab from the header line, ignoring quoted ones', () => {
    expect(detectDelimiter('"a,b";c;d\n1,2,3')).toBe(';');
    expect(detectDelimiter('a,b,c')).toBe(',');
    expect(detectDelimiter('a\tb')).toBe('\t');
  });

  it('strips the byte-order mark, skips blank lines and pads short rows', () => {
    const { headers, records } = csvRecords('\uFEFFcustomerId;name\n10001;Brf Solrosen\n\n10002\n');
    expect(headers).toEqual(['customerId', 'name']);
    expect(records).toEqual([
      { customerId: '10001', name: 'Brf Solrosen' },
      { customerId: '10002', name: '' },
    ]);
  });

  it('writes what it reads back, and defuses spreadsheet formulas', () => {
    const line = csvLine(['a;b', 'say "hi"', null, 12.5, '=HYPERLINK("x")', '-5']);
    expect(line).toBe('"a;b";"say ""hi""";;12.5;"\'=HYPERLINK(""x"")";-5');
    expect(parseCsv(csvHead(['h1', 'h2']) + csvLine(['x;y', 'z']))).toEqual([
      ['h1', 'h2'],
      ['x;y', 'z'],
    ]);
  });
});
