import { z } from 'zod';
import { ALL_REGIONS } from '~/core/regions/region.constants';
import { REGIONS_READ } from '~/core/regions/region.service';
import { tenantTimeZone } from '~/core/calendar/dates';
import { tenantToday } from '~/core/calendar/tenant-today';
import type { Ctx } from '~/core/context';
import { DASHBOARD_PERIODS, DEFAULT_PERIOD, periodRange, type PeriodRange } from '~/core/dashboard/dashboard-period';
import { documentTranslator, type DocumentT } from '~/core/documents/i18n';
import type { DocumentFile } from '~/core/documents/file';
import { notFound } from '~/core/errors/app-error';
import { isUuid, parseInput } from '~/core/errors/validation';
import { hasAccess, requireAccess, type Access } from '~/core/permissions/access';
import { EXPORT_FORMATS } from '~/core/reports/report-constants';
import { tableFile, type ReportTable } from '~/core/reports/report-export';
import { COLUMN_DECIMALS, statisticsRowLabel, type StatisticsRow } from './statistics-labels';
import {
  STATISTICS_TABLES,
  TABLE_SHAPES,
  statisticsQuery,
  type ColumnKind,
  type RowKind,
  type StatisticsTableId,
} from './statistics-queries';

/*
 * The statistics page (spec section 2 "statistics over the last 12 months, this year and the last
 * 2 months"; issue 36 item 2; decision 065): work orders by type, status, technician and customer;
 * revenue by month and by source; hours reported and billed per technician; the first-time fix
 * rate; agreement revenue. Each table is one SQL statement (statistics-queries.ts); the page, the
 * API (one call a table) and the CSV/XLSX files all read through `readStatisticsTable`.
 */

/** Spec section 2/6: the statistics module and `dashboard:read` (user type super passes the module). */
export const STATISTICS_ACCESS: Access = { permission: 'dashboard:read', module: 'statistics' };

export { STATISTICS_TABLES, type StatisticsTableId } from './statistics-queries';
export type { StatisticsRow } from './statistics-labels';

export const ZStatisticsQuery = z.object({
  period: z.enum(DASHBOARD_PERIODS, { error: 'ERROR_INVALID_VALUE' }).optional(),
  /** A department's id; empty or absent: every department. Another tenant's id is not found. */
  departmentId: z.string({ error: 'ERROR_INVALID_VALUE' }).optional(),
  /** A name of the regions register (decision 067); empty, absent or `all`: every region. Unknown: not found. */
  region: z.string({ error: 'ERROR_INVALID_VALUE' }).max(100, 'ERROR_MAX_LENGTH').optional(),
});
export type TStatisticsQuery = z.input<typeof ZStatisticsQuery>;

export const ZStatisticsExport = ZStatisticsQuery.extend({
  format: z.enum(EXPORT_FORMATS, { error: 'ERROR_INVALID_VALUE' }),
});

export interface StatisticsTable {
  id: StatisticsTableId;
  rowKind: RowKind;
  columns: readonly { key: string; kind: ColumnKind }[];
  rows: StatisticsRow[];
  /** The whole period (tables whose rows add up). */
  total: StatisticsRow | null;
}

export interface StatisticsFilter {
  period: PeriodRange;
  departmentId: string | null;
  region: string | null;
}

type Row = Record<string, unknown>;

/** Checks access and the query: the period's days and the department (404 when it is not this tenant's). */
async function readFilter(ctx: Ctx, raw: unknown): Promise<StatisticsFilter> {
  requireAccess(ctx.auth, STATISTICS_ACCESS);
  const input = parseInput(ZStatisticsQuery, raw ?? {});
  const departmentId = input.departmentId?.trim() || null;
  if (departmentId) {
    if (!isUuid(departmentId)) throw notFound();
    const found = await ctx.trx('departments').where({ id: departmentId }).first('id');
    if (!found) throw notFound();
  }
  const asked = input.region?.trim();
  const region = asked && asked !== ALL_REGIONS ? asked : null;
  if (region && !(await ctx.trx('regions').where({ name: region }).first('name'))) throw notFound();
  return { period: periodRange(input.period ?? DEFAULT_PERIOD, tenantToday(ctx)), departmentId, region };
}

