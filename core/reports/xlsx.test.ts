import { describe, expect, it } from 'vitest';
import { readXlsx } from '~/tests/helpers/xlsx-reader';
import { MAX_CELL_TEXT, sheetName, xlsxWorkbook } from './xlsx';

/*
 * The report workbook is written by write-excel-file and read back here by exceljs, an independent
 * reader: cells, numbers as numbers, dates as dates, the sheet's name, the bold frozen header.
 */
describe('[reports] xlsx workbook', () => {
  it('cleans a sheet name of what a tab cannot hold', () => {
    expect(sheetName('Tid: 2026/01 [alla]')).toBe('Tid  2026 01  alla');
    expect(sheetName('x'.repeat(40))).toHaveLength(31);
    expect(sheetName('  ')).toBe('Sheet1');
  });

  it('is opened by a second reader: text, numbers as numbers, dates as dates, the sheet name', async () => {
    const buf = await xlsxWorkbook({
      name: 'Tid: mars [2026]',
      header: ['Person', 'Minuter', 'Timmar', 'Stängd', 'Dag'],
      rows: [
        ['Åsa Öberg', 480, 7.5, new Date('2026-03-03T11:05:00Z'), new Date('2026-03-31T00:00:00Z')],
        ['Bo & "Co" <AB> \'x\'', -12.25, 0, null, undefined],
      ],
    });
    expect(buf.subarray(0, 2).toString('latin1')).toBe('PK');
    const sheets = await readXlsx(buf);
    expect(sheets).toHaveLength(1);
    const [sheet] = sheets;
    expect(sheet!.name).toBe('Tid  mars  2026');
    expect(sheet!.rows[0]).toEqual(['Person', 'Minuter', 'Timmar', 'Stängd', 'Dag']);
    expect(sheet!.rows[1]).toEqual([
      'Åsa Öberg',
      480,
      7.5,
      new Date('2026-03-03T11:05:00Z'),
      new Date('2026-03-31T00:00:00Z'),
    ]);
    expect(sheet!.rows[2]!.slice(0, 3)).toEqual(['Bo & "Co" <AB> \'x\'', -12.25, 0]);
    expect(typeof sheet!.rows[1]![1]).toBe('number');
    expect(sheet!.formats).toMatchObject({ D2: 'yyyy-mm-dd hh:mm', E2: 'yyyy-mm-dd' });
    expect(sheet!.bold.sort()).toEqual(['A1', 'B1', 'C1', 'D1', 'E1']);
    expect(sheet!.frozenRows).toBe(1);
    expect(sheet!.widths[0]).toBeGreaterThanOrEqual(20);
  });

  it('leaves out what XML cannot carry and cuts text at the cell limit', async () => {
    const buf = await xlsxWorkbook({
      name: 'x',
      header: ['t'],
      rows: [['bell\u0007 nul\u0000 lone \uD800 surrogate 😀 tab\tline\nend'], ['y'.repeat(MAX_CELL_TEXT + 10)], [NaN]],
    });
    const [sheet] = await readXlsx(buf);
    expect(sheet!.rows[1]).toEqual(['bell nul lone  surrogate 😀 tab\tline\nend']);
    expect(sheet!.rows[2]![0]).toBe('y'.repeat(MAX_CELL_TEXT));
    expect(sheet!.rows[3] ?? []).toEqual([]);
  });

  it('packs an empty report as a header row alone', async () => {
    const [sheet] = await readXlsx(await xlsxWorkbook({ name: 'Empty', header: ['A', 'B'], rows: [] }));
    expect(sheet!.rows).toEqual([['A', 'B']]);
  });
});
