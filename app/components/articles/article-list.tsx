import { ExportLink } from '~/app/components/inventory/export-link';
import { useTranslation } from 'react-i18next';
import {
  LinkButton,
  ListFilters,
  ListPage,
  ListTable,
  Select,
  TextField,
  useListUrl,
  type SortDescriptor,
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
  const list = useListUrl();
  const params = list.params;
  // the article register spells a descending sort `dir=desc` (its export and links use it too)
  const sort: SortDescriptor = {
    column: params.get('sort') === 'articleId' ? 'articleId' : 'title',
    direction: params.get('dir') === 'desc' ? 'descending' : 'ascending',
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
  const filtered = list.isFiltered({ q: '', groupId: '', status: 'active' });
  return (
    <ListPage
      title={t('title')}
      deletedNotice={t('deleted')}
      actions={
        <>
          <ExportLink register="articles" />
          {canCreate ? (
            <LinkButton href="/inventory/articles/new" variant="primary">
              {t('new')}
            </LinkButton>
          ) : null}
        </>
      }
    >
      <ListFilters keep={['sort', 'dir', 'limit', 'groupId', 'status']}>
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
            onSelectionChange={(key) => list.setFilter('groupId', String(key), ALL)}
            items={[{ id: ALL, label: t('filter.group.all') }, ...groups]}
            className="w-48"
          />
        ) : null}
        <Select
          label={t('filter.status')}
          defaultSelectedKey={params.get('status') ?? 'active'}
          onSelectionChange={(key) => list.setFilter('status', String(key), 'active')}
          items={[
            { id: 'active', label: t('status.active') },
            { id: 'inactive', label: t('status.inactive') },
            { id: 'all', label: t('filter.status.all') },
          ]}
          className="w-40"
        />
      </ListFilters>
      <ListTable
        aria-label={t('title')}
        columns={columns}
        rows={articles}
        sortDescriptor={sort}
        onSortChange={(d) =>
          list.setFilters({ sort: String(d.column), dir: d.direction === 'descending' ? 'desc' : null })
        }
        getRowHref={(a) => `/inventory/articles/${a.id}`}
        empty={{ empty: t('empty'), filtered: t('empty.filtered'), isFiltered: filtered }}
        totalCount={totalCount}
        offset={offset}
        limit={limit}
      />
    </ListPage>
  );
}
