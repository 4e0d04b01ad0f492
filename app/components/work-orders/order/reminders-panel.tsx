import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useFetcher } from 'react-router';
import {
  Button,
  ConfirmDialog,
  DatePicker,
  dateTimeValueOf,
  Dialog,
  formatDateTime,
  Select,
  Spinner,
  TextField,
  useToast,
  wallClockOf,
} from '~/app/components/ui';
import { useCan } from '~/app/lib/can';
import type { RemindersActionResult, RemindersLoaderResult } from '~/app/routes/work-orders.$id.reminders';
import type { DateFormat } from '~/core/i18n/number-format';
import type { Reminder, RemindersPanelData } from '~/core/work-orders/reminders.service';
import { isoToWallClock } from '~/core/work-orders/time-rules';
import { useFetcherResult } from '~/app/lib/use-fetcher-result';

const HOUR = 3_600_000;

/** What the reminder dialog edits; null id for a new reminder. */
interface Draft {
  id: string | null;
  userId: string;
  /** Wall-clock time (`YYYY-MM-DDTHH:MM`) in the tenant's zone. */
  due: string;
  message: string;
  /** The reminder was mailed already: only a time ahead arms it again. */
  sent: boolean;
}

const panelUrl = (workOrderId: string) => `/work-orders/${workOrderId}/reminders`;

/**
 * The reminders on a work order (spec section 3, app module `reminders`): when, whom and what, and
 * whether the mail has gone. Shown only with the module on; it loads its own data, so the order
 * page's loader does not change.
 */
export function RemindersPanel({ workOrderId }: { workOrderId: string }) {
  const can = useCan();
  return can('workorders:read', 'reminders') ? <LoadedReminders workOrderId={workOrderId} /> : null;
}

function Section({ workOrderId, action, children }: { workOrderId: string; action?: ReactNode; children: ReactNode }) {
  const { t } = useTranslation('reminders');
  return (
    <section
      aria-labelledby={`wo-reminders-${workOrderId}`}
      className="min-w-0 rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200"
    >
      <div className="flex items-center justify-between gap-2">
        <h3 id={`wo-reminders-${workOrderId}`} className="text-base font-semibold">
          {t('title')}
        </h3>
        {action}
      </div>
      {children}
    </section>
  );
}

