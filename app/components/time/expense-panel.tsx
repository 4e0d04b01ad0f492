import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useFetcher, useRouteLoaderData } from 'react-router';
import { Button, ConfirmDialog, Dialog, formatDate, useToast, type DateFormat } from '~/app/components/ui';
import type { loader as rootLoader } from '~/app/root';
import type { ExpensesActionResult } from '~/app/routes/time.expenses';
import { useFetcherResult } from '~/app/lib/use-fetcher-result';
import { LockIcon } from '~/app/components/ui/icons';
import { DayField, useTagLabel, weekdayOf } from './expense-shared';

/**
 * The frame the mileage and compensation panels share: the state of the add/change dialog and the
 * delete question, posting to /time/expenses with its toasts and field errors, and the section,
 * row, dialog and confirmation shells around each panel's own fields.
 */

/** Today when it lies in the week, else the week's Monday. */
export function defaultDay(days: string[]): string {
  const now = new Date();
  const today = `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;
  return days.includes(today) ? today : days[0]!;
}

const EXPENSES_ACTION = { method: 'post', action: '/time/expenses' } as const;

/** A panel's dialog draft, the row asked about deleting, the fetcher and its answers. */
export function useExpensePanel<D, R extends { id: string }>(deleteIntent: string) {
  const { t } = useTranslation('expenses');
  const { t: tc } = useTranslation();
  const toast = useToast();
  const tagLabel = useTagLabel();
  const dateFormat = (useRouteLoaderData<typeof rootLoader>('root')?.dateFormat as DateFormat) ?? 'YYYY-MM-DD';
  const fetcher = useFetcher<ExpensesActionResult>();
  const [draft, setDraft] = useState<D | null>(null);
  const [deleting, setDeleting] = useState<R | null>(null);
  const [fields, setFields] = useState<Record<string, string[]>>({});
  const busy = fetcher.state !== 'idle';

  useFetcherResult(fetcher, (result) => {
    if (result.ok) {
      toast.show({
        kind: 'success',
        message: tc(result.intent === deleteIntent ? 'SUCCESSFULLY_DELETED' : 'SUCCESSFULLY_SAVED'),
      });
      setDraft(null);
      setDeleting(null);
    } else {
      setFields(result.fields ?? {});
      if (result.code !== 'VALIDATION_FAILED' || !draft) toast.show({ kind: 'error', message: tc(result.code) });
    }
  });

  /** The translated errors of the fields named, or undefined. */
  const err = (...keys: string[]) => {
    const list = keys.flatMap((k) => fields[k] ?? []).map((k) => tc(k));
    return list.length ? list : undefined;
  };

  return {
    tc,
    toast,
    tagLabel,
    fetcher,
    busy,
    draft,
    setDraft,
    deleting,
    setDeleting,
    err,
    /** "Tisdag 2026-11-24": the weekday and the date as the tenant writes it. */
    dayLabel: (date: string) => `${t(`weekday.${weekdayOf(date)}`)} ${formatDate(date, dateFormat)}`,
    /** Changes the open draft. */
    set: (patch: Partial<D>) => setDraft((d) => (d ? { ...d, ...patch } : d)),
    /** Opens the dialog on a draft, clearing the last errors. */
    openDraft: (d: D) => {
      setFields({});
      setDraft(d);
    },
    submit: (form: FormData | Record<string, string>) => void fetcher.submit(form, EXPENSES_ACTION),
    /** Deletes the row asked about. */
    confirmDelete: () => {
      if (deleting) void fetcher.submit({ intent: deleteIntent, id: deleting.id }, EXPENSES_ACTION);
    },
  };
}

export type ExpensePanel<D, R extends { id: string }> = ReturnType<typeof useExpensePanel<D, R>>;

/** The panel: its heading and add button, its rows or the empty text, the total, then its dialogs. */
export function ExpenseSection({
  headingId,
  title,
  addLabel,
  onAdd,
  canEdit,
  empty,
  isEmpty,
  rows,
  totalLabel,
  total,
  children,
}: {
  headingId: string;
  title: string;
  addLabel: string;
  onAdd: () => void;
  canEdit: boolean;
  empty: string;
  isEmpty: boolean;
  rows: ReactNode;
  totalLabel: string;
  total: ReactNode;
  children: ReactNode;
}) {
  return (
    <section aria-labelledby={headingId} className="min-w-0 rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
      <div className="flex items-center justify-between gap-2">
        <h2 id={headingId} className="text-base font-semibold">
          {title}
        </h2>
        {canEdit ? (
          <Button size="sm" onPress={onAdd}>
            {addLabel}
          </Button>
        ) : null}
      </div>

      {isEmpty ? (
        <p className="mt-2 text-sm text-slate-600">{empty}</p>
      ) : (
        <ul className="mt-3 divide-y divide-slate-100">{rows}</ul>
      )}

      <dl className="mt-3 flex gap-2 border-t border-slate-200 pt-2 text-sm">
        <dt className="text-slate-600">{totalLabel}</dt>
        <dd className="font-medium tabular-nums">{total}</dd>
      </dl>

      {children}
    </section>
  );
}

/** A row: a lock when its period is locked, its first line, the rest, and edit and delete buttons. */
export function ExpenseRow({
  locked,
  head,
  children,
  canEdit,
  editLabel,
  deleteLabel,
  onEdit,
  onDelete,
}: {
  locked: boolean;
  head: ReactNode;
  children: ReactNode;
  canEdit: boolean;
  editLabel: string;
  deleteLabel: string;
  onEdit: () => void;
  onDelete: () => void;
}) {
  const { t } = useTranslation('expenses');
  return (
    <li className="flex flex-wrap items-start justify-between gap-2 py-2">
      <div className="min-w-0 text-sm">
        <div className="flex flex-wrap items-center gap-x-2 font-medium">
          {locked ? (
            <span className="text-slate-600" title={t('locked')}>
              <LockIcon />
              <span className="sr-only">{t('locked')}</span>
            </span>
          ) : null}
          {head}
        </div>
        {children}
      </div>
      {canEdit && !locked ? (
        <div className="flex gap-1">
          <Button size="sm" variant="secondary" aria-label={editLabel} onPress={onEdit}>
            {t('edit')}
          </Button>
          <Button size="sm" variant="ghost" aria-label={deleteLabel} onPress={onDelete}>
            {t('delete')}
          </Button>
        </div>
      ) : null}
    </li>
  );
}

/** The add/change dialog: the draft's form, its day first (Enter saves), cancel and save. */
export function ExpenseDialog<D extends { date: string }>({
  panel: { draft, setDraft, busy, err, dayLabel, set },
  title,
  days,
  dateLabel,
  isDismissable,
  isSaveDisabled,
  onSave,
  children,
}: {
  panel: Pick<ExpensePanel<D, never>, 'draft' | 'setDraft' | 'busy' | 'err' | 'dayLabel' | 'set'>;
  title: string;
  /** The week's days, the draft's day chosen among them. */
  days: string[];
  dateLabel: string;
  isDismissable: boolean;
  isSaveDisabled?: boolean;
  onSave: (draft: D) => void;
  children: (draft: D) => ReactNode;
}) {
  const { t } = useTranslation('expenses');
  return (
    <Dialog
      title={title}
      isOpen={draft !== null}
      onOpenChange={(isOpen) => {
        if (!isOpen) setDraft(null);
      }}
      isDismissable={isDismissable}
      footer={({ close }) => (
        <>
          <Button variant="secondary" onPress={close} isDisabled={busy}>
            {t('cancel')}
          </Button>
          <Button isPending={busy} isDisabled={isSaveDisabled} onPress={() => draft !== null && onSave(draft)}>
            {t('save')}
          </Button>
        </>
      )}
    >
      {draft !== null ? (
        <form
          className="grid gap-3"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            if (!isSaveDisabled) onSave(draft);
          }}
        >
          <DayField
            label={dateLabel}
            errors={err('date')}
            days={days}
            dayLabel={dayLabel}
            value={draft.date}
            onChange={(date) => set({ date } as Partial<D>)}
          />
          {children(draft)}
          {/* Enter in a field saves */}
          <button type="submit" hidden />
        </form>
      ) : null}
    </Dialog>
  );
}

/** The question before a row is deleted. */
export function ExpenseDeleteDialog<R extends { id: string }>({
  panel: { deleting, setDeleting, busy, confirmDelete },
  title,
  message,
}: {
  panel: Pick<ExpensePanel<never, R>, 'deleting' | 'setDeleting' | 'busy' | 'confirmDelete'>;
  title: string;
  message: (row: R) => string;
}) {
  const { t } = useTranslation('expenses');
  return (
    <ConfirmDialog
      title={title}
      message={deleting ? message(deleting) : undefined}
      confirmLabel={t('delete')}
      variant="danger"
      isOpen={deleting !== null}
      onOpenChange={(open) => {
        if (!open) setDeleting(null);
      }}
      isPending={busy}
      onConfirm={confirmDelete}
    />
  );
}
