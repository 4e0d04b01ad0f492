/**
 * CSV as the registers import and export it (RFC 4180 quoting). Exports use semicolons and a
 * UTF-8 byte-order mark, which is what Excel expects in Sweden and the Baltics (a comma is their
 * decimal separator); imports accept semicolon, comma or tab, detected from the header line.
 */

export const EXPORT_DELIMITER = ';';
const BOM = '\uFEFF';

export type Delimiter = ';' | ',' | '\t';

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
 * breaks; a trailing empty line is dropped; CRLF and LF both end a row.
 */
export function parseCsv(input: string, delimiter: Delimiter = detectDelimiter(input)): string[][] {
  const text = input.startsWith(BOM) ? input.slice(1) : input;
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"') {
        if (text[i + 1] === '"') {
          cell += '"';
          i++;
        } else quoted = false;
      } else cell += ch;
    } else if (ch === '"' && cell === '') quoted = true;
    else if (ch === delimiter) {
      row.push(cell);
      cell = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
    } else cell += ch;
  }
  if (cell !== '' || row.length) {
    row.push(cell);
    rows.push(row);
  }
  return rows.filter((r) => r.some((c) => c.trim() !== ''));
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

function quote(value: string, delimiter: string): string {
  // A leading =, +, - or @ would run as a formula in a spreadsheet: prefix it (OWASP CSV injection).
  const safe = /^[=+\-@\t\r]/.test(value) && !/^-?\d+([.,]\d+)?$/.test(value) ? `'${value}` : value;
  return /["\r\n]/.test(safe) || safe.includes(delimiter) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** One CSV line (without the line break). */
export function csvLine(
  cells: readonly (string | number | boolean | null | undefined)[],
  delimiter = EXPORT_DELIMITER,
) {
  return cells.map((c) => quote(c == null ? '' : String(c), delimiter)).join(delimiter);
}

/** The start of an exported file: the byte-order mark and the header line. */
export function csvHead(headers: readonly string[], delimiter = EXPORT_DELIMITER): string {
  return `${BOM}${csvLine(headers, delimiter)}\r\n`;
}
