import { z } from 'zod';
import type { Ctx } from '~/core/context';
import type { DocumentFile } from '~/core/documents/file';
import { AppError } from '~/core/errors/app-error';
import { parseInput } from '~/core/errors/validation';
import { requireAccess } from '~/core/permissions/access';
import { tenantToday } from '~/core/calendar/tenant-today';
import { isDateLocked } from '../period-lock';
import { timeLockState } from '../period-lock.service';
import { PAXML_CONTENT_TYPE, writePaxml } from './paxml';
import { PAYROLL_CSV_CONTENT_TYPE, writePayrollCsv } from './payroll-csv';
import {
  approvedPeople,
  employeeNumberOf,
  payrollLines,
  summarize,
  round2,
  type CompensationSum,
  type CompensationType,
  type DistanceSum,
  type PayrollEmployee,
  type PayrollLine,
  type PayrollPerson,
  type PersonSummary,
  type TagCode,
  type TimeSum,
  type WorkOrderTimeSum,
} from './payroll-lines';
import { defaultPayrollMonth, MONTH_PATTERN, monthRange } from './payroll-month';

/*
 * The payroll export of a month (issue 17 part 5): the month's worked hours, absence,
 * compensation and mileage per person as PAXml 2.0 or CSV, and a preview of the same figures.
 * Only a locked month leaves for payroll (409 PAYROLL_MONTH_NOT_LOCKED): its time can no longer
 * change under the payroll run. Only people whose time of the month is approved are in it; the
 * rest wait, named on the preview. Everyone in it needs their ERP employee number (409
 * PAYROLL_EMPLOYEE_NUMBER_MISSING names who lacks one): the payroll system knows nobody by an Ordo
 * id (issue 28). Everything is summed in SQL per person, day and code — a fixed
 * number of queries whatever the number of people.
 */

const READ = { permission: 'timereports:read' } as const;

export const ZPayrollMonth = z.object({
  month: z.string({ error: 'ERROR_REQUIRED_FIELD' }).trim().regex(MONTH_PATTERN, 'ERROR_INVALID_VALUE'),
});
export const PAYROLL_FORMATS = ['paxml', 'csv'] as const;
export type PayrollFormat = (typeof PAYROLL_FORMATS)[number];
export const ZPayrollExport = ZPayrollMonth.extend({
  format: z.enum(PAYROLL_FORMATS, { error: 'ERROR_INVALID_VALUE' }),
});

/** A person named on the preview: who is left out, or who blocks the export. */
export interface PayrollPersonRef {
  userId: string;
  name: string;
}

export interface PayrollPreview {
  /** YYYY-MM */
  month: string;
  from: string;
  to: string;
  /** Whether the month is locked: only then can it be exported. */
  locked: boolean;
  /** The people the file holds: those whose time of the month is approved. */
  people: PersonSummary[];
  totals: { people: number; workHours: number; absenceHours: number; amount: number; distanceKm: number };
  /** People with time this month that is not approved: left out of the file. */
  notApproved: PayrollPersonRef[];
  /** People in the file without an employee number: the export is refused until they have one. */
  missingEmployeeNumbers: PayrollPersonRef[];
}

const num = (v: unknown) => (v === null || v === undefined ? 0 : Number(v));
const numOrNull = (v: unknown) => (v === null || v === undefined ? null : Number(v));
const text = (v: unknown) => (v === null || v === undefined ? null : String(v));

interface MonthData {
  /** Everyone with lines this month. */
  people: PayrollPerson[];
  lines: PayrollLine[];
  /** Who of them has the month's time approved. */
  approved: Set<string>;
}

