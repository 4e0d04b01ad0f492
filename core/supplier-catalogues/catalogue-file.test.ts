import { Readable } from 'node:stream';
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { catalogueRows, parseAmount, sniffCsv } from './catalogue-file';
import { addPriceRow } from './catalogue-import';

const rowsOf = async (text: Buffer, dialect = sniffCsv(text)) => {
  const out: string[][] = [];
  for await (const r of catalogueRows(Readable.from([text]), 'csv', dialect)) out.push(r);
  return out;
};

describe('[supplier catalogues] reading price files', () => {
  it.each([
    ['1 234,50', 2, '1234.50'],
    ['1234.5', 2, '1234.50'],
    ['1.234,50', 2, '1234.50'],
    ['1,234.50', 2, '1234.50'],
    ['12,3456', 4, '12.3456'],
    ['0,005', 2, '0.01'],
    ['35 %', 3, '35.000'],
    ['', 2, null],
    ['abc', 2, undefined],
    ['-5', 2, undefined],
  ])('reads the amount %j at %i decimals as %j', (text, scale, expected) => {
    expect(parseAmount(text, scale)).toBe(expected);
  });

  it('finds UTF-8 or Windows-1252 and the delimiter from the first bytes', () => {
    expect(sniffCsv(Buffer.from('\uFEFFNr;Namn;Pris\nA;Öga;1\n'))).toEqual({ encoding: 'utf8', delimiter: ';' });
    expect(sniffCsv(iconv.encode('Nr,Benämning\nA,Öga\n', 'windows-1252'))).toEqual({
      encoding: 'windows-1252',
      delimiter: ',',
    });
    expect(sniffCsv(Buffer.from('Nr\tNamn\n'))).toEqual({ encoding: 'utf8', delimiter: '\t' });
  });

  it('reads quoted cells, skips empty lines and decodes Windows-1252', async () => {
    const text = iconv.encode('Nr;Namn\r\n"A1";"Dörr; ""stängare"""\r\n\r\n;\r\nB2;Lås\r\n', 'windows-1252');
    expect(await rowsOf(text)).toEqual([
      ['Nr', 'Namn'],
      ['A1', 'Dörr; "stängare"'],
      ['B2', 'Lås'],
    ]);
  });

  it('refuses a CSV it cannot read with the translated code', async () => {
    await expect(rowsOf(Buffer.from('Nr;Namn\n"A1;oavslutat\n'))).rejects.toMatchObject({
      code: 'SUPPLIER_CATALOGUE_FILE_UNREADABLE',
    });
  });

  it('checks a price row and says why one is left out', () => {
    const batch = { numbers: [], titles: [], descriptions: [], units: [], purchase: [], recommended: [], groups: [] };
    const columns = { articleNumber: 0, title: 1, purchasePrice: 2, recommendedPrice: 3, discountGroup: 4 };
    expect(addPriceRow(batch, ['E1', 'Kabel', '10,50', '', 'A'], columns)).toBeNull();
    expect(addPriceRow(batch, ['', 'Kabel', '1'], columns)).toMatchObject({ reason: 'ARTICLE_NUMBER_MISSING' });
    expect(addPriceRow(batch, ['E2', '', '1'], columns)).toMatchObject({ reason: 'TITLE_MISSING', value: 'E2' });
    expect(addPriceRow(batch, ['E3', 'X', 'tio'], columns)).toMatchObject({
      reason: 'PURCHASE_PRICE_INVALID',
      value: 'tio',
    });
    expect(addPriceRow(batch, ['E4', 'X', '1', '-2'], columns)).toMatchObject({ reason: 'RECOMMENDED_PRICE_INVALID' });
    expect(batch).toMatchObject({
      numbers: ['E1'],
      titles: ['Kabel'],
      purchase: ['10.5000'],
      recommended: [null],
      groups: ['A'],
      units: [null],
    });
  });
});
