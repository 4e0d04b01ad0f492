import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Form, Link, useFetcher, useRevalidator, useSearchParams } from 'react-router';
import { EmailDocumentDialog } from '~/app/components/documents/email-document-dialog';
import { Button, buttonClass, ConfirmDialog, formatDate, useTenantClock, useToast } from '~/app/components/ui';
import { useFetcherResult } from '~/app/lib/use-fetcher-result';
import type { InvoiceView } from '~/core/invoicing/invoice.service';
import { ErpPanel } from './erp-panel';
import { InvoiceStatusBadge } from './invoice-badges';
import type { toPayload } from './invoice-draft';
import { InvoiceEditor } from './invoice-editor';
import { InvoiceFigures } from './invoice-figures';
import { erpStatusOf, invoiceHref, sourceHref } from './invoice-format';
import { InvoiceHistoryButton } from './invoice-history';
import { InvoiceRows } from './invoice-rows';

/** What app/routes/invoices.$id.tsx answers, for every intent. */
export type InvoiceActionResult =
  | { ok: true; intent: 'save' | 'finalize' | 'erp' | 'erpBooked' | 'erpSendAgain'; invoiceNr: string | null }
  | { ok?: undefined; intent: string; code: string; fields?: Record<string, string[]> };

/** How often the screen reloads while its ERP delivery waits or is under way. */
export const ERP_POLL_MS = 4_000;

