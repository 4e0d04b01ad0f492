import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFetcher } from 'react-router';
import { Button, Dialog, Select, TextField, useToast } from '~/app/components/ui';
import { moved, newKey, RowTools } from '~/app/components/work-orders/settings/shared';
import {
  CHECKLIST_ITEM_TYPES,
  CHECKLIST_LIMITS,
  type Checklist,
  type ChecklistItemType,
} from '~/core/checklists/checklist.types';
import { useFetcherResult } from '~/app/lib/use-fetcher-result';

/** What the settings page's action answers. */
export interface EditorResult {
  ok?: boolean;
  intent?: string;
  id?: string;
  code?: string;
  fields?: Record<string, string[]>;
  usedBy?: Record<string, number>;
}

interface ItemRow {
  key: string;
  id: string | null;
  label: string;
  type: ChecklistItemType;
  required: boolean;
}

const rowsOf = (c: Checklist | null): ItemRow[] =>
  c ? c.items.map((i) => ({ key: i.id, id: i.id, label: i.label, type: i.type, required: i.required })) : [];

/**
 * Creates or edits one checklist template in a dialog: its title, the work types it is for, and its
 * items in order (text, type, required), added, removed and moved with buttons that work from the
 * keyboard. Saves the whole template at once; field errors show on their rows.
 */
