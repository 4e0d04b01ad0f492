import { ExportLink } from '~/app/components/inventory/export-link';
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
import type { TArticle } from '~/core/articles/article.schema';
import { formatMoney, formatQuantity } from './format';

export interface ArticleListProps {
  articles: TArticle[];
  totalCount: number;
  offset: number;
  limit: number;
  /** Group filter options; null when the article-groups module is off. */
  groups: { id: string; label: string }[] | null;
  canCreate: boolean;
}

const ALL = 'all';

/**
 * The article register (spec: /inventory/articles): search on article ID, title and E-number,
 * group and status filters, sorting by ID or title, paging — all in the URL, filtered by the server.
 */
export function ArticleList({ articles, totalCount, offset, limit, groups, canCreate }: ArticleListProps) {
  const { t } = useTranslation('articles');
  const [params] = useSearchParams();
  const submit = useSubmit();
  const loading = useNavigation().state === 'loading';
  const sort: SortDescriptor = {
    column: params.get('sort') === 'articleId' ? 'articleId' : 'title',
    direction: params.get('dir') === 'desc' ? 'descending' : 'ascending',
  };
  const setParam = (name: string, value: string | null) => {
    const next = new URLSearchParams(params);
    if (value) next.set(name, value);
    else next.delete(name);
    next.delete('offset');
    void submit(next, { method: 'get', replace: true });
  };
  const columns = [
    {
      id: 'articleId',
      header: t('col.articleId'),
      allowsSorting: true,
      render: (a: TArticle) => <span className="tabular-nums">{a.articleId}</span>,
    },
    { id: 'title', header: t('col.title'), isRowHeader: true, allowsSorting: true, render: (a: TArticle) => a.title },
    ...(groups ? [{ id: 'group', header: t('col.group'), render: (a: TArticle) => a.group?.title ?? '—' }] : []),
    { id: 'unit', header: t('col.unit'), render: (a: TArticle) => a.unit ?? '—' },
    { id: 'price', header: t('col.price'), align: 'end' as const, render: (a: TArticle) => formatMoney(a.price) },
    {
      id: 'stock',
      header: t('col.stock'),
      align: 'end' as const,
      render: (a: TArticle) => (a.productType === 'service' ? '—' : formatQuantity(a.stockAmount)),
    },
    { id: 'status', header: t('col.status'), render: (a: TArticle) => t(`status.${a.status}`) },
  ];
  const filtered = Boolean(params.get('q') || params.get('groupId')) || (params.get('status') ?? 'active') !== 'active';
  return (
    <section className="min-w-0 rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h1 className="text-2xl font-semibold">{t('title')}</h1>
        <div className="flex flex-wrap gap-2">
          <ExportLink register="articles" />
          {canCreate ? (
            <LinkButton href="/inventory/articles/new" variant="primary">
              {t('new')}
            </LinkButton>
          ) : null}
        </div>
      </div>
      {params.get('deleted') ? (
        <p role="status" className="mt-3 rounded-md bg-green-50 p-3 text-sm text-green-900">
          {t('deleted')}
        </p>
      ) : null}
      <Form method="get" role="search" className="mt-4 flex flex-wrap items-end gap-x-4 gap-y-2">
        {['sort', 'dir', 'limit', 'groupId', 'status'].map((name) =>
          params.get(name) ? <input key={name} type="hidden" name={name} value={params.get(name)!} /> : null,
        )}
        <TextField
          name="q"
          type="search"
          label={t('filter.search')}
          description={t('filter.search.help')}
          defaultValue={params.get('q') ?? ''}
          className="min-w-48 flex-1"
        />
        {groups ? (
          <Select
            label={t('filter.group')}
            defaultSelectedKey={params.get('groupId') ?? ALL}
            onSelectionChange={(key) => setParam('groupId', key === ALL ? null : String(key))}
            items={[{ id: ALL, label: t('filter.group.all') }, ...groups]}
            className="w-48"
          />
        ) : null}
        <Select
          label={t('filter.status')}
          defaultSelectedKey={params.get('status') ?? 'active'}
          onSelectionChange={(key) => setParam('status', key === 'active' ? null : String(key))}
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
        aria-label={t('title')}
        className="mt-4"
        columns={columns}
        rows={articles}
        sortDescriptor={sort}
        onSortChange={(d) => {
          const next = new URLSearchParams(params);
          next.set('sort', String(d.column));
          if (d.direction === 'descending') next.set('dir', 'desc');
          else next.delete('dir');
          next.delete('offset');
          void submit(next, { method: 'get', replace: true });
        }}
        getRowHref={(a) => `/inventory/articles/${a.id}`}
        emptyState={filtered ? t('empty.filtered') : t('empty')}
      />
      <ListPager className="mt-3" totalCount={totalCount} offset={offset} limit={limit} />
    </section>
  );
}
