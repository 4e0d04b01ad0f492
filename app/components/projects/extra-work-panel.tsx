import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { usePanelData } from './panel-shell';
import { useFetcher } from 'react-router';
import { formatMoney } from '~/app/components/articles/format';
import { Button, Dialog, formatDateTime, TextField, useToast, type DateFormat } from '~/app/components/ui';
import { NATIVE_INPUT_CLASS } from '~/app/components/ui/native-field';
import { useFetcherResult } from '~/app/lib/use-fetcher-result';
import type { ExtraWorkActionResult, ExtraWorkLoaderResult } from '~/app/routes/projects.$id.extra-work';
import type { ExtraWorkLink } from '~/core/projects/extra-work-link.service';
import type { ProjectExtraStatus } from '~/core/work-orders/close.service';

export interface ExtraWorkPanelProps {
  projectId: string;
  workOrder: { id: string; number: string; title: string; projectExtraStatus: ProjectExtraStatus | null };
  /** workorders:create_project_extra_work: mark the order as extra work and send it for approval. */
  canCreate: boolean;
  /** workorders:accept_project_extra_work: accept or decline it on the customer's behalf. */
  canAccept: boolean;
}

type Config = { dateFormat: DateFormat; country: string };

const panelUrl = (projectId: string, workOrderId: string) =>
  `/projects/${projectId}/extra-work?${new URLSearchParams({ workOrderId })}`;

const STATUS_CLASS: Record<ProjectExtraStatus, string> = {
  pending: 'bg-amber-100 text-amber-900',
  accepted: 'bg-green-100 text-green-900',
  declined: 'bg-red-100 text-red-900',
};

const STATE_CLASS: Record<ExtraWorkLink['state'], string> = {
  open: 'bg-blue-100 text-blue-900',
  answered: 'bg-green-100 text-green-900',
  expired: 'bg-slate-100 text-slate-700',
  superseded: 'bg-slate-100 text-slate-700',
};

/**
 * A project work order's extra work (ATA): its status, "Send for approval" (the customer gets an
 * e-mail with a link to approve or decline, signed out), the links sent so far with their answers,
 * and Accept / Decline for staff with the right. Loads and posts through
 * /projects/:id/extra-work, so the project page's loader does not change.
 */
export function ExtraWorkPanel(props: ExtraWorkPanelProps) {
  const { projectId, workOrder } = props;
  const { t } = useTranslation('projects');
  const { data: answer, pending } = usePanelData<Exclude<ExtraWorkLoaderResult, { error: string }>>(
    panelUrl(projectId, workOrder.id),
    { loading: t('extraWork.loading'), retry: t('extraWork.retry') },
  );
  if (answer)
    return (
      <ExtraWorkContent
        {...props}
        links={answer.links}
        status={answer.projectExtraStatus}
        amount={answer.amount}
        defaultEmail={answer.defaultEmail}
        config={answer.config}
      />
    );
  return (
    <Frame workOrder={workOrder} status={workOrder.projectExtraStatus}>
      {pending}
    </Frame>
  );
}

function StatusBadge({ status }: { status: ProjectExtraStatus | null }) {
  const { t } = useTranslation('projects');
  if (!status)
    return (
      <span className="rounded bg-slate-100 px-2 py-0.5 text-xs text-slate-700">{t('extraWork.status.none')}</span>
    );
  return (
    <span className={`rounded px-2 py-0.5 text-xs ${STATUS_CLASS[status]}`}>{t(`extraWork.status.${status}`)}</span>
  );
}

function Frame({
  workOrder,
  status,
  actions,
  children,
}: {
  workOrder: ExtraWorkPanelProps['workOrder'];
  status: ProjectExtraStatus | null;
  actions?: React.ReactNode;
  children?: React.ReactNode;
}) {
  const { t } = useTranslation('projects');
  const headingId = `extra-work-${workOrder.id}`;
  return (
    <section aria-labelledby={headingId} className="min-w-0 rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div className="min-w-0">
          <h3 id={headingId} className="text-base font-semibold break-words">
            {t('extraWork.heading', { number: workOrder.number, title: workOrder.title })}
          </h3>
          <div className="mt-1 flex items-center gap-2 text-sm text-slate-600">
            <span>{t('extraWork.title')}</span>
            <StatusBadge status={status} />
          </div>
        </div>
        {actions ? <div className="flex flex-wrap gap-2">{actions}</div> : null}
      </div>
      {children}
    </section>
  );
}

