import { useEffect, useId, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { PanelSection, usePanelData } from './panel-shell';
import { Link, useFetcher } from 'react-router';
import { formatMoney, formatQuantity } from '~/app/components/articles/format';
import { ErpBadge, InvoiceStatusBadge } from '~/app/components/invoices/invoice-badges';
import { invoiceHref } from '~/app/components/invoices/invoice-format';
import {
  Button,
  ConfirmDialog,
  DatePicker,
  Dialog,
  formatDate,
  TextField,
  dateValueOf,
  useTenantClock,
  useToast,
} from '~/app/components/ui';
import { cx } from '~/app/components/ui/class-names';
import { useFetcherResult } from '~/app/lib/use-fetcher-result';
import type { InvoicingActionResult, InvoicingLoaderResult } from '~/app/routes/projects.$id.invoicing';
import { parseDecimal, round } from '~/core/pricing/decimal';
import { percentOf } from '~/core/projects/project-invoicing';
import type {
  ProjectInvoiceItem,
  ProjectInvoicingRowView,
  ProjectInvoicingView,
} from '~/core/projects/project-invoice.service';

export interface InvoicingPanelProps {
  projectId: string;
  /** projects:edit (the server also refuses changes to a closed project). */
  canEdit: boolean;
}

const panelUrl = (projectId: string) => `/projects/${projectId}/invoicing`;

/** Decimal text as whole öre (the arithmetic of core/projects/project-invoicing.ts), 0 when it is not a number. */
function ore(value: string | null | undefined): number {
  const d = value ? parseDecimal(value) : null;
  return d ? Number(round(d, 2).units) : 0;
}
const fromOre = (n: number) => (n / 100).toFixed(2);

/** A percentage typed as people type it ("33,33"): null when it is not one (0–100, two decimals). */
export function typedPercent(text: string): number | null {
  const n = Number(text.trim().replace(',', '.'));
  if (!text.trim() || !Number.isFinite(n) || n <= 0 || n > 100) return null;
  return Math.abs(n * 100 - Math.round(n * 100)) < 1e-9 ? n : null;
}

/**
 * What a new part invoice comes to before it is made, as the server will compute it: a percentage
 * of the contract sum (or the rest no invoice takes yet) and, when asked, the backlog rows no
 * invoice carries. In whole öre, then as decimal text.
 */
export function partPreview(
  view: Pick<ProjectInvoicingView, 'totals' | 'rows'>,
  choice: { percent: string; rest: boolean; withBacklog: boolean },
): { contract: string; backlog: string; total: string; exceeds: boolean; valid: boolean } {
  const unplanned = ore(view.totals.contractUnplanned);
  const percent = typedPercent(choice.percent);
  const contract = choice.rest ? unplanned : percent === null ? 0 : percentOf(ore(view.totals.contractSum), percent);
  const backlog = choice.withBacklog ? view.rows.filter((r) => r.invoiceable).reduce((s, r) => s + ore(r.total), 0) : 0;
  const validPercent = choice.rest || choice.percent.trim() === '' || percent !== null;
  return {
    contract: fromOre(contract),
    backlog: fromOre(backlog),
    total: fromOre(contract + backlog),
    exceeds: !choice.rest && contract > unplanned,
    valid: validPercent && (contract !== 0 || (choice.withBacklog && view.rows.some((r) => r.invoiceable))),
  };
}

/**
 * A project's invoicing (spec sections 3 and 4 "Project"; issue 18): the contract sum, what is
 * invoiced and left, the backlog; the project's work orders and article rows with their status
 * (included in the contract sum or open, extra work's approval, the invoice that carries them); its
 * invoices; and a new part invoice of the contract sum and/or the backlog. Drafts are closed
 * (numbered, invoiced, sent to the ERP), reopened or deleted after a question. Loads and saves
 * through /projects/:id/invoicing.
 */
export function InvoicingPanel({ projectId, canEdit }: InvoicingPanelProps) {
  const { t } = useTranslation('projects');
  const { data, pending } = usePanelData<Exclude<InvoicingLoaderResult, { error: string }>>(panelUrl(projectId), {
    loading: t('invoicing.loading'),
    retry: t('invoicing.retry'),
  });
  if (data) return <InvoicingContent projectId={projectId} canEdit={canEdit} data={data} />;
  return <Section projectId={projectId}>{pending}</Section>;
}

function Section({ projectId, action, children }: { projectId: string; action?: ReactNode; children: ReactNode }) {
  const { t } = useTranslation('projects');
  return (
    <PanelSection headingId={`project-invoicing-${projectId}`} title={t('invoicing.title')} action={action}>
      {children}
    </PanelSection>
  );
}

type Pending = { kind: 'close' | 'reopen' | 'delete'; invoice: ProjectInvoiceItem } | null;

export interface InvoicingContentProps extends InvoicingPanelProps {
  data: ProjectInvoicingView;
}

/** The tab on data already loaded (server-rendered alone in tests). */
export function InvoicingContent({ projectId, canEdit, data }: InvoicingContentProps) {
  const { t } = useTranslation('projects');
  const { t: tc } = useTranslation();
  const toast = useToast();
  const fetcher = useFetcher<InvoicingActionResult>();
  const [view, setView] = useState(data);
  const [creating, setCreating] = useState(false);
  const [pending, setPending] = useState<Pending>(null);
  const [fields, setFields] = useState<Record<string, string[]>>({});

  useEffect(() => setView(data), [data]);

  useFetcherResult(fetcher, (result) => {
    if (result.ok) {
      setView(result.data);
      setFields({});
      if (result.intent === 'create') setCreating(false);
      setPending(null);
      const message =
        result.intent === 'create'
          ? t('invoicing.created')
          : result.intent === 'close'
            ? `${t('invoicing.closed', { number: result.invoiceNr ?? '' })}. ${t(
                `invoicing.delivery.${result.delivery ?? 'notConnected'}`,
                { erp: result.data.erpName },
              )}`
            : result.intent === 'reopen'
              ? t('invoicing.reopened')
              : result.intent === 'delete'
                ? tc('SUCCESSFULLY_DELETED')
                : tc('SUCCESSFULLY_SAVED');
      toast.show({ kind: 'success', message });
    } else {
      setFields(result.fields ?? {});
      if (result.code !== 'VALIDATION_FAILED' || !creating) toast.show({ kind: 'error', message: tc(result.code) });
    }
  });

  const editable = canEdit && view.canEdit;
  const busy = fetcher.state !== 'idle';
  const submit = (values: Record<string, string>) =>
    void fetcher.submit(values, { method: 'post', action: panelUrl(projectId) });
  const { totals } = view;

  return (
    <Section
      projectId={projectId}
      action={
        editable ? (
          <Button size="sm" onPress={() => setCreating(true)}>
            {t('invoicing.new')}
          </Button>
        ) : null
      }
    >
      <dl className="mt-3 grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-5">
        <Figure label={t('invoicing.contractSum')} value={formatMoney(totals.contractSum)} />
        <Figure label={t('invoicing.invoiced')} value={formatMoney(totals.invoiced)} />
        <Figure label={t('invoicing.leftToInvoice')} value={formatMoney(totals.leftToInvoice)} />
        <Figure label={t('invoicing.backlog')} value={formatMoney(totals.backlog)} />
        {Number(totals.pendingExtraWork) !== 0 ? (
          <Figure label={t('invoicing.pendingExtraWork')} value={formatMoney(totals.pendingExtraWork)} />
        ) : null}
      </dl>
      <p className="mt-2 text-xs text-slate-600">{t('invoicing.exVat')}</p>
      {view.project.status === 'closed' ? (
        <p className="mt-2 text-sm text-slate-700">{t('invoicing.projectClosed')}</p>
      ) : null}
      {view.customer ? (
        <p className="mt-2 text-sm text-slate-700">
          {t('invoicing.customer', { name: view.customer.name })}
          {view.customer.customerNumber ? (
            ` (${view.customer.customerNumber})`
          ) : (
            <span className="ms-1 text-amber-900">{t('invoicing.customerNumberMissing')}</span>
          )}
        </p>
      ) : (
        <p className="mt-2 text-sm text-amber-900">{t('invoicing.noCustomer')}</p>
      )}

      <Rows
        rows={view.rows}
        editable={editable}
        busy={busy}
        onStatus={(row, status) => submit({ intent: 'status', kind: row.kind, id: row.id, status })}
      />
      <Invoices view={view} editable={editable} busy={busy} onAsk={setPending} />

      {creating ? (
        <NewPartDialog
          view={view}
          busy={busy}
          fields={fields}
          onClose={() => {
            setCreating(false);
            setFields({});
          }}
          onCreate={(values) => submit({ intent: 'create', ...values })}
        />
      ) : null}
      <ConfirmDialog
        isOpen={pending !== null}
        onOpenChange={(open) => (open ? undefined : setPending(null))}
        title={pending ? t(`invoicing.${pending.kind}Title`) : ''}
        message={pending ? t(`invoicing.${pending.kind}Message`) : undefined}
        confirmLabel={pending ? t(`invoicing.${pending.kind}`) : undefined}
        variant={pending?.kind === 'delete' ? 'danger' : 'primary'}
        isPending={busy}
        onConfirm={() => {
          // the dialog closes; a refusal comes back as a toast
          if (pending) submit({ intent: pending.kind, invoiceId: pending.invoice.id });
        }}
      />
    </Section>
  );
}

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <div className="rounded-lg bg-slate-50 px-3 py-2">
      <dt className="text-xs text-slate-600">{label}</dt>
      <dd className="text-base font-semibold tabular-nums">{value}</dd>
    </div>
  );
}

