import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFetcher, useNavigate } from 'react-router';
import { Button, ConfirmDialog, Spinner, useToast } from '~/app/components/ui';
import { SignaturePad, type SignatureValue } from '~/app/components/signature/signature-pad';
import { useCan } from '~/app/lib/can';
import { useFetcherResult } from '~/app/lib/use-fetcher-result';
import type { ReportsActionResult, ReportsLoaderResult } from '~/app/routes/work-orders.$id.service-reports';
import type { ReportDoor, ServiceReport, WorkOrderReports } from '~/core/service-reports/service-report.service';
import type { ServiceReportTemplate } from '~/core/service-reports/service-report.types';
import { draftOf, flaggedDraft, ReportFieldInput, sentOf, type DraftValue } from './report-fields';

export interface ServiceReportsPanelProps {
  workOrderId: string;
  format: (iso: string) => string;
}

/** One report the order offers: a template, once per door automatic for per-door templates. */
interface Slot {
  key: string;
  template: ServiceReportTemplate;
  door: ReportDoor | null;
  report: ServiceReport | null;
}

function slotsOf(view: WorkOrderReports): Slot[] {
  const slots: Slot[] = [];
  for (const template of view.templates) {
    const of = (doorId: string | null) =>
      view.reports.find((r) => r.templateId === template.id && r.doorAutomaticId === doorId) ?? null;
    if (template.perDoor)
      for (const door of view.doors)
        slots.push({ key: `${template.id}:${door.id}`, template, door, report: of(door.id) });
    else slots.push({ key: template.id, template, door: null, report: of(null) });
  }
  return slots;
}

const doorName = (d: ReportDoor) => [d.number, d.title].filter(Boolean).join(' · ');

/**
 * The service reports of a work order (issue 32): every template the order offers (per door
 * automatic where the template says so), each filled in page by page and saved as the technician
 * goes, signed by the customer on the pad, then printed (and mailed) as a PDF kept on the order.
 */
export function ServiceReportsPanel(props: ServiceReportsPanelProps) {
  return useCan()('workorders:read', 'servicereports') ? <LoadedPanel {...props} /> : null;
}