export interface ExtraWorkContentProps extends ExtraWorkPanelProps {
  links: ExtraWorkLink[];
  status: ProjectExtraStatus | null;
  /** What the extra work comes to without VAT (labour and articles), as the customer is shown it. */
  amount?: string | null;
  /** The address the approval dialog proposes: the order's contact, else the customer's contact. */
  defaultEmail?: string | null;
  config: Config;
}

/** The status, actions, links and send dialog on data already loaded (server-rendered alone in tests). */
export function ExtraWorkContent({
  projectId,
  workOrder,
  canCreate,
  canAccept,
  defaultEmail,
  links: loadedLinks,
  status: loadedStatus,
  amount: loadedAmount,
  config,
}: ExtraWorkContentProps) {
  const { t } = useTranslation('projects');
  const { t: tc } = useTranslation();
  const toast = useToast();
  const fetcher = useFetcher<ExtraWorkActionResult>();
  const [links, setLinks] = useState(loadedLinks);
  const [status, setStatus] = useState(loadedStatus);
  const [amount, setAmount] = useState(loadedAmount ?? null);
  const [sending, setSending] = useState<{ email: string; message: string } | null>(null);
  const [fields, setFields] = useState<Record<string, string[]>>({});
  const messageId = useId();

  useEffect(() => {
    setLinks(loadedLinks);
    setStatus(loadedStatus);
    setAmount(loadedAmount ?? null);
  }, [loadedLinks, loadedStatus, loadedAmount]);

  useFetcherResult(fetcher, (result) => {
    if (result.ok) {
      setLinks(result.links);
      setStatus(result.projectExtraStatus);
      setAmount(result.amount);
      if (result.intent === 'send') {
        const email = sending?.email.trim() ?? '';
        setSending(null);
        toast.show({ kind: 'success', message: t('extraWork.sent', { email }) });
      } else toast.show({ kind: 'success', message: tc('SUCCESSFULLY_SAVED') });
    } else {
      setFields(result.fields ?? {});
      if (result.code !== 'VALIDATION_FAILED' || !sending) toast.show({ kind: 'error', message: tc(result.code) });
    }
  });

  const busy = fetcher.state !== 'idle';
  const action = panelUrl(projectId, workOrder.id);
  const post = (values: Record<string, string>) =>
    void fetcher.submit({ workOrderId: workOrder.id, ...values }, { method: 'post', action });
  const err = (key: string) => {
    const messages = (fields[key] ?? []).map((k) => tc(k));
    return messages.length ? messages : undefined;
  };
  const when = (iso: string) => formatDateTime(iso, config);

  const actions = (
    <>
      {canCreate && status === null ? (
        <Button
          size="sm"
          variant="secondary"
          isDisabled={busy}
          onPress={() => post({ intent: 'status', status: 'pending' })}
        >
          {t('extraWork.markPending')}
        </Button>
      ) : null}
      {canCreate && status === 'pending' ? (
        <Button
          size="sm"
          isDisabled={busy}
          onPress={() => {
            setFields({});
            setSending({ email: defaultEmail ?? '', message: '' });
          }}
        >
          {t('extraWork.send')}
        </Button>
      ) : null}
      {canAccept && status !== null && status !== 'accepted' ? (
        <Button
          size="sm"
          variant="secondary"
          isDisabled={busy}
          onPress={() => post({ intent: 'status', status: 'accepted' })}
        >
          {t('extraWork.accept')}
        </Button>
      ) : null}
      {canAccept && status !== null && status !== 'declined' ? (
        <Button
          size="sm"
          variant="secondary"
          isDisabled={busy}
          onPress={() => post({ intent: 'status', status: 'declined' })}
        >
          {t('extraWork.decline')}
        </Button>
      ) : null}
    </>
  );

  return (
    <Frame workOrder={workOrder} status={status} actions={actions}>
      {amount !== null ? (
        <p className="mt-2 text-sm font-medium text-slate-900 tabular-nums">
          {t('extraWork.amount', { amount: formatMoney(amount) })}
        </p>
      ) : null}
      <h4 className="mt-4 text-sm font-semibold">{t('extraWork.links')}</h4>
      {links.length === 0 ? (
        <p className="mt-1 text-sm text-slate-600">{t('extraWork.noLinks')}</p>
      ) : (
        <ul className="mt-2 divide-y divide-slate-100" data-testid="extra-work-links">
          {links.map((l) => (
            <li key={l.id} className="py-2 text-sm">
              <div className="flex flex-wrap items-center gap-2">
                <span className="font-medium break-all">{l.email}</span>
                <span className={`rounded px-2 py-0.5 text-xs ${STATE_CLASS[l.state]}`}>
                  {t(`extraWork.linkState.${l.state}`)}
                </span>
              </div>
              <p className="text-slate-600">
                {l.sentByName
                  ? t('extraWork.sentLine', { date: when(l.sentAt), name: l.sentByName })
                  : t('extraWork.sentLineAnonymous', { date: when(l.sentAt) })}
                {l.state === 'open' ? ` · ${t('extraWork.validUntil', { date: when(l.expiresAt) })}` : ''}
              </p>
              {l.answer && l.answeredAt ? (
                <p className="text-slate-800">
                  {t(l.answer === 'accepted' ? 'extraWork.answeredAccepted' : 'extraWork.answeredDeclined', {
                    name: l.answeredName ?? '—',
                    date: when(l.answeredAt),
                  })}
                </p>
              ) : null}
            </li>
          ))}
        </ul>
      )}

      <Dialog
        title={t('extraWork.sendTitle')}
        isOpen={sending !== null}
        onOpenChange={(open) => {
          if (!open) setSending(null);
        }}
        isDismissable={!busy}
        footer={({ close }) => (
          <>
            <Button variant="secondary" onPress={close} isDisabled={busy}>
              {t('extraWork.cancel')}
            </Button>
            <Button
              isPending={busy}
              onPress={() => sending && post({ intent: 'send', email: sending.email, message: sending.message })}
            >
              {t('extraWork.sendNow')}
            </Button>
          </>
        )}
      >
        {sending ? (
          <form
            className="grid gap-3"
            onSubmit={(e) => {
              e.preventDefault();
              post({ intent: 'send', email: sending.email, message: sending.message });
            }}
          >
            <p className="text-sm text-slate-700">
              {t('extraWork.sendIntro', { number: workOrder.number, title: workOrder.title })}
            </p>
            <TextField
              label={t('extraWork.email')}
              type="email"
              value={sending.email}
              onChange={(v) => setSending((s) => (s ? { ...s, email: v } : s))}
              isRequired
              maxLength={254}
              errorMessage={err('email')}
              autoFocus
            />
            <div className="flex min-w-0 flex-col gap-1">
              <label htmlFor={messageId} className="text-sm font-medium text-gray-900">
                {t('extraWork.message')}
              </label>
              <textarea
                id={messageId}
                rows={4}
                maxLength={2000}
                className={`${NATIVE_INPUT_CLASS} py-2`}
                value={sending.message}
                onChange={(e) => setSending((s) => (s ? { ...s, message: e.target.value } : s))}
                aria-describedby={`${messageId}-hint`}
              />
              <span id={`${messageId}-hint`} className="text-sm text-slate-600">
                {err('message')?.join(' ') ?? t('extraWork.messageHint')}
              </span>
            </div>
            <button type="submit" hidden />
          </form>
        ) : null}
      </Dialog>
    </Frame>
  );
}
