import type { ColumnKind, RowKind } from './statistics-queries';

/*
 * The statistics tables' shape and how their rows are named, shared by the service, the files
 * and the page (pure: the browser imports it).
 */

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
