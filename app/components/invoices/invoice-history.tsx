import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFetcher } from 'react-router';
import { Button, Dialog } from '~/app/components/ui';
import type { HistoryEntry, HistoryPage } from '~/app/components/customers/customer-history';

/** The history actions the invoice records (core/invoicing), each with its words. */
export const HISTORY_ACTIONS = [
  'create',
  'edit',
  'finalize',
  'email',
  'erp.queued',
  'erp.created',
  'erp.retry',
  'erp.failed',
  'erp.check',
  'erp.booked',
  'erp.resend',
  'erp.not_sent',
  'void',
  'visma-xml',
  'pdf',
  'peppol',
] as const;

/** The fields an edit can change, by their name in the history. */
const FIELDS = [
  'invoiceDate',
  'deliveryDate',
  'paymentTermDays',
  'marking',
  'description',
  'footerText',
  'ourReference',
  'yourReference',
  'customerOrderNumber',
  'reverseVat',
  'taxReduction',
  'propertyDesignation',
  'housingOrgNr',
  'taxReductionPersons',
  'rows',
] as const;

type Data = Record<string, unknown>;

/** One history line's details: what changed, where it went, the ERP's number or its error. */
export function useHistoryDetails(erpName: string) {
  const { t } = useTranslation('invoices');
  const { t: tc } = useTranslation();
  return (entry: Pick<HistoryEntry, 'action' | 'data'>): string | null => {
    const d = (entry.data && typeof entry.data === 'object' ? entry.data : {}) as Data;
    switch (entry.action) {
      case 'edit': {
        const changed = Array.isArray(d.changed) ? (d.changed as string[]) : [];
        const known = changed.filter((f) => (FIELDS as readonly string[]).includes(f));
        return known.length
          ? t('history.changed', { fields: known.map((f) => t(`history.field.${f}`)).join(', ') })
          : null;
      }
      case 'email': {
        const to = Array.isArray(d.recipients) ? (d.recipients as string[]).join(', ') : null;
        return to ? t('history.recipients', { recipients: to }) : null;
      }
      case 'erp.created':
        return typeof d.externalInvoiceNr === 'string' && d.externalInvoiceNr
          ? t('history.erpNumber', { number: d.externalInvoiceNr })
          : null;
      case 'erp.retry':
      case 'erp.failed':
      case 'erp.check': {
        const parts: string[] = [];
        if (typeof d.code === 'string') parts.push(tc(d.code, { name: erpName, defaultValue: d.code }));
        if (typeof d.message === 'string' && d.message) parts.push(d.message);
        if (Array.isArray(d.references) && d.references.length) parts.push(d.references.join(', '));
        if (typeof d.attempts === 'number') parts.push(t('history.attempt', { n: d.attempts }));
        return parts.join(' · ') || null;
      }
      case 'visma-xml':
      case 'peppol':
        return typeof d.fileName === 'string' ? d.fileName : null;
      default:
        return null;
    }
  };
}

/** The list itself, newest first: when, who, what. */
export function InvoiceHistoryList({ entries, erpName }: { entries: HistoryEntry[]; erpName: string }) {
  const { t } = useTranslation('invoices');
  const details = useHistoryDetails(erpName);
  if (!entries.length) return <p className="text-sm text-gray-700">{t('history.empty')}</p>;
  return (
    <ol className="divide-y divide-slate-100 text-sm" data-testid="invoice-history">
      {entries.map((entry, i) => {
        const more = details(entry);
        const known = (HISTORY_ACTIONS as readonly string[]).includes(entry.action);
        return (
          <li key={i} className="flex flex-col gap-0.5 py-2">
            <span className="text-gray-700 tabular-nums">
              {entry.when} · {entry.userName ?? t('history.system')}
            </span>
            <span className="font-medium">{known ? t(`history.action.${entry.action}`) : entry.action}</span>
            {more ? <span className="text-gray-700 break-words">{more}</span> : null}
          </li>
        );
      })}
    </ol>
  );
}

/** "History": a dialog with the invoice's history, read when it opens (GET /invoices/{id}/history). */
export function InvoiceHistoryButton({ invoiceId, erpName }: { invoiceId: string; erpName: string }) {
  const { t } = useTranslation('invoices');
  const fetcher = useFetcher<HistoryPage>();
  const [open, setOpen] = useState(false);
  const show = () => {
    setOpen(true);
    void fetcher.load(`/invoices/${encodeURIComponent(invoiceId)}/history`);
  };
  const entries = fetcher.data?.rows ?? [];
  return (
    <>
      <Button variant="secondary" onPress={show}>
        {t('action.history')}
      </Button>
      <Dialog title={t('history.title')} isOpen={open} onOpenChange={setOpen} size="lg">
        {fetcher.state !== 'idle' && !fetcher.data ? (
          <p className="text-sm text-gray-700" role="status">
            {t('history.loading')}
          </p>
        ) : (
          <InvoiceHistoryList entries={entries} erpName={erpName} />
        )}
      </Dialog>
    </>
  );
}