async function runTable(ctx: Ctx, table: StatisticsTableId, filter: StatisticsFilter): Promise<StatisticsTable> {
  const shape = TABLE_SHAPES[table];
  const { sql, bindings } = statisticsQuery(table, {
    from: filter.period.from,
    to: filter.period.to,
    zone: tenantTimeZone(ctx.tenant.config?.country),
    departmentId: filter.departmentId,
    region: filter.region,
  });
  // (no JIT: every unit of work runs without it, core/db/tenant-transaction.ts)
  const { rows } = (await ctx.trx.raw(sql, bindings)) as { rows: Row[] };
  const toRow = (r: Row): StatisticsRow => ({
    key: r.key === null ? '' : String(r.key),
    name: r.name === null || r.name === undefined ? null : String(r.name),
    values: shape.columns.map((c) => (r[c.key] === null || r[c.key] === undefined ? null : Number(r[c.key]))),
  });
  const totalRow = rows.find((r) => r.key === null);
  return {
    id: table,
    rowKind: shape.rowKind,
    columns: shape.columns,
    rows: rows.filter((r) => r.key !== null).map(toRow),
    total: shape.totals && totalRow ? toRow(totalRow) : null,
  };
}

/** One table for the period and department asked (`GET /statistics/<table>`). */
export async function readStatisticsTable(
  ctx: Ctx,
  table: StatisticsTableId,
  raw: unknown = {},
): Promise<StatisticsFilter & { table: StatisticsTable }> {
  const filter = await readFilter(ctx, raw);
  return { ...filter, table: await runTable(ctx, table, filter) };
}

/** The page: every table, and the departments to filter by. */
export async function getStatistics(
  ctx: Ctx,
  raw: unknown = {},
): Promise<
  StatisticsFilter & { departments: { id: string; name: string }[]; regions: string[]; tables: StatisticsTable[] }
> {
  const filter = await readFilter(ctx, raw);
  const departments = (await ctx.trx('departments').orderBy('name').select('id', 'name')) as {
    id: string;
    name: string;
  }[];
  // every region of the register (an inactive one still has its history), with the regions module
  const regions = hasAccess(ctx.auth, REGIONS_READ)
    ? ((await ctx.trx('regions').orderByRaw('lower(name)').select('name')) as { name: string }[]).map((r) => r.name)
    : [];
  const tables: StatisticsTable[] = [];
  for (const table of STATISTICS_TABLES) tables.push(await runTable(ctx, table, filter));
  return { ...filter, departments, regions, tables };
}

function asReportTable(table: StatisticsTable, t: DocumentT): ReportTable {
  const cell = (v: number | null, kind: ColumnKind) =>
    v === null ? null : { value: v, decimals: COLUMN_DECIMALS[kind] };
  const line = (label: string, r: StatisticsRow) => [label, ...r.values.map((v, i) => cell(v, table.columns[i]!.kind))];
  return {
    name: `statistics-${table.id}`,
    title: t(`table.${table.id}`),
    header: [t(`rowHead.${table.id}`), ...table.columns.map((c) => t(`col.${c.key}`))],
    rows: [
      ...table.rows.map((r) => line(statisticsRowLabel(table.rowKind, r, t), r)),
      ...(table.total ? [line(t('total'), table.total)] : []),
    ],
  };
}

/**
 * GET /statistics/{table}/export?format=csv|xlsx&period&departmentId: one table as a file, the
 * reports' CSV (semicolons, BOM, decimal commas; decision 045) or XLSX (decision 044).
 */
export async function exportStatisticsTable(
  ctx: Ctx,
  table: StatisticsTableId,
  raw: unknown = {},
): Promise<DocumentFile> {
  requireAccess(ctx.auth, STATISTICS_ACCESS);
  const { format } = parseInput(ZStatisticsExport, raw ?? {});
  const read = await readStatisticsTable(ctx, table, raw);
  const t = documentTranslator(ctx.lang, 'statistics');
  return tableFile(asReportTable(read.table, t), format, `${read.period.from}_${read.period.to}`);
}
