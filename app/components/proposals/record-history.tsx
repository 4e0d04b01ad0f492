import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFetcher } from 'react-router';
import { Button } from '~/app/components/ui';
import type { HistoryEntry, HistoryPage } from '~/app/components/customers/customer-history';
import { formatNumber } from '~/core/i18n/number-format';

/** The fields a save can change, by their name in the history (proposal and sales-order fields). */
const FIELD_KEYS: Record<string, string> = {
  title: 'field.title',
  customerId: 'field.customer',
  customer_id: 'field.customer',
  contactName: 'field.contactName',
  contactEmail: 'field.contactEmail',
  contactPhone: 'field.contactPhone',
  deliveryLocationDescription: 'field.deliveryLocation',
  deliveryLocationText2: 'field.deliveryLocation',
  deliveryLocationText3: 'field.deliveryLocation',
  businessObjectId: 'field.object',
  descriptionIntro: 'field.descriptionIntro',
  description: 'field.description',
  description2: 'field.inclusions',
  descriptionOfExceptions: 'field.exceptions',
  generalTerms: 'field.generalTerms',
  paymentTerms: 'field.paymentTerms',
  validTo: 'field.validTo',
  nextActionDate: 'field.nextActionDate',
  tags: 'field.tags',
  customData: 'section.customFields',
  rows: 'section.rows',
};

interface Line {
  entry: HistoryEntry;
  /** Saves by the same person in a row, shown as one line ("3 saves"). */
  saves: number;
  fields: string[];
}

/** Consecutive saves by one person become one line with every field they changed. */
function collapse(entries: HistoryEntry[]): Line[] {
  const lines: Line[] = [];
  for (const entry of entries) {
    const fields = ((entry.data as { fields?: string[] } | null)?.fields ?? []).filter((f) => f in FIELD_KEYS);
    const last = lines.at(-1);
    if (last && entry.action === 'edit' && last.entry.action === 'edit' && last.entry.userName === entry.userName) {
      last.saves += 1;
      for (const f of fields) if (!last.fields.includes(f)) last.fields.push(f);
      continue;
    }
    lines.push({ entry, saves: 1, fields: [...fields] });
  }
  return lines;
}

/**
 * The history of a proposal or a sales order (issue 13: every change is kept): who did what and
 * when, newest first. Loaded when opened, a page at a time; the autosave's many saves by one
 * person in a row show as one line naming what they changed.
 */
export function RecordHistory({ href }: { href: string }) {
  const { t } = useTranslation('proposals');
  const fetcher = useFetcher<HistoryPage>();
  const [open, setOpen] = useState(false);
  const [pages, setPages] = useState<HistoryPage[]>([]);
  const [seen, setSeen] = useState<HistoryPage | undefined>(undefined);
  if (fetcher.data && fetcher.data !== seen) {
    setSeen(fetcher.data);
    setPages((p) => [...p, fetcher.data!]);
  }
  const entries = pages.flatMap((p) => p.rows);
  const total = pages.at(-1)?.totalCount ?? 0;
  const toggle = () => {
    if (!open) {
      setPages([]);
      void fetcher.load(`${href}?from=0`);
    }
    setOpen(!open);
  };
  const describe = (line: Line): string => {
    const d = (line.entry.data ?? {}) as Record<string, unknown>;
    const action = t(`history.action.${line.entry.action}`, { defaultValue: line.entry.action });
    const parts = [line.saves > 1 ? t('history.saves', { action, count: line.saves }) : action];
    if (line.fields.length)
      parts.push([...new Set(line.fields.map((f) => t(FIELD_KEYS[f]!)))].join(', ').toLowerCase());
    if (line.entry.action === 'accept' && d.salesOrderNumber)
      parts.push(t('history.salesOrder', { number: String(d.salesOrderNumber) }));
    if (line.entry.action === 'accept' && d.workOrderNumber)
      parts.push(t('history.workOrder', { number: String(d.workOrderNumber) }));
    if (line.entry.action === 'close') parts.push(d.paid ? t('history.paid') : t('history.notPaid'));
    if (line.entry.action === 'edit' && typeof d.totalPrice === 'string' && line.saves === 1)
      parts.push(`${t('total.sales')} ${formatNumber(Number(d.totalPrice))}`);
    return parts.join(' · ');
  };

  return (
    <section className="rounded-lg bg-white p-4 shadow-sm ring-1 ring-slate-200">
      <Button variant="ghost" onPress={toggle} aria-expanded={open}>
        {open ? t('history.hide') : t('history.show')}
      </Button>
      {open && (
        <div className="mt-3" data-testid="record-history">
          {fetcher.state !== 'idle' && entries.length === 0 ? (
            <p className="text-sm text-gray-700">{t('history.loading')}</p>
          ) : entries.length === 0 ? (
            <p className="text-sm text-gray-700">{t('history.empty')}</p>
          ) : (
            <ol className="divide-y divide-slate-100 text-sm">
              {collapse(entries).map((line, i) => (
                <li key={i} className="flex flex-col gap-0.5 py-2 sm:flex-row sm:gap-4">
                  <span className="shrink-0 text-gray-700 tabular-nums sm:w-40">{line.entry.when}</span>
                  <span className="shrink-0 font-medium sm:w-40">{line.entry.userName ?? t('history.system')}</span>
                  <span>{describe(line)}</span>
                </li>
              ))}
            </ol>
          )}
          {entries.length < total && (
            <Button
              size="sm"
              className="mt-2"
              isPending={fetcher.state !== 'idle'}
              onPress={() => void fetcher.load(`${href}?from=${entries.length}`)}
            >
              {t('history.more')}
            </Button>
          )}
        </div>
      )}
    </section>
  );
}
