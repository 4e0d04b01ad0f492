import { useTranslation } from 'react-i18next';
import { Form, useSearchParams } from 'react-router';
import { Button, SortableTable, TextField, formatNumber, ListPager } from '~/app/components/ui';
import type { SupplierArticle } from '~/core/suppliers/supplier.service';

export interface SupplierArticlesProps {
  articles: SupplierArticle[];
  totalCount: number;
  offset: number;
  limit: number;
}

/**
 * What the supplier sells us (spec section 3: supplier article number, purchase price per
 * article), read-only: the article's page edits them. Searchable and paged on the server.
 */
export function SupplierArticles({ articles, totalCount, offset, limit }: SupplierArticlesProps) {
  const { t } = useTranslation('suppliers');
  const [params] = useSearchParams();
  const columns = [
    {
      id: 'article',
      header: t('articles.col.article'),
      isRowHeader: true,
      render: (a: SupplierArticle) => (
        <span>
          <span className="tabular-nums">{a.articleNumber}</span> · {a.title}
          {a.status !== 'active' ? <span className="text-slate-500"> ({t('status.inactive')})</span> : null}
        </span>
      ),
    },
    {
      id: 'supplierArticleNumber',
      header: t('articles.col.supplierArticleNumber'),
      render: (a: SupplierArticle) => a.supplierArticleNumber ?? '—',
    },
    {
      id: 'purchasePrice',
      header: t('articles.col.purchasePrice'),
      align: 'end' as const,
      // Display only: the stored numeric text is formatted, never computed with.
      render: (a: SupplierArticle) => (a.purchasePrice === null ? '—' : formatNumber(Number(a.purchasePrice))),
    },
    {
      id: 'primary',
      header: t('articles.col.primary'),
      render: (a: SupplierArticle) => (a.isPrimary ? t('articles.primary') : ''),
    },
  ];
  return (
    <section aria-labelledby="supplier-articles" className="grid gap-3">
      <h2 id="supplier-articles" className="text-lg font-medium">
        {t('articles.title')}
      </h2>
      <p className="text-sm text-slate-600">{t('articles.help')}</p>
      {totalCount > 0 || params.get('q') ? (
        <Form method="get" role="search" className="flex flex-wrap items-end gap-2">
          <TextField
            name="q"
            type="search"
            label={t('articles.search')}
            defaultValue={params.get('q') ?? ''}
            className="min-w-48 flex-1"
          />
          <Button type="submit" variant="secondary">
            {t('filter.apply')}
          </Button>
        </Form>
      ) : null}
      <SortableTable
        aria-label={t('articles.title')}
        columns={columns}
        rows={articles.map((a) => ({ ...a, id: a.articleId }))}
        getRowHref={(a) => `/inventory/articles/${a.articleId}`}
        emptyState={params.get('q') ? t('empty.filtered') : t('articles.empty')}
      />
      {totalCount > 0 ? <ListPager totalCount={totalCount} offset={offset} limit={limit} /> : null}
    </section>
  );
}
