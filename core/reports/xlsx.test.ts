import { describe, expect, it } from 'vitest';
import yauzl from 'yauzl';
import { columnName, MAX_CELL_TEXT, sheetName, sheetXml, xlsxWorkbook, xmlText } from './xlsx';

/** Every entry of a zip, by name, as text. */
function unzip(buf: Buffer): Promise<Map<string, string>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(buf, { lazyEntries: true }, (err, zip) => {
      if (err || !zip) return reject(err ?? new Error('no zip'));
      const out = new Map<string, string>();
      zip.on('entry', (entry: yauzl.Entry) => {
        zip.openReadStream(entry, (e, stream) => {
          if (e || !stream) return reject(e ?? new Error('no stream'));
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('end', () => {
            out.set(entry.fileName, Buffer.concat(chunks).toString('utf8'));
            zip.readEntry();
          });
        });
      });
      zip.on('end', () => resolve(out));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

const cells = (xml: string) =>
  [...xml.matchAll(/<c r="([A-Z]+\d+)"([^>]*)>(.*?)<\/c>/g)].map((m) => [m[1], m[2], m[3]]);

describe('[reports] xlsx writer', () => {
  it.each([
    [0, 'A'],
    [25, 'Z'],
    [26, 'AA'],
    [51, 'AZ'],
    [52, 'BA'],
    [701, 'ZZ'],
    [702, 'AAA'],
  ])('column %i is %s', (index, name) => {
    expect(columnName(index)).toBe(name);
  });

  it('escapes XML and drops characters XML cannot hold', () => {
    expect(xmlText('a & b < c > "d"')).toBe('a &amp; b &lt; c &gt; &quot;d&quot;');
    expect(xmlText('x\u0000y\u0007z\ttab\nline')).toBe('xyz\ttab\nline');
    expect(xmlText('lone \uD800 surrogate 😀')).toBe('lone  surrogate 😀');
  });

  it('names a sheet the way Excel allows', () => {
    expect(sheetName('Tid: 2026/01 [alla]')).toBe('Tid  2026 01  alla');
    expect(sheetName('x'.repeat(40))).toHaveLength(31);
    expect(sheetName('  ')).toBe('Sheet1');
  });

  it('writes the header bold, text inline and numbers as numbers', () => {
    const xml = sheetXml({
      header: ['Name', 'Minutes', 'Price'],
      rows: [
        ['Anna <A&B>', 90, 1234.5],
        [' padded ', null, Number.NaN],
        ['=SUM(A1:A2)', 0, -3],
      ],
    });
    expect(cells(xml)).toEqual([
      ['A1', ' s="1" t="inlineStr"', '<is><t>Name</t></is>'],
      ['B1', ' s="1" t="inlineStr"', '<is><t>Minutes</t></is>'],
      ['C1', ' s="1" t="inlineStr"', '<is><t>Price</t></is>'],
      ['A2', ' t="inlineStr"', '<is><t>Anna &lt;A&amp;B&gt;</t></is>'],
      ['B2', '', '<v>90</v>'],
      ['C2', '', '<v>1234.5</v>'],
      ['A3', ' t="inlineStr"', '<is><t xml:space="preserve"> padded </t></is>'],
      // a formula-looking text stays text: an inline string is never evaluated
      ['A4', ' t="inlineStr"', '<is><t>=SUM(A1:A2)</t></is>'],
      ['B4', '', '<v>0</v>'],
      ['C4', '', '<v>-3</v>'],
    ]);
    expect(xml).toContain('<dimension ref="A1:C4"/>');
    expect(xml).toContain('state="frozen"');
    expect(xml).not.toContain('<f>');
  });

  it('cuts text longer than a cell holds', () => {
    const xml = sheetXml({ header: ['t'], rows: [['y'.repeat(MAX_CELL_TEXT + 10)]] });
    expect(xml).toContain(`<t>${'y'.repeat(MAX_CELL_TEXT)}</t>`);
    expect(xml).not.toContain('y'.repeat(MAX_CELL_TEXT + 1));
  });

  it('packs a workbook a spreadsheet program opens: the parts and their relations', async () => {
    const buf = await xlsxWorkbook({ name: 'Tidrapport', header: ['Person', 'Minuter'], rows: [['Åsa Öberg', 480]] });
    expect(buf.subarray(0, 2).toString('latin1')).toBe('PK');
    const parts = await unzip(buf);
    expect([...parts.keys()].sort()).toEqual([
      '[Content_Types].xml',
      '_rels/.rels',
      'xl/_rels/workbook.xml.rels',
      'xl/styles.xml',
      'xl/workbook.xml',
      'xl/worksheets/sheet1.xml',
    ]);
    const types = parts.get('[Content_Types].xml')!;
    expect(types).toContain('PartName="/xl/workbook.xml"');
    expect(types).toContain('PartName="/xl/worksheets/sheet1.xml"');
    expect(types).toContain('spreadsheetml.sheet.main+xml');
    expect(parts.get('_rels/.rels')).toContain('Target="xl/workbook.xml"');
    expect(parts.get('xl/_rels/workbook.xml.rels')).toContain('Target="worksheets/sheet1.xml"');
    expect(parts.get('xl/workbook.xml')).toContain('<sheet name="Tidrapport" sheetId="1" r:id="rId1"/>');
    expect(parts.get('xl/styles.xml')).toContain('<font><b/>');
    const sheet = parts.get('xl/worksheets/sheet1.xml')!;
    expect(sheet.startsWith('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>')).toBe(true);
    expect(cells(sheet)).toEqual([
      ['A1', ' s="1" t="inlineStr"', '<is><t>Person</t></is>'],
      ['B1', ' s="1" t="inlineStr"', '<is><t>Minuter</t></is>'],
      ['A2', ' t="inlineStr"', '<is><t>Åsa Öberg</t></is>'],
      ['B2', '', '<v>480</v>'],
    ]);
  });

  it('packs an empty report as a header row alone', async () => {
    const parts = await unzip(await xlsxWorkbook({ name: 'Empty', header: ['A', 'B'], rows: [] }));
    const sheet = parts.get('xl/worksheets/sheet1.xml')!;
    expect(sheet).toContain('<dimension ref="A1:B1"/>');
    expect(sheet.match(/<row /g)).toHaveLength(1);
  });
});
