import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { csvHead, csvLine, csvRecords, CsvSyntaxError, decodeText, detectDelimiter, parseCsv } from './csv';

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

  it('reads CR, LF and CRLF line ends in one file, long and short rows, and quotes inside unquoted cells', () => {
    expect(parseCsv('a,b\r1,2\n3,4,5\r\n6\n7,x"y"z', ',')).toEqual([
      ['a', 'b'],
      ['1', '2'],
      ['3', '4', '5'],
      ['6'],
      ['7', 'x"y"z'],
    ]);
  });

  it('reads a tab-separated file with a byte-order mark and a quoted tab', () => {
    const { headers, records } = csvRecords('\uFEFFname\tnote\n"Åsa"\t"a\tb"\n');
    expect(headers).toEqual(['name', 'note']);
    expect(records).toEqual([{ name: 'Åsa', note: 'a\tb' }]);
  });

  it('refuses an unclosed quote with the line it starts on', () => {
    let error: unknown;
    try {
      parseCsv('a;b\n1;2\n"open;3\n4;5\n', ';');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(CsvSyntaxError);
    expect((error as CsvSyntaxError).line).toBeGreaterThanOrEqual(3);
  });

  it('quotes line breaks, carriage returns and the delimiter, writes booleans as words and a BOM first', () => {
    expect(csvLine(['a\nb', 'c\rd', 'e,f', true, false, ' pad '], ',')).toBe('"a\nb","c\rd","e,f",true,false, pad ');
    const file = csvHead(['namn', 'anteckning']) + csvLine(['Brf "Solrosen"', 'rad 1\r\nrad 2;ok']) + '\r\n';
    expect(file.startsWith('\uFEFFnamn;anteckning\r\n')).toBe(true);
    expect(parseCsv(file)).toEqual([
      ['namn', 'anteckning'],
      ['Brf "Solrosen"', 'rad 1\r\nrad 2;ok'],
    ]);
  });
});

describe('[import-export] an uploaded text file', () => {
  it('is read as UTF-8 when it is valid UTF-8 (its byte-order mark dropped), else as Windows-1252', () => {
    const text = 'Benämning;Á-pris\r\nRörelsedetektor;1 449,50 €\r\n';
    expect(decodeText(Buffer.from(text, 'utf8'))).toBe(text);
    expect(decodeText(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text, 'utf8')]))).toBe(text);
    expect(decodeText(iconv.encode(text, 'windows-1252'))).toBe(text);
  });
});
