import writeXlsxFile, { type Cell } from 'write-excel-file/node';

/*
 * The report exports as XLSX workbooks of one sheet, written by write-excel-file (decision 044): a
 * bold header row frozen at the top, numbers as numbers, dates as dates, columns as wide as their
 * text. The library escapes the text and drops what XML cannot carry; the tests open its output with
 * a second, independent reader (exceljs).
 */

export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/**
 * A cell: text, a number, a date, or empty (null, undefined or a number that is not finite). A date
 * is a wall-clock time: its UTC fields are what the cell shows (a spreadsheet has no time zones);
 * at midnight it is shown as a day, otherwise with hours and minutes.
 */
export type XlsxCell = string | number | Date | null | undefined;

export interface XlsxSheet {
  /** The sheet tab's name; cut to 31 characters and cleaned of the characters a tab cannot hold. */
  name: string;
  header: readonly string[];
  rows: readonly (readonly XlsxCell[])[];
}

/** A cell holds at most this many characters (Excel's limit); longer text is cut. */
export const MAX_CELL_TEXT = 32_767;

export const DATE_FORMAT = 'yyyy-mm-dd';
export const DATE_TIME_FORMAT = 'yyyy-mm-dd hh:mm';

/** A sheet name Excel accepts: no []:*?/\, not blank, at most 31 characters. */
export function sheetName(name: string): string {
  const clean = name
    .replace(/[[\]:*?/\\]/g, ' ')
    .trim()
    .slice(0, 31)
    .replace(/^'+|'+$/g, '');
  return clean || 'Sheet1';
}

function cell(value: XlsxCell): Cell {
  if (typeof value === 'number') return Number.isFinite(value) ? { value, type: Number } : null;
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) return null;
    const midnight = value.getTime() % 86_400_000 === 0;
    return { value, type: Date, format: midnight ? DATE_FORMAT : DATE_TIME_FORMAT };
  }
  if (value === null || value === undefined || value === '') return null;
  return { value: value.length > MAX_CELL_TEXT ? value.slice(0, MAX_CELL_TEXT) : value, type: String };
}

const shown = (value: XlsxCell) => (value instanceof Date ? DATE_TIME_FORMAT : String(value ?? ''));

/** The workbook of one sheet as the bytes of an .xlsx file. */
export function xlsxWorkbook(sheet: XlsxSheet): Promise<Buffer> {
  const header: Cell[] = sheet.header.map((h) => ({ value: h, type: String, fontWeight: 'bold' }));
  const columns = sheet.header.map((h, i) => {
    const longest = Math.max(h.length, ...sheet.rows.slice(0, 200).map((r) => shown(r[i]).length));
    return { width: Math.min(60, Math.max(8, longest + 2)) };
  });
  return writeXlsxFile([header, ...sheet.rows.map((r) => r.map(cell))], {
    sheet: sheetName(sheet.name),
    columns,
    stickyRowsCount: 1,
  }).toBuffer();
}
