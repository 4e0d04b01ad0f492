/*
 * The statistics tables' shape and how their rows are named, shared by the service, the files
 * and the page (pure: the browser imports it).
 */

export const STATISTICS_TABLES = [
  'byType',
  'byStatus',
  'byTechnician',
  'byCustomer',
  'revenueByMonth',
  'revenueBySource',
  'hours',
  'firstTimeFix',
  'agreementRevenue',
] as const;
export type StatisticsTableId = (typeof STATISTICS_TABLES)[number];

/** How a row is named: a register's name (null: none), a `YYYY-MM` month, or a word of the page. */
export type RowKind = 'name' | 'month' | 'term';
export type ColumnKind = 'count' | 'money' | 'hours' | 'percent';

/** At most this many customers (the most orders first) and technicians are listed. */
export const TOP_CUSTOMERS = 50;
export const MAX_TECHNICIANS = 200;
/** A revisit: another order on the same object taken in within this many days after closing. */
export const REVISIT_DAYS = 30;

export interface StatisticsRow {
  /** A register id, a `YYYY-MM` month or a word (`workOrders`); `-`: none (no technician, customer). */
  key: string;
  /** The register's name; null for months, words and none. */
  name: string | null;
  /** In the order of the table's columns; null where a share has nothing to divide by. */
  values: (number | null)[];
}

/** The decimals a column's figures are written with. */
export const COLUMN_DECIMALS: Record<ColumnKind, number> = { count: 0, money: 2, hours: 2, percent: 1 };

/** A row's name (`statistics` namespace words); a month as `YYYY-MM` (the page writes its name). */
export function statisticsRowLabel(rowKind: RowKind, row: StatisticsRow, t: (key: string) => string): string {
  if (row.key === '-') return t('none');
  if (rowKind === 'term') return t(`source.${row.key}`);
  if (rowKind === 'month') return row.key;
  return row.name ?? t('none');
}
