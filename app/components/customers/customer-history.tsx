import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFetcher } from 'react-router';
import { Button, formatDateTime, type DateFormat } from '~/app/components/ui';
import { usePrintDiscount } from '~/app/lib/use-currency';

export interface HistoryEntry {
  userName: string | null;
  action: string;
  timestamp: string;
  data: unknown;
  /** Date and time as the tenant writes them, made on the server (no hydration mismatch). */
  when: string;
}

export interface HistoryPage {
  rows: HistoryEntry[];
  totalCount: number;
}

/** A page of history rows with their time written the tenant's way; for loaders. */
export function historyView(
  page: { rows: Omit<HistoryEntry, 'when'>[]; totalCount: number },
  config: { dateFormat: DateFormat; country: string },
): HistoryPage {
  return {
    totalCount: page.totalCount,
    rows: page.rows.map((r) => ({
      ...r,
      when: formatDateTime(r.timestamp, config),
    })),
  };
}

type Data = Record<string, unknown> | null;
const s = (v: unknown) => (v === null || v === undefined || v === '' ? '—' : String(v));

/**
 * A customer's history, newest first: who did what and when, with the details a person looks
 * for (which fields changed, which group's discount, which zone user). "Show more" loads the next
 * page from the history resource route.
 */
export function CustomerHistory({ customerId, initial }: { customerId: string; initial: HistoryPage }) {
  const { t } = useTranslation('customers');
  const printDiscount = usePrintDiscount();
  const fetcher = useFetcher<HistoryPage>();
  const [more, setMore] = useState<HistoryEntry[]>([]);
  const [seen, setSeen] = useState<HistoryPage | undefined>(undefined);

  // A new first page (after a save) starts the list over.
  useEffect(() => setMore([]), [initial]);
  if (fetcher.data && fetcher.data !== seen) {
    setSeen(fetcher.data);
    setMore((m) => [...m, ...fetcher.data!.rows]);
  }
  const rows = [...initial.rows, ...more];
  const total = fetcher.data?.totalCount ?? initial.totalCount;

  const describe = (row: HistoryEntry): string | null => {
    const d = row.data as Data;
    if (!d) return null;
    switch (row.action) {
      case 'create':
      case 'delete':
        return [d.customerId, d.name].filter(Boolean).join(' – ') || null;
      case 'edit':
      case 'edit.conf':
      case 'edit.id': {
        const changes = (d.changes ?? {}) as Record<string, unknown>;
        const names = Object.keys(changes);
        if (!names.length) return t('history.nothingChanged');
        if (row.action === 'edit.id') {
          const c = changes.customer_id as { from: unknown; to: unknown } | undefined;
          return c ? `${s(c.from)} → ${s(c.to)}` : null;
        }
        return t('history.changed', {
          fields: names.map((n) => t(`history.field.${n}`, { defaultValue: '' }) || n).join(', '),
        });
      }
      case 'edit.contacts':
        return t('history.contacts', { n: Number(d.count ?? 0) });
      case 'discount.set':
        return `${s(d.articleGroup)}: ${printDiscount({ type: d.discountType as 'PERCENTAGE' | 'REGULAR', value: String(d.discountValue) })}`;
      case 'discount.delete':
      case 'article.delete':
        return s(d.articleGroup ?? d.article);
      case 'article.set':
        return `${s(d.article)}: ${s(d.price)}`;
      default:
        return d.email ? `${s(d.name)} <${s(d.email)}>` : null;
    }
  };

  if (!rows.length) return <p className="text-sm text-slate-600">{t('history.empty')}</p>;
  return (
    <div className="grid gap-3">
      <ol className="grid gap-0 divide-y divide-slate-100">
        {rows.map((row, i) => {
          const details = describe(row);
          return (
            <li key={`${row.timestamp}-${i}`} className="py-2 text-sm">
              <p className="font-medium text-slate-900">
                {t(`history.action.${row.action}`, { defaultValue: row.action })}
              </p>
              {details ? <p className="break-words text-slate-700">{details}</p> : null}
              <p className="text-slate-500">
                {row.when} · {row.userName ?? t('history.system')}
              </p>
            </li>
          );
        })}
      </ol>
      {rows.length < total ? (
        <div>
          <Button
            variant="secondary"
            size="sm"
            isPending={fetcher.state !== 'idle'}
            onPress={() => void fetcher.load(`/inventory/customers/${customerId}/history?from=${rows.length}`)}
          >
            {t('history.more', { shown: rows.length, total })}
          </Button>
        </div>
      ) : null}
    </div>
  );
}
