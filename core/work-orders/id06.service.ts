import { z } from 'zod';
import type { Ctx } from '~/core/context';
import { DOCUMENT_CSV_TYPE, safeFilename, type DocumentFile } from '~/core/documents/file';
import { formatHours } from '~/core/documents/format';
import { documentTranslator } from '~/core/documents/i18n';
import { AppError } from '~/core/errors/app-error';
import { parseInput } from '~/core/errors/validation';
import { tenantTimeZone } from '~/core/i18n/number-format';
import { csvHead, csvLine } from '~/core/import-export/csv';
import { requireAccess } from '~/core/permissions/access';
import { dateIn, isoToWallClock } from './time-rules';
import { applyLimit } from './work-order-read';

/*
 * POST /wo/id06 {id06Code, timestamp}: the attendance register (personalliggare) of one
 * construction site for one day, as a file. A work order's ID06 code names the site it is done
 * at; the register lists everyone who reported time on that day on the site's orders: the
 * employer (the instance's company and organisation number), the person's name and personal
 * identity number, when they started and ended, the hours and the order. Decision 020 records
 * the format: CSV as the registers export it (UTF-8 with a byte-order mark, semicolons, CRLF),
 * one row per time report, headers in the asking user's language.
 */

const ACCESS = { permission: 'workorders:id06', module: 'id06' } as const;
const PLAIN_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** The columns, in order; their headers are `id06.column.<key>` in the documents namespace. */
export const ID06_COLUMNS = [
  'siteId',
  'date',
  'employerNr',
  'employer',
  'name',
  'personalIdentityNumber',
  'start',
  'end',
  'hours',
  'workOrder',
] as const;

/**
 * The day the register is for: a plain date (YYYY-MM-DD) is that day; an instant (milliseconds
 * since 1970, or an ISO date-time) is the day it falls on in the tenant's zone.
 */
const zDay = z.union(
  [
    z.string().trim().regex(PLAIN_DATE),
    z.number().finite(),
    z
      .string()
      .trim()
      .refine((v) => !Number.isNaN(Date.parse(v))),
  ],
  { error: (iss) => (iss.input === undefined || iss.input === '' ? 'ERROR_REQUIRED_FIELD' : 'ERROR_INVALID_VALUE') },
);

export const ZId06Export = z.object({
  id06Code: z
    .string({ error: 'ERROR_REQUIRED_FIELD' })
    .trim()
    .min(1, 'ERROR_REQUIRED_FIELD')
    .max(100, 'ERROR_MAX_LENGTH'),
  timestamp: zDay,
});

/** The register's day (YYYY-MM-DD) for a `timestamp` as sent; null when it names no real day. */
export function registerDay(timestamp: string | number, timeZone: string): string | null {
  if (typeof timestamp === 'string' && PLAIN_DATE.test(timestamp)) {
    const d = new Date(`${timestamp}T00:00:00Z`);
    return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === timestamp ? timestamp : null;
  }
  const moment = new Date(timestamp);
  return Number.isNaN(moment.getTime()) ? null : dateIn(moment, timeZone);
}

type Row = Record<string, unknown>;
const text = (v: unknown) => (v === null || v === undefined ? '' : String(v));
const iso = (v: unknown) => (v instanceof Date ? v.toISOString() : v ? String(v) : null);

/**
 * The register of `id06Code` on the day of `timestamp`. 404 ID06_CODE_NOT_FOUND when no work
 * order the user may see carries the code (another tenant's codes are not ours); a site with no
 * time reported that day gives a file with the header only. Two statements.
 */
export async function exportId06Register(ctx: Ctx, raw: unknown): Promise<DocumentFile> {
  requireAccess(ctx.auth, ACCESS);
  const input = parseInput(ZId06Export, raw);
  const timeZone = tenantTimeZone(ctx.tenant.config.country);
  const day = registerDay(input.timestamp, timeZone);
  if (!day) throw new AppError('VALIDATION_FAILED', 400, { fields: { timestamp: ['ERROR_INVALID_VALUE'] } });

  const orders = (await applyLimit(
    ctx,
    ctx
      .trx('work_orders as w')
      .whereRaw('lower(w.id06_code) = lower(?)', [input.id06Code])
      .whereNotNull('w.id06_code')
      .whereNull('w.deleted_at'),
  ).select('w.id', 'w.number', 'w.id06_code')) as Row[];
  if (!orders.length) throw new AppError('ID06_CODE_NOT_FOUND', 404);

  const rows = (await ctx
    .trx('work_order_time as t')
    .join('users as u', 'u.id', 't.user_id')
    .join('work_orders as w', 'w.id', 't.work_order_id')
    .whereIn(
      't.work_order_id',
      orders.map((o) => o.id as string),
    )
    .where('t.date', day)
    .orderBy([
      { column: 't.start_ts', order: 'asc', nulls: 'last' },
      { column: 'u.name', order: 'asc' },
      { column: 't.created_at', order: 'asc' },
    ])
    .select('u.name', 'u.personal_identity_number', 't.start_ts', 't.end_ts', 't.work_minutes', 'w.number')) as Row[];

  const t = documentTranslator(ctx.lang);
  const company = ctx.tenant.config.company;
  const employer = company.companyName ?? ctx.tenant.displayName;
  const siteId = String(orders[0]!.id06_code);
  const clock = (v: unknown) => isoToWallClock(iso(v), timeZone).slice(11);
  const lines = rows.map((r) =>
    csvLine([
      siteId,
      day,
      company.companyNr,
      employer,
      text(r.name),
      text(r.personal_identity_number),
      clock(r.start_ts),
      clock(r.end_ts),
      formatHours(r.work_minutes ?? 0),
      text(r.number),
    ]),
  );
  const csv = csvHead(ID06_COLUMNS.map((c) => t(`id06.column.${c}`))) + lines.map((l) => `${l}\r\n`).join('');
  return {
    filename: safeFilename('id06', `${siteId}-${day}`, 'csv'),
    contentType: DOCUMENT_CSV_TYPE,
    body: Buffer.from(csv, 'utf8'),
  };
}
