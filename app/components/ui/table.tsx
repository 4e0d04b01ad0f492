import type { ReactNode } from 'react';
import type { Key, SortDescriptor } from 'react-aria-components';
import { Link } from 'react-aria-components';
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
 *
 * Plain HTML with ARIA (`aria-sort`, row headers, a link in each row): register lists render 50–100
 * rows on the server, where React Aria's collection table cost tens of milliseconds per page.
 * A row with `getRowHref` opens on a click anywhere in it; its row header is a real link (Tab and
 * Enter reach it, and it opens in a new tab like any link).
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
  const rowHeader = columns.find((c) => c.isRowHeader) ?? columns[0];
  // The row header's link does the navigation (client-side, through the app's RouterProvider).
  const open = (tr: HTMLTableRowElement) => tr.querySelector<HTMLAnchorElement>('a[data-row-link]')?.click();
  const focusRing =
    'outline-none focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-blue-600';
  return (
    <div className={cx('w-full overflow-x-auto rounded-lg border border-gray-200 bg-white', className)}>
      <table aria-label={props['aria-label']} className="w-full min-w-max border-collapse text-sm">
        <thead className="border-b border-gray-200 bg-gray-50">
          <tr>
            {columns.map((column) => {
              const direction = sortDescriptor?.column === column.id ? sortDescriptor.direction : undefined;
              const label = (
                <span
                  className={cx(
                    'inline-flex items-center gap-1',
                    column.align === 'end' && 'flex-row-reverse',
                    column.allowsSorting && TOUCH_HEIGHT.sm,
                  )}
                >
                  {column.header}
                  {column.allowsSorting &&
                    (direction === 'ascending' ? (
                      <ArrowUpIcon className="text-gray-900" />
                    ) : direction === 'descending' ? (
                      <ArrowDownIcon className="text-gray-900" />
                    ) : (
                      <SortIcon className="text-gray-400" />
                    ))}
                </span>
              );
              return (
                <th
                  key={column.id}
                  scope="col"
                  aria-sort={column.allowsSorting ? (direction ?? 'none') : undefined}
                  className={cx(
                    'px-3 py-2 font-semibold whitespace-nowrap text-gray-700',
                    column.align === 'end' ? 'text-end' : 'text-start',
                  )}
                >
                  {column.allowsSorting && onSortChange ? (
                    <button
                      type="button"
                      className={cx('-mx-1 rounded px-1 hover:bg-gray-100', focusRing)}
                      onClick={() =>
                        onSortChange({
                          column: column.id,
                          direction: direction === 'ascending' ? 'descending' : 'ascending',
                        })
                      }
                    >
                      {label}
                    </button>
                  ) : (
                    label
                  )}
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody>
          {rows.length === 0 ? (
            <tr>
              <td colSpan={columns.length} className="px-3 py-8 text-center text-gray-600">
                {emptyState ?? t('noRows')}
              </td>
            </tr>
          ) : (
            rows.map((row) => {
              const href = getRowHref?.(row);
              return (
                <tr
                  key={row.id}
                  onClick={
                    href
                      ? (e) => {
                          // Links, buttons and fields inside the row do their own thing.
                          if (!(e.target as HTMLElement).closest('a,button,input,select,textarea,label'))
                            open(e.currentTarget);
                        }
                      : undefined
                  }
                  className={cx(
                    'border-b border-gray-100 last:border-b-0',
                    'focus-within:bg-blue-50',
                    href && 'cursor-pointer hover:bg-gray-50',
                  )}
                >
                  {columns.map((column) => {
                    const content = column.render(row);
                    const cellClass = cx(
                      'px-3 py-2 align-top text-gray-900',
                      column.align === 'end' ? 'text-end tabular-nums' : 'text-start',
                      column === rowHeader && 'font-normal',
                    );
                    // The row header's content must not be a link itself: it becomes the row's link.
                    const inner =
                      column === rowHeader && href ? (
                        <Link href={href} data-row-link="" className="text-inherit no-underline outline-none">
                          {content}
                        </Link>
                      ) : (
                        content
                      );
                    return column === rowHeader ? (
                      <th key={column.id} scope="row" className={cellClass}>
                        {inner}
                      </th>
                    ) : (
                      <td key={column.id} className={cellClass}>
                        {inner}
                      </td>
                    );
                  })}
                </tr>
              );
            })
          )}
        </tbody>
      </table>
    </div>
  );
}
