import type { ReactNode } from 'react';
import { Cell, Column, Row, Table, TableBody, TableHeader, type Key, type SortDescriptor } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { cx, TOUCH_HEIGHT } from './class-names';
import { ArrowDownIcon, ArrowUpIcon, SortIcon } from './icons';

export type { SortDescriptor };

export interface TableColumn<T> {
  id: string;
  /** Column title, already translated. */
  header: string;
  /** The cell that names the row for screen readers (e.g. the work-order number). */
  isRowHeader?: boolean;
  allowsSorting?: boolean;
  /** Right-align numbers and money. */
  align?: 'start' | 'end';
  render: (row: T) => ReactNode;
}

export interface SortableTableProps<T extends { id: Key }> {
  /** Accessible name of the table, already translated. */
  'aria-label': string;
  columns: readonly TableColumn<T>[];
  rows: readonly T[];
  /** The sort the rows arrive in; sorting itself is done by the caller or the server. */
  sortDescriptor?: SortDescriptor;
  onSortChange?: (descriptor: SortDescriptor) => void;
  /** Shown in place of the rows when there are none; "Nothing to show" unless told. */
  emptyState?: ReactNode;
  /** Makes each row a link (e.g. to the work order); keyboard Enter follows it. */
  getRowHref?: (row: T) => string;
  /** Layout only, on the scroll container. */
  className?: string;
}

/**
 * A data table with sortable column headers. It never sorts by itself: it reports the wanted
 * `SortDescriptor` and shows `rows` as given. Scrolls sideways on narrow screens.
 */
export function SortableTable<T extends { id: Key }>({
  columns,
  rows,
  sortDescriptor,
  onSortChange,
  emptyState,
  getRowHref,
  className,
  ...props
}: SortableTableProps<T>) {
  const { t } = useTranslation('ui');
  // React Aria needs one row header; the first column is the natural one.
  const hasRowHeader = columns.some((column) => column.isRowHeader);
  return (
    <div className={cx('w-full overflow-x-auto rounded-lg border border-gray-200 bg-white', className)}>
      <Table
        aria-label={props['aria-label']}
        sortDescriptor={sortDescriptor}
        onSortChange={onSortChange}
        className="w-full min-w-max border-collapse text-sm"
      >
        <TableHeader columns={columns} className="border-b border-gray-200 bg-gray-50">
          {(column) => (
            <Column
              id={column.id}
              isRowHeader={column.isRowHeader || (!hasRowHeader && column === columns[0])}
              allowsSorting={column.allowsSorting}
              className={cx(
                'px-3 py-2 font-semibold whitespace-nowrap text-gray-700 outline-none',
                column.align === 'end' ? 'text-end' : 'text-start',
                'data-focus-visible:outline-2 data-focus-visible:-outline-offset-2 data-focus-visible:outline-blue-600',
                column.allowsSorting && 'cursor-default data-hovered:bg-gray-100',
              )}
            >
              {({ allowsSorting, sortDirection }) => (
                <span
                  className={cx(
                    'inline-flex items-center gap-1',
                    column.align === 'end' && 'flex-row-reverse',
                    allowsSorting && TOUCH_HEIGHT.sm,
                  )}
                >
                  {column.header}
                  {allowsSorting &&
                    (sortDirection === 'ascending' ? (
                      <ArrowUpIcon className="text-gray-900" />
                    ) : sortDirection === 'descending' ? (
                      <ArrowDownIcon className="text-gray-900" />
                    ) : (
                      <SortIcon className="text-gray-400" />
                    ))}
                </span>
              )}
            </Column>
          )}
        </TableHeader>
        <TableBody
          items={rows}
          dependencies={[columns, getRowHref]}
          renderEmptyState={() => (
            <div className="px-3 py-8 text-center text-gray-600">{emptyState ?? t('noRows')}</div>
          )}
        >
          {(row) => (
            <Row
              id={row.id}
              columns={columns}
              href={getRowHref?.(row)}
              className={cx(
                'border-b border-gray-100 outline-none last:border-b-0',
                'data-focus-visible:outline-2 data-focus-visible:-outline-offset-2 data-focus-visible:outline-blue-600',
                getRowHref && 'cursor-pointer data-hovered:bg-gray-50',
              )}
            >
              {(column) => (
                <Cell
                  className={cx(
                    'px-3 py-2 align-top text-gray-900 outline-none',
                    column.align === 'end' && 'text-end tabular-nums',
                    'data-focus-visible:outline-2 data-focus-visible:-outline-offset-2 data-focus-visible:outline-blue-600',
                  )}
                >
                  {column.render(row)}
                </Cell>
              )}
            </Row>
          )}
        </TableBody>
      </Table>
    </div>
  );
}
