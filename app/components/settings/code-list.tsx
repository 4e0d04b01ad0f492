import { useRef, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useFetcher } from 'react-router';
import type { ActionError } from '~/app/lib/action-error.server';
import { useFetcherResult } from '~/app/lib/use-fetcher-result';
import { Button, ConfirmDialog, Dialog, Select, TextField, useToast } from '~/app/components/ui';
import { cx } from '~/app/components/ui/class-names';

/**
 * What the settings pages of typed codes share (time codes, compensation types): the list of a
 * type's codes with change, set (in)active and delete, the add/change dialog, and deleting that
 * offers to set the code inactive when something uses it (409 IN_USE). The page posts to its own
 * action with `intent` 'delete' for deletes; any other intent saves.
 */

export type CodeListResult = { ok: true; intent: string } | ActionError;

/** The fields every code's form posts, as the services take them. */
export const postedCode = (f: Record<string, string>) => ({
  code: f.code,
  name: f.name,
  type: f.type,
  payrollCode: f.payrollCode,
  active: f.active,
  sortOrder: f.sortOrder || undefined,
});

/**
 * The page's fetcher, its draft, the code asked about deleting and the one found in use. `toInUse`
 * makes what the in-use question shows from the code and the answer; `closeDeleteOnInUse` closes
 * the delete question when it opens.
 */
export function useCodeList<D, T extends { id: string }, I>({
  toInUse,
  closeDeleteOnInUse,
}: {
  toInUse: (code: T, result: ActionError) => I;
  closeDeleteOnInUse: boolean;
}) {
  const { t: tc } = useTranslation();
  const toast = useToast();
  const fetcher = useFetcher<CodeListResult>();
  const [draft, setDraft] = useState<D | null>(null);
  const [deleting, setDeleting] = useState<T | null>(null);
  /** The code whose delete is on its way: a 409 IN_USE offers to set it inactive instead. */
  const deleted = useRef<T | null>(null);
  const [inUse, setInUse] = useState<I | null>(null);
  const [fields, setFields] = useState<Record<string, string[]>>({});
  useFetcherResult(fetcher, (result) => {
    const wasDeleting = deleted.current;
    deleted.current = null;
    if ('ok' in result) {
      setDraft(null);
      setDeleting(null);
      setInUse(null);
      toast.show({
        kind: 'success',
        message: tc(result.intent === 'delete' ? 'SUCCESSFULLY_DELETED' : 'SUCCESSFULLY_SAVED'),
      });
    } else if (result.code === 'IN_USE' && wasDeleting) {
      if (closeDeleteOnInUse) setDeleting(null);
      setInUse(toInUse(wasDeleting, result));
    } else {
      setFields(result.fields ?? {});
      if (result.code !== 'VALIDATION_FAILED' || !draft) toast.show({ kind: 'error', message: tc(result.code) });
    }
  });

  return {
    fetcher,
    busy: fetcher.state !== 'idle',
    draft,
    setDraft,
    deleting,
    setDeleting,
    inUse,
    setInUse,
    /** The translated errors of a field. */
    err: (k: string) => fields[k]?.map((c) => tc(c)),
    /** Changes the open draft. */
    set: (patch: Partial<D>) => setDraft((x) => (x ? { ...x, ...patch } : x)),
    /** Opens the dialog on a draft, clearing the last errors. */
    openDraft: (next: D) => {
      setFields({});
      setDraft(next);
    },
    /** Deletes the code asked about. */
    confirmDelete: () => {
      if (!deleting) return;
      deleted.current = deleting;
      void fetcher.submit({ intent: 'delete', id: deleting.id }, { method: 'post' });
    },
  };
}

/** A type's heading and its add button. */
export function CodeListHeader({
  heading,
  canEdit,
  addLabel,
  onAdd,
}: {
  heading: ReactNode;
  canEdit: boolean;
  addLabel: string;
  onAdd: () => void;
}) {
  return (
    <div className="flex flex-wrap items-center justify-between gap-2">
      {heading}
      {canEdit ? (
        <Button size="sm" variant="secondary" onPress={onAdd}>
          {addLabel}
        </Button>
      ) : null}
    </div>
  );
}

