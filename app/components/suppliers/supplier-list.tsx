import { useTranslation } from 'react-i18next';
import { LinkButton, ListFilters, ListPage, ListTable, Select, TextField, useListUrl } from '~/app/components/ui';
import type { SupplierListItem } from '~/core/suppliers/supplier.service';

export interface SupplierListProps {
  suppliers: SupplierListItem[];
  totalCount: number;
  offset: number;
  limit: number;
  canEdit: boolean;
  /** Heading, already translated ("Suppliers", or the settings page's). */
  title: string;
  /** Where a row leads. */
  detailHref: (id: string) => string;
  newHref: string;
}

/**
 * The supplier register as a list: search (number, title, name), status, sorting by number or
 * title, paging. Everything is in the URL, so the server filters and a link keeps the view.
 */
export function SupplierList({
  suppliers,
  totalCount,
  offset,
  limit,
  canEdit,
  title,
  detailHref,
  newHref,
}: SupplierListProps) {
  const { t } = useTranslation('suppliers');
  const list = useListUrl();
  const sort = list.sortOf(['number', 'title'], 'title');
  const columns = [
    {
      id: 'number',
      header: t('col.number'),
      allowsSorting: true,
      render: (s: SupplierListItem) => <span className="tabular-nums">{s.number}</span>,
    },
    {
      id: 'title',
      header: t('col.title'),
      isRowHeader: true,
      allowsSorting: true,
      render: (s: SupplierListItem) => s.title,
    },
    { id: 'name', header: t('col.name'), render: (s: SupplierListItem) => s.name ?? '—' },
    {
      id: 'tags',
      header: t('col.tags'),
      render: (s: SupplierListItem) =>
        s.tags.length ? (
          <span className="flex flex-wrap gap-1">
            {s.tags.map((tag) => (
              <span key={tag} className="rounded-full bg-slate-100 px-2 text-xs text-slate-800">
                {tag}
              </span>
            ))}
          </span>
        ) : (
          '—'
        ),
    },
    { id: 'status', header: t('col.status'), render: (s: SupplierListItem) => t(`status.${s.status}`) },
  ];
  const filtered = list.isFiltered({ q: '', status: 'active' });
  return (
    <ListPage
      title={title}
      deletedNotice={t('deleted')}
      actions={
        canEdit ? (
          <LinkButton href={newHref} variant="primary">
            {t('new')}
          </LinkButton>
        ) : null
      }
    >
      <ListFilters>
        <TextField
          name="q"
          type="search"
          label={t('filter.search')}
          description={t('filter.search.help')}
          defaultValue={list.params.get('q') ?? ''}
          className="min-w-48 flex-1"
        />
        <Select
          name="status"
          label={t('filter.status')}
          defaultSelectedKey={list.params.get('status') ?? 'active'}
          onSelectionChange={(key) => list.setFilter('status', String(key))}
          items={[
            { id: 'active', label: t('status.active') },
            { id: 'inactive', label: t('status.inactive') },
            { id: 'all', label: t('filter.status.all') },
          ]}
          className="w-40"
        />
      </ListFilters>
      <ListTable
        aria-label={title}
        columns={columns}
        rows={suppliers}
        sortDescriptor={sort}
        sortable
        getRowHref={(s) => detailHref(s.id)}
        empty={{ empty: t('empty'), filtered: t('empty.filtered'), isFiltered: filtered }}
        totalCount={totalCount}
        offset={offset}
        limit={limit}
      />
    </ListPage>
  );
}