export function ChecklistEditor({
  checklist,
  workTypes,
  onClose,
}: {
  /** null for a new template. */
  checklist: Checklist | null;
  workTypes: { id: string; name: string }[];
  onClose: () => void;
}) {
  const { t } = useTranslation('checklists');
  const { t: tc } = useTranslation();
  const toast = useToast();
  const fetcher = useFetcher<EditorResult>();
  const [title, setTitle] = useState(checklist?.title ?? '');
  const [typeIds, setTypeIds] = useState<string[]>(checklist?.workTypeIds ?? []);
  const [items, setItems] = useState<ItemRow[]>(() => rowsOf(checklist));
  /** Errors of the last answer; row errors are dropped once rows move (their numbers change). */
  const [fields, setFields] = useState<Record<string, string[]>>({});
  const focusKey = useRef<string | null>(null);
  const legendId = useId();

  useFetcherResult(fetcher, (result) => {
    if (result.ok) {
      toast.show({ kind: 'success', message: tc('SUCCESSFULLY_SAVED') });
      onClose();
    } else {
      setFields(result.fields ?? {});
      if (result.code && result.code !== 'VALIDATION_FAILED') toast.show({ kind: 'error', message: tc(result.code) });
    }
  });

  // a new item's text field takes the focus, so adding items works from the keyboard alone
  useEffect(() => {
    if (!focusKey.current) return;
    document.getElementById(`item-${focusKey.current}`)?.focus();
    focusKey.current = null;
  }, [items]);

  const busy = fetcher.state !== 'idle';
  const err = (key: string) => fields[key]?.map((k) => tc(k));
  const setItem = (i: number, patch: Partial<ItemRow>) =>
    setItems((rows) => rows.map((r, j) => (i === j ? { ...r, ...patch } : r)));
  const restructure = (next: ItemRow[]) => {
    setItems(next);
    setFields(({ title: tt, workTypeIds }) => ({
      ...(tt ? { title: tt } : {}),
      ...(workTypeIds ? { workTypeIds } : {}),
    }));
  };

  function save() {
    const payload = {
      ...(checklist ? { id: checklist.id } : {}),
      title,
      workTypeIds: typeIds,
      items: items.map(({ id, label, type, required }) => ({ id, label, type, required })),
    };
    void fetcher.submit(
      { intent: 'save', payload: JSON.stringify(payload) },
      { method: 'post', action: '/settings/checklists' },
    );
  }

  return (
    <Dialog
      title={checklist ? t('editor.editTitle') : t('editor.newTitle')}
      isOpen
      size="lg"
      onOpenChange={(open) => (open ? null : onClose())}
      isDismissable={!busy}
      footer={({ close }) => (
        <>
          <Button variant="secondary" onPress={close} isDisabled={busy}>
            {t('editor.cancel')}
          </Button>
          <Button variant="primary" isPending={busy} onPress={save}>
            {t('editor.save')}
          </Button>
        </>
      )}
    >
      <form
        className="grid gap-4"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          save();
        }}
      >
        <TextField
          label={t('editor.title')}
          value={title}
          onChange={setTitle}
          isRequired
          maxLength={CHECKLIST_LIMITS.title}
          errorMessage={err('title')}
          autoFocus
        />
        <fieldset className="grid gap-1">
          <legend className="text-sm font-medium text-gray-900">{t('editor.workTypes')}</legend>
          <div className="flex flex-wrap gap-x-5">
            {workTypes.map((w) => (
              <label key={w.id} className="flex min-h-11 items-center gap-2 text-sm sm:min-h-9">
                <input
                  type="checkbox"
                  className="size-4 accent-brand-600"
                  checked={typeIds.includes(w.id)}
                  onChange={(e) =>
                    setTypeIds((ids) => (e.target.checked ? [...ids, w.id] : ids.filter((id) => id !== w.id)))
                  }
                />
                {w.name}
              </label>
            ))}
          </div>
          {err('workTypeIds') ? (
            <p role="alert" className="text-sm text-red-700">
              {err('workTypeIds')!.join(' ')}
            </p>
          ) : null}
        </fieldset>

        <fieldset className="grid gap-2" aria-describedby={fields.items ? `${legendId}-error` : undefined}>
          <legend id={legendId} className="text-sm font-medium text-gray-900">
            {t('editor.items')}
          </legend>
          {items.length === 0 ? (
            <p className="rounded-lg border border-dashed border-slate-300 p-3 text-sm text-slate-600">
              {t('editor.noItems')}
            </p>
          ) : (
            <ol className="grid gap-2">
              {items.map((row, i) => (
                <li
                  key={row.key}
                  data-testid="checklist-item"
                  className="flex flex-wrap items-end gap-x-3 gap-y-2 rounded-lg p-3 ring-1 ring-slate-200"
                >
                  <TextField
                    id={`item-${row.key}`}
                    label={t('editor.itemLabel', { n: i + 1 })}
                    value={row.label}
                    onChange={(label) => setItem(i, { label })}
                    isRequired
                    maxLength={CHECKLIST_LIMITS.label}
                    className="min-w-48 flex-1"
                    errorMessage={err(`items.${i}.label`)}
                  />
                  <Select
                    label={t('editor.type')}
                    items={CHECKLIST_ITEM_TYPES.map((type) => ({ id: type, label: t(`type.${type}`) }))}
                    selectedKey={row.type}
                    onSelectionChange={(key) => key && setItem(i, { type: key as ChecklistItemType })}
                    className="w-36"
                    errorMessage={err(`items.${i}.type`)}
                  />
                  <label className="flex min-h-11 items-center gap-2 text-sm sm:min-h-9">
                    <input
                      type="checkbox"
                      className="size-4 accent-brand-600"
                      checked={row.required}
                      onChange={(e) => setItem(i, { required: e.target.checked })}
                    />
                    {t('editor.required')}
                  </label>
                  <RowTools
                    name={row.label}
                    index={i}
                    count={items.length}
                    onMove={(from, to) => restructure(moved(items, from, to))}
                    onRemove={() => restructure(items.filter((_, j) => j !== i))}
                  />
                  {err(`items.${i}.id`) ? (
                    <p role="alert" className="basis-full text-sm text-red-700">
                      {err(`items.${i}.id`)!.join(' ')}
                    </p>
                  ) : null}
                </li>
              ))}
            </ol>
          )}
          {err('items') ? (
            <p id={`${legendId}-error`} role="alert" className="text-sm text-red-700">
              {err('items')!.join(' ')}
            </p>
          ) : null}
          <div>
            <Button
              variant="secondary"
              size="sm"
              isDisabled={items.length >= CHECKLIST_LIMITS.items}
              onPress={() => {
                const key = newKey();
                focusKey.current = key;
                restructure([...items, { key, id: null, label: '', type: 'check', required: false }]);
              }}
            >
              {t('editor.addItem')}
            </Button>
          </div>
        </fieldset>
        {/* Enter in a field saves */}
        <button type="submit" hidden />
      </form>
    </Dialog>
  );
}
