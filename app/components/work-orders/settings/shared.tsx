import { useEffect, useRef, useState, type ReactNode, type SetStateAction } from 'react';
import { useTranslation } from 'react-i18next';
import { useFetcher } from 'react-router';
import { Button, ConfirmDialog, useToast } from '~/app/components/ui';
import { ArrowDownIcon, ArrowUpIcon, CloseIcon } from '~/app/components/ui/icons';
import { useFetcherResult } from '~/app/lib/use-fetcher-result';

/** What the settings page's action answers for one section's form. */
export interface SaveResult {
  ok?: boolean;
  intent?: string;
  code?: string;
  fields?: Record<string, string[]>;
  usedBy?: Record<string, number>;
}

/**
 * A section's editable rows, made from the saved data. Until the user edits (and again right after
 * a successful save) the rows follow the page data, so rows added by a save get their new ids.
 */
export function useRows<S, R>(source: S[], toRows: (source: S[]) => R[]) {
  const [rows, setRowsState] = useState(() => toRows(source));
  const following = useRef(true);
  useEffect(() => {
    if (following.current) setRowsState(toRows(source));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [source]);
  return {
    rows,
    setRows: (update: SetStateAction<R[]>) => {
      following.current = false;
      setRowsState(update);
    },
    resetToSaved: () => {
      following.current = true;
      setRowsState(toRows(source));
    },
  };
}

let counter = 0;
/** A key for a row the user adds (saved rows use their id). */
export const newKey = () => `new-${++counter}`;

/**
 * One section's own save: a fetcher, so each form posts and answers separately. Shows the outcome
 * once as a toast (IN_USE says what uses the row), calls `onSaved` once the page data is fresh,
 * and gives the translated field errors of the last answer (`err('statuses.2.name')`), hidden
 * again once the user restructures the list (the row numbers no longer match).
 */
export function useSectionSave(onSaved: () => void) {
  const fetcher = useFetcher<SaveResult>();
  const { t } = useTranslation('workorders');
  const { t: tc } = useTranslation();
  const toast = useToast();
  const [stale, setStale] = useState<SaveResult | undefined>(undefined);

  const result = useFetcherResult(fetcher, (result) => {
    if (result.ok) {
      toast.show({ kind: 'success', message: tc('SUCCESSFULLY_SAVED') });
      onSaved();
    } else if (result.code === 'IN_USE') {
      const usedBy = Object.entries(result.usedBy ?? {})
        .map(([kind, count]) => t(`settings.usedBy.${kind}`, { count, defaultValue: `${kind}: ${count}` }))
        .join(', ');
      toast.show({ kind: 'error', message: tc('IN_USE', { usedBy }) });
    } else if (result.code) toast.show({ kind: 'error', message: tc(result.code) });
  });

  const fields = result && !result.ok && stale !== result ? (result.fields ?? {}) : {};
  return {
    fetcher,
    busy: fetcher.state !== 'idle',
    err: (key: string) => fields[key]?.map((k) => tc(k)),
    /** Rows were added, removed or moved: the last answer's row numbers no longer apply. */
    restructured: () => setStale(result),
  };
}

/** A card for one settings section. */
export function Section({
  id,
  title,
  intro,
  children,
}: {
  id: string;
  title: string;
  intro?: string;
  children: ReactNode;
}) {
  return (
    <section
      aria-labelledby={`${id}-title`}
      className="min-w-0 rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6"
    >
      <h2 id={`${id}-title`} className="text-lg font-medium">
        {title}
      </h2>
      {intro ? <p className="mt-1 text-sm text-slate-600">{intro}</p> : null}
      {children}
    </section>
  );
}

/** Errors that belong to a whole list or a row rather than one field. */
export function ErrorText({ messages }: { messages?: string[] }) {
  if (!messages?.length) return null;
  return (
    <p role="alert" className="text-sm text-red-700">
      {messages.join(' ')}
    </p>
  );
}

/** Move up, move down and remove for one row, labelled with the row's name for screen readers. */
export function RowTools({
  name,
  index,
  count,
  onMove,
  onRemove,
  canReorder = true,
}: {
  name: string;
  index: number;
  count: number;
  onMove?: (from: number, to: number) => void;
  onRemove: () => void;
  canReorder?: boolean;
}) {
  const { t } = useTranslation('workorders');
  const label = name.trim() || t('settings.unnamed');
  return (
    <span className="flex items-center gap-1">
      {canReorder && onMove ? (
        <>
          <Button
            size="sm"
            variant="ghost"
            isIconOnly
            isDisabled={index === 0}
            aria-label={t('settings.moveUp', { name: label })}
            onPress={() => onMove(index, index - 1)}
          >
            <ArrowUpIcon aria-hidden className="size-4" />
          </Button>
          <Button
            size="sm"
            variant="ghost"
            isIconOnly
            isDisabled={index === count - 1}
            aria-label={t('settings.moveDown', { name: label })}
            onPress={() => onMove(index, index + 1)}
          >
            <ArrowDownIcon aria-hidden className="size-4" />
          </Button>
        </>
      ) : null}
      <Button
        size="sm"
        variant="ghost"
        isIconOnly
        aria-label={t('settings.remove', { name: label })}
        onPress={onRemove}
      >
        <CloseIcon aria-hidden className="size-4" />
      </Button>
    </span>
  );
}

/**
 * Removing a saved row asks first (work orders may use it); a row added in this session goes at once.
 * Returns `ask(index)` and the dialog to render.
 */
export function useConfirmRemove<R extends { id: string | null; name: string }>(
  rows: R[],
  remove: (index: number) => void,
) {
  const { t } = useTranslation('workorders');
  const [pending, setPending] = useState<number | null>(null);
  const row = pending === null ? undefined : rows[pending];
  const ask = (index: number) => {
    if (rows[index]?.id) setPending(index);
    else remove(index);
  };
  const dialog = (
    <ConfirmDialog
      isOpen={pending !== null}
      onOpenChange={(open) => (open ? null : setPending(null))}
      title={t('settings.removeTitle')}
      message={row ? t('settings.removeConfirm', { name: row.name }) : undefined}
      confirmLabel={t('settings.removeConfirmButton')}
      variant="danger"
      onConfirm={() => {
        if (pending !== null) remove(pending);
        setPending(null);
      }}
    />
  );
  return { ask, dialog };
}

/** `rows` with the item at `from` moved to `to`. */
export function moved<T>(rows: T[], from: number, to: number): T[] {
  if (to < 0 || to >= rows.length) return rows;
  const next = [...rows];
  const [item] = next.splice(from, 1);
  next.splice(to, 0, item as T);
  return next;
}

/**
 * One settings list's editing (statuses, tags, work types, standard texts, custom fields, price
 * templates): its rows from the saved data, its own save, changing one row, and the changes of the
 * list's shape (add, remove, move) that make the last answer's row numbers stale.
 */
export function useRowList<S, R extends { key: string; id: string | null; name: string }>(
  source: S[],
  toRows: (source: S[]) => R[],
) {
  const { rows, setRows, resetToSaved } = useRows(source, toRows);
  const save = useSectionSave(resetToSaved);
  const restructure = (next: R[]) => {
    setRows(next);
    save.restructured();
  };
  const remove = useConfirmRemove(rows, (i) => restructure(rows.filter((_, j) => j !== i)));
  return {
    rows,
    setRows,
    save,
    restructure,
    remove,
    set: (i: number, patch: Partial<R>) => setRows((r) => r.map((row, j) => (i === j ? { ...row, ...patch } : row))),
  };
}

export type RowList<R extends { key: string; id: string | null; name: string }> = ReturnType<
  typeof useRowList<unknown, R>
>;

export interface RowListProps<R extends { key: string; id: string | null; name: string }> {
  list: RowList<R>;
  canEdit: boolean;
  /** The list's name, for screen readers. */
  label: string;
  /** What an empty list says. */
  empty: string;
  /** A row as it is added. */
  newRow: () => R;
  addLabel: string;
  saveLabel: string;
  /** Move up and down (off for lists whose order means nothing). */
  canReorder?: boolean;
  /** Each row's `data-testid`. */
  rowTestId?: string;
  /** The row's own layout (`flex` for one line of fields, `grid` for a field and a text below). */
  rowClassName?: string;
  /** A row's fields; `tools` are its move and remove buttons, placed where the row wants them. */
  renderRow: (row: R, index: number, tools: ReactNode) => ReactNode;
}

/** The rows of a settings list: the empty state or the ordered rows, then "add" and "save". */
export function RowListItems<R extends { key: string; id: string | null; name: string }>({
  list,
  canEdit,
  label,
  empty,
  newRow,
  addLabel,
  saveLabel,
  canReorder = true,
  rowTestId,
  rowClassName = 'flex flex-wrap items-end gap-x-4 gap-y-2',
  renderRow,
}: RowListProps<R>) {
  const { rows } = list;
  return (
    <>
      {rows.length === 0 ? (
        <p className="rounded-lg border border-dashed border-slate-300 p-4 text-sm text-slate-600">{empty}</p>
      ) : (
        <ol className="grid gap-3" aria-label={label}>
          {rows.map((row, i) => (
            <li
              key={row.key}
              className={`${rowClassName} rounded-lg p-3 ring-1 ring-slate-200`}
              data-testid={rowTestId}
            >
              {renderRow(
                row,
                i,
                canEdit ? (
                  <RowTools
                    name={row.name}
                    index={i}
                    count={rows.length}
                    canReorder={canReorder}
                    onMove={(from, to) => list.restructure(moved(rows, from, to))}
                    onRemove={() => list.remove.ask(i)}
                  />
                ) : null,
              )}
            </li>
          ))}
        </ol>
      )}
      {canEdit ? (
        <div className="flex flex-wrap gap-2">
          <Button variant="secondary" onPress={() => list.restructure([...rows, newRow()])}>
            {addLabel}
          </Button>
          <Button type="submit" variant="primary" isPending={list.save.busy}>
            {saveLabel}
          </Button>
        </div>
      ) : null}
      {list.remove.dialog}
    </>
  );
}
