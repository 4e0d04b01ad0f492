import { z } from 'zod';
import {
  exportStatisticsTable,
  readStatisticsTable,
  STATISTICS_ACCESS,
  STATISTICS_TABLES,
  ZStatisticsExport,
  ZStatisticsQuery,
  type StatisticsTableId,
} from '~/core/statistics/statistics.service';
import { asSent, defineCall, type ApiCall } from '../define-call';
import { fileReply } from './work-order-documents.calls';

/*
 * Statistics (spec section 2 /statistics: the statistics module and DASHBOARD_READ; issue 36 item 2;
 * decision 065): one call a table, the page's own service, and each table as a CSV or XLSX file.
 * The catalogue names no statistics calls; the paths follow the reports' (`/reports/...`).
 */

/** The table's path segment: `byType` → `by-type`. */
export const statisticsPath = (table: StatisticsTableId) => table.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

const QUERY =
  "?period=12m|year|2m (default 12m: whole months in the tenant calendar up to today; 400 ERROR_INVALID_VALUE) &departmentId (404 NOT_FOUND when not this tenant's) &region (a name of the regions register; all or empty: every region; 404 when unknown)";
const ANSWER =
  '{period: {period, from, to, months}, departmentId, region, table: {id, rowKind: name|month|term, columns: [{key, kind: count|money|hours|percent}], rows: [{key, name, values}], total}}';

const WHAT: Record<StatisticsTableId, string> = {
  byType: 'Work orders taken in during the period by work type: orders, closed, open',
  byStatus: 'Work orders taken in during the period by their status now',
  byTechnician: 'Work orders taken in during the period by assigned technician (key "-": none), at most 200',
  byCustomer: 'The 50 customers with the most work orders taken in during the period (key "-": none)',
  revenueByMonth:
    'Finalized invoices excl. VAT by month of invoice date and source (work orders, agreements, projects, sales orders, other)',
  revenueBySource: 'Finalized invoices excl. VAT in the period by source: invoices, amount, share %',
  hours:
    'Per person: work minutes reported on work orders (as hours) and labour hours on finalized invoices, billed share %',
  firstTimeFix:
    'Orders with an object closed in the period by month: closed, revisits (another order on the object within 30 days, agreement service orders not counted), first-time fix %',
  agreementRevenue: 'Finalized agreement invoices excl. VAT in the period by agreement: invoices, objects, amount',
};

export const statisticsCalls: ApiCall[] = [
  ...STATISTICS_TABLES.map((table) =>
    defineCall({
      method: 'GET',
      path: `/statistics/${statisticsPath(table)}`,
      access: STATISTICS_ACCESS,
      input: asSent(ZStatisticsQuery),
      summary: `${WHAT[table]} ${QUERY} → ${ANSWER}`,
      handler: (ctx, input) => readStatisticsTable(ctx, table, input),
    }),
  ),
  defineCall({
    method: 'GET',
    path: '/statistics/:table/export',
    access: STATISTICS_ACCESS,
    input: asSent(
      ZStatisticsExport.extend({
        table: z.enum(STATISTICS_TABLES.map(statisticsPath) as [string, ...string[]], { error: 'ERROR_INVALID_VALUE' }),
      }),
    ),
    summary: `One statistics table (by-type, by-status, by-technician, by-customer, revenue-by-month, revenue-by-source, hours, first-time-fix, agreement-revenue) as a file: ?format=csv|xlsx ${QUERY} → text/csv (semicolons, UTF-8 with BOM, decimal commas) or an XLSX workbook, attachment`,
    handler: async (ctx, input) => {
      const table = STATISTICS_TABLES.find((t) => statisticsPath(t) === input.table)!;
      return fileReply(await exportStatisticsTable(ctx, table, input));
    },
  }),
];
