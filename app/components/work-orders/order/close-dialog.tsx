import { parseDate } from '@internationalized/date';
import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFetcher, useNavigate } from 'react-router';
import {
  Button,
  ConfirmDialog,
  DatePicker,
  Dialog,
  formatNumber,
  Select,
  TextField,
  useToast,
} from '~/app/components/ui';
import type { ClosePanelData, CopyOption, ProjectExtraStatus } from '~/core/work-orders/close.service';

export type { ClosePanelData };

/** What app/routes/work-orders.$id.close.tsx answers, for every intent. */
export interface CloseActionResult {
  intent: string;
  ok?: boolean;
  code?: string;
  fields?: Record<string, string[]>;
  invoice?: {
    id: string;
    status?: 'draft' | 'finalized';
    invoiceNr?: string | null;
    totalPrice: string;
    totalPriceVat: string;
    vatPercentage: string;
    reverseVat: boolean;
  } | null;
  warnings?: string[];
  workOrderId?: string;
  message?: string;
  recipient?: string;
  projectExtraStatus?: ProjectExtraStatus;
}

const actionOf = (workOrderId: string) => `/work-orders/${encodeURIComponent(workOrderId)}/close`;
const money = (v: string) => formatNumber(Number(v));

/** A native checkbox with its label: keyboard and screen-reader friendly, 40 px tall for thumbs. */
function Check({
  name,
  value = 'true',
  label,
  description,
  checked,
  defaultChecked,
  onChange,
}: {
  name: string;
  value?: string;
  label: string;
  description?: string;
  checked?: boolean;
  defaultChecked?: boolean;
  onChange?: (checked: boolean) => void;
}) {
  return (
    <label className="flex min-h-10 items-start gap-3 py-1 text-sm">
      <input
        type="checkbox"
        name={name}
        value={value}
        checked={checked}
        defaultChecked={defaultChecked}
        onChange={onChange ? (e) => onChange(e.currentTarget.checked) : undefined}
        className="mt-0.5 size-5 shrink-0 accent-blue-700"
      />
      <span>
        <span className="font-medium text-slate-900">{label}</span>
        {description ? <span className="block text-slate-600">{description}</span> : null}
      </span>
    </label>
  );
}

function Notice({ kind, children }: { kind: 'error' | 'warning'; children: string }) {
  return (
    <p
      role={kind === 'error' ? 'alert' : 'status'}
      className={
        kind === 'error'
          ? 'rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-800'
          : 'rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900'
      }
    >
      {children}
    </p>
  );
}

/**
 * Closing a work order (spec sections 4 and 5): a "Close work order" button (only with canClose)
 * opens a dialog with the closing status, and with the invoice-details module the invoice and
 * delivery dates, the invoice fee (toggle and amount, default 40, never below 0; none when the
 * article total is not above 0) and "ignore reverse VAT" for a reverse-VAT customer. It warns when
 * the customer is set not to send invoices to the ERP, and says plainly when the customer number
 * is missing (closing is refused then). After closing, when the broadcast is available, a second
 * step asks whether to send the order-finish e-mail (send or ignore).
 */
