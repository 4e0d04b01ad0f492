import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, ConfirmDialog, Dialog, formatDateTime, TextField, useTenantClock } from '~/app/components/ui';
import type { InvoiceView } from '~/core/invoicing/invoice.service';
import { ErpBadge } from './invoice-badges';
import type { ErpStatus } from './invoice-format';

/**
 * The invoice's ERP side: its state, the ERP's number once delivered, and the delivery's last
 * error with what the vendor said; a failed delivery has a Retry button (POST /invoice/apply, type
 * erp, queues it again). One stopped for checking shows the vendor's reference to look for, and the
 * office's two answers once it has looked (POST /invoice/erp/check): "Booked in the ERP" with the
 * number found there (the delivery is done, never sent again), or "Send again" after a confirmation.
 * While it waits the screen reloads it by itself.
 */
export function ErpPanel({
  invoice,
  erp,
  canRetry,
  isRetrying,
  onRetry,
  settling = null,
  onSettle,
}: {
  invoice: InvoiceView;
  erp: ErpStatus;
  canRetry: boolean;
  isRetrying: boolean;
  onRetry: () => void;
  /** Which answer to a needs-checking stop is under way. */
  settling?: 'booked' | 'sendAgain' | null;
  onSettle?: (answer: { booked: string } | { sendAgain: true }) => void;
}) {
  const { t } = useTranslation('invoices');
  const { t: tc } = useTranslation();
  const clock = useTenantClock();
  const id = useId();
  const d = invoice.delivery;
  const name = invoice.erpName;
  const number = invoice.externalInvoiceNr ?? d?.externalInvoiceNr ?? null;
  const checking = d?.status === 'needs_checking';
  const [bookedOpen, setBookedOpen] = useState(false);
  const [sendOpen, setSendOpen] = useState(false);
  const [bookedNr, setBookedNr] = useState('');
  const errorMessage = d?.errorCode
    ? tc(d.errorCode, { name, defaultValue: tc('INVOICE_WAS_NOT_CREATED_IN_ERP', { name }) })
    : null;
  return (
    <section
      aria-labelledby={id}
      className="space-y-3 rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6"
      data-testid="erp-panel"
    >
      <h2 id={id} className="text-base font-semibold">
        {t('section.erp', { erp: name })}
      </h2>
      <dl className="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-[max-content_1fr]">
        <dt className="text-slate-600">{t('erp.state')}</dt>
        <dd aria-live="polite">
          <ErpBadge
            erp={erp}
            externalInvoiceNr={number}
            errorCode={erp === 'failed' ? (d?.errorCode ?? null) : null}
            erpName={name}
          />
        </dd>
        {number ? (
          <>
            <dt className="text-slate-600">{t('erp.number', { erp: name })}</dt>
            <dd className="font-medium tabular-nums" data-testid="erp-number">
              {number}
            </dd>
          </>
        ) : null}
        {d?.status === 'needs_checking' && d.externalId ? (
          <>
            <dt className="text-slate-600">{t('erp.reference', { erp: name })}</dt>
            <dd className="font-mono text-xs break-all" data-testid="erp-reference">
              {d.externalId}
            </dd>
          </>
        ) : null}
        {erp !== 'delivered' && d && d.attempts > 0 ? (
          <>
            <dt className="text-slate-600">{t('erp.attempts')}</dt>
            <dd className="tabular-nums">{d.attempts}</dd>
          </>
        ) : null}
        {erp === 'queued' && d?.nextAttemptAt && d.attempts > 0 ? (
          <>
            <dt className="text-slate-600">{t('erp.nextAttempt')}</dt>
            <dd>{formatDateTime(d.nextAttemptAt, clock)}</dd>
          </>
        ) : null}
      </dl>
      {erp === 'none' && invoice.erpState === 'not_sent.zero_price' ? (
        <p className="text-sm text-slate-700">{t('erp.zeroPrice')}</p>
      ) : null}
      {erp === 'queued' ? <p className="text-sm text-slate-700">{t('erp.queuedHelp', { erp: name })}</p> : null}
      {erp !== 'delivered' && errorMessage ? (
        <div
          role={erp === 'failed' ? 'alert' : undefined}
          className="space-y-1 rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-900"
          data-testid="erp-error"
        >
          <p className="font-medium">{t('erp.lastError', { message: errorMessage })}</p>
          {d?.errorText ? (
            <p className="break-words">
              {t('erp.vendorText', { erp: name })}: <span className="font-mono text-xs">{d.errorText}</span>
            </p>
          ) : null}
        </div>
      ) : null}
      {erp === 'failed' && canRetry && !checking ? (
        <Button variant="primary" onPress={onRetry} isPending={isRetrying}>
          {t('erp.retry')}
        </Button>
      ) : null}
      {checking && canRetry && onSettle ? (
        <div className="space-y-2" data-testid="erp-check">
          <p className="text-sm text-slate-700">{t('erp.check.help', { erp: name })}</p>
          <div className="flex flex-wrap gap-2">
            <Button variant="primary" onPress={() => setBookedOpen(true)} isPending={settling === 'booked'}>
              {t('erp.check.booked', { erp: name })}
            </Button>
            <Button variant="secondary" onPress={() => setSendOpen(true)} isPending={settling === 'sendAgain'}>
              {t('erp.check.sendAgain')}
            </Button>
          </div>
          <Dialog
            title={t('erp.check.bookedTitle', { erp: name })}
            isOpen={bookedOpen}
            onOpenChange={setBookedOpen}
            footer={({ close }) => (
              <>
                <Button variant="secondary" onPress={close}>
                  {t('erp.check.cancel')}
                </Button>
                <Button
                  variant="primary"
                  isDisabled={!bookedNr.trim()}
                  onPress={() => {
                    onSettle({ booked: bookedNr.trim() });
                    close();
                  }}
                >
                  {t('erp.check.save')}
                </Button>
              </>
            )}
          >
            <p className="mb-3 text-sm">{t('erp.check.bookedMessage', { erp: name })}</p>
            <TextField
              label={t('erp.check.number', { erp: name })}
              value={bookedNr}
              onChange={setBookedNr}
              isRequired
              autoFocus
            />
          </Dialog>
          <ConfirmDialog
            isOpen={sendOpen}
            onOpenChange={setSendOpen}
            title={t('erp.check.sendTitle', { erp: name })}
            message={t('erp.check.sendMessage', { erp: name })}
            confirmLabel={t('erp.check.sendAgain')}
            onConfirm={() => onSettle({ sendAgain: true })}
          />
        </div>
      ) : null}
    </section>
  );
}
