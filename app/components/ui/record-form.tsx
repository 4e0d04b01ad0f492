import { useCallback, useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Form, useBlocker, useNavigation } from 'react-router';
import { Button } from './button';
import { cx } from './class-names';
import { ConfirmDialog } from './dialog';

/*
 * One record form (issue 29 item 6): a register's record (contract, project, supplier, …) is a
 * POST form of sections, saved with a save bar that stays in sight, knows whether anything was
 * changed since it was loaded or saved, asks before a changed form is left, and shows the error
 * a save was refused with when it names no field. The fields stay the page's own, uncontrolled
 * with `defaultValue`, so the form works before hydration; a page keys the form by the record's
 * version, so a successful save starts it again from what was saved.
 */

/** What the form holds now, as text, to compare with what it was loaded with. */
function snapshot(form: HTMLFormElement): string {
  const pairs: string[] = [];
  for (const [name, value] of new FormData(form)) if (typeof value === 'string') pairs.push(`${name}=${value}`);
  return pairs.join('\u0000');
}

/**
 * Whether the form differs from what it was loaded with. Checked after every input, change, click
 * and key of the form's fields, a tick later, when React Aria's pickers (whose popovers are
 * portals, but whose events still bubble through the React tree) have written their hidden inputs.
 */
export function useFormDirty(savedAs?: unknown) {
  const ref = useRef<HTMLFormElement>(null);
  const initial = useRef<string | null>(null);
  const [dirty, setDirty] = useState(false);
  // loaded, or saved as a new version: what the form holds now is what is stored
  useEffect(() => {
    if (ref.current) initial.current = snapshot(ref.current);
    setDirty(false);
  }, [savedAs]);
  const check = useCallback(() => {
    setTimeout(() => {
      if (ref.current && initial.current !== null) setDirty(snapshot(ref.current) !== initial.current);
    }, 0);
  }, []);
  const watch = { onInput: check, onChange: check, onClick: check, onKeyUp: check, onBlur: check };
  return { ref, dirty, watch };
}

/**
 * Asks before leaving a page whose form has unsaved changes: a dialog for a link inside the app,
 * the browser's own question for closing the tab or typing another address. A save is not asked
 * about (`saving`), nor is a move within the same page (a tab or filter in the query).
 */
export function useLeaveGuard(dirty: boolean, saving: boolean) {
  const { t } = useTranslation('ui');
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) => dirty && !saving && currentLocation.pathname !== nextLocation.pathname,
  );
  useEffect(() => {
    if (!dirty) return;
    const ask = (e: BeforeUnloadEvent) => {
      e.preventDefault();
      // older Chromium asks only when returnValue is set
      e.returnValue = '';
    };
    window.addEventListener('beforeunload', ask);
    return () => window.removeEventListener('beforeunload', ask);
  }, [dirty]);
  return (
    <ConfirmDialog
      isOpen={blocker.state === 'blocked'}
      onOpenChange={(open) => (open ? null : blocker.reset?.())}
      title={t('form.leave.title')}
      message={t('form.leave.message')}
      confirmLabel={t('form.leave.confirm')}
      variant="danger"
      onConfirm={() => blocker.proceed?.()}
    />
  );
}

export interface RecordFormProps {
  /** The record's version: posted, so a save over someone else's is refused, not applied. */
  version?: number | string;
  /** What changes when a save lands, for a record without a version (its update time). */
  savedAs?: unknown;
  /** The `intent` the save posts (`save`). */
  intent?: string;
  /** Without it the fields are for reading and there is no save button. */
  canEdit: boolean;
  submitLabel: string;
  /** Beside the save button: close, reopen, delete. */
  actions?: ReactNode;
  /**
   * Why the last save was refused, translated, when it names no field (someone saved in between,
   * the record is closed): shown in the save bar. Field errors belong to their fields.
   */
  error?: string | null;
  /** Guard leaving with unsaved changes (default); a form inside a dialog says no. */
  guardLeaving?: boolean;
  children: ReactNode;
  className?: string;
}

/** A record's form: its sections, then the save bar. */
export function RecordForm({
  version,
  savedAs,
  intent = 'save',
  canEdit,
  submitLabel,
  actions,
  error,
  guardLeaving = true,
  children,
  className,
}: RecordFormProps) {
  const { t } = useTranslation('ui');
  const navigation = useNavigation();
  const { ref, dirty, watch } = useFormDirty(savedAs ?? version);
  const [submitted, setSubmitted] = useState(false);
  const saving = navigation.state !== 'idle' && (navigation.formData?.get('intent') ?? intent) === intent;
  useEffect(() => {
    if (navigation.state === 'idle') setSubmitted(false);
  }, [navigation.state]);
  const leaveGuard = useLeaveGuard(guardLeaving && canEdit && dirty, saving || submitted);
  const onSubmit = (_e: FormEvent<HTMLFormElement>) => setSubmitted(true);
  return (
    <Form ref={ref} method="post" className={cx('grid gap-6', className)} noValidate onSubmit={onSubmit} {...watch}>
      <input type="hidden" name="intent" value={intent} />
      {version !== undefined ? <input type="hidden" name="version" value={version} /> : null}
      {children}
      {canEdit || actions ? (
        <div className="sticky bottom-0 z-10 -mx-4 flex flex-wrap items-center gap-2 border-t border-slate-200 bg-white/95 px-4 py-3 sm:-mx-6 sm:px-6">
          {canEdit ? (
            <Button type="submit" variant="primary" isPending={saving}>
              {submitLabel}
            </Button>
          ) : null}
          {actions}
          {canEdit && dirty && !saving ? (
            <span role="status" className="text-sm text-amber-800">
              {t('form.unsaved')}
            </span>
          ) : null}
          {error ? (
            <p role="alert" className="basis-full text-sm text-red-700">
              {error}
            </p>
          ) : null}
        </div>
      ) : null}
      {leaveGuard}
    </Form>
  );
}

export interface FormSectionProps {
  /** The section's legend, already translated. */
  title: string;
  /** Fields side by side from the small breakpoint up. */
  columns?: 1 | 2 | 3;
  children: ReactNode;
  className?: string;
}

const COLUMNS = { 1: '', 2: 'sm:grid-cols-2', 3: 'sm:grid-cols-3' } as const;

/** A named group of a record form's fields. */
export function FormSection({ title, columns = 2, children, className }: FormSectionProps) {
  return (
    <fieldset className={cx('grid gap-4', COLUMNS[columns], className)}>
      <legend className="mb-2 text-lg font-medium">{title}</legend>
      {children}
    </fieldset>
  );
}

/**
 * What every field of a record form repeats: its name, whether it may be changed, and its errors
 * from the last save. `<TextField {...field('title')} label={…} defaultValue={…} />`.
 */
export function recordFields(errors: (name: string) => string[] | undefined, isDisabled: boolean) {
  return (name: string) => ({ name, isDisabled, errorMessage: errors(name) });
}

/**
 * A select's people: "nobody", the active users, and the one chosen before even if no longer
 * active (it stays chosen until someone changes it).
 */
export function peopleItems(
  users: readonly { id: string; name: string }[],
  none: { id: string; label: string },
  chosen?: { id: string | null; name: string | null },
) {
  return [
    none,
    ...users.map((u) => ({ id: u.id, label: u.name })),
    ...(chosen?.id && !users.some((u) => u.id === chosen.id)
      ? [{ id: chosen.id, label: chosen.name ?? chosen.id }]
      : []),
  ];
}
