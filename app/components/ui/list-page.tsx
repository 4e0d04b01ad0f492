import type { FormEventHandler, ReactNode } from 'react';
import type { Key } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { Form, useNavigation, useSearchParams, useSubmit } from 'react-router';
import { Button } from './button';
import { cx } from './class-names';
import { ListPager } from './list-pager';
import { Spinner } from './spinner';
import { SortableTable, type SortableTableProps, type SortDescriptor } from './table';

/*
 * One register list page (issue 29 item 6): its filters, sort and page live in the URL, so the
 * server filters, a link keeps the view and back/forward works; a filter change starts again on
 * the first page. Pages compose `ListPage` (heading, "new" action, the notice a deletion leaves),
 * `ListFilters` (the search form) and `ListTable` (the table with its empty state and pager), and
 * read the URL through `useListUrl`.
 */

export interface ListUrl {
  params: URLSearchParams;
  /** True while the next list loads. */
  loading: boolean;
  /**
   * Sets one filter and reloads from the first page; an empty value, or the filter's default
   * (`fallback`), leaves it out of the URL. Nothing is loaded when the URL would not change.
   */
  setFilter: (key: string, value: string | null | undefined, fallback?: string) => void;
  /** Sets several filters at once, as `setFilter` does each. */
  setFilters: (changes: Record<string, string | null | undefined>) => void;
  /** The sort the URL asks for (`?sort=…&desc=true`), `column` unless it is one of `columns`. */
  sortOf: (columns: readonly string[], column: string, descending?: boolean) => SortDescriptor;
  /** Puts the sort a column header asked for into the URL. */
  sortBy: (descriptor: SortDescriptor) => void;
  /** Whether any of these filters differs from its default (for the "nothing matches" empty state). */
  isFiltered: (defaults: Record<string, string>) => boolean;
}

export function useListUrl(): ListUrl {
  const [params] = useSearchParams();
  const submit = useSubmit();
  const loading = useNavigation().state === 'loading';
  const load = (next: URLSearchParams) => {
    next.delete('offset');
    next.sort();
    const now = new URLSearchParams(params);
    now.delete('offset');
    now.sort();
    if (next.toString() === now.toString() && !params.get('offset')) return;
    void submit(next, { method: 'get', replace: true });
  };
  const setFilters = (changes: Record<string, string | null | undefined>, fallbacks: Record<string, string> = {}) => {
    const next = new URLSearchParams(params);
    for (const [key, value] of Object.entries(changes)) {
      if (value && value !== fallbacks[key]) next.set(key, value);
      else next.delete(key);
    }
    load(next);
  };
  return {
    params,
    loading,
    setFilter: (key, value, fallback) => setFilters({ [key]: value }, fallback ? { [key]: fallback } : {}),
    setFilters: (changes) => setFilters(changes),
    sortOf: (columns, column, descending = false) => {
      const asked = params.get('sort');
      const desc = params.get('desc');
      return {
        column: asked && columns.includes(asked) ? asked : column,
        direction: (desc === null ? descending : desc === 'true') ? 'descending' : 'ascending',
      };
    },
    sortBy: (d) => {
      const next = new URLSearchParams(params);
      next.set('sort', String(d.column));
      if (d.direction === 'descending') next.set('desc', 'true');
      else next.delete('desc');
      load(next);
    },
    isFiltered: (defaults) => Object.entries(defaults).some(([key, value]) => (params.get(key) || value) !== value),
  };
}

export interface ListPageProps {
  /** The page's heading, already translated. */
  title: string;
  /** Beside the heading: the "new" button. */
  actions?: ReactNode;
  /** Above the heading: a sub-navigation. */
  above?: ReactNode;
  /** Shown as a status when the URL has `?deleted`, after a record was deleted and the list is back. */
  deletedNotice?: string;
  children: ReactNode;
  className?: string;
}

/** A register list's frame: the card, its heading and action, the notice a deletion leaves. */
export function ListPage({ title, actions, above, deletedNotice, children, className }: ListPageProps) {
  const [params] = useSearchParams();
  return (
    <section className={cx('min-w-0 rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6', className)}>
      {above}
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h1 className="text-2xl font-semibold">{title}</h1>
        {actions ? <div className="flex flex-wrap gap-2">{actions}</div> : null}
      </div>
      {deletedNotice && params.get('deleted') ? (
        <p role="status" className="mt-3 rounded-md bg-green-50 p-3 text-sm text-green-900">
          {deletedNotice}
        </p>
      ) : null}
      {children}
    </section>
  );
}