/** The month's rows summed per person, day and code, the people they belong to and their approvals (8 queries). */
async function loadMonth(ctx: Ctx, from: string, to: string): Promise<MonthData> {
  const { trx } = ctx;
  const day = (column: string) => trx.raw(`to_char(${column}, 'YYYY-MM-DD') as day`);

  const timeRows = await trx('time_reports as r')
    .join('time_report_tags as t', 't.id', 'r.tag_id')
    .whereBetween('r.date', [from, to])
    .whereIn('t.type', ['work', 'absence'])
    .groupBy('r.user_id', 'r.date', 't.id', 't.type', 't.code', 't.payroll_code')
    .select(
      'r.user_id',
      day('r.date'),
      't.type',
      't.code',
      't.payroll_code',
      trx.raw('sum(r.minutes)::int as minutes'),
    );

  // Time on an order in the recycle bin is not paid (an order with locked time cannot be deleted).
  const orderRows = await trx('work_order_time as w')
    .join('work_orders as o', 'o.id', 'w.work_order_id')
    .whereNull('o.deleted_at')
    .whereBetween('w.date', [from, to])
    .groupBy('w.user_id', 'w.date')
    .select(
      'w.user_id',
      day('w.date'),
      trx.raw('sum(w.work_minutes)::int as work_minutes'),
      trx.raw('sum(w.travel_minutes)::int as travel_minutes'),
    );

  const compensationRows = await trx('compensation_reports as r')
    .join('compensation_tags as c', 'c.id', 'r.tag_id')
    .whereBetween('r.date', [from, to])
    .groupBy('r.user_id', 'r.date', 'c.id', 'c.type', 'c.code', 'c.payroll_code', 'c.unit_price')
    .select(
      'r.user_id',
      day('r.date'),
      'c.type',
      'c.code',
      'c.payroll_code',
      trx.raw('c.unit_price::text as unit_price'),
      trx.raw('sum(r.quantity)::text as quantity'),
      // an amount typed on the report wins; otherwise the tag's price per unit
      trx.raw(
        'sum(case when r.amount > 0 then r.amount else r.quantity * coalesce(c.unit_price, 0) end)::text as amount',
      ),
      trx.raw(`string_agg(nullif(trim(r.comment), ''), '; ' order by r.created_at) as comment`),
    );

  const distanceRows = await trx('distance_reports as d')
    .leftJoin('compensation_tags as c', 'c.id', 'd.tag_id')
    .whereBetween('d.date', [from, to])
    .groupBy('d.user_id', 'd.date', 'c.id', 'c.code', 'c.payroll_code', 'c.unit_price')
    .select(
      'd.user_id',
      day('d.date'),
      'c.code',
      'c.payroll_code',
      trx.raw('c.unit_price::text as unit_price'),
      trx.raw('sum(d.distance_km)::text as km'),
      trx.raw(`string_agg(nullif(trim(d.comment), ''), '; ' order by d.created_at) as comment`),
    );

  // The tags work-order time is paid under, and the distance code of an untagged trip.
  const tags: { kind: string; code: string; payroll_code: string | null; unit_price: string | null }[] = await trx
    .select(trx.raw(`'time' as kind`), 'code', 'payroll_code', trx.raw('null::text as unit_price'))
    .from('time_report_tags')
    .whereRaw(`upper(code) in ('ARB', 'RES')`)
    .unionAll(
      (q) =>
        void q
          .select(trx.raw(`'distance' as kind`), 'code', 'payroll_code', trx.raw('unit_price::text'))
          .from('compensation_tags')
          .where({ type: 'distance' })
          .orderByRaw('active desc, sort_order, code')
          .limit(1),
      true,
    );
  const timeTag = (code: string): TagCode => {
    const t = tags.find((r) => r.kind === 'time' && r.code.toUpperCase() === code);
    return { code, payrollCode: t?.payroll_code ?? null };
  };
  const distanceTag = tags.find((r) => r.kind === 'distance');

  const time: TimeSum[] = timeRows.map((r: Record<string, unknown>) => ({
    userId: String(r.user_id),
    date: String(r.day),
    tagType: r.type as TimeSum['tagType'],
    code: String(r.code),
    payrollCode: text(r.payroll_code),
    minutes: num(r.minutes),
  }));
  const workOrderTime: WorkOrderTimeSum[] = orderRows.map((r: Record<string, unknown>) => ({
    userId: String(r.user_id),
    date: String(r.day),
    workMinutes: num(r.work_minutes),
    travelMinutes: num(r.travel_minutes),
  }));
  const compensation: CompensationSum[] = compensationRows.map((r: Record<string, unknown>) => ({
    userId: String(r.user_id),
    date: String(r.day),
    tagType: r.type as CompensationType,
    code: String(r.code),
    payrollCode: text(r.payroll_code),
    unitPrice: numOrNull(r.unit_price),
    quantity: num(r.quantity),
    amount: num(r.amount),
    comment: text(r.comment),
  }));
  const distance: DistanceSum[] = distanceRows.map((r: Record<string, unknown>) => ({
    userId: String(r.user_id),
    date: String(r.day),
    code: text(r.code),
    payrollCode: text(r.payroll_code),
    unitPrice: numOrNull(r.unit_price),
    km: num(r.km),
    comment: text(r.comment),
  }));

  const lines = payrollLines({
    time,
    workOrderTime,
    compensation,
    distance,
    workOrderTags: { work: timeTag('ARB'), travel: timeTag('RES') },
    defaultDistance: {
      code: distanceTag?.code ?? '821',
      payrollCode: distanceTag?.payroll_code ?? null,
      unitPrice: numOrNull(distanceTag?.unit_price),
    },
  });

  const ids = [...new Set(lines.map((l) => l.userId))];
  const users: { id: string; name: string; employee_number: unknown }[] = ids.length
    ? await trx('users')
        .whereIn('id', ids)
        // the user's ERP employee id (Settings → Users), else an employeeNumber set in the configuration
        .select(
          'id',
          'name',
          trx.raw(`coalesce(nullif(trim(erp_employee_id), ''), configuration ->> 'employeeNumber') as employee_number`),
        )
    : [];
  const people = users
    .map((u) => ({ userId: u.id, name: u.name, employeeNumber: employeeNumberOf(u.employee_number) }))
    .sort((a, b) => a.name.localeCompare(b.name, 'sv') || a.userId.localeCompare(b.userId));

  // The office's approvals (parent reports) that reach into the month.
  const periods: { user_id: string; start: string; end: string }[] = ids.length
    ? await trx('time_report_parents')
        .whereIn('user_id', ids)
        .where('status', 'approved')
        .where('period_start', '<=', to)
        .where('period_end', '>=', from)
        .select(
          'user_id',
          trx.raw(`to_char(period_start, 'YYYY-MM-DD') as start`),
          trx.raw(`to_char(period_end, 'YYYY-MM-DD') as "end"`),
        )
    : [];
  const approved = approvedPeople(
    lines,
    periods.map((p) => ({ userId: p.user_id, start: p.start, end: p.end })),
  );
  return { people, lines, approved };
}

