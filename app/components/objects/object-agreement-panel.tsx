import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useFetcher } from 'react-router';
import { useAgreementWords } from '~/app/components/agreements/agreement-words';
import { Button, ConfirmDialog, Spinner, useToast } from '~/app/components/ui';
import { useFetcherResult } from '~/app/lib/use-fetcher-result';
import type {
  AgreementActionResult,
  AgreementLoaderResult,
  AgreementPanelData,
} from '~/app/routes/inventory.objects.$id.agreement';
import type { ObjectAgreement } from '~/core/agreements/object-agreement.service';
import { AgreementForm, type AgreementObject } from './object-agreement-form';
import { AgreementInvoices } from './object-agreement-invoices';
import { AgreementRows } from './object-agreement-rows';
import { agreementUrl, Notice, useAgreementDates } from './object-agreement-shared';

export type { AgreementObject };

/**
 * The object page's Agreement tab (issue 16 item 2): the service agreement on the object — which
 * type, from and to when, the price, whom the invoice goes to — the next work order and invoice
 * it makes, the rows they carry, one year of its invoices, making the next work order now and
 * taking the agreement off. It loads its own data when the tab opens, so the object page's loader
 * does not change.
 */
export function ObjectAgreementPanel({ object }: { object: AgreementObject }) {
  const { t } = useTranslation('objectagreement');
  const { t: tc } = useTranslation();
  const loader = useFetcher<AgreementLoaderResult>();
  const url = agreementUrl(object.id);
  const reload = () => void loader.load(url);
  useEffect(() => {
    void loader.load(url);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [url]);
  const answer = loader.data;
  if (answer && 'data' in answer) return <AgreementPanelContent object={object} data={answer.data} onReload={reload} />;
  return answer && 'error' in answer && loader.state === 'idle' ? (
    <p className="flex flex-wrap items-center gap-2 text-sm text-red-700">
      {tc(answer.error)}
      <Button size="sm" variant="secondary" onPress={reload}>
        {t('retry')}
      </Button>
    </p>
  ) : (
    <Spinner label={t('loading')} />
  );
}

export interface AgreementPanelContentProps {
  object: AgreementObject;
  data: AgreementPanelData;
  onReload: () => void;
}

/**
 * The tab on data already loaded (server-rendered alone in tests). The form and the removal keep
 * their place whether or not there is an agreement, so their answers (and toasts) survive the
 * reload that follows a save.
 */
export function AgreementPanelContent({ object, data, onReload }: AgreementPanelContentProps) {
  const { t } = useTranslation('objectagreement');
  const { t: tc } = useTranslation();
  const toast = useToast();
  const { agreement, flags } = data;
  const remover = useFetcher<AgreementActionResult>();
  const [hasInvoices, setHasInvoices] = useState(false);
  useFetcherResult(remover, (r) => {
    if (r.ok) toast.show({ kind: 'success', message: t('removed') });
    else if (r.code === 'AGREEMENT_HAS_INVOICES') setHasInvoices(true);
    else toast.show({ kind: 'error', message: tc(r.code) });
  });
  return (
    <div className="grid gap-6" data-testid="object-agreement">
      {agreement ? (
        <AgreementFacts agreement={agreement} />
      ) : (
        <div className="rounded-lg border border-dashed border-slate-300 p-4">
          <h2 className="text-lg font-medium">{t('empty.title')}</h2>
          <p className="mt-1 text-sm text-slate-700">{t('empty.text')}</p>
          {!flags.canEdit ? <p className="mt-2 text-sm text-slate-600">{t('empty.readOnly')}</p> : null}
        </div>
      )}
      {agreement?.warnings.length ? <AgreementWarnings agreement={agreement} /> : null}
      {agreement && flags.canEdit && flags.canCreateWorkOrder && agreement.agreement.woInterval ? (
        <ScheduleWorkOrder boId={object.id} />
      ) : null}
      {agreement || flags.canEdit ? (
        <section
          className={agreement ? 'grid gap-3 border-t border-slate-200 pt-4' : 'grid gap-3'}
          aria-labelledby={agreement ? 'agreement-form-heading' : undefined}
        >
          {agreement ? (
            <h2 id="agreement-form-heading" className="text-base font-semibold">
              {t('section.agreement')}
            </h2>
          ) : null}
          <AgreementForm
            object={object}
            agreement={agreement}
            addresses={data.addresses}
            invoiceCustomer={data.invoiceCustomer}
            canEdit={flags.canEdit}
            canReadCustomers={flags.canReadCustomers}
            canPickArticles={flags.canReadArticles}
            included={data.included}
            onReload={onReload}
          />
        </section>
      ) : null}
      {agreement ? (
        <div className="grid gap-6 border-t border-slate-200 pt-4">
          <AgreementRows
            boId={object.id}
            kind="wo"
            rows={data.woRows}
            canEdit={flags.canEdit}
            canPickArticles={flags.canReadArticles}
          />
          <AgreementRows
            boId={object.id}
            kind="invoice"
            rows={data.invoiceRows}
            canEdit={flags.canEdit}
            canPickArticles={flags.canReadArticles}
          />
        </div>
      ) : null}
      {agreement && data.year ? (
        <div className="border-t border-slate-200 pt-4">
          <AgreementInvoices
            boId={object.id}
            interval={agreement.agreement.invoiceInterval}
            validFrom={agreement.validFrom}
            today={data.today}
            first={data.year}
          />
        </div>
      ) : null}
      {agreement && flags.canEdit ? (
        <RemoveAgreement
          isPending={remover.state !== 'idle'}
          hasInvoices={hasInvoices}
          onRemove={() => {
            setHasInvoices(false);
            void remover.submit({ intent: 'delete' }, { method: 'post', action: agreementUrl(object.id) });
          }}
        />
      ) : null}
    </div>
  );
}

/** The agreement as it stands: type, schedules in words, next work order and invoice, last invoiced. */
function AgreementFacts({ agreement: a }: { agreement: ObjectAgreement }) {
  const { t } = useTranslation('objectagreement');
  const words = useAgreementWords();
  const dates = useAgreementDates();
  const facts: [string, React.ReactNode, string][] = [
    [
      t('facts.type'),
      <>
        {a.agreement.code} – {a.agreement.title}
        {a.agreement.status !== 'active' ? (
          <span className="ms-2 rounded bg-slate-200 px-2 py-0.5 text-xs text-slate-800">
            {t('facts.typeInactive')}
          </span>
        ) : null}
      </>,
      'type',
    ],
    [
      t('facts.woSchedule'),
      a.agreement.woInterval ? words.schedule(a.agreement.woInterval, a.agreement.woDay) : t('facts.noWorkOrders'),
      'wo-schedule',
    ],
    [
      t('facts.invoiceSchedule'),
      a.agreement.invoiceInterval
        ? words.schedule(a.agreement.invoiceInterval, a.agreement.invoiceDay)
        : t('facts.noInvoices'),
      'invoice-schedule',
    ],
    [
      t('facts.nextWorkOrder'),
      a.nextWorkOrder
        ? t('facts.periodOn', {
            period: dates.period(a.agreement.woInterval, a.nextWorkOrder.from, a.nextWorkOrder.to),
            date: dates.date(a.nextWorkOrder.generateOn),
          })
        : '—',
      'next-wo',
    ],
    [
      t('facts.nextInvoice'),
      a.nextInvoice
        ? t('facts.periodOn', {
            period: dates.period(a.agreement.invoiceInterval, a.nextInvoice.from, a.nextInvoice.to),
            date: dates.date(a.nextInvoice.generateOn),
          })
        : '—',
      'next-invoice',
    ],
    [
      t('facts.lastInvoiced'),
      a.lastInvoiced
        ? dates.period(a.agreement.invoiceInterval, a.lastInvoiced.from, a.lastInvoiced.to)
        : t('facts.notInvoiced'),
      'last-invoiced',
    ],
  ];
  return (
    <dl className="grid gap-x-6 gap-y-3 text-sm sm:grid-cols-2 lg:grid-cols-3">
      {facts.map(([label, value, id]) => (
        <div key={id} className="min-w-0" data-testid={`agreement-fact-${id}`}>
          <dt className="text-slate-600">{label}</dt>
          <dd className="font-medium break-words text-slate-900">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** The spec's warning: nothing is invoiced for an inactive object or past the to-date. */
function AgreementWarnings({ agreement: a }: { agreement: ObjectAgreement }) {
  const { t } = useTranslation('objectagreement');
  const dates = useAgreementDates();
  return (
    <Notice tone="warning">
      <p className="font-medium">{t('warning.title')}</p>
      <ul className="mt-1 list-disc ps-5">
        {a.warnings.map((w) => (
          <li key={w}>
            {w === 'AGREEMENT_OBJECT_INACTIVE'
              ? t('warning.objectInactive')
              : w === 'AGREEMENT_HAS_TO_DATE'
                ? t('warning.hasToDate', { date: dates.date(a.validTo) })
                : t('warning.typeInactive')}
          </li>
        ))}
      </ul>
    </Notice>
  );
}

/** "Create next work order now": the next service work order at once, whatever its day. */
function ScheduleWorkOrder({ boId }: { boId: string }) {
  const { t } = useTranslation('objectagreement');
  const { t: tc } = useTranslation();
  const toast = useToast();
  const fetcher = useFetcher<AgreementActionResult>();
  const [outcome, setOutcome] = useState<AgreementActionResult | null>(null);
  useFetcherResult(fetcher, (r) => {
    setOutcome(r);
    if (!r.ok) toast.show({ kind: 'error', message: tc(r.code) });
  });
  const schedule = outcome?.ok ? outcome.schedule : undefined;
  return (
    <div className="grid gap-2">
      <div>
        <Button
          variant="secondary"
          isPending={fetcher.state !== 'idle'}
          onPress={() => void fetcher.submit({ intent: 'schedule' }, { method: 'post', action: agreementUrl(boId) })}
        >
          {t('schedule.button')}
        </Button>
      </div>
      <p className="text-sm text-slate-600">{t('schedule.help')}</p>
      {schedule?.created ? (
        <Notice tone="success">
          {t('schedule.created')}{' '}
          <Link
            to={`/work-orders/${encodeURIComponent(schedule.created.workOrderId)}`}
            className="font-medium underline"
          >
            {t('schedule.workOrder', { number: schedule.created.number })}
          </Link>
        </Notice>
      ) : schedule ? (
        <Notice tone="warning">
          {t('schedule.skipped', {
            reason: schedule.skipped ? tc(`agreementSkip.${schedule.skipped}`) : t('schedule.nothing'),
          })}
        </Notice>
      ) : null}
    </div>
  );
}

/** Takes the agreement off after asking; once invoiced, says to end it with a to-date instead. */
function RemoveAgreement({
  isPending,
  hasInvoices,
  onRemove,
}: {
  isPending: boolean;
  hasInvoices: boolean;
  onRemove: () => void;
}) {
  const { t } = useTranslation('objectagreement');
  const { t: tc } = useTranslation();
  const headingId = useId();
  const [asking, setAsking] = useState(false);
  return (
    <section aria-labelledby={headingId} className="grid gap-2 border-t border-slate-200 pt-4">
      <h2 id={headingId} className="text-base font-semibold">
        {t('remove.title')}
      </h2>
      <p className="text-sm text-slate-600">{t('remove.help')}</p>
      {hasInvoices ? (
        <Notice tone="error">
          <p>{tc('AGREEMENT_HAS_INVOICES')}</p>
          <p className="mt-1">{t('remove.hasInvoices')}</p>
        </Notice>
      ) : null}
      <div>
        <Button variant="danger" isPending={isPending} onPress={() => setAsking(true)}>
          {t('remove.button')}
        </Button>
      </div>
      <ConfirmDialog
        isOpen={asking}
        onOpenChange={setAsking}
        title={t('remove.button')}
        message={t('remove.confirm')}
        confirmLabel={t('remove.button')}
        variant="danger"
        onConfirm={() => {
          onRemove();
          setAsking(false);
        }}
      />
    </section>
  );
}
