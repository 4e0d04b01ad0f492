import { useTranslation } from 'react-i18next';
import { cx } from '~/app/components/ui/class-names';
import type { InvoiceStatus } from '~/core/invoicing/invoice.service';
import type { ErpStatus } from './invoice-format';

const BADGE = 'inline-flex items-center rounded px-2 py-0.5 text-xs font-medium';

const STATUS_CLASS: Record<InvoiceStatus, string> = {
  draft: 'bg-amber-100 text-amber-900',
  finalized: 'bg-green-100 text-green-900',
  void: 'bg-slate-200 text-slate-800',
};

/** Draft, final or void. */
export function InvoiceStatusBadge({ status }: { status: InvoiceStatus }) {
  const { t } = useTranslation('invoices');
  return <span className={cx(BADGE, 'whitespace-nowrap', STATUS_CLASS[status])}>{t(`status.${status}`)}</span>;
}

const ERP_CLASS: Record<ErpStatus, string> = {
  none: 'bg-slate-100 text-slate-800',
  queued: 'bg-blue-100 text-blue-900',
  delivered: 'bg-green-100 text-green-900',
  failed: 'bg-red-100 text-red-900',
};

export interface ErpBadgeProps {
  erp: ErpStatus;
  /** The ERP's number, shown once delivered. */
  externalInvoiceNr: string | null;
  /** The last delivery's message key, shown when it failed. */
  errorCode: string | null;
  /** The tenant's ERP, for messages that name it. */
  erpName: string;
}

/**
 * The ERP state as a badge: not sent, queued, in the ERP with its number, or failed with the
 * error's message.
 */
export function ErpBadge({ erp, externalInvoiceNr, errorCode, erpName }: ErpBadgeProps) {
  const { t } = useTranslation('invoices');
  const { t: tc } = useTranslation();
  const text =
    erp === 'delivered'
      ? externalInvoiceNr
        ? t('erpBadge.deliveredNumber', { number: externalInvoiceNr })
        : t('erp.delivered')
      : erp === 'failed'
        ? t('erpBadge.failed', {
            message: tc(errorCode ?? 'INVOICE_WAS_NOT_CREATED_IN_ERP', {
              name: erpName,
              defaultValue: tc('INVOICE_WAS_NOT_CREATED_IN_ERP', { name: erpName }),
            }),
          })
        : t(`erp.${erp}`);
  return (
    <span className={cx(BADGE, 'max-w-full whitespace-normal break-words', ERP_CLASS[erp])} data-testid="erp-badge">
      {text}
    </span>
  );
}