const ref = (p: PayrollPerson): PayrollPersonRef => ({ userId: p.userId, name: p.name });

/**
 * GET /timereports/payroll?month=YYYY-MM (timereports:read): per approved person the hours worked
 * and absence per code, compensation and mileage per code, and their totals — what the export
 * would hold — with whether the month is locked, who is left out as not approved, and who in it
 * lacks an employee number.
 */
export async function payrollPreview(ctx: Ctx, raw: unknown): Promise<PayrollPreview> {
  requireAccess(ctx.auth, READ);
  const { month } = parseInput(ZPayrollMonth, raw);
  const { from, to } = monthRange(month);
  const locked = isDateLocked(await timeLockState(ctx), from);
  const { people, lines, approved } = await loadMonth(ctx, from, to);
  const paid = people.filter((p) => approved.has(p.userId));
  const summaries = summarize(paid, lines);
  const sum = (pick: (p: PersonSummary) => number) => round2(summaries.reduce((s, p) => s + pick(p), 0));
  return {
    month,
    from,
    to,
    locked,
    people: summaries,
    totals: {
      people: summaries.length,
      workHours: sum((p) => p.totals.workHours),
      absenceHours: sum((p) => p.totals.absenceHours),
      amount: sum((p) => p.totals.amount),
      distanceKm: sum((p) => p.totals.distanceKm),
    },
    notApproved: people.filter((p) => !approved.has(p.userId)).map(ref),
    missingEmployeeNumbers: paid.filter((p) => p.employeeNumber === null).map(ref),
  };
}

/**
 * GET /timereports/payroll/export?month=YYYY-MM&format=paxml|csv (timereports:read): the month
 * as a PAXml 2.0 file or as CSV, of the people whose time of the month is approved. 409
 * PAYROLL_MONTH_NOT_LOCKED unless the month is locked; 409 PAYROLL_EMPLOYEE_NUMBER_MISSING (details:
 * `people`, and their `names`) when someone in it has no employee number.
 */
export async function payrollExport(ctx: Ctx, raw: unknown): Promise<DocumentFile> {
  requireAccess(ctx.auth, READ);
  const { month, format } = parseInput(ZPayrollExport, raw);
  const { from, to } = monthRange(month);
  if (!isDateLocked(await timeLockState(ctx), from)) throw new AppError('PAYROLL_MONTH_NOT_LOCKED', 409);
  const loaded = await loadMonth(ctx, from, to);
  const paid = loaded.people.filter((p) => loaded.approved.has(p.userId));
  const missing = paid.filter((p) => p.employeeNumber === null);
  if (missing.length)
    throw new AppError('PAYROLL_EMPLOYEE_NUMBER_MISSING', 409, {
      people: missing.map(ref),
      names: missing.map((p) => p.name).join(', '),
    });
  const people = paid as PayrollEmployee[];
  const { lines } = loaded;
  if (format === 'csv')
    return {
      filename: `payroll-${month}.csv`,
      contentType: PAYROLL_CSV_CONTENT_TYPE,
      body: Buffer.from(writePayrollCsv(people, lines), 'utf8'),
    };
  const { company } = ctx.tenant.config;
  const xml = writePaxml(
    {
      companyName: company?.companyName || ctx.tenant.displayName,
      orgNr: company?.companyNr ?? null,
      createdAt: ctx.now,
      month,
    },
    people,
    lines,
  );
  return { filename: `paxml-${month}.xml`, contentType: PAXML_CONTENT_TYPE, body: Buffer.from(xml, 'utf8') };
}

/** The month the payroll page opens on: the latest locked month, else the previous month. */
export async function payrollDefaultMonth(ctx: Ctx): Promise<string> {
  requireAccess(ctx.auth, READ);
  return defaultPayrollMonth(await timeLockState(ctx), tenantToday(ctx));
}
