import { CsvError, parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import iconv from 'iconv-lite';

/**
 * CSV as the registers import and export it (RFC 4180 quoting), read by csv-parse and written by
 * csv-stringify (the csv project; decision 045). Exports use semicolons and a UTF-8 byte-order
 * mark, which is what Excel expects in Sweden and the Baltics (a comma is their decimal
 * separator); imports accept semicolon, comma or tab, detected from the header line.
 */

export const EXPORT_DELIMITER = ';';
const BOM = '\uFEFF';

export type Delimiter = ';' | ',' | '\t';

/** A file csv-parse cannot read (an unclosed quote, text after a closing quote): the line it stopped at. */
export class CsvSyntaxError extends Error {
  constructor(
    readonly line: number,
    cause: unknown,
  ) {
    super(`CSV is not readable at line ${line}`, { cause });
  }
}

/**
 * An uploaded text file's characters: UTF-8 (with or without its byte-order mark) when the bytes are
 * valid UTF-8, else Windows-1252 (what Excel and older Nordic systems save "CSV" as), decoded by
 * iconv-lite. Windows-1252 maps almost every byte, so the strict UTF-8 attempt decides.
 */
export function decodeText(bytes: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return iconv.decode(Buffer.from(bytes), 'windows-1252');
  }
}

/** The delimiter used most often outside quotes in the first line. */
export function detectDelimiter(text: string): Delimiter {
  const counts: Record<Delimiter, number> = { ';': 0, ',': 0, '\t': 0 };
  let quoted = false;
  for (const ch of text) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && (ch === '\n' || ch === '\r')) break;
    else if (!quoted && ch in counts) counts[ch as Delimiter]++;
  }
  const [best, n] = (Object.entries(counts) as [Delimiter, number][]).sort((a, b) => b[1] - a[1])[0]!;
  return n > 0 ? best : ';';
}

/**
 * Parses CSV text into rows of cells. Quoted cells may hold delimiters, doubled quotes and line
 * breaks; a quote inside an unquoted cell is kept as it is; rows of blank cells are dropped; CRLF,
 * LF and CR all end a row; rows may be short or long. Throws CsvSyntaxError on what is not CSV.
 */
export function parseCsv(input: string, delimiter: Delimiter = detectDelimiter(input)): string[][] {
  try {
    return parse(input, {
      bom: true,
      delimiter,
      record_delimiter: ['\r\n', '\n', '\r'],
      relax_quotes: true,
      relax_column_count: true,
      skip_empty_lines: true,
      skip_records_with_empty_values: true,
    });
  } catch (e) {
    if (e instanceof CsvError) throw new CsvSyntaxError(Number(e.lines) || 1, e);
    throw e;
  }
}

/** Header row → objects keyed by header (trimmed); missing cells are empty strings. */
export function csvRecords(input: string): { headers: string[]; records: Record<string, string>[] } {
  const [head = [], ...body] = parseCsv(input);
  const headers = head.map((h) => h.trim());
  return {
    headers,
    records: body.map((cells) => Object.fromEntries(headers.map((h, i) => [h, (cells[i] ?? '').trim()]))),
  };
}

/** A leading =, +, - or @ would run as a formula in a spreadsheet: prefixed with ' (OWASP CSV injection); numbers stay. */
function defused(value: string): string {
  return /^[=+\-@\t\r]/.test(value) && !/^-?\d+([.,]\d+)?$/.test(value) ? `'${value}` : value;
}

/** One CSV line (without the line break). */
export function csvLine(
  cells: readonly (string | number | boolean | null | undefined)[],
  delimiter = EXPORT_DELIMITER,
) {
  // Cells become text first so that csv-stringify's own casts (true → "1") do not apply.
  const text = cells.map((c) => defused(c == null ? '' : String(c)));
  return stringify([text], { delimiter, record_delimiter: 'windows', quoted_match: /[\r\n]/, eof: false });
}

/** The start of an exported file: the byte-order mark and the header line. */
export function csvHead(headers: readonly string[], delimiter = EXPORT_DELIMITER): string {
  return `${BOM}${csvLine(headers, delimiter)}\r\n`;
}
