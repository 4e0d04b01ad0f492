/**
 * Reading a wholesaler's price or discount file (decision 056): CSV in UTF-8 or Windows-1252 with
 * `;`, `,` or tab (csv-parse, iconv-lite), or the first sheet of an XLSX workbook (exceljs's
 * streaming reader). Both are read as a stream of rows of text cells, so a file of hundreds of
 * thousands of rows is never held in memory.
 */
import fs from 'node:fs';
import { pipeline, Transform, type Readable } from 'node:stream';
import { CsvError, parse } from 'csv-parse';
import ExcelJS from 'exceljs';
import iconv from 'iconv-lite';
import { AppError } from '~/core/errors/app-error';
import { inspectFile, type FileType } from '~/core/files/inspect';
import { detectDelimiter, type Delimiter } from '~/core/import-export/csv';
import { formatDecimal, parseDecimal, round } from '~/core/pricing/decimal';

export type CatalogueFormat = 'csv' | 'xlsx';
export type CatalogueEncoding = 'utf8' | 'windows-1252';

/** How a CSV file is read, found from its first bytes when it is uploaded and kept with it. */
export interface CsvDialect {
  encoding: CatalogueEncoding;
  delimiter: Delimiter;
}

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
export const CSV_TYPE = 'text/csv';
/** Bytes read to tell text from binary and to find the encoding and delimiter. */
const SNIFF_BYTES = 64 * 1024;

/** A price file that is neither CSV nor XLSX, or that cannot be read as one. */
export const unreadable = (message?: string) =>
  new AppError('SUPPLIER_CATALOGUE_FILE_UNREADABLE', 400, {
    fields: { file: ['SUPPLIER_CATALOGUE_FILE_UNREADABLE'] },
    ...(message ? { message } : {}),
  });

/**
 * The upload's check (core/files/receive `inspect`): an XLSX workbook, or text (no NUL byte in its
 * first 64 KiB, which no CSV has and every other binary format does); anything else is refused.
 */
export async function inspectCatalogueFile(file: string, size: number): Promise<FileType> {
  if (size === 0) throw new AppError('FILE_EMPTY', 400, { fields: { file: ['FILE_EMPTY'] } });
  const head = await readHead(file);
  if (head[0] === 0x50 && head[1] === 0x4b) {
    const type = await inspectFile(file, size);
    if (type.contentType === XLSX_TYPE) return type;
    throw unreadable();
  }
  if (head.includes(0)) throw unreadable();
  return { contentType: CSV_TYPE, extension: 'csv' };
}

async function readHead(file: string): Promise<Buffer> {
  const fd = await fs.promises.open(file, 'r');
  try {
    const buf = Buffer.alloc(SNIFF_BYTES);
    const { bytesRead } = await fd.read(buf, 0, SNIFF_BYTES, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await fd.close();
  }
}

/**
 * The encoding and delimiter of CSV text from its first bytes: UTF-8 when they are valid UTF-8
 * (a sequence cut at the end of the sample is fine), else Windows-1252, which Excel in Sweden and
 * the Baltics saves as "CSV"; the delimiter used most in the first line.
 */
export function sniffCsv(head: Buffer): CsvDialect {
  let encoding: CatalogueEncoding = 'utf8';
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(head, { stream: true });
  } catch {
    encoding = 'windows-1252';
  }
  const text = iconv.decode(head, encoding).replace(/^\uFEFF/, '');
  return { encoding, delimiter: detectDelimiter(text) };
}

/** Counts the bytes passing through (the import's progress is bytes read of the file's size). */
function byteCounter(onBytes: (n: number) => void): Transform {
  return new Transform({
    transform(chunk: Buffer, _e, done) {
      onBytes(chunk.length);
      done(null, chunk);
    },
  });
}

const cellText = (v: unknown): string => {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return v.trim();
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (v instanceof Date) return v.toISOString().slice(0, 10);
  if (typeof v === 'object') {
    const o = v as { richText?: { text: string }[]; text?: unknown; result?: unknown; error?: string };
    if (o.richText)
      return o.richText
        .map((r) => r.text)
        .join('')
        .trim();
    if (o.text !== undefined) return cellText(o.text);
    if (o.result !== undefined) return cellText(o.result);
  }
  return '';
};

async function* csvRows(body: Readable, dialect: CsvDialect, onBytes: (n: number) => void): AsyncGenerator<string[]> {
  const parser = parse({
    bom: true,
    delimiter: dialect.delimiter,
    record_delimiter: ['\r\n', '\n', '\r'],
    relax_quotes: true,
    relax_column_count: true,
    skip_empty_lines: true,
    skip_records_with_empty_values: true,
    trim: true,
  });
  const rows = pipeline(body, byteCounter(onBytes), iconv.decodeStream(dialect.encoding), parser, () => undefined);
  try {
    for await (const record of rows) yield record as string[];
  } catch (e) {
    if (e instanceof CsvError) throw unreadable(`CSV is not readable at line ${Number(e.lines) || 1}`);
    throw e;
  }
}

async function* xlsxRows(body: Readable, onBytes: (n: number) => void): AsyncGenerator<string[]> {
  const counted = body.pipe(byteCounter(onBytes));
  body.on('error', (e) => counted.destroy(e));
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(counted, {
    sharedStrings: 'cache',
    styles: 'ignore',
    hyperlinks: 'ignore',
    worksheets: 'emit',
    entries: 'ignore',
  });
  try {
    // the first sheet only: a price list is one table
    for await (const sheet of reader) {
      for await (const row of sheet) {
        const values = (row.values ?? []) as unknown[];
        const cells = values.slice(1).map(cellText);
        if (cells.some((c) => c !== '')) yield cells;
      }
      return;
    }
  } catch (e) {
    if (e instanceof AppError) throw e;
    throw unreadable('The workbook could not be read');
  }
}

/**
 * The file's rows as text cells, in order, empty rows left out. `onBytes` hears of every chunk
 * read (progress). Stopping early (the preview) destroys the file's stream.
 */
export async function* catalogueRows(
  body: Readable,
  format: CatalogueFormat,
  dialect: CsvDialect | null,
  onBytes: (n: number) => void = () => undefined,
): AsyncGenerator<string[]> {
  try {
    if (format === 'xlsx') yield* xlsxRows(body, onBytes);
    else yield* csvRows(body, dialect ?? { encoding: 'utf8', delimiter: ';' }, onBytes);
  } finally {
    body.destroy();
  }
}

/**
 * A price or percent as a wholesaler writes it: "1 234,50", "1234.50", "1.234,50", "1,234.50",
 * "12 %"; rounded half away from zero to `scale` decimals. `null` for an empty cell,
 * `undefined` for what is not a number or is negative.
 */
export function parseAmount(text: string, scale: number): string | null | undefined {
  let t = text.replace(/[\s\u00a0\u202f%]/g, '');
  if (t === '') return null;
  const comma = t.lastIndexOf(',');
  const dot = t.lastIndexOf('.');
  // both: the later one is the decimal separator and the other groups thousands
  if (comma >= 0 && dot >= 0) t = comma > dot ? t.replace(/\./g, '').replace(',', '.') : t.replace(/,/g, '');
  const d = parseDecimal(t);
  if (!d || d.units < 0n) return undefined;
  return formatDecimal(round(d, scale), scale);
}
