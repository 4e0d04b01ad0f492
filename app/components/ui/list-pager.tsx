import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { LinkButton } from './button';
import { cx } from './class-names';
import { PAGE_SIZES } from '~/core/registers/list-query';

export const DEFAULT_PAGE_SIZE = 50;

/** The page a list URL asks for, made valid: a bad or missing `offset`/`limit` is the first page of 50. */
export function pageFromUrl(params: URLSearchParams): { offset: number; limit: number } {
  const offset = Number(params.get('offset'));
  const limit = Number(params.get('limit'));
  return {
    offset: Number.isInteger(offset) && offset > 0 ? offset : 0,
    limit: (PAGE_SIZES as readonly number[]).includes(limit) ? limit : DEFAULT_PAGE_SIZE,
  };
}

export interface ListPagerProps {
  totalCount: number;
  offset: number;
  limit: number;
  className?: string;
}

/**
 * Paging for a list whose page lives in the URL: where we are, previous and next, and the spec's
 * page sizes (20, 50, 100). Plain links, so it works before hydration and with back/forward.
 */
export function ListPager({ totalCount, offset, limit, className }: ListPagerProps) {
  const { t } = useTranslation('ui');
  const [params] = useSearchParams();
  const href = (next: { offset?: number; limit?: number }) => {
    const p = new URLSearchParams(params);
    p.set('offset', String(next.offset ?? offset));
    p.set('limit', String(next.limit ?? limit));
    if (p.get('offset') === '0') p.delete('offset');
    return `?${p}`;
  };
  const first = totalCount === 0 ? 0 : offset + 1;
  const last = Math.min(offset + limit, totalCount);
  return (
    <nav aria-label={t('pager.label')} className={cx('flex flex-wrap items-center gap-x-4 gap-y-2 text-sm', className)}>
      <p aria-live="polite" className="text-slate-600">
        {t('pager.showing', { first, last, total: totalCount })}
      </p>
      <div className="flex gap-2">
        {offset > 0 ? (
          <LinkButton href={href({ offset: Math.max(0, offset - limit) })} size="sm">
            {t('pager.previous')}
          </LinkButton>
        ) : null}
        {last < totalCount ? (
          <LinkButton href={href({ offset: offset + limit })} size="sm">
            {t('pager.next')}
          </LinkButton>
        ) : null}
      </div>
      {totalCount > PAGE_SIZES[0] ? (
        <div className="flex items-center gap-1">
          <span className="text-slate-600">{t('pager.perPage')}</span>
          {PAGE_SIZES.map((size) => (
            <LinkButton
              key={size}
              href={href({ offset: 0, limit: size })}
              size="sm"
              variant={size === limit ? 'primary' : 'ghost'}
              aria-current={size === limit ? 'true' : undefined}
            >
              {String(size)}
            </LinkButton>
          ))}
        </div>
      ) : null}
    </nav>
  );
}
