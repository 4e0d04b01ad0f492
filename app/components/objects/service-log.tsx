import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFetcher } from 'react-router';
import { Button } from '~/app/components/ui';
import { DateTime, TextArea, useFieldErrors, useResultToast, type ActionResult } from './shared';

export interface LogEntry {
  id: string;
  entry: string;
  userName: string | null;
  createdAt: string;
  updatedAt: string | null;
  updatedByName: string | null;
}

function EntryItem({ entry, canWrite }: { entry: LogEntry; canWrite: boolean }) {
  const { t } = useTranslation('objects');
  const fetcher = useFetcher<ActionResult>();
  const [editing, setEditing] = useState(false);
  const result = fetcher.state === 'idle' ? fetcher.data : undefined;
  useResultToast(result);
  const err = useFieldErrors(fetcher.data);
  useEffect(() => {
    if (result?.ok) setEditing(false);
  }, [result]);
  return (
    <li className="grid gap-1 border-b border-slate-100 py-3 last:border-b-0">
      <div className="flex flex-wrap items-center justify-between gap-2 text-sm text-slate-600">
        <span>
          <DateTime iso={entry.createdAt} /> · {entry.userName ?? t('unknownUser')}
          {entry.updatedAt ? (
            <>
              {' '}
              · {t('serviceLog.edited')} <DateTime iso={entry.updatedAt} />
              {entry.updatedByName ? ` (${entry.updatedByName})` : ''}
            </>
          ) : null}
        </span>
        {canWrite && !editing ? (
          <Button size="sm" variant="ghost" onPress={() => setEditing(true)}>
            {t('edit')}
          </Button>
        ) : null}
      </div>
      {editing ? (
        <fetcher.Form method="post" className="grid gap-2" noValidate>
          <input type="hidden" name="intent" value="log-edit" />
          <input type="hidden" name="logId" value={entry.id} />
          <TextArea
            name="entry"
            label={t('serviceLog.entry')}
            defaultValue={entry.entry}
            isRequired
            errorMessage={err('entry')}
          />
          <div className="flex gap-2">
            <Button type="submit" variant="primary" size="sm" isPending={fetcher.state !== 'idle'}>
              {t('save')}
            </Button>
            <Button variant="secondary" size="sm" onPress={() => setEditing(false)}>
              {t('cancel')}
            </Button>
          </div>
        </fetcher.Form>
      ) : (
        <p className="whitespace-pre-wrap text-gray-900">{entry.entry}</p>
      )}
    </li>
  );
}

/**
 * The object's service log: a new entry on top (bo:service_log), the newest 20 entries, and
 * "load more" for older ones.
 */
export function ServiceLog({
  boId,
  first,
  totalCount,
  canWrite,
}: {
  boId: string;
  first: LogEntry[];
  totalCount: number;
  canWrite: boolean;
}) {
  const { t } = useTranslation('objects');
  const adder = useFetcher<ActionResult>();
  const more = useFetcher<{ logs: LogEntry[]; totalCount: number }>();
  const [older, setOlder] = useState<LogEntry[]>([]);
  const added = adder.state === 'idle' ? adder.data : undefined;
  useResultToast(added);
  const err = useFieldErrors(adder.data);
  useEffect(() => {
    if (more.state === 'idle' && more.data)
      setOlder((o) => [...o, ...more.data!.logs.filter((l) => !o.some((x) => x.id === l.id))]);
  }, [more.state, more.data]);
  // A new entry shifts the pages: start again from the first one.
  useEffect(() => setOlder([]), [totalCount]);
  const shown = [...first, ...older.filter((l) => !first.some((x) => x.id === l.id))];
  return (
    <div className="grid gap-4">
      {canWrite ? (
        <adder.Form method="post" className="grid gap-2" noValidate key={totalCount}>
          <input type="hidden" name="intent" value="log-add" />
          <TextArea name="entry" label={t('serviceLog.new')} isRequired errorMessage={err('entry')} />
          <div>
            <Button type="submit" variant="primary" isPending={adder.state !== 'idle'}>
              {t('serviceLog.add')}
            </Button>
          </div>
        </adder.Form>
      ) : null}
      {shown.length === 0 ? <p className="text-sm text-slate-600">{t('serviceLog.empty')}</p> : null}
      <ul>
        {shown.map((e) => (
          <EntryItem key={e.id} entry={e} canWrite={canWrite} />
        ))}
      </ul>
      <p className="text-sm text-slate-600" aria-live="polite">
        {t('serviceLog.shown', { shown: shown.length, total: totalCount })}
      </p>
      {shown.length < totalCount ? (
        <div>
          <Button
            variant="secondary"
            isPending={more.state !== 'idle'}
            onPress={() => more.load(`/inventory/objects/${boId}/more?list=servicelog&from=${shown.length}`)}
          >
            {t('loadMore')}
          </Button>
        </div>
      ) : null}
    </div>
  );
}
