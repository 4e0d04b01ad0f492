import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFetcher } from 'react-router';
import { Button, Spinner, useToast } from '~/app/components/ui';
import { historyChanges } from './history-lines';

interface HistoryRow {
  userName: string | null;
  action: string;
  timestamp: string;
  data: unknown;
}
type HistoryAnswer = { rows: HistoryRow[]; totalCount: number } | { error: string };

/**
 * The order's history (spec section 4): who did what when, with what changed. Opens on demand; a
 * failed load closes the panel again and says so.
 */
export function HistoryPanel({ workOrderId, format }: { workOrderId: string; format: (iso: string) => string }) {
  const { t } = useTranslation('workorders');
  const { t: tc } = useTranslation();
  const toast = useToast();
  const [open, setOpen] = useState(false);
  const fetcher = useFetcher<HistoryAnswer>();
  const answer = fetcher.data;
  useEffect(() => {
    if (answer && 'error' in answer) {
      setOpen(false);
      toast.show({ kind: 'error', message: tc(answer.error) });
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [answer]);
  const toggle = () => {
    if (!open) void fetcher.load(`/work-orders/${workOrderId}/history`);
    setOpen(!open);
  };
  const rows = answer && 'rows' in answer ? answer.rows : [];
  return (
    <section aria-labelledby="wo-history" className="rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
      <div className="flex items-center justify-between gap-2">
        <h3 id="wo-history" className="text-base font-semibold">
          {t('history.title')}
        </h3>
        <Button size="sm" variant="secondary" onPress={toggle} aria-expanded={open}>
          {open ? t('history.hide') : t('history.show')}
        </Button>
      </div>
      {open ? (
        fetcher.state !== 'idle' && !rows.length ? (
          <Spinner label={t('history.loading')} />
        ) : rows.length === 0 ? (
          <p className="mt-3 text-sm text-slate-600">{t('history.empty')}</p>
        ) : (
          <ol className="mt-3 space-y-3">
            {rows.map((r, i) => (
              <li key={i} className="border-l-2 border-slate-200 pl-3 text-sm">
                <p>
                  <span className="font-medium">{t(`history.action.${r.action}`, { defaultValue: r.action })}</span>
                  <span className="text-slate-500">
                    {' '}
                    · {r.userName ?? t('history.system')} · {format(r.timestamp)}
                  </span>
                </p>
                {historyChanges(r.data, t).length ? (
                  <ul className="mt-1 space-y-0.5 text-slate-600">
                    {historyChanges(r.data, t).map((c) => (
                      <li key={c.field}>
                        {`${c.field ? `${t(`field.${c.field}`, { defaultValue: c.field })}: ` : ''}${c.from} → ${c.to}`}
                      </li>
                    ))}
                  </ul>
                ) : null}
              </li>
            ))}
          </ol>
        )
      ) : null}
    </section>
  );
}
