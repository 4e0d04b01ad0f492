import { useTranslation } from 'react-i18next';
import { Form, useNavigation, useSearchParams, useSubmit } from 'react-router';
import {
  Button,
  LinkButton,
  Select,
  SortableTable,
  Spinner,
  TextField,
  type SortDescriptor,
  ListPager,
} from '~/app/components/ui';
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
  const [params] = useSearchParams();
  const submit = useSubmit();
  const loading = useNavigation().state === 'loading';
  const sort: SortDescriptor = {
    column: params.get('sort') === 'number' ? 'number' : 'title',
    direction: params.get('desc') === 'true' ? 'descending' : 'ascending',
  };
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
  const filtered = Boolean(params.get('q')) || (params.get('status') ?? 'active') !== 'active';
  return (
    <section className="min-w-0 rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h1 className="text-2xl font-semibold">{title}</h1>
        {canEdit ? (
          <LinkButton href={newHref} variant="primary">
            {t('new')}
          </LinkButton>
        ) : null}
      </div>
      {params.get('deleted') ? (
        <p role="status" className="mt-3 rounded-md bg-green-50 p-3 text-sm text-green-900">
          {t('deleted')}
        </p>
      ) : null}
      <Form method="get" role="search" className="mt-4 flex flex-wrap items-end gap-x-4 gap-y-2">
        {params.get('sort') ? <input type="hidden" name="sort" value={params.get('sort')!} /> : null}
        {params.get('desc') ? <input type="hidden" name="desc" value={params.get('desc')!} /> : null}
        {params.get('limit') ? <input type="hidden" name="limit" value={params.get('limit')!} /> : null}
        <TextField
          name="q"
          type="search"
          label={t('filter.search')}
          description={t('filter.search.help')}
          defaultValue={params.get('q') ?? ''}
          className="min-w-48 flex-1"
        />
        <Select
          name="status"
          label={t('filter.status')}
          defaultSelectedKey={params.get('status') ?? 'active'}
          onSelectionChange={(key) => {
            const next = new URLSearchParams(params);
            next.set('status', String(key));
            next.delete('offset');
            void submit(next, { method: 'get', replace: true });
          }}
          items={[
            { id: 'active', label: t('status.active') },
            { id: 'inactive', label: t('status.inactive') },
            { id: 'all', label: t('filter.status.all') },
          ]}
          className="w-40"
        />
        <Button type="submit" variant="secondary">
          {t('filter.apply')}
        </Button>
        {loading ? <Spinner /> : null}
      </Form>
      <SortableTable
        aria-label={title}
        className="mt-4"
        columns={columns}
        rows={suppliers}
        sortDescriptor={sort}
        onSortChange={(d) => {
          const next = new URLSearchParams(params);
          next.set('sort', String(d.column));
          if (d.direction === 'descending') next.set('desc', 'true');
          else next.delete('desc');
          next.delete('offset');
          void submit(next, { method: 'get', replace: true });
        }}
        getRowHref={(s) => detailHref(s.id)}
        emptyState={filtered ? t('empty.filtered') : t('empty')}
      />
      <ListPager className="mt-3" totalCount={totalCount} offset={offset} limit={limit} />
    </section>
  );
}