export interface ListFiltersProps {
  /**
   * URL parameters the form has no field for but must keep when it is sent (the sort, the page
   * size, filters set by selects that reload at once). The page itself always starts again at 0.
   */
  keep?: readonly string[];
  /** `grid` for forms of many fields, `row` (the default) for a search box and a few selects. */
  layout?: 'row' | 'grid';
  /** Fields a row on wide screens, for the `grid` layout. */
  columns?: 3 | 4;
  /**
   * Called on any change in the form, for fields that reload at once without a handler of their
   * own (plain checkboxes: `submit(e.currentTarget)`).
   */
  onChange?: FormEventHandler<HTMLFormElement>;
  /** The search button's text, already translated, for a form that filters more than it searches ("Filter"); "Search" by default. */
  submitLabel?: string;
  children: ReactNode;
  className?: string;
}

const KEEP_DEFAULT = ['sort', 'desc', 'limit'] as const;

/**
 * The list's search form: a GET form (so it works before hydration and Enter searches), its
 * fields, a search button and a spinner while the next list loads.
 */
export function ListFilters({
  keep = KEEP_DEFAULT,
  layout = 'row',
  columns = 3,
  onChange,
  submitLabel,
  children,
  className,
}: ListFiltersProps) {
  const { t } = useTranslation('ui');
  const [params] = useSearchParams();
  const loading = useNavigation().state === 'loading';
  return (
    <Form
      method="get"
      role="search"
      onChange={onChange}
      className={cx(
        'mt-4',
        layout === 'row'
          ? 'flex flex-wrap items-end gap-x-4 gap-y-2'
          : cx('grid gap-3 sm:grid-cols-2', columns === 4 ? 'lg:grid-cols-4' : 'lg:grid-cols-3'),
        className,
      )}
    >
      {keep.map((key) =>
        params.get(key) ? <input key={key} type="hidden" name={key} value={params.get(key)!} /> : null,
      )}
      {children}
      <div className="flex items-end gap-2">
        <Button type="submit" variant="secondary">
          {submitLabel ?? t('list.search')}
        </Button>
        {loading ? <Spinner /> : null}
      </div>
    </Form>
  );
}

export interface ListTableProps<T extends { id: Key }> extends Omit<SortableTableProps<T>, 'emptyState'> {
  totalCount: number;
  offset: number;
  limit: number;
  /** What an empty list says: `filtered` when filters are set (nothing matches), else `empty`. */
  empty: { empty: ReactNode; filtered: ReactNode; isFiltered: boolean };
  /**
   * Sorting by column header puts the sort into the URL (`?sort=…&desc=true`); leave out for a
   * list that does not sort, or give `onSortChange` for a register whose URL spells it otherwise.
   */
  sortable?: boolean;
  /** A line above the table ("12 agreements"), read out when it changes. */
  count?: ReactNode;
  /** False for a list the server gives whole (no paging): no pager below the table. */
  paged?: boolean;
}

/** The list's table (rows link to their records) with its empty state and the pager below. */
export function ListTable<T extends { id: Key }>({
  totalCount,
  offset,
  limit,
  empty,
  sortable,
  count,
  paged = true,
  className,
  onSortChange,
  ...table
}: ListTableProps<T>) {
  const list = useListUrl();
  return (
    <>
      {count !== undefined ? (
        <p className="mt-4 text-sm text-slate-600" aria-live="polite">
          {count}
        </p>
      ) : null}
      <SortableTable
        {...table}
        className={cx(count !== undefined ? 'mt-2' : 'mt-4', className)}
        onSortChange={onSortChange ?? (sortable ? list.sortBy : undefined)}
        emptyState={empty.isFiltered ? empty.filtered : empty.empty}
      />
      {paged ? <ListPager className="mt-3" totalCount={totalCount} offset={offset} limit={limit} /> : null}
    </>
  );
}
