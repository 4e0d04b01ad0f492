import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useFetcher } from 'react-router';
import { useCan } from '~/app/lib/can';
import type { RelationKind } from '~/core/deviations/deviation.schema';
import type { DeviationListRow } from '~/core/deviations/deviation.service';
import { DeviationTable } from './deviation-table';

/**
 * A record page's open deviations (issue 34 item 6: object, customer, work order, project) and the
 * one tap that raises a new one about the record. Loaded on its own (/deviations/open), so the
 * record's page does not wait for it; shown only to whoever may read deviations.
 */
export function OpenDeviations({ kind, id }: { kind: RelationKind; id: string }) {
  const { t } = useTranslation('deviations');
  const canRead = useCan()('deviations:read', 'deviations');
  const fetcher = useFetcher<{ deviations: DeviationListRow[]; totalCount: number; canCreate: boolean }>();
  const url = `/deviations/open?kind=${kind}&id=${encodeURIComponent(id)}`;
  useEffect(() => {
    if (canRead) void fetcher.load(url);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [canRead, url]);
  if (!canRead) return null;
  const data = fetcher.data;
  return (
    <section
      aria-labelledby={`open-deviations-${id}`}
      className="mt-4 min-w-0 rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200"
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id={`open-deviations-${id}`} className="text-lg font-semibold">
          {t('open.title')}
        </h2>
        {data?.canCreate ? (
          <Link
            to={`/deviations/new?from=${kind}&id=${encodeURIComponent(id)}`}
            className="inline-flex min-h-11 items-center text-sm text-brand-700 underline"
          >
            {t('raise')}
          </Link>
        ) : null}
      </div>
      {data ? (
        <>
          {/* none: a line, not an empty table that scrolls sideways on a phone with nothing to focus */}
          {data.deviations.length ? (
            <div className="mt-2">
              <DeviationTable compact rows={data.deviations} label={t('open.title')} empty={t('open.none')} />
            </div>
          ) : (
            <p className="mt-2 text-sm text-slate-600">{t('open.none')}</p>
          )}
          {data.totalCount > data.deviations.length ? (
            <Link
              to={`/deviations/list?relationKind=${kind}&relationId=${encodeURIComponent(id)}`}
              className="mt-2 inline-block text-sm text-brand-700 underline"
            >
              {t('open.all', { count: data.totalCount })}
            </Link>
          ) : null}
        </>
      ) : null}
    </section>
  );
}