interface CodeActions {
  editLabel: string;
  toggleLabel: string;
  toggleText: string;
  deleteLabel: string;
}

/** A type's codes, inactive ones greyed, each with change, set (in)active and delete; or the empty text. */
export function CodeList<T extends { id: string; active: boolean }>({
  codes,
  label,
  empty,
  spacing,
  canEdit,
  busy,
  editText,
  deleteText,
  actions,
  onEdit,
  onToggle,
  onDelete,
  children,
}: {
  codes: T[];
  /** The list's accessible name. */
  label: string;
  empty: string;
  /** The space above the list: 'mt-2' or 'mt-3'. */
  spacing: string;
  canEdit: boolean;
  busy: boolean;
  editText: string;
  deleteText: string;
  actions: (code: T) => CodeActions;
  onEdit: (code: T) => void;
  onToggle: (code: T) => void;
  onDelete: (code: T) => void;
  /** What a row says about its code. */
  children: (code: T) => ReactNode;
}) {
  if (codes.length === 0)
    return (
      <p className={`${spacing} rounded-lg border border-dashed border-slate-300 p-3 text-sm text-slate-600`}>
        {empty}
      </p>
    );
  return (
    <ul className={`${spacing} divide-y divide-slate-100`} aria-label={label}>
      {codes.map((code) => {
        const a = canEdit ? actions(code) : null;
        return (
          <li
            key={code.id}
            className={cx('flex flex-wrap items-center justify-between gap-2 py-2', !code.active && 'text-slate-500')}
          >
            <div className="min-w-0">{children(code)}</div>
            {a ? (
              <div className="flex flex-wrap gap-1">
                <Button size="sm" variant="secondary" onPress={() => onEdit(code)} aria-label={a.editLabel}>
                  {editText}
                </Button>
                <Button
                  size="sm"
                  variant="ghost"
                  isDisabled={busy}
                  onPress={() => onToggle(code)}
                  aria-label={a.toggleLabel}
                >
                  {a.toggleText}
                </Button>
                <Button size="sm" variant="ghost" onPress={() => onDelete(code)} aria-label={a.deleteLabel}>
                  {deleteText}
                </Button>
              </div>
            ) : null}
          </li>
        );
      })}
    </ul>
  );
}

/** The add/change dialog: the draft's fields, then cancel and save. */
export function CodeDialog<D>({
  title,
  draft,
  onClose,
  busy,
  onSubmit,
  cancelLabel,
  saveLabel,
  children,
}: {
  title: string;
  draft: D | null;
  onClose: () => void;
  busy: boolean;
  onSubmit: (e: FormEvent) => void;
  cancelLabel: string;
  saveLabel: string;
  children: (draft: D) => ReactNode;
}) {
  return (
    <Dialog
      title={title}
      isOpen={draft !== null}
      onOpenChange={(open) => (open ? undefined : onClose())}
      isDismissable={!busy}
    >
      {draft ? (
        <form className="grid gap-3" onSubmit={onSubmit} noValidate>
          {children(draft)}
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <Button variant="secondary" onPress={onClose} isDisabled={busy}>
              {cancelLabel}
            </Button>
            <Button type="submit" variant="primary" isPending={busy}>
              {saveLabel}
            </Button>
          </div>
        </form>
      ) : null}
    </Dialog>
  );
}

/** The fields every code has, as its page names them. */
interface CodeFieldLabels {
  code: string;
  codeHelp?: string;
  type: string;
  name: string;
  nameHelp: string;
  payrollCode: string;
  payrollCodeHelp: string;
  sortOrder: string;
  active: string;
}

export interface CodeDraft<Type extends string> {
  id: string | null;
  code: string;
  name: string;
  type: Type;
  payrollCode: string;
  sortOrder: string;
  active: boolean;
}