function LoadedPanel({ workOrderId, format }: ServiceReportsPanelProps) {
  const { t } = useTranslation('servicereports');
  const { t: tc } = useTranslation();
  const loader = useFetcher<ReportsLoaderResult>();
  const [view, setView] = useState<WorkOrderReports | null>(null);
  const [open, setOpen] = useState<string | null>(null);
  const url = `/work-orders/${workOrderId}/service-reports`;

  useEffect(() => {
    void loader.load(url);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [workOrderId]);
  useEffect(() => {
    if (loader.data && 'data' in loader.data) setView(loader.data.data);
  }, [loader.data]);

  const failed = loader.state === 'idle' && loader.data && 'error' in loader.data;
  const headingId = `wo-reports-${workOrderId}`;
  const slots = view ? slotsOf(view) : [];
  const current = slots.find((s) => s.key === open) ?? null;
  const replace = (report: ServiceReport) =>
    setView((v) => (v ? { ...v, reports: [...v.reports.filter((r) => r.id !== report.id), report] } : v));

  return (
    <section aria-labelledby={headingId} className="min-w-0 rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
      <h3 id={headingId} className="text-base font-semibold">
        {t('panel.title')}
      </h3>
      {view === null ? (
        failed ? (
          <div className="mt-2 flex flex-wrap items-center gap-2 text-sm">
            <p role="alert" className="text-red-700">
              {tc('FAILED_TO_FETCH')}
            </p>
            <Button size="sm" variant="secondary" onPress={() => void loader.load(url)}>
              {t('panel.retry')}
            </Button>
          </div>
        ) : (
          <div className="mt-2 flex items-center gap-2 text-sm text-slate-600">
            <Spinner label={t('panel.loading')} />
            <span aria-hidden="true">{t('panel.loading')}</span>
          </div>
        )
      ) : current ? (
        <ReportFiller
          key={current.key}
          workOrderId={workOrderId}
          slot={current}
          canFill={view.canFill}
          canReopen={view.canReopen}
          format={format}
          onSaved={replace}
          onClose={() => setOpen(null)}
        />
      ) : slots.length === 0 ? (
        <p className="mt-2 text-sm text-slate-600">{t('panel.empty')}</p>
      ) : (
        <ul className="mt-3 grid gap-2">
          {slots.map((s) => {
            const status = s.report?.signedAt ? 'signed' : s.report ? 'started' : 'new';
            return (
              <li
                key={s.key}
                data-testid="report-slot"
                className="flex flex-wrap items-center justify-between gap-2 rounded-lg p-3 ring-1 ring-slate-200"
              >
                <div className="min-w-0">
                  <p className="font-medium break-words">{s.template.title}</p>
                  {s.door ? <p className="text-sm break-words text-slate-700">{doorName(s.door)}</p> : null}
                  <p className="text-sm text-slate-600">
                    {status === 'signed'
                      ? t('panel.signed', { name: s.report!.signedName, when: format(s.report!.signedAt!) })
                      : t(`panel.status.${status}`)}
                    {s.report?.flagged.length ? ` · ${t('panel.flagged', { count: s.report.flagged.length })}` : ''}
                  </p>
                  {s.report?.fileId ? (
                    <a className="text-sm text-brand-700 underline" href={`/api/file/${s.report.fileId}?download=1`}>
                      {t('panel.pdf')}
                    </a>
                  ) : null}
                </div>
                <Button
                  size="sm"
                  variant={status === 'signed' ? 'secondary' : 'primary'}
                  // the visible words first, then what they open (WCAG 2.5.3)
                  aria-label={[
                    status === 'signed' ? t('panel.view') : t('panel.fill'),
                    s.template.title,
                    s.door ? doorName(s.door) : null,
                  ]
                    .filter(Boolean)
                    .join(' – ')}
                  onPress={() => setOpen(s.key)}
                >
                  {status === 'signed' ? t('panel.view') : t('panel.fill')}
                </Button>
              </li>
            );
          })}
          {view.templates.some((tpl) => tpl.perDoor) && view.doors.length === 0 ? (
            <li className="text-sm text-slate-600">{t('panel.noDoors')}</li>
          ) : null}
        </ul>
      )}
    </section>
  );
}

type Drafts = Record<string, Record<string, DraftValue>>;

/** Where a deviation raised from a report's field starts (its relations are set from the report). */
const deviationFrom = (reportId: string, field: string) =>
  `/deviations/new?${new URLSearchParams({ from: 'service_report', id: reportId, field })}`;

function draftsOf(template: ServiceReportTemplate, report: ServiceReport | null): Drafts {
  return Object.fromEntries(
    template.pages.map((p) => [
      p.id,
      Object.fromEntries(p.fields.map((f) => [f.id, draftOf(f, report?.data[p.id]?.[f.id])])),
    ]),
  );
}

/**
 * One report, page by page: each page saved when the technician moves on (or presses save), the
 * last step the customer's signature with the printed name and where the PDF goes; a signed
 * report is read-only until reopened (with the permission), and prints its PDF.
 */
function ReportFiller({
  workOrderId,
  slot,
  canFill,
  canReopen,
  format,
  onSaved,
  onClose,
}: {
  workOrderId: string;
  slot: Slot;
  canFill: boolean;
  canReopen: boolean;
  format: (iso: string) => string;
  onSaved: (report: ServiceReport) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation('servicereports');
  const { t: tc } = useTranslation();
  const toast = useToast();
  const fetcher = useFetcher<ReportsActionResult>();
  const { template, door, report } = slot;
  const signed = Boolean(report?.signedAt);
  const pages = template.pages;
  // the page shown; pages.length is the signing step
  const [step, setStep] = useState(signed ? pages.length : 0);
  const [drafts, setDrafts] = useState<Drafts>(() => draftsOf(template, report));
  const [fields, setFields] = useState<Record<string, string[]>>({});
  const [signature, setSignature] = useState<SignatureValue>({ name: '', image: null });
  const [targets, setTargets] = useState((report?.emailTargets ?? []).join(', '));
  const [confirmReopen, setConfirmReopen] = useState(false);
  const [next, setNext] = useState<number | null>(null);
  // a failed field a deviation is raised from once its page is saved ("pageId.fieldId")
  const [raiseFrom, setRaiseFrom] = useState<string | null>(null);
  const navigate = useNavigate();
  const action = `/work-orders/${workOrderId}/service-reports`;
  const busy = fetcher.state !== 'idle';
  const disabled = signed || !canFill || busy;
  const page = step < pages.length ? pages[step]! : null;

  useFetcherResult(fetcher, (result) => {
    if (!result.ok) {
      setFields(result.fields ?? {});
      setNext(null);
      setRaiseFrom(null);
      // required fields left empty: go to the first page that has one
      const first = Object.keys(result.fields ?? {}).find((k) => k.startsWith('pages.'));
      if (first) {
        const idx = pages.findIndex((p) => p.id === first.split('.')[1]);
        if (idx >= 0) setStep(idx);
      }
      toast.show({ kind: 'error', message: tc(result.code) });
      return;
    }
    setFields({});
    if (result.intent === 'last') {
      if (!result.report || !page) {
        toast.show({ kind: 'info', message: t('fill.noLast') });
        return;
      }
      const last = result.report;
      setDrafts((d) => ({
        ...d,
        [page.id]: Object.fromEntries(
          page.fields.map((f) => [
            f.id,
            f.kind === 'photo' || f.kind === 'signature' ? d[page.id]![f.id]! : draftOf(f, last.data[page.id]?.[f.id]),
          ]),
        ),
      }));
      toast.show({ kind: 'success', message: t('fill.lastFilled') });
      return;
    }
    if (result.intent === 'generate') {
      toast.show({
        kind: 'success',
        message: [
          result.generated.emailedTo.length
            ? t('doc.emailed', { to: result.generated.emailedTo.join(', ') })
            : t('doc.generated'),
          result.generated.published ? t('doc.published') : null,
        ]
          .filter(Boolean)
          .join(' '),
      });
      onSaved({ ...report!, fileId: result.generated.fileId });
      return;
    }
    onSaved(result.report);
    if (result.intent === 'save' && raiseFrom) {
      setRaiseFrom(null);
      void navigate(deviationFrom(result.report.id, raiseFrom));
      return;
    }
    if (result.intent === 'reopen') {
      setStep(0);
      toast.show({ kind: 'success', message: t('fill.reopened') });
    } else if (result.intent === 'sign') {
      toast.show({ kind: 'success', message: t('fill.signedToast') });
    } else {
      toast.show({ kind: 'success', message: tc('SUCCESSFULLY_SAVED') });
      if (next !== null) setStep(next);
    }
    setNext(null);
  });

  const base = { serviceReportId: template.id, doorautomaticId: door?.id ?? '' };
  function savePage(moveTo: number | null) {
    if (!page || disabled) {
      if (moveTo !== null) setStep(moveTo);
      return;
    }
    setNext(moveTo);
    const data = Object.fromEntries(
      page.fields.filter((f) => f.kind !== 'heading').map((f) => [f.id, sentOf(f, drafts[page.id]![f.id]!)]),
    );
    void fetcher.submit(
      { intent: 'save', ...base, page: page.id, data: JSON.stringify(data) },
      { method: 'post', action },
    );
  }
  /** A deviation from a failed field: the page saved first, so the report and the value exist. */
  function raise(fieldId: string) {
    if (!page) return;
    const key = `${page.id}.${fieldId}`;
    if (disabled) {
      if (report && !busy) void navigate(deviationFrom(report.id, key));
      return;
    }
    setRaiseFrom(key);
    savePage(null);
  }
  const emailList = () =>
    targets
      .split(/[,;\s]+/)
      .map((s) => s.trim())
      .filter(Boolean);
  const err = (key: string) => fields[key]?.map((k) => tc(k));
  const title = [template.title, door ? doorName(door) : null].filter(Boolean).join(' – ');
  const current = signed ? report! : null;

  return (
    <div className="mt-3 grid gap-4" data-testid="report-filler">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <h4 className="font-medium break-words">{title}</h4>
          <p className="text-sm text-slate-600" aria-live="polite">
            {page ? t('fill.pageOf', { n: step + 1, total: pages.length, title: page.title }) : t('fill.signStep')}
          </p>
        </div>
        <Button size="sm" variant="ghost" onPress={onClose} isDisabled={busy}>
          {t('fill.back')}
        </Button>
      </div>
      <nav aria-label={t('fill.pages')} className="-mx-1 flex gap-1 overflow-x-auto pb-1">
        {pages.map((p, i) => {
          const anyFlag = p.fields.some((f) => flaggedDraft(f, drafts[p.id]![f.id]!));
          return (
            <button
              key={p.id}
              type="button"
              aria-current={i === step ? 'step' : undefined}
              className={`min-h-11 shrink-0 rounded-md px-3 text-sm ${i === step ? 'bg-brand-700 text-white' : 'bg-slate-100 text-slate-800'} ${anyFlag ? 'ring-2 ring-red-600' : ''}`}
              onClick={() => savePage(i)}
              disabled={busy}
            >
              {i + 1}
              <span className="sr-only">. {p.title}</span>
            </button>
          );
        })}
        <button
          type="button"
          aria-current={step === pages.length ? 'step' : undefined}
          className={`min-h-11 shrink-0 rounded-md px-3 text-sm ${step === pages.length ? 'bg-brand-700 text-white' : 'bg-slate-100 text-slate-800'}`}
          onClick={() => savePage(pages.length)}
          disabled={busy}
        >
          {t('fill.signTab')}
        </button>
      </nav>

      {page ? (
        <form
          noValidate
          className="grid gap-4"
          onSubmit={(e) => {
            e.preventDefault();
            savePage(step + 1);
          }}
        >
          <h5 className="text-base font-semibold">{page.title}</h5>
          {page.fields.map((f) => (
            <ReportFieldInput
              key={f.id}
              field={f}
              value={drafts[page.id]![f.id]!}
              onChange={(v) => setDrafts((d) => ({ ...d, [page.id]: { ...d[page.id]!, [f.id]: v } }))}
              errors={err(`data.${f.id}`) ?? err(`pages.${page.id}.${f.id}`)}
              disabled={disabled}
              workOrderId={workOrderId}
              onRaise={disabled && !report ? undefined : () => raise(f.id)}
            />
          ))}
          <div className="sticky bottom-0 -mx-4 flex flex-wrap gap-2 border-t border-slate-200 bg-white/95 px-4 py-3">
            {step > 0 ? (
              <Button variant="secondary" onPress={() => savePage(step - 1)} isDisabled={busy}>
                {t('fill.previous')}
              </Button>
            ) : null}
            {disabled ? null : (
              <>
                <Button variant="secondary" onPress={() => savePage(null)} isPending={busy && next === null}>
                  {t('fill.save')}
                </Button>
                <Button
                  variant="ghost"
                  onPress={() => void fetcher.submit({ intent: 'last', ...base }, { method: 'post', action })}
                  isDisabled={busy}
                >
                  {t('fill.sameAsLast')}
                </Button>
              </>
            )}
            <Button type="submit" variant="primary" isDisabled={busy}>
              {t('fill.next')}
            </Button>
          </div>
        </form>
      ) : current ? (
        <div className="grid gap-3">
          <p className="text-sm" data-testid="report-signed">
            {t('fill.signedBy', { name: current.signedName, when: format(current.signedAt!) })}
            {current.technicianName ? ` · ${t('fill.technician', { name: current.technicianName })}` : ''}
          </p>
          {current.signature ? (
            <img
              src={current.signature}
              alt={t('fill.signatureOf', { name: current.signedName })}
              className="h-20 w-fit"
            />
          ) : null}
          {current.fileId ? (
            <a className="text-sm text-brand-700 underline" href={`/api/file/${current.fileId}?download=1`}>
              {t('panel.pdf')}
            </a>
          ) : null}
          <label className="grid gap-1 text-sm font-medium text-gray-900">
            {t('doc.emailTargets')}
            <input
              className="min-h-12 rounded-md border border-gray-300 px-3 text-base font-normal"
              type="text"
              inputMode="email"
              value={targets}
              onChange={(e) => setTargets(e.target.value)}
              aria-describedby="report-targets-help"
            />
            <span id="report-targets-help" className="text-xs font-normal text-slate-600">
              {t('doc.emailTargetsHelp')}
            </span>
          </label>
          {err('emailTargets') ? (
            <p role="alert" className="text-sm text-red-700">
              {err('emailTargets')!.join(' ')}
            </p>
          ) : null}
          <div className="flex flex-wrap gap-2">
            {canFill ? (
              <>
                <Button
                  variant="primary"
                  isPending={busy}
                  onPress={() =>
                    void fetcher.submit(
                      { intent: 'generate', reportId: current.id, email: 'false' },
                      { method: 'post', action },
                    )
                  }
                >
                  {t('doc.generate')}
                </Button>
                <Button
                  variant="secondary"
                  isDisabled={busy}
                  onPress={() =>
                    void fetcher.submit(
                      {
                        intent: 'generate',
                        reportId: current.id,
                        email: 'true',
                        ...(emailList().length ? { emailTargets: JSON.stringify(emailList()) } : {}),
                      },
                      { method: 'post', action },
                    )
                  }
                >
                  {t('doc.generateEmail')}
                </Button>
              </>
            ) : null}
            <a
              className="flex min-h-11 items-center rounded-md border border-gray-300 px-3 text-sm"
              href={`/api/wo/${workOrderId}/servicereport/${current.id}/word`}
            >
              {t('doc.word')}
            </a>
            {canReopen ? (
              <Button variant="ghost" onPress={() => setConfirmReopen(true)} isDisabled={busy}>
                {t('fill.reopen')}
              </Button>
            ) : null}
          </div>
          <ConfirmDialog
            isOpen={confirmReopen}
            onOpenChange={setConfirmReopen}
            title={t('fill.reopenTitle')}
            message={t('fill.reopenConfirm')}
            confirmLabel={t('fill.reopen')}
            onConfirm={() => void fetcher.submit({ intent: 'reopen', ...base }, { method: 'post', action })}
          />
        </div>
      ) : (
        <form
          noValidate
          className="grid gap-4"
          onSubmit={(e) => {
            e.preventDefault();
            if (disabled) return;
            void fetcher.submit(
              {
                intent: 'sign',
                ...base,
                signature: JSON.stringify(signature),
                emailTargets: JSON.stringify(emailList()),
              },
              { method: 'post', action },
            );
          }}
        >
          {report?.flagged.length ? (
            <p className="rounded-md bg-red-50 p-3 text-sm text-red-800">
              {t('fill.flaggedBeforeSign', { count: report.flagged.length })}
            </p>
          ) : null}
          <SignaturePad
            label={t('fill.customerSignature')}
            value={signature}
            onChange={setSignature}
            isDisabled={disabled}
            nameError={err('signature.name') ?? err('signature')}
          />
          <label className="grid gap-1 text-sm font-medium text-gray-900">
            {t('doc.emailTargets')}
            <input
              className="min-h-12 rounded-md border border-gray-300 px-3 text-base font-normal"
              type="text"
              inputMode="email"
              value={targets}
              disabled={disabled}
              onChange={(e) => setTargets(e.target.value)}
            />
          </label>
          {err('emailTargets') ? (
            <p role="alert" className="text-sm text-red-700">
              {err('emailTargets')!.join(' ')}
            </p>
          ) : null}
          <div className="flex flex-wrap gap-2">
            <Button variant="secondary" onPress={() => setStep(pages.length - 1)} isDisabled={busy}>
              {t('fill.previous')}
            </Button>
            {disabled ? null : (
              <Button type="submit" variant="primary" isPending={busy}>
                {t('fill.sign')}
              </Button>
            )}
          </div>
        </form>
      )}
    </div>
  );
}