function Facts({ items }: { items: [string, ReactNode][] }) {
  return (
    <dl className="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-2 lg:grid-cols-3">
      {items.map(([label, value]) => (
        <div key={label} className="min-w-0">
          <dt className="text-slate-600">{label}</dt>
          <dd className="font-medium break-words">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/**
 * The invoice screen (issue 14 item 2): its number or "Draft", status, customer, order, dates, OCR
 * and references; the rows and the amounts; the ERP side; the apply actions the invoice offers
 * (`applyTypes`: PDF, e-mail, the ERP's file, sending to the ERP) and its history. A draft the
 * viewer may edit is edited here (InvoiceEditor) and finalized. The actions post JSON to the
 * route (`intent`: save, finalize, erp, erpBooked, erpSendAgain); documents go through
 * /invoices/{id}/document.
 */
export function InvoiceScreen({ invoice }: { invoice: InvoiceView }) {
  const { t } = useTranslation('invoices');
  const { t: tc } = useTranslation();
  const toast = useToast();
  const { dateFormat } = useTenantClock();
  const actor = useFetcher<InvoiceActionResult>();
  const revalidator = useRevalidator();
  const latestRevalidator = useRef(revalidator);
  latestRevalidator.current = revalidator;
  const [search, setSearch] = useSearchParams();
  const [dirty, setDirty] = useState(false);
  const [conflict, setConflict] = useState(false);
  const [confirm, setConfirm] = useState<'finalize' | 'erp' | null>(null);
  const [emailOpen, setEmailOpen] = useState(false);
  const [emailRound, setEmailRound] = useState(0);
  const headingId = useId();
  const erp = erpStatusOf(invoice);
  const erpName = invoice.erpName;
  const documentPath = `${invoiceHref(invoice.id)}/document`;
  const busy = actor.state !== 'idle';
  const pendingIntent = busy ? (actor.json as { intent?: string } | undefined)?.intent : undefined;

  const result = useFetcherResult(actor, (r) => {
    if (r.ok) {
      setConflict(false);
      if (r.intent === 'save') toast.show({ kind: 'success', message: tc('SUCCESSFULLY_SAVED') });
      else if (r.intent === 'finalize')
        toast.show({ kind: 'success', message: t('toast.finalized', { number: r.invoiceNr ?? '' }) });
      else if (r.intent === 'erpBooked') toast.show({ kind: 'success', message: t('toast.booked', { erp: erpName }) });
      else toast.show({ kind: 'success', message: t('toast.queued', { erp: erpName }) });
    } else if (r.code === 'INVOICE_CHANGED') setConflict(true);
    else toast.show({ kind: 'error', message: tc(r.fields ? 'VALIDATION_FAILED' : r.code, { name: erpName }) });
  });
  const fields = result && !result.ok ? result.fields : undefined;

  // a refused file download comes back here with its reason (the document route's redirect)
  useEffect(() => {
    const notice = search.get('notice');
    if (!notice) return;
    toast.show({ kind: 'error', message: tc(notice, { name: erpName }) });
    const next = new URLSearchParams(search);
    next.delete('notice');
    setSearch(next, { replace: true, preventScrollReset: true });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [search]);

  // while the ERP delivery waits or is under way, reload every few seconds to show how it went
  useEffect(() => {
    if (erp !== 'queued') return;
    const timer = setInterval(() => {
      const r = latestRevalidator.current;
      if (r.state === 'idle' && document.visibilityState !== 'hidden') void r.revalidate();
    }, ERP_POLL_MS);
    return () => clearInterval(timer);
  }, [erp]);
  const previousErp = useRef(erp);
  useEffect(() => {
    if (previousErp.current === 'queued' && erp === 'delivered')
      toast.show({ kind: 'success', message: t('toast.delivered', { erp: erpName }) });
    if (previousErp.current === 'queued' && erp === 'failed')
      toast.show({ kind: 'error', message: t('toast.failed', { erp: erpName }) });
    previousErp.current = erp;
  }, [erp, erpName, t, toast]);

  const post = (body: Record<string, unknown>) =>
    actor.submit(body as never, { method: 'post', action: invoiceHref(invoice.id), encType: 'application/json' });
  const save = (payload: ReturnType<typeof toPayload>) =>
    post({ intent: 'save', version: invoice.version, invoice: payload });

  const offers = (type: InvoiceView['applyTypes'][number]) => invoice.applyTypes.includes(type);
  const editing = invoice.canEdit;
  const source = sourceHref(invoice.source);
  const sourceText =
    invoice.source.type === 'workOrder'
      ? t('source.workOrder', { number: invoice.source.number ?? '' })
      : invoice.source.type === 'salesOrder'
        ? t('source.salesOrder', { number: invoice.source.number ?? '' })
        : invoice.source.type === 'project'
          ? t('source.project', { number: invoice.source.number ?? '' })
          : null;
  const date = (v: string | null) => (v ? formatDate(v, dateFormat) : '—');
  const customer = [invoice.customer.customerId, invoice.customer.name].filter(Boolean).join(' · ') || '—';
  const facts: [string, ReactNode][] = [
    [t('field.customer'), customer],
    [
      t('field.source'),
      sourceText ? (
        source ? (
          <Link to={source} className="text-blue-800 underline">
            {sourceText}
            {invoice.source.title ? ` – ${invoice.source.title}` : ''}
          </Link>
        ) : (
          sourceText
        )
      ) : (
        '—'
      ),
    ],
  ];
  if (!editing)
    facts.push(
      [t('field.invoiceDate'), date(invoice.invoiceDate)],
      [t('field.deliveryDate'), date(invoice.deliveryDate)],
      [t('field.dueDate'), date(invoice.paymentDueDate)],
      [t('field.paymentTermDays'), String(invoice.paymentTermDays)],
      [t('field.ocr'), invoice.ocr ?? '—'],
      [t('field.ourReference'), invoice.ourReference ?? '—'],
      [t('field.yourReference'), invoice.yourReference ?? '—'],
      [t('field.customerOrderNumber'), invoice.customerOrderNumber ?? '—'],
      [t('field.marking'), invoice.marking ?? '—'],
    );
  if (!editing && invoice.bgAccount) facts.push([t('field.bgAccount'), invoice.bgAccount]);
  if (!editing && invoice.bankAccount) facts.push([t('field.bankAccount'), invoice.bankAccount]);
  if (!editing && invoice.taxReduction.kind !== 'none') {
    facts.push([t('tax.kind'), t(`taxKind.${invoice.taxReduction.kind}`)]);
    if (invoice.taxReduction.propertyDesignation)
      facts.push([t('tax.propertyDesignation'), invoice.taxReduction.propertyDesignation]);
    if (invoice.taxReduction.housingOrgNr) facts.push([t('tax.housingOrgNr'), invoice.taxReduction.housingOrgNr]);
    if (invoice.taxReduction.persons.length)
      facts.push([t('tax.persons'), invoice.taxReduction.persons.map((p) => p.personId).join(', ')]);
  }
  const showErp = offers('erp') || erp !== 'none' || invoice.erpState !== null;
  const mayEmail = offers('email') && invoice.canApply;
  const mayFile = offers('visma-xml') && (invoice.canApply || invoice.status === 'finalized');
  // a download of what is final: nothing changes, so a reader may take it too
  const mayPeppol = offers('peppol') && invoice.status === 'finalized';
  const maySend = offers('erp') && invoice.canApply && erp === 'none' && invoice.status !== 'void';

  return (
    <article className="space-y-4" aria-labelledby={headingId}>
      <header className="space-y-3 rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6">
        <p className="text-sm">
          <Link to="/invoices" className="text-blue-800 underline">
            {t('title')}
          </Link>
        </p>
        <div className="flex flex-wrap items-center gap-3">
          <h1 id={headingId} className="text-2xl font-semibold">
            {invoice.invoiceNr ? t('screen.title', { number: invoice.invoiceNr }) : t('screen.draftTitle')}
          </h1>
          <InvoiceStatusBadge status={invoice.status} />
        </div>
        {invoice.unlinked ? <p className="text-sm text-amber-900">{t('source.unlinked')}</p> : null}
        <div
          className="flex flex-wrap gap-2"
          role="group"
          aria-label={t('section.actions')}
          data-testid="apply-actions"
        >
          {offers('pdf') ? (
            <a
              href={`${documentPath}?format=pdf`}
              download
              className={buttonClass({ variant: 'secondary', className: 'no-underline' })}
              data-apply="pdf"
            >
              {t('action.pdf')}
            </a>
          ) : null}
          {mayEmail ? (
            <Button
              variant="secondary"
              isDisabled={dirty}
              data-apply="email"
              onPress={() => {
                setEmailRound((n) => n + 1);
                setEmailOpen(true);
              }}
            >
              {t('action.email')}
            </Button>
          ) : null}
          {mayFile ? (
            <Form
              method="post"
              action={documentPath}
              reloadDocument
              onSubmit={() => {
                // the download leaves the page as it is; a draft was finalized by it
                setTimeout(() => void latestRevalidator.current.revalidate(), 2_000);
              }}
            >
              <input type="hidden" name="type" value="visma-xml" />
              <Button type="submit" variant="secondary" isDisabled={dirty} data-apply="visma-xml">
                {t('action.vismaXml')}
              </Button>
            </Form>
          ) : null}
          {mayPeppol ? (
            <Form method="post" action={documentPath} reloadDocument>
              <input type="hidden" name="type" value="peppol" />
              <Button type="submit" variant="secondary" data-apply="peppol">
                {t('action.peppol')}
              </Button>
            </Form>
          ) : null}
          {maySend ? (
            <Button
              variant="primary"
              isDisabled={dirty || busy}
              isPending={pendingIntent === 'erp'}
              data-apply="erp"
              onPress={() => setConfirm('erp')}
            >
              {t('action.erp', { erp: erpName })}
            </Button>
          ) : null}
          <InvoiceHistoryButton invoiceId={invoice.id} erpName={erpName} />
        </div>
        {dirty && (mayEmail || mayFile || maySend) ? (
          <p className="text-sm text-slate-700">{t('action.saveFirst')}</p>
        ) : null}
      </header>

      {conflict ? (
        <div
          role="alert"
          className="flex flex-wrap items-center gap-3 rounded-md bg-amber-50 p-3 text-amber-900 ring-1 ring-amber-300"
        >
          <span>{tc('INVOICE_CHANGED')}</span>
          <Button size="sm" onPress={() => void revalidator.revalidate()}>
            {t('action.reload')}
          </Button>
        </div>
      ) : null}

      <section
        aria-label={t('section.summary')}
        className="rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6"
        data-testid="invoice-facts"
      >
        <Facts items={facts} />
        {!editing && invoice.description ? (
          <p className="mt-3 text-sm whitespace-pre-line">{invoice.description}</p>
        ) : null}
      </section>

      {showErp ? (
        <ErpPanel
          invoice={invoice}
          erp={erp}
          canRetry={invoice.canApply && offers('erp')}
          isRetrying={pendingIntent === 'erp'}
          onRetry={() => post({ intent: 'erp' })}
          settling={
            pendingIntent === 'erpBooked' ? 'booked' : pendingIntent === 'erpSendAgain' ? 'sendAgain' : null
          }
          onSettle={(answer) =>
            post(
              'booked' in answer
                ? { intent: 'erpBooked', externalInvoiceNr: answer.booked }
                : { intent: 'erpSendAgain' },
            )
          }
        />
      ) : null}

      {editing ? (
        <InvoiceEditor
          key={`${invoice.id}:${invoice.version}`}
          invoice={invoice}
          fields={fields}
          busy={busy}
          onSave={save}
          onFinalize={() => setConfirm('finalize')}
          onDirtyChange={setDirty}
        />
      ) : (
        <>
          <InvoiceRows rows={invoice.articles} reverseVat={invoice.reverseVat} />
          <InvoiceFigures figures={invoice.figures} reverseVat={invoice.reverseVat} currency={invoice.currency} />
          {invoice.footerText ? (
            <p className="rounded-xl bg-white p-4 text-sm whitespace-pre-line shadow-sm ring-1 ring-slate-200 sm:p-6">
              {invoice.footerText}
            </p>
          ) : null}
        </>
      )}

      {mayEmail ? (
        <EmailDocumentDialog
          key={emailRound}
          action={documentPath}
          templateId="default"
          defaultEmail={invoice.customer.invoiceEmail}
          isOpen={emailOpen}
          onOpenChange={setEmailOpen}
          text={{
            title: t('email.title'),
            intro:
              invoice.status === 'draft'
                ? t('email.introDraft')
                : t('email.intro', { number: invoice.invoiceNr ?? '' }),
            recipient: t('email.recipient'),
            cancel: t('email.cancel'),
            send: t('email.send'),
          }}
        />
      ) : null}
      <ConfirmDialog
        isOpen={confirm !== null}
        onOpenChange={(open) => !open && setConfirm(null)}
        title={confirm === 'erp' ? t('confirm.erp.title', { erp: erpName }) : t('confirm.finalize.title')}
        message={
          confirm === 'erp'
            ? invoice.status === 'draft'
              ? t('confirm.erp.messageDraft', { erp: erpName })
              : t('confirm.erp.message', { erp: erpName })
            : t('confirm.finalize.message')
        }
        confirmLabel={confirm === 'erp' ? t('confirm.erp.action') : t('confirm.finalize.action')}
        onConfirm={() => {
          if (confirm) void post({ intent: confirm });
          setConfirm(null);
        }}
      />
    </article>
  );
}