/**
 * The dialog's fields every code has: code and type, name (the code's own name as placeholder),
 * payroll code and sort order, active; `middle` goes after the name, `leading` first beside the
 * payroll code.
 */
export function CodeFields<Type extends string, D extends CodeDraft<Type>>({
  draft,
  set,
  err,
  labels,
  types,
  namePlaceholder,
  normalizeCode = (v) => v,
  middle,
  leading,
}: {
  draft: D;
  set: (patch: Partial<D>) => void;
  err: (field: string) => string[] | undefined;
  labels: CodeFieldLabels;
  types: { id: Type; label: string }[];
  namePlaceholder: string | undefined;
  normalizeCode?: (typed: string) => string;
  middle?: ReactNode;
  leading?: ReactNode;
}) {
  return (
    <>
      <div className="grid gap-3 sm:grid-cols-2">
        <TextField
          label={labels.code}
          value={draft.code}
          onChange={(v) => set({ code: normalizeCode(v) } as Partial<D>)}
          description={labels.codeHelp}
          errorMessage={err('code')}
          isRequired
          autoFocus
        />
        <Select
          label={labels.type}
          items={types}
          selectedKey={draft.type}
          onSelectionChange={(k) => k && set({ type: k as Type } as Partial<D>)}
          errorMessage={err('type')}
        />
      </div>
      <TextField
        label={labels.name}
        value={draft.name}
        onChange={(v) => set({ name: v } as Partial<D>)}
        placeholder={namePlaceholder}
        description={labels.nameHelp}
        errorMessage={err('name')}
      />
      {middle}
      <div className="grid gap-3 sm:grid-cols-2">
        {leading}
        <TextField
          label={labels.payrollCode}
          value={draft.payrollCode}
          onChange={(v) => set({ payrollCode: v } as Partial<D>)}
          description={labels.payrollCodeHelp}
          errorMessage={err('payrollCode')}
        />
        <TextField
          label={labels.sortOrder}
          value={draft.sortOrder}
          onChange={(v) => set({ sortOrder: v } as Partial<D>)}
          inputMode="numeric"
          errorMessage={err('sortOrder')}
        />
      </div>
      <label className="flex min-h-11 items-center gap-2 text-sm">
        <input
          type="checkbox"
          checked={draft.active}
          onChange={(e) => set({ active: e.target.checked } as Partial<D>)}
          className="h-5 w-5"
        />
        {labels.active}
      </label>
    </>
  );
}

/** The question before a code is deleted, and the offer to set it inactive when it is in use. */
export function CodeDeleteDialogs({
  busy,
  deleteOpen,
  onDeleteClose,
  deleteTitle,
  deleteMessage,
  deleteLabel,
  onDelete,
  inUseOpen,
  onInUseClose,
  inUseTitle,
  inUseMessage,
  deactivateLabel,
  onDeactivate,
}: {
  busy: boolean;
  deleteOpen: boolean;
  onDeleteClose: () => void;
  deleteTitle: string;
  deleteMessage: string | undefined;
  deleteLabel: string;
  onDelete: () => void;
  inUseOpen: boolean;
  onInUseClose: () => void;
  inUseTitle: string;
  inUseMessage: string | undefined;
  deactivateLabel: string;
  onDeactivate: () => void;
}) {
  return (
    <>
      <ConfirmDialog
        isOpen={deleteOpen}
        onOpenChange={(open) => (open ? undefined : onDeleteClose())}
        title={deleteTitle}
        message={deleteMessage}
        variant="danger"
        confirmLabel={deleteLabel}
        isPending={busy}
        onConfirm={onDelete}
      />

      <ConfirmDialog
        isOpen={inUseOpen}
        onOpenChange={(open) => (open ? undefined : onInUseClose())}
        title={inUseTitle}
        message={inUseMessage}
        confirmLabel={deactivateLabel}
        isPending={busy}
        onConfirm={onDeactivate}
      />
    </>
  );
}