export function CloseDialog({ workOrderId, data }: { workOrderId: string; data: ClosePanelData }) {
  const { t } = useTranslation('workorderclose');
  const { t: tc } = useTranslation();
  const toast = useToast();
  const formId = useId();
  const closing = useFetcher<CloseActionResult>();
  const broadcast = useFetcher<CloseActionResult>();
  const [isOpen, setOpen] = useState(false);
  const [step, setStep] = useState<'form' | 'broadcast'>('form');
  const [feeOn, setFeeOn] = useState(data.feeEnabled);
  const [fee, setFee] = useState(data.defaultFee);

  const articlesAboveZero = Number(data.articleTotal) > 0;
  const feeNegative = fee.trim() !== '' && Number(fee.replace(',', '.').replace(/\s/g, '')) < 0;
  const result = closing.data;
  const fieldError = (name: string) =>
    result?.intent === 'close' ? result.fields?.[name]?.map((k) => tc(k)) : undefined;
  // nothing billable (no time, no articles): a fee alone is never invoiced, so the dialog asks to close without one
  const nothingToInvoice = result?.intent === 'close' && result.code === 'WORK_ORDER_NOTHING_TO_INVOICE';
  const generalError =
    result?.intent === 'close' && result.code && !result.fields && !nothingToInvoice ? tc(result.code) : null;

  useEffect(() => {
    if (result?.intent !== 'close' || !result.ok) return;
    for (const w of result.warnings ?? []) toast.show({ kind: 'warning', message: tc(w) });
    toast.show({ kind: 'success', message: t('close.done') });
    if (data.broadcastAvailable) setStep('broadcast');
    else setOpen(false);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [result]);

  useEffect(() => {
    const r = broadcast.data;
    if (!r) return;
    if (r.ok) {
      if (r.recipient) toast.show({ kind: 'success', message: tc('EMAIL_SENT_TO', { recipient: r.recipient }) });
      setOpen(false);
    } else if (r.code) toast.show({ kind: 'error', message: tc(r.code) });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [broadcast.data]);

  // after closing, the order screen reloads (canClose turns false) while the broadcast step is still open
  if (!data.canClose && !isOpen) return null;
  const busy = closing.state !== 'idle' || broadcast.state !== 'idle';

  return (
    <>
      {data.canClose ? (
        <Button
          variant="primary"
          onPress={() => {
            setStep('form');
            setOpen(true);
          }}
        >
          {t('close.button')}
        </Button>
      ) : null}
      <Dialog
        title={step === 'form' ? t('close.title') : t('broadcast.title')}
        isOpen={isOpen}
        onOpenChange={setOpen}
        isDismissable={!busy}
        isKeyboardDismissDisabled={busy}
      >
        {step === 'broadcast' ? (
          <div className="grid gap-4">
            {result?.invoice ? <InvoiceLine invoice={result.invoice} /> : null}
            <p>{t('broadcast.question', { email: data.broadcastEmail ?? '' })}</p>
            <broadcast.Form
              method="post"
              action={actionOf(workOrderId)}
              className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end"
            >
              <input type="hidden" name="intent" value="broadcast" />
              <Button type="submit" name="status" value="ignore" variant="secondary" isDisabled={busy}>
                {t('broadcast.ignore')}
              </Button>
              <Button type="submit" name="status" value="send" variant="primary" isPending={busy} autoFocus>
                {t('broadcast.send')}
              </Button>
            </broadcast.Form>
          </div>
        ) : (
          <closing.Form method="post" action={actionOf(workOrderId)} id={formId} className="grid gap-4" noValidate>
            <input type="hidden" name="intent" value="close" />
            {data.customerNumberMissing ? (
              <Notice kind="error">{tc('CANNOT_CLOSE_WORK_ORDER_CUSTOMER_NUMBER_MISSING')}</Notice>
            ) : null}
            {!data.sendToErp ? <Notice kind="warning">{tc('CUSTOMER_SET_NOT_TO_SEND_TO_ERP')}</Notice> : null}
            {data.signature === 'unsigned' ? <Notice kind="warning">{t('close.notSigned')}</Notice> : null}
            {generalError ? <Notice kind="error">{generalError}</Notice> : null}
            {nothingToInvoice ? (
              <>
                <Notice kind="warning">{t('close.nothingToInvoice')}</Notice>
                <input type="hidden" name="withoutInvoice" value="true" />
              </>
            ) : null}
            {data.closingStatuses.length > 1 ? (
              <Select
                name="statusId"
                label={t('close.status')}
                items={data.closingStatuses.map((s) => ({ id: s.id, label: s.name }))}
                defaultSelectedKey={data.closingStatuses[0]?.id}
                errorMessage={fieldError('statusId')}
              />
            ) : null}
            {data.invoiceDetails ? (
              <>
                <div className="grid gap-4 sm:grid-cols-2">
                  <DatePicker
                    name="invoiceDate"
                    label={t('close.invoiceDate')}
                    defaultValue={parseDate(data.invoiceDate)}
                    errorMessage={fieldError('invoiceDate')}
                    isRequired
                  />
                  <DatePicker
                    name="deliveryDate"
                    label={t('close.deliveryDate')}
                    defaultValue={parseDate(data.deliveryDate)}
                    errorMessage={fieldError('deliveryDate')}
                    isRequired
                  />
                </div>
                <p className="text-sm text-slate-700">
                  {t('close.articleTotal', { amount: money(data.articleTotal) })}
                </p>
                {data.feeEnabled ? (
                  articlesAboveZero ? (
                    <div className="grid gap-2 sm:grid-cols-2 sm:items-end">
                      <Check name="feeOn" label={t('close.fee')} checked={feeOn} onChange={setFeeOn} />
                      {feeOn ? (
                        <TextField
                          name="invoiceFee"
                          label={t('close.feeAmount')}
                          inputMode="decimal"
                          value={fee}
                          onChange={setFee}
                          errorMessage={feeNegative ? tc('ERROR_NEGATIVE_AMOUNT') : fieldError('invoiceFee')}
                        />
                      ) : null}
                    </div>
                  ) : (
                    <p className="text-sm text-slate-600">{t('close.feeNoArticles')}</p>
                  )
                ) : null}
              </>
            ) : null}
            {data.reverseVat ? (
              <Check
                name="ignoreReverseVAT"
                label={t('close.ignoreReverseVat')}
                description={t('close.ignoreReverseVatHelp')}
                defaultChecked={false}
              />
            ) : null}
            <div className="flex flex-col-reverse gap-2 border-t border-slate-200 pt-4 sm:flex-row sm:justify-end">
              <Button variant="secondary" onPress={() => setOpen(false)} isDisabled={busy}>
                {t('close.cancel')}
              </Button>
              <Button
                type="submit"
                variant="primary"
                isPending={closing.state !== 'idle'}
                isDisabled={data.customerNumberMissing || feeNegative}
                autoFocus={nothingToInvoice}
              >
                {nothingToInvoice ? t('close.submitWithoutInvoice') : t('close.submit')}
              </Button>
            </div>
          </closing.Form>
        )}
      </Dialog>
    </>
  );
}

/** What the close made: a draft, or (when the tenant does not review first) the final invoice and its number. */
function InvoiceLine({ invoice }: { invoice: NonNullable<CloseActionResult['invoice']> }) {
  const { t } = useTranslation('workorderclose');
  return (
    <p className="text-sm text-slate-700">
      {invoice.status === 'finalized'
        ? invoice.reverseVat
          ? t('close.invoiceFinalReverse', { number: invoice.invoiceNr ?? '', total: money(invoice.totalPriceVat) })
          : t('close.invoiceFinal', {
              number: invoice.invoiceNr ?? '',
              total: money(invoice.totalPriceVat),
              vat: formatNumber(Number(invoice.vatPercentage)),
            })
        : invoice.reverseVat
          ? t('close.invoiceReverse', { total: money(invoice.totalPriceVat) })
          : t('close.invoice', { total: money(invoice.totalPriceVat), vat: formatNumber(Number(invoice.vatPercentage)) })}
    </p>
  );
}

/**
 * Reopens a closed order (only with canReopen), after asking: the draft invoice is deleted, an
 * invoice already in the ERP is kept (spec section 4).
 */
export function ReopenButton({ workOrderId, data }: { workOrderId: string; data: ClosePanelData }) {
  const { t } = useTranslation('workorderclose');
  const { t: tc } = useTranslation();
  const toast = useToast();
  const fetcher = useFetcher<CloseActionResult>();
  const [isOpen, setOpen] = useState(false);
  useEffect(() => {
    const r = fetcher.data;
    if (r?.ok) toast.show({ kind: 'success', message: t('reopen.done') });
    else if (r?.code) toast.show({ kind: 'error', message: tc(r.code) });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [fetcher.data]);
  if (!data.canReopen) return null;
  return (
    <>
      <Button variant="secondary" onPress={() => setOpen(true)}>
        {t('reopen.button')}
      </Button>
      <ConfirmDialog
        title={t('reopen.title')}
        message={
          data.signature === 'signed' ? `${t('reopen.message')} ${t('reopen.signatureCleared')}` : t('reopen.message')
        }
        confirmLabel={t('reopen.button')}
        isOpen={isOpen}
        onOpenChange={setOpen}
        isPending={fetcher.state !== 'idle'}
        onConfirm={() => fetcher.submit({ intent: 'reopen' }, { method: 'post', action: actionOf(workOrderId) })}
      />
    </>
  );
}

const COPY_CHOICES: { option: CopyOption; defaultChecked: boolean }[] = [
  { option: 'scheduleReports', defaultChecked: true },
  { option: 'description', defaultChecked: true },
  { option: 'summary', defaultChecked: false },
  { option: 'articles', defaultChecked: false },
  { option: 'files', defaultChecked: false },
];

/**
 * Copies the order as a revisit (only with canCopy): the five options of the spec as checkboxes;
 * on success the new order opens, with WORK_ORDER_REVISIT_SUCCESSFULLY_CREATED.
 */
export function CopyDialog({ workOrderId, data }: { workOrderId: string; data: ClosePanelData }) {
  const { t } = useTranslation('workorderclose');
  const { t: tc } = useTranslation();
  const toast = useToast();
  const navigate = useNavigate();
  const fetcher = useFetcher<CloseActionResult>();
  const [isOpen, setOpen] = useState(false);
  useEffect(() => {
    const r = fetcher.data;
    if (r?.ok && r.workOrderId) {
      toast.show({ kind: 'success', message: tc(r.message ?? 'WORK_ORDER_REVISIT_SUCCESSFULLY_CREATED') });
      setOpen(false);
      void navigate(`/work-orders/${encodeURIComponent(r.workOrderId)}`);
    } else if (r?.code) toast.show({ kind: 'error', message: tc(r.code) });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [fetcher.data]);
  if (!data.canCopy) return null;
  const pending = fetcher.state !== 'idle';
  return (
    <>
      <Button variant="secondary" onPress={() => setOpen(true)}>
        {t('copy.button')}
      </Button>
      <Dialog title={t('copy.title')} isOpen={isOpen} onOpenChange={setOpen} isDismissable={!pending}>
        <fetcher.Form method="post" action={actionOf(workOrderId)} className="grid gap-3">
          <input type="hidden" name="intent" value="copy" />
          <p className="text-sm text-slate-700">{t('copy.intro')}</p>
          <fieldset className="grid gap-1">
            <legend className="sr-only">{t('copy.title')}</legend>
            {COPY_CHOICES.map(({ option, defaultChecked }) => (
              <Check
                key={option}
                name="options"
                value={option}
                label={t(`copy.option.${option}`)}
                description={option === 'files' ? t('copy.filesNote') : undefined}
                defaultChecked={defaultChecked}
              />
            ))}
          </fieldset>
          <div className="flex flex-col-reverse gap-2 border-t border-slate-200 pt-4 sm:flex-row sm:justify-end">
            <Button variant="secondary" onPress={() => setOpen(false)} isDisabled={pending}>
              {t('close.cancel')}
            </Button>
            <Button type="submit" variant="primary" isPending={pending}>
              {t('copy.submit')}
            </Button>
          </div>
        </fetcher.Form>
      </Dialog>
    </>
  );
}

/**
 * The ATA (project extra work) status of a project's order: mark it as extra work (pending) with
 * workorders:create_project_extra_work, accept or decline it with
 * workorders:accept_project_extra_work. Nothing for an order outside a project.
 */
export function ProjectExtraControl({ workOrderId, data }: { workOrderId: string; data: ClosePanelData }) {
  const { t } = useTranslation('workorderclose');
  const { t: tc } = useTranslation();
  const toast = useToast();
  const fetcher = useFetcher<CloseActionResult>();
  useEffect(() => {
    const r = fetcher.data;
    if (r?.ok) toast.show({ kind: 'success', message: tc('SUCCESSFULLY_SAVED') });
    else if (r?.code) toast.show({ kind: 'error', message: tc(r.code) });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [fetcher.data]);
  const extra = data.projectExtra;
  if (!extra.inProject) return null;
  const status = fetcher.data?.ok ? (fetcher.data.projectExtraStatus ?? extra.status) : extra.status;
  const pendingStatus = fetcher.state !== 'idle' ? fetcher.formData?.get('status') : null;
  const label = (s: ProjectExtraStatus | null) =>
    s === 'pending'
      ? t('ata.pending')
      : s === 'accepted'
        ? t('ata.accepted')
        : s === 'declined'
          ? t('ata.declined')
          : t('ata.none');
  return (
    <section aria-labelledby={`ata-${workOrderId}`} className="grid gap-2">
      <h3 id={`ata-${workOrderId}`} className="text-base font-semibold text-slate-900">
        {t('ata.title')}
      </h3>
      <p className="text-sm text-slate-700" data-testid="ata-status">
        {t('ata.status', { status: label(status) })}
      </p>
      <fetcher.Form method="post" action={actionOf(workOrderId)} className="flex flex-wrap gap-2">
        <input type="hidden" name="intent" value="projectExtra" />
        {status === null && extra.canCreate ? (
          <Button
            type="submit"
            name="status"
            value="pending"
            variant="secondary"
            isPending={pendingStatus === 'pending'}
          >
            {t('ata.mark')}
          </Button>
        ) : null}
        {status !== null && extra.canAccept ? (
          <>
            <Button
              type="submit"
              name="status"
              value="accepted"
              variant="primary"
              isDisabled={status === 'accepted'}
              isPending={pendingStatus === 'accepted'}
            >
              {t('ata.accept')}
            </Button>
            <Button
              type="submit"
              name="status"
              value="declined"
              variant="danger"
              isDisabled={status === 'declined'}
              isPending={pendingStatus === 'declined'}
            >
              {t('ata.decline')}
            </Button>
          </>
        ) : null}
      </fetcher.Form>
    </section>
  );
}
