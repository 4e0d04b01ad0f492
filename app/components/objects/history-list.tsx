import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFetcher } from 'react-router';
import { Button } from '~/app/components/ui';
import { DateTime } from './shared';

export interface HistoryRow {
  id: string;
  action: string;
  at: string;
  userName: string | null;
}

/** What happened to the object, newest first, 20 at a time. */
export function HistoryList({ boId, first, totalCount }: { boId: string; first: HistoryRow[]; totalCount: number }) {
  const { t } = useTranslation('objects');
  const more = useFetcher<{ history: HistoryRow[]; totalCount: number }>();
  const [older, setOlder] = useState<HistoryRow[]>([]);
  useEffect(() => {
    if (more.state === 'idle' && more.data) setOlder((o) => [...o, ...more.data!.history]);
  }, [more.state, more.data]);
  useEffect(() => setOlder([]), [totalCount]);
  const shown = [...first, ...older.filter((h) => !first.some((x) => x.id === h.id))];
  if (shown.length === 0) return <p className="text-sm text-slate-600">{t('history.empty')}</p>;
  return (
    <div className="grid gap-3">
      <ol className="grid gap-0">
        {shown.map((h) => (
          <li key={h.id} className="flex flex-wrap gap-x-3 border-b border-slate-100 py-2 text-sm last:border-b-0">
            <span className="text-slate-600">
              <DateTime iso={h.at} />
            </span>
            <span className="font-medium">{t(`history.${h.action}`, { defaultValue: h.action })}</span>
            <span className="text-slate-600">{h.userName ?? t('unknownUser')}</span>
          </li>
        ))}
      </ol>
      {shown.length < totalCount ? (
        <div>
          <Button
            variant="secondary"
            isPending={more.state !== 'idle'}
            onPress={() => more.load(`/inventory/objects/${boId}/more?list=history&from=${shown.length}`)}
          >
            {t('loadMore')}
          </Button>
        </div>
      ) : null}
    </div>
  );
}
