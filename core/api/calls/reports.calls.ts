import { z } from 'zod';
import { agreementInvoiceReport } from '~/core/reports/agreement-invoices-report.service';
import { closedWorkOrderHistory, REPORTS, ZClosedHistory } from '~/core/reports/closed-work-orders.service';
import { REPORT_KINDS } from '~/core/reports/report-constants';
import { exportReport, ZExportFormat } from '~/core/reports/report-export';
import { ZReportPeriod } from '~/core/reports/report-period';
import { timeReport, ZTimeReport } from '~/core/reports/time-report.service';
import { asSent, defineCall, type ApiCall } from '../define-call';
import { fileReply } from './work-order-documents.calls';

/*
 * Reports (spec section 2 /reports, REPORTS_READ; api-calls.md GET /wo/history/closed): the closed
 * work orders of a period, the agreement invoices and the time of a period, each also as CSV or
 * XLSX. Registered before the work-order calls, whose `/wo/history/:id` would take "closed" for an
 * id. Services check access and validate.
 */

const PERIOD =
  'startTime, endTime: YYYY-MM-DD, both included, at most 366 days (400 ERROR_REPORT_PERIOD_REVERSED, ERROR_REPORT_PERIOD_TOO_LONG on endTime)';

export const reportCalls: ApiCall[] = [
  defineCall({
    method: 'GET',
    path: '/wo/history/closed',
    access: REPORTS,
    input: asSent(ZClosedHistory),
    summary: `Work orders closed in a period (default: this ISO week; ${PERIOD}) ?customerId&workType&title&createUserId&scheduledUserId&offset&limit, newest first, within the user's work-order limit {startTime, endTime, workOrders: [{id, number, title, customerName, workType, closedAt, assignees, totalPrice, workMinutes, travelMinutes}], totalCount, totals: {totalPrice, workMinutes, travelMinutes}}`,
    handler: (ctx, input) => closedWorkOrderHistory(ctx, input),
  }),
  defineCall({
    method: 'GET',
    path: '/reports/agreement-invoices',
    access: REPORTS,
    input: asSent(ZReportPeriod),
    summary: `Agreement invoices whose period starts in ?startTime..endTime (default: this month; ${PERIOD}), void ones left out, summed per agreement type and month {startTime, endTime, count, totalPrice, totalPriceVat, months: [{month, count, totalPrice, totalPriceVat}], types, rows: [{agreementId, code, title, month, count, totalPrice, totalPriceVat}]}`,
    handler: (ctx, input) => agreementInvoiceReport(ctx, input),
  }),
  defineCall({
    method: 'GET',
    path: '/reports/time',
    access: REPORTS,
    input: asSent(ZTimeReport),
    summary: `Time reported in a period (default: this month; ${PERIOD}) ?groupBy=person|project|workType (default person): work-order work and travel minutes and own time (by tag: ownMinutes, absenceMinutes) {startTime, endTime, groupBy, rows: [{id, kind: person|project|noProject|workType|tag, key, label, tagType, workMinutes, travelMinutes, ownMinutes, absenceMinutes, totalMinutes}], totals}`,
    handler: (ctx, input) => timeReport(ctx, input),
  }),
  defineCall({
    method: 'GET',
    path: '/reports/:report/export',
    access: REPORTS,
    input: asSent(
      // the report's own query (its period, filters, grouping) passes on to its service, which checks it
      ZExportFormat.extend({ report: z.enum(REPORT_KINDS, { error: 'ERROR_INVALID_VALUE' }) }).passthrough(),
    ),
    summary: `A report as a file: report closed-work-orders|agreement-invoices|time with its own query and ?format=csv|xlsx → text/csv (semicolons, UTF-8 with BOM) or an XLSX workbook, attachment; 409 REPORT_EXPORT_TOO_LARGE beyond 50,000 closed work orders`,
    handler: async (ctx, input) => fileReply(await exportReport(ctx, input.report, input)),
  }),
];
