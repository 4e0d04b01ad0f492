import { z } from 'zod';
import type { Ctx } from '~/core/context';
import { documentTranslator, type DocumentT } from '~/core/documents/i18n';
import { DOCUMENT_CSV_TYPE, safeFilename, type DocumentFile } from '~/core/documents/file';
import { parseInput } from '~/core/errors/validation';
import { requireAccess } from '~/core/permissions/access';
import { tenantTimeZone } from '~/core/i18n/number-format';
import { csvHead, csvLine } from '~/core/import-export/csv';
import { isoToWallClock } from '~/core/work-orders/time-rules';
import { agreementInvoiceReport } from './agreement-invoices-report.service';
import { closedWorkOrdersForExport, REPORTS } from './closed-work-orders.service';
import { EXPORT_FORMATS, timeRowLabel, type ExportFormat, type ReportKind } from './report-constants';
import { timeReport } from './time-report.service';
import { XLSX_TYPE, xlsxWorkbook, type XlsxCell } from './xlsx';

/*
 * The reports as files (issue 17 part 6): each report's table as CSV (the registers' CSV: semicolons,
 * a byte-order mark, decimal commas — what Excel expects in Sweden and the Baltics) or as an XLSX
 * workbook of one sheet (numbers as numbers). Column titles in the user's language (`reports`
 * namespace). The closed work orders export every order of the filter (up to its cap); the
 * agreement invoices and time reports export the sums the page shows.
 */

/** GET /reports/{report}/export?format: the file's format (the report's own query comes along). */
export const ZExportFormat = z.object({
  format: z.enum(EXPORT_FORMATS, { error: 'ERROR_INVALID_VALUE' }),
});

/** A number cell: a number in XLSX; in CSV with a decimal comma and `decimals` places, no grouping. */
interface Num {
  value: number;
  decimals: number;
}
/** A wall-clock time, "YYYY-MM-DD HH:MM": the text in CSV, a date cell in XLSX. */
interface When {
  wallClock: string;
}
type Cell = string | Num | When | null;

export interface ReportTable {
  /** The download name's first part (ASCII). */
  name: string;
  /** The sheet's name, in the user's language. */
  title: string;
  header: string[];
  rows: Cell[][];
}

const money = (v: string): Num => ({ value: Number(v), decimals: 2 });
const count = (v: number): Num => ({ value: v, decimals: 0 });
/** Minutes as hours with two decimals (7 h 30 min → 7.5). */
const hours = (minutes: number): Num => ({ value: Math.round((minutes / 60) * 100) / 100, decimals: 2 });

function csvCell(c: Cell): string {
  if (c === null) return '';
  if (typeof c === 'string') return c;
  if ('wallClock' in c) return c.wallClock;
  return Number.isFinite(c.value) ? c.value.toFixed(c.decimals).replace('.', ',') : '';
}
function xlsxCell(c: Cell): XlsxCell {
  if (c === null || typeof c === 'string') return c;
  // a spreadsheet date has no zone: the wall clock as the date's UTC fields (see XlsxCell)
  if ('wallClock' in c) return c.wallClock ? new Date(`${c.wallClock.replace(' ', 'T')}:00Z`) : null;
  return c.value;
}

/** A column of hours: "Work (h)". */
const inHours = (t: DocumentT, column: string) => t('export.hours', { name: t(`col.${column}`) });

/** One table as a download in `format`. */
export async function tableFile(table: ReportTable, format: ExportFormat, period: string): Promise<DocumentFile> {
  if (format === 'csv') {
    const body = csvHead(table.header) + table.rows.map((r) => `${csvLine(r.map(csvCell))}\r\n`).join('');
    return {
      filename: safeFilename(table.name, period, 'csv'),
      contentType: DOCUMENT_CSV_TYPE,
      body: Buffer.from(body, 'utf8'),
    };
  }
  return {
    filename: safeFilename(table.name, period, 'xlsx'),
    contentType: XLSX_TYPE,
    body: await xlsxWorkbook({ name: table.title, header: table.header, rows: table.rows.map((r) => r.map(xlsxCell)) }),
  };
}

async function closedTable(ctx: Ctx, raw: unknown, t: DocumentT): Promise<[ReportTable, string]> {
  const { period, workOrders } = await closedWorkOrdersForExport(ctx, raw);
  const zone = tenantTimeZone(ctx.tenant.config?.country);
  const cols = ['number', 'title', 'customer', 'workType', 'closedAt', 'assignees', 'createdBy'];
  return [
    {
      name: 'closed-work-orders',
      title: t('tab.closed'),
      header: [...cols.map((c) => t(`col.${c}`)), inHours(t, 'work'), inHours(t, 'travel'), t('col.price')],
      rows: workOrders.map((w) => [
        w.number,
        w.title,
        w.customerName,
        w.workType,
        { wallClock: isoToWallClock(w.closedAt, zone).replace('T', ' ') },
        w.assignees.map((a) => a.name).join(', '),
        w.createUserName,
        hours(w.workMinutes),
        hours(w.travelMinutes),
        money(w.totalPrice),
      ]),
    },
    `${period.from}_${period.to}`,
  ];
}

async function agreementTable(ctx: Ctx, raw: unknown, t: DocumentT): Promise<[ReportTable, string]> {
  const report = await agreementInvoiceReport(ctx, raw);
  const cols = ['month', 'agreementCode', 'agreementType', 'invoices', 'net', 'gross'];
  return [
    {
      name: 'agreement-invoices',
      title: t('tab.agreements'),
      header: cols.map((c) => t(`col.${c}`)),
      rows: report.rows.map((r) => [
        r.month,
        r.code,
        r.title,
        count(r.count),
        money(r.totalPrice),
        money(r.totalPriceVat),
      ]),
    },
    `${report.startTime}_${report.endTime}`,
  ];
}

async function timeTable(ctx: Ctx, raw: unknown, t: DocumentT): Promise<[ReportTable, string]> {
  const report = await timeReport(ctx, raw);
  // a tag without a name is called by its code's meaning (the time-report tags' words)
  const tags = documentTranslator(ctx.lang, 'timetags');
  const tagLabel = (tag: { code: string; name: string | null }) =>
    tag.name ?? tags(`code.${tag.code}`, { defaultValue: tag.code });
  const cols = ['work', 'travel', 'own', 'absence', 'total'];
  return [
    {
      name: `time-${report.groupBy}`,
      title: t('tab.time'),
      header: [t(`time.groupBy.${report.groupBy}`), ...cols.map((c) => inHours(t, c))],
      rows: report.rows.map((r) => [
        timeRowLabel(r, t, tagLabel),
        hours(r.workMinutes),
        hours(r.travelMinutes),
        hours(r.ownMinutes),
        hours(r.absenceMinutes),
        hours(r.totalMinutes),
      ]),
    },
    `${report.startTime}_${report.endTime}`,
  ];
}

/**
 * GET /reports/{report}/export?format=csv|xlsx&…: a report with the same query as its page, as a
 * file (reports:read; the report's own 400s and, for the closed work orders, 409
 * REPORT_EXPORT_TOO_LARGE).
 */
export async function exportReport(ctx: Ctx, report: ReportKind, raw: unknown = {}): Promise<DocumentFile> {
  requireAccess(ctx.auth, REPORTS);
  const { format } = parseInput(ZExportFormat, raw);
  const t = documentTranslator(ctx.lang, 'reports');
  const make =
    report === 'closed-work-orders' ? closedTable : report === 'agreement-invoices' ? agreementTable : timeTable;
  const [table, period] = await make(ctx, raw, t);
  return tableFile(table, format, period);
}