const BADGE = 'inline-flex items-center rounded px-2 py-0.5 text-xs font-medium whitespace-nowrap';
const STATUS_CLASS = {
  open: 'bg-blue-100 text-blue-900',
  included: 'bg-slate-200 text-slate-800',
  invoiced: 'bg-green-100 text-green-900',
} as const;
const EXTRA_CLASS = {
  pending: 'bg-amber-100 text-amber-900',
  accepted: 'bg-green-100 text-green-900',
  declined: 'bg-red-100 text-red-900',
} as const;

/**
 * A row's invoicing status as invoicing treats it: open extra work that is pending or declined is
 * not uninvoiced work waiting for an invoice, it waits for the customer or is never invoiced.
 */
function RowStatusBadge({ row }: { row: ProjectInvoicingRowView }) {
  const { t } = useTranslation('projects');
  if (row.status === 'open' && row.extraWork === 'pending')
    return (
      <span className={cx(BADGE, 'whitespace-normal', EXTRA_CLASS.pending)}>
        {t('invoicing.status.awaitingApproval')}
      </span>
    );
  if (row.status === 'open' && row.extraWork === 'declined')
    return (
      <span className={cx(BADGE, 'whitespace-normal', EXTRA_CLASS.declined)}>{t('invoicing.status.declined')}</span>
    );
  return <span className={cx(BADGE, STATUS_CLASS[row.status])}>{t(`invoicing.status.${row.status}`)}</span>;
}

