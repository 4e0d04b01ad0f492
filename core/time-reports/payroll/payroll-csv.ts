import { csvHead, csvLine } from '~/core/import-export/csv';
import { decimalText, type PayrollEmployee, type PayrollLine } from './payroll-lines';

/**
 * The payroll lines as CSV for payroll systems without PAXml and for spreadsheets: the registers'
 * CSV (semicolons, UTF-8 with a byte-order mark, CRLF, spreadsheet formulas defused) with
 * Swedish decimal commas and no thousands separator. One row per line of the PAXml file; `type`
 * is work, absence, compensation or distance; `unit` is h, km, day or pcs.
 */
export const PAYROLL_CSV_COLUMNS = [
  'employeeNumber',
  'name',
  'type',
  'code',
  'date',
  'quantity',
  'unit',
  'unitPrice',
  'amount',
  'comment',
] as const;

export const PAYROLL_CSV_CONTENT_TYPE = 'text/csv; charset=utf-8';

/** 7.5 → "7,5": the decimal comma Swedish spreadsheets and payroll programs read. */
const decimalComma = (n: number | null) => (n === null ? '' : decimalText(n).replace('.', ','));

export function writePayrollCsv(people: readonly PayrollEmployee[], lines: readonly PayrollLine[]): string {
  const byId = new Map(people.map((p) => [p.userId, p]));
  const order = new Map(people.map((p, i) => [p.userId, i]));
  const rows = [...lines]
    .filter((l) => byId.has(l.userId))
    .sort((a, b) => order.get(a.userId)! - order.get(b.userId)!)
    .map((l) => {
      const person = byId.get(l.userId)!;
      return csvLine([
        person.employeeNumber,
        person.name,
        l.kind,
        l.code,
        l.date,
        decimalComma(l.quantity),
        l.unit,
        decimalComma(l.unitPrice),
        decimalComma(l.amount),
        l.comment,
      ]);
    });
  return csvHead(PAYROLL_CSV_COLUMNS) + rows.map((r) => `${r}\r\n`).join('');
}
