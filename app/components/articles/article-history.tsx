import { useTranslation } from 'react-i18next';
import { formatQuantity } from './format';

export interface ArticleHistoryEntry {
  id: string;
  action: string;
  userName: string | null;
  data: unknown;
  /** Date and time the tenant's way, made on the server. */
  when: string;
}

/** Field names as history stores them (the API's) that the form labels under `field.*`. */
const FIELDS = new Set([
  'articleId',
  'title',
  'description',
  'unit',
  'eNumber',
  'price',
  'recommendedPrice',
  'productType',
  'lineType',
  'houseWork',
  'security',
  'stockLocation',
  'status',
]);

/** Who changed the article and how, newest first (the `history` rows of the article). */
export function ArticleHistory({ entries, totalCount }: { entries: ArticleHistoryEntry[]; totalCount: number }) {
  const { t } = useTranslation('articles');
  const describe = (e: ArticleHistoryEntry): string | null => {
    const d = (e.data ?? {}) as Record<string, unknown>;
    if (e.action === 'edit') {
      const after = (d.after ?? {}) as Record<string, unknown>;
      const names = Object.keys(after).map((k) =>
        FIELDS.has(k) ? t(`field.${k}`) : k === 'articleGroupId' ? t('field.group') : k,
      );
      return names.length ? t('history.changed', { fields: names.join(', ') }) : null;
    }
    if (e.action === 'stock.add' || e.action === 'stock.remove')
      return t('history.stock', {
        amount: formatQuantity(String(d.amount)),
        balance: formatQuantity(String(d.balance)),
      });
    return null;
  };
  const actionLabel = (action: string) => {
    const known = [
      'create',
      'edit',
      'delete',
      'status.active',
      'status.inactive',
      'stock.add',
      'stock.remove',
      'suppliers',
    ];
    return known.includes(action) ? t(`history.action.${action}`) : action;
  };
  return (
    <section aria-labelledby="history-heading" className="grid gap-2">
      <h2 id="history-heading" className="text-lg font-medium">
        {t('history.title')}
      </h2>
      {entries.length === 0 ? (
        <p className="text-sm text-slate-500">{t('history.empty')}</p>
      ) : (
        <ol className="grid gap-2 text-sm">
          {entries.map((e) => (
            <li key={e.id} className="border-t border-slate-100 pt-2">
              <p>
                <span className="font-medium">{actionLabel(e.action)}</span>
                <span className="text-slate-500">
                  {' '}
                  · {e.when} · {e.userName ?? t('history.unknownUser')}
                </span>
              </p>
              {describe(e) ? <p className="text-slate-700">{describe(e)}</p> : null}
            </li>
          ))}
        </ol>
      )}
      {totalCount > entries.length ? (
        <p className="text-sm text-slate-500">{t('history.more', { count: totalCount - entries.length })}</p>
      ) : null}
    </section>
  );
}
