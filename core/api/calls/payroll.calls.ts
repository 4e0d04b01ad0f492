import {
  payrollExport,
  payrollPreview,
  ZPayrollExport,
  ZPayrollMonth,
} from '~/core/time-reports/payroll/payroll.service';
import { asSent, defineCall, type ApiCall } from '../define-call';
import { fileReply } from './work-order-documents.calls';

/*
 * The payroll export of a locked month (issue 17 part 5; "Time reports"): its preview and the
 * file, PAXml 2.0 or CSV. Fixed paths under /timereports/payroll, registered before any
 * /timereports/:id.
 */

const READ = { permission: 'timereports:read' } as const;

export const payrollCalls: ApiCall[] = [
  defineCall({
    method: 'GET',
    path: '/timereports/payroll',
    access: READ,
    input: asSent(ZPayrollMonth),
    summary:
      "A month's payroll figures ?month=YYYY-MM → {month, from, to, locked, people (only those whose time of the month is approved): [{userId, name, employeeNumber (null when not set), work: [{code, hours}], absence: [{code, hours}], compensation: [{code, kind: compensation|distance, unit: h|km|day|pcs, quantity, amount}], totals: {workHours, absenceHours, amount, distanceKm}}], totals, notApproved: [{userId, name}] (time this month not approved: left out), missingEmployeeNumbers: [{userId, name}] (in the file without an employee number: the export is refused)}",
    handler: (ctx, input) => payrollPreview(ctx, input),
  }),
  defineCall({
    method: 'GET',
    path: '/timereports/payroll/export',
    access: READ,
    input: asSent(ZPayrollExport),
    summary:
      'A locked month for the payroll system ?month=YYYY-MM&format=paxml|csv → PAXml 2.0 (application/xml, paxml-<month>.xml: tidtrans for time under PAXml time codes, lonetrans for compensation, mileage and other codes) or CSV (semicolons, UTF-8 with BOM, decimal comma: employeeNumber;name;type;code;date;quantity;unit;unitPrice;amount;comment), of the people whose time of the month is approved; 409 PAYROLL_MONTH_NOT_LOCKED; 409 PAYROLL_EMPLOYEE_NUMBER_MISSING {people: [{userId, name}]} when someone in it has no ERP employee number',
    handler: async (ctx, input) => fileReply(await payrollExport(ctx, input)),
  }),
];
