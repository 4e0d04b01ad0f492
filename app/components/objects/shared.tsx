import { useEffect } from 'react';
import { TextArea as AriaTextArea, TextField as AriaTextField } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { Link, useRouteLoaderData } from 'react-router';
import { cx } from '~/app/components/ui/class-names';
import {
  FIELD_CLASS,
  FieldDescription,
  FieldErrorText,
  FieldLabel,
  hasError,
  INPUT_FOCUS_CLASS,
  type ErrorMessage,
} from '~/app/components/ui/field';
import { useToast, type DateFormat } from '~/app/components/ui';
export { DateTime } from '~/app/components/ui/date-time';
import type { loader as rootLoader } from '~/app/root';

/** What the object and model pages' actions answer. */
export type ActionResult = {
  ok?: boolean;
  intent?: string;
  code?: string;
  fields?: Record<string, string[]>;
  usedBy?: Record<string, number>;
  /** A success message key of the `objects` namespace, instead of "Saved". */
  message?: string;
};

/**
 * Shows an action's outcome once: success (its own message, a key of `ns`, or "Saved"), or the
 * error's message key; IN_USE says what still uses the thing ("used by 3 objects"). A refused save
 * that a `RecordForm` shows in its save bar (`saveBar`, `formErrorOf`) is not said twice.
 */
export function useResultToast(
  result: ActionResult | undefined,
  { ns = 'objects', saveBar = false }: { ns?: string; saveBar?: boolean } = {},
) {
  const { t } = useTranslation(ns);
  const { t: tc } = useTranslation();
  const toast = useToast();
  useEffect(() => {
    if (!result) return;
    if (saveBar && formErrorOf(result)) return;
    if (result.ok)
      toast.show({ kind: 'success', message: result.message ? t(result.message) : tc('SUCCESSFULLY_SAVED') });
    else if (result.code === 'IN_USE' && result.usedBy) {
      const usedBy = Object.entries(result.usedBy)
        .map(([kind, count]) => t(`usedBy.${kind}`, { count, defaultValue: `${kind}: ${count}` }))
        .join(', ');
      toast.show({ kind: 'error', message: tc('IN_USE', { usedBy }) });
    } else if (result.code) toast.show({ kind: 'error', message: tc(result.code) });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [result]);
}

/**
 * The code a refused save answered when it names no field (someone saved in between, the record
 * was closed): a `RecordForm` shows it in its save bar. Null for other intents and for success.
 */
export function formErrorOf(result: ActionResult | undefined, intent = 'save'): string | null {
  if (!result || result.ok || !result.code || result.intent !== intent) return null;
  return result.fields && Object.keys(result.fields).length ? null : result.code;
}

/** Translated field errors of a result: `err('serialCode')` also finds `bo.serialCode`. */
export function useFieldErrors(result: ActionResult | undefined, prefix?: string) {
  const { t: tc } = useTranslation();
  return (name: string): string[] | undefined => {
    const keys = result?.fields?.[prefix ? `${prefix}.${name}` : name] ?? result?.fields?.[name];
    return keys?.map((k) => tc(k));
  };
}

export interface TextAreaProps {
  label: string;
  name?: string;
  defaultValue?: string;
  value?: string;
  onChange?: (value: string) => void;
  description?: string;
  errorMessage?: ErrorMessage;
  isRequired?: boolean;
  isDisabled?: boolean;
  rows?: number;
  className?: string;
}

/** A labelled multi-line text field, styled like TextField. */
export function TextArea({
  label,
  description,
  errorMessage,
  rows = 3,
  className,
  isRequired,
  ...props
}: TextAreaProps) {
  return (
    <AriaTextField
      {...props}
      isRequired={isRequired}
      isInvalid={hasError(errorMessage) || undefined}
      className={cx(FIELD_CLASS, className)}
    >
      <FieldLabel isRequired={isRequired}>{label}</FieldLabel>
      <AriaTextArea
        rows={rows}
        className={cx(
          'w-full min-w-0 rounded-md border border-gray-300 bg-white px-3 py-2 text-base text-gray-900 shadow-xs sm:text-sm',
          'group-data-invalid/field:border-red-600 group-data-disabled/field:bg-gray-100',
          INPUT_FOCUS_CLASS,
        )}
      />
      <FieldDescription>{description}</FieldDescription>
      <FieldErrorText errorMessage={errorMessage} />
    </AriaTextField>
  );
}

/** The tenant's date format (root loader). */
export function useDateFormat(): DateFormat {
  return (useRouteLoaderData<typeof rootLoader>('root')?.dateFormat as DateFormat) ?? 'YYYY-MM-DD';
}

/**
 * Previous / next links for a server-paged list: keeps the other query parameters and moves
 * `offset` by `limit`.
 */
export function Pager({
  offset,
  limit,
  total,
  search,
}: {
  offset: number;
  limit: number;
  total: number;
  search: URLSearchParams;
}) {
  const { t } = useTranslation('objects');
  if (total <= limit) return null;
  const to = (o: number) => {
    const p = new URLSearchParams(search);
    if (o > 0) p.set('offset', String(o));
    else p.delete('offset');
    return `?${p}`;
  };
  const link = 'inline-flex min-h-10 items-center rounded-md px-3 text-sm font-medium text-blue-800 hover:bg-blue-50';
  return (
    <nav aria-label={t('pager.label')} className="mt-3 flex items-center justify-between gap-2 text-sm">
      {offset > 0 ? (
        <Link to={to(Math.max(0, offset - limit))} className={link}>
          ← {t('pager.previous')}
        </Link>
      ) : (
        <span />
      )}
      <span className="text-slate-600">
        {t('pager.range', { from: offset + 1, to: Math.min(offset + limit, total), total })}
      </span>
      {offset + limit < total ? (
        <Link to={to(offset + limit)} className={link}>
          {t('pager.next')} →
        </Link>
      ) : (
        <span />
      )}
    </nav>
  );
}

/** A white card with a heading, the page's building block. */
export function Card({
  title,
  actions,
  children,
  className,
}: {
  title?: string;
  actions?: React.ReactNode;
  children: React.ReactNode;
  className?: string;
}) {
  return (
    <section className={cx('min-w-0 rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6', className)}>
      {title || actions ? (
        <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
          {title ? <h2 className="text-lg font-medium">{title}</h2> : <span />}
          {actions}
        </div>
      ) : null}
      {children}
    </section>
  );
}