function Rows({
  rows,
  editable,
  busy,
  onStatus,
}: {
  rows: ProjectInvoicingRowView[];
  editable: boolean;
  busy: boolean;
  onStatus: (row: ProjectInvoicingRowView, status: 'open' | 'included') => void;
}) {
  const { t } = useTranslation('projects');
  const headingId = useId();
  return (
    <div className="mt-5">
      <h3 id={headingId} className="text-sm font-semibold">
        {t('invoicing.rows.title')}
      </h3>
      {rows.length === 0 ? (
        <p className="mt-1 text-sm text-slate-600">{t('invoicing.rows.empty')}</p>
      ) : (
        <div className="mt-2 overflow-x-auto">
          <table className="w-full min-w-[40rem] text-sm" aria-labelledby={headingId}>
            <thead>
              <tr className="border-b border-slate-200 text-left text-xs text-slate-600">
                <th scope="col" className="py-1 pe-2 font-medium">
                  {t('invoicing.col.row')}
                </th>
                <th scope="col" className="py-1 pe-2 text-right font-medium">
                  {t('invoicing.col.quantity')}
                </th>
                <th scope="col" className="py-1 pe-2 text-right font-medium">
                  {t('invoicing.col.amount')}
                </th>
                <th scope="col" className="py-1 pe-2 font-medium">
                  {t('invoicing.col.status')}
                </th>
                {editable ? (
                  <th scope="col" className="py-1 font-medium">
                    <span className="sr-only">{t('invoicing.col.actions')}</span>
                  </th>
                ) : null}
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={`${r.kind}:${r.id}`} className="border-b border-slate-100 align-top">
                  <td className={cx('py-1.5 pe-2', r.kind === 'article' && 'ps-4')}>
                    <span className={r.kind === 'workOrder' ? 'font-medium' : undefined}>{r.title}</span>
                    {r.kind === 'article' && r.articleNumber ? (
                      <span className="ms-1 text-slate-600">({r.articleNumber})</span>
                    ) : null}
                    {r.kind === 'workOrder' && r.extraWork ? (
                      <span className={cx(BADGE, 'ms-2', EXTRA_CLASS[r.extraWork])}>
                        {t(`invoicing.extra.${r.extraWork}`)}
                      </span>
                    ) : null}
                  </td>
                  <td className="py-1.5 pe-2 text-right whitespace-nowrap tabular-nums">
                    {formatQuantity(r.quantity)} {r.unit ?? ''}
                    <span className="block text-xs text-slate-600">× {formatMoney(r.price)}</span>
                  </td>
                  <td className="py-1.5 pe-2 text-right tabular-nums">{formatMoney(r.total)}</td>
                  <td className="py-1.5 pe-2">
                    <RowStatusBadge row={r} />
                    {r.invoiceId ? (
                      <Link to={invoiceHref(r.invoiceId)} className="mt-0.5 block text-xs text-blue-800 underline">
                        {r.invoiceNr ? t('invoicing.onInvoice', { number: r.invoiceNr }) : t('invoicing.onDraft')}
                      </Link>
                    ) : null}
                  </td>
                  {editable ? (
                    <td className="py-1.5 whitespace-nowrap">
                      {r.status === 'open' && r.canMarkIncluded ? (
                        <Button
                          size="sm"
                          variant="secondary"
                          isDisabled={busy}
                          aria-label={t('invoicing.markIncludedRow', { row: r.title })}
                          onPress={() => onStatus(r, 'included')}
                        >
                          {t('invoicing.markIncluded')}
                        </Button>
                      ) : null}
                      {r.status === 'included' && r.canMarkIncluded ? (
                        <Button
                          size="sm"
                          variant="secondary"
                          isDisabled={busy}
                          aria-label={t('invoicing.markOpenRow', { row: r.title })}
                          onPress={() => onStatus(r, 'open')}
                        >
                          {t('invoicing.markOpen')}
                        </Button>
                      ) : null}
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}

function Invoices({
  view,
  editable,
  busy,
  onAsk,
}: {
  view: ProjectInvoicingView;
  editable: boolean;
  busy: boolean;
  onAsk: (p: Pending) => void;
}) {
  const { t } = useTranslation('projects');
  const { dateFormat } = useTenantClock();
  const headingId = useId();
  const name = (i: ProjectInvoiceItem) => i.invoiceNr ?? t('invoicing.draft');
  return (
    <div className="mt-5">
      <h3 id={headingId} className="text-sm font-semibold">
        {t('invoicing.invoices.title')}
      </h3>
      {view.invoices.length === 0 ? (
        <p className="mt-1 text-sm text-slate-600">{t('invoicing.invoices.empty')}</p>
      ) : (
        <div className="mt-2 overflow-x-auto">
          <table className="w-full min-w-[44rem] text-sm" aria-labelledby={headingId}>
            <thead>
              <tr className="border-b border-slate-200 text-left text-xs text-slate-600">
                <th scope="col" className="py-1 pe-2 font-medium">
                  {t('invoicing.col.number')}
                </th>
                <th scope="col" className="py-1 pe-2 font-medium">
                  {t('invoicing.col.date')}
                </th>
                <th scope="col" className="py-1 pe-2 text-right font-medium">
                  {t('invoicing.col.contractPart')}
                </th>
                <th scope="col" className="py-1 pe-2 text-right font-medium">
                  {t('invoicing.col.backlogPart')}
                </th>
                <th scope="col" className="py-1 pe-2 text-right font-medium">
                  {t('invoicing.col.total')}
                </th>
                <th scope="col" className="py-1 pe-2 font-medium">
                  {t('invoicing.col.status')}
                </th>
                {editable ? (
                  <th scope="col" className="py-1 font-medium">
                    <span className="sr-only">{t('invoicing.col.actions')}</span>
                  </th>
                ) : null}
              </tr>
            </thead>
            <tbody>
              {view.invoices.map((i) => (
                <tr key={i.id} className="border-b border-slate-100 align-top">
                  <td className="py-1.5 pe-2">
                    <Link to={invoiceHref(i.id)} className="text-blue-800 underline">
                      {name(i)}
                    </Link>
                    <span className="block text-xs text-slate-600">
                      {i.rest
                        ? t('invoicing.restPart')
                        : i.percent
                          ? t('invoicing.percentPart', { percent: i.percent.replace('.', ',') })
                          : null}
                    </span>
                  </td>
                  <td className="py-1.5 pe-2 whitespace-nowrap">{formatDate(i.invoiceDate, dateFormat)}</td>
                  <td className="py-1.5 pe-2 text-right tabular-nums">{formatMoney(i.contractAmount)}</td>
                  <td className="py-1.5 pe-2 text-right tabular-nums">{formatMoney(i.backlogAmount)}</td>
                  <td className="py-1.5 pe-2 text-right tabular-nums">{formatMoney(i.totalPrice)}</td>
                  <td className="space-y-1 py-1.5 pe-2">
                    <InvoiceStatusBadge status={i.status} />
                    {i.status === 'finalized' ? (
                      <div>
                        <ErpBadge
                          erp={i.erp}
                          externalInvoiceNr={i.externalInvoiceNr}
                          errorCode={i.errorCode}
                          erpName={view.erpName}
                        />
                      </div>
                    ) : null}
                  </td>
                  {editable ? (
                    <td className="py-1.5">
                      <div className="flex flex-wrap gap-1">
                        {i.status === 'draft' ? (
                          <>
                            <Button
                              size="sm"
                              isDisabled={busy}
                              aria-label={t('invoicing.closeInvoice', { name: name(i) })}
                              onPress={() => onAsk({ kind: 'close', invoice: i })}
                            >
                              {t('invoicing.close')}
                            </Button>
                            <Button
                              size="sm"
                              variant="secondary"
                              isDisabled={busy}
                              aria-label={t('invoicing.deleteInvoice', { name: name(i) })}
                              onPress={() => onAsk({ kind: 'delete', invoice: i })}
                            >
                              {t('invoicing.delete')}
                            </Button>
                          </>
                        ) : null}
                        {i.status === 'finalized' && i.erp !== 'delivered' ? (
                          <Button
                            size="sm"
                            variant="secondary"
                            isDisabled={busy}
                            aria-label={t('invoicing.reopenInvoice', { name: name(i) })}
                            onPress={() => onAsk({ kind: 'reopen', invoice: i })}
                          >
                            {t('invoicing.reopen')}
                          </Button>
                        ) : null}
                      </div>
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}

function NewPartDialog({
  view,
  busy,
  fields,
  onClose,
  onCreate,
}: {
  view: ProjectInvoicingView;
  busy: boolean;
  fields: Record<string, string[]>;
  onClose: () => void;
  onCreate: (values: Record<string, string>) => void;
}) {
  const { t } = useTranslation('projects');
  const { t: tc } = useTranslation();
  const { t: tu } = useTranslation('ui');
  const [percent, setPercent] = useState('');
  const [rest, setRest] = useState(false);
  const [withBacklog, setWithBacklog] = useState(false);
  const [invoiceDate, setInvoiceDate] = useState('');
  const restId = useId();
  const backlogId = useId();
  const preview = partPreview(view, { percent, rest, withBacklog });
  const err = (key: string) => {
    const messages = (fields[key] ?? []).map((k) => tc(k));
    return messages.length ? messages : undefined;
  };
  const percentError =
    err('percent') ??
    (percent.trim() && !rest && typedPercent(percent) === null ? [tc('ERROR_INVALID_VALUE')] : undefined);

  return (
    <Dialog
      title={t('invoicing.new')}
      isOpen
      onOpenChange={(open) => (open ? undefined : onClose())}
      isDismissable={!busy}
      footer={({ close }) => (
        <>
          <Button variant="secondary" onPress={close} isDisabled={busy}>
            {tu('cancel')}
          </Button>
          <Button
            isPending={busy}
            isDisabled={!preview.valid || preview.exceeds}
            onPress={() =>
              onCreate({
                percent: rest ? '' : percent,
                rest: String(rest),
                withBacklog: String(withBacklog),
                invoiceDate,
              })
            }
          >
            {t('invoicing.createDraft')}
          </Button>
        </>
      )}
    >
      <div className="space-y-4">
        <p className="text-sm text-slate-700">
          {t('invoicing.new.left', { left: formatMoney(view.totals.contractUnplanned) })}
        </p>
        <TextField
          label={t('invoicing.new.percent')}
          value={percent}
          onChange={setPercent}
          isDisabled={rest}
          inputMode="decimal"
          errorMessage={percentError}
        />
        <div className="flex items-center gap-2">
          <input
            id={restId}
            type="checkbox"
            className="size-5 accent-blue-700"
            checked={rest}
            onChange={(e) => setRest(e.target.checked)}
          />
          <label htmlFor={restId} className="text-sm">
            {t('invoicing.new.rest')}
          </label>
        </div>
        <div className="flex items-center gap-2">
          <input
            id={backlogId}
            type="checkbox"
            className="size-5 accent-blue-700"
            checked={withBacklog}
            onChange={(e) => setWithBacklog(e.target.checked)}
          />
          <label htmlFor={backlogId} className="text-sm">
            {t('invoicing.new.backlog', { amount: formatMoney(view.totals.backlog) })}
          </label>
        </div>
        <DatePicker
          label={t('invoicing.new.date')}
          value={dateValueOf(invoiceDate)}
          onChange={(v) => setInvoiceDate(v?.toString() ?? '')}
          errorMessage={err('invoiceDate')}
        />
        <p className="rounded-lg bg-slate-50 p-3 text-sm" aria-live="polite">
          {t('invoicing.new.preview', {
            contract: formatMoney(preview.contract),
            backlog: formatMoney(preview.backlog),
            total: formatMoney(preview.total),
          })}
          {preview.exceeds ? (
            <span className="mt-1 block text-red-700">
              {t('invoicing.new.exceeds', { left: formatMoney(view.totals.contractUnplanned) })}
            </span>
          ) : null}
        </p>
      </div>
    </Dialog>
  );
}
