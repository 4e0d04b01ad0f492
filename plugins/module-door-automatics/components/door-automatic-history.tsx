import { useTranslation } from 'react-i18next';
import type { HistoryEntry } from '../door-automatic.service';

const ACTIONS = ['create', 'edit', 'delete'] as const;

/** What happened to the door automatic, newest first: who, when, and which fields changed. */
export function DoorAutomaticHistory({ history, totalCount }: { history: HistoryEntry[]; totalCount: number }) {
  const { t, i18n } = useTranslation('doorautomatics');
  const when = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'short', timeStyle: 'short' });
  const fields = (h: HistoryEntry) => {
    const changed = (h.data as { changed?: Record<string, unknown> } | null)?.changed;
    return changed ? Object.keys(changed).map((k) => t(`field.${k === 'businessObjectId' ? 'object' : k}`, k)) : [];
  };
  return (
    <section aria-labelledby="door-automatic-history" className="grid gap-3">
      <h2 id="door-automatic-history" className="text-lg font-medium">
        {t('history.title')}
      </h2>
      {history.length === 0 ? <p className="text-sm text-slate-600">{t('history.empty')}</p> : null}
      <ol className="grid gap-2">
        {history.map((h) => (
          <li key={h.id} className="border-b border-slate-100 pb-2 text-sm last:border-b-0">
            <p>
              <span className="font-medium">
                {(ACTIONS as readonly string[]).includes(h.action) ? t(`history.${h.action}`) : h.action}
              </span>{' '}
              · {h.userName ?? t('history.system')}
            </p>
            <p className="text-slate-600">
              <time dateTime={h.at}>{when.format(new Date(h.at))}</time>
              {fields(h).length ? ` · ${fields(h).join(', ')}` : ''}
            </p>
          </li>
        ))}
      </ol>
      {totalCount > history.length ? (
        <p className="text-sm text-slate-600">{t('history.more', { shown: history.length, total: totalCount })}</p>
      ) : null}
    </section>
  );
}