function LoadedReminders({ workOrderId }: { workOrderId: string }) {
  const { t } = useTranslation('reminders');
  const { t: tc } = useTranslation();
  const loader = useFetcher<RemindersLoaderResult>();
  const url = panelUrl(workOrderId);
  useEffect(() => {
    void loader.load(url);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [url]);
  const answer = loader.data;
  if (answer && 'data' in answer)
    return (
      <RemindersContent
        workOrderId={workOrderId}
        data={answer.data}
        config={answer.config}
        timeZone={answer.timeZone}
      />
    );
  return (
    <Section workOrderId={workOrderId}>
      {answer && 'error' in answer && loader.state === 'idle' ? (
        <p className="mt-2 flex flex-wrap items-center gap-2 text-sm text-red-700">
          {tc(answer.error)}
          <Button size="sm" variant="secondary" onPress={() => void loader.load(url)}>
            {t('retry')}
          </Button>
        </p>
      ) : (
        <Spinner label={t('loading')} className="mt-2" />
      )}
    </Section>
  );
}

export interface RemindersContentProps {
  workOrderId: string;
  data: RemindersPanelData;
  config: { dateFormat: DateFormat; country: string };
  timeZone: string;
}

/** The list with its dialogs, on data already loaded (server-rendered alone in tests). */
export function RemindersContent({ workOrderId, data, config, timeZone }: RemindersContentProps) {
  const { t } = useTranslation('reminders');
  const { t: tc } = useTranslation();
  const toast = useToast();
  const fetcher = useFetcher<RemindersActionResult>();
  const [view, setView] = useState(data);
  const [draft, setDraft] = useState<Draft | null>(null);
  const [deleting, setDeleting] = useState<Reminder | null>(null);
  /** The field errors of the last save, until the dialog opens again. */
  const [fields, setFields] = useState<Record<string, string[]>>({});

  useEffect(() => setView(data), [data]);

  useFetcherResult(fetcher, (result) => {
    if (result.ok) {
      setView(result.data);
      setDraft(null);
      setDeleting(null);
      toast.show({
        kind: 'success',
        message: tc(result.intent === 'delete' ? 'SUCCESSFULLY_DELETED' : 'SUCCESSFULLY_SAVED'),
      });
    } else {
      setFields(result.fields ?? {});
      if (result.code !== 'VALIDATION_FAILED' || !draft) toast.show({ kind: 'error', message: tc(result.code) });
    }
  });

  const busy = fetcher.state !== 'idle';
  const due = (r: Reminder) => formatDateTime(r.dueAt, config);
  const err = (key: string) => {
    const list = (fields[key] ?? []).map((k) => tc(k));
    return list.length ? list : undefined;
  };
  const set = (patch: Partial<Draft>) => setDraft((d) => (d ? { ...d, ...patch } : d));

  function openDraft(r: Reminder | null) {
    setFields({});
    if (r) {
      setDraft({
        id: r.id,
        userId: r.userId,
        due: isoToWallClock(r.dueAt, timeZone),
        message: r.message,
        sent: !!r.sentAt,
      });
      return;
    }
    // the next full hour
    const next = new Date(Math.ceil((Date.now() + 1) / HOUR) * HOUR).toISOString();
    setDraft({
      id: null,
      userId: view.defaultUserId ?? view.users[0]?.id ?? '',
      due: isoToWallClock(next, timeZone),
      message: '',
      sent: false,
    });
  }

  function save(d: Draft) {
    void fetcher.submit(
      { intent: 'save', id: d.id ?? '', userId: d.userId, due: d.due, message: d.message },
      { method: 'post', action: panelUrl(workOrderId) },
    );
  }

  return (
    <Section
      workOrderId={workOrderId}
      action={
        view.canEdit ? (
          <Button size="sm" onPress={() => openDraft(null)}>
            {t('add')}
          </Button>
        ) : null
      }
    >
      {view.reminders.length === 0 ? (
        <p className="mt-2 text-sm text-slate-600">{t('empty')}</p>
      ) : (
        <ul className="mt-3 divide-y divide-slate-100">
          {view.reminders.map((r) => (
            <li key={r.id} className="flex flex-wrap items-start justify-between gap-2 py-2">
              <div className="min-w-0 text-sm">
                <div className="flex flex-wrap items-center gap-2 font-medium">
                  <span className="tabular-nums">{due(r)}</span>
                  <span className="break-words">{r.userName}</span>
                  {r.sentAt ? (
                    <span className="rounded bg-green-100 px-2 py-0.5 text-xs text-green-900">{t('sent')}</span>
                  ) : (
                    <span className="rounded bg-slate-100 px-2 py-0.5 text-xs text-slate-700">{t('pending')}</span>
                  )}
                </div>
                {r.message ? <p className="break-words whitespace-pre-line text-slate-700">{r.message}</p> : null}
                {r.createdByName ? (
                  <p className="text-xs text-slate-500">{t('byline', { name: r.createdByName })}</p>
                ) : null}
              </div>
              {view.canEdit ? (
                <div className="flex gap-1">
                  <Button
                    size="sm"
                    variant="secondary"
                    aria-label={t('editRow', { name: r.userName, due: due(r) })}
                    onPress={() => openDraft(r)}
                  >
                    {t('edit')}
                  </Button>
                  <Button
                    size="sm"
                    variant="ghost"
                    aria-label={t('deleteRow', { name: r.userName, due: due(r) })}
                    onPress={() => setDeleting(r)}
                  >
                    {t('delete')}
                  </Button>
                </div>
              ) : null}
            </li>
          ))}
        </ul>
      )}

      <Dialog
        title={draft?.id ? t('editTitle') : t('addTitle')}
        isOpen={draft !== null}
        onOpenChange={(open) => {
          if (!open) setDraft(null);
        }}
        isDismissable={!busy}
        footer={({ close }) => (
          <>
            <Button variant="secondary" onPress={close} isDisabled={busy}>
              {t('cancel')}
            </Button>
            <Button isPending={busy} onPress={() => draft && save(draft)}>
              {t('save')}
            </Button>
          </>
        )}
      >
        {draft ? (
          <form
            className="grid gap-3"
            onSubmit={(e) => {
              e.preventDefault();
              save(draft);
            }}
          >
            {draft.sent ? <p className="text-sm text-amber-800">{t('sentHint')}</p> : null}
            <DatePicker
              label={t('due')}
              granularity="minute"
              errorMessage={err('dueAt')}
              value={dateTimeValueOf(draft.due)}
              onChange={(v) => set({ due: wallClockOf(v) })}
            />
            <Select
              label={t('person')}
              items={view.users.map((u) => ({ id: u.id, label: u.name }))}
              selectedKey={draft.userId || null}
              onSelectionChange={(key) => key && set({ userId: String(key) })}
              errorMessage={err('userId')}
            />
            <TextField
              label={t('message')}
              description={t('messageHint')}
              value={draft.message}
              onChange={(v) => set({ message: v })}
              maxLength={1000}
              errorMessage={err('message')}
            />
            {/* Enter in a field saves */}
            <button type="submit" hidden />
          </form>
        ) : null}
      </Dialog>

      <ConfirmDialog
        title={t('deleteTitle')}
        message={deleting ? t('deleteMessage', { name: deleting.userName, due: due(deleting) }) : undefined}
        confirmLabel={t('delete')}
        variant="danger"
        isOpen={deleting !== null}
        onOpenChange={(open) => {
          if (!open) setDeleting(null);
        }}
        isPending={busy}
        onConfirm={() => {
          if (deleting)
            void fetcher.submit(
              { intent: 'delete', id: deleting.id },
              { method: 'post', action: panelUrl(workOrderId) },
            );
        }}
      />
    </Section>
  );
}
