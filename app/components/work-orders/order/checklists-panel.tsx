import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFetcher } from 'react-router';
import { Button, Spinner, useToast } from '~/app/components/ui';
import { useCan } from '~/app/lib/can';
import type { ChecklistsActionResult, ChecklistsLoaderResult } from '~/app/routes/work-orders.$id.checklists';
import type { ChecklistItem, WorkOrderChecklist } from '~/core/checklists/checklist.service';
import { useFetcherResult } from '~/app/lib/use-fetcher-result';

export interface ChecklistsPanelProps {
  workOrderId: string;
  /** An ISO instant as the page shows it (the tenant's date format and zone). */
  format: (iso: string) => string;
}

/** What the form edits: ticks as booleans, texts and numbers as typed. */
type Draft = Record<string, boolean | string>;

function draftOf(c: WorkOrderChecklist): Draft {
  return Object.fromEntries(
    c.items.map((item) => {
      const v = c.values[item.id];
      if (item.type === 'check') return [item.id, v === true];
      if (v === undefined) return [item.id, ''];
      // numbers are shown with a decimal comma, as they are typed
      return [item.id, item.type === 'number' ? String(v).replace('.', ',') : String(v)];
    }),
  );
}

const filled = (item: ChecklistItem, v: boolean | string | undefined) =>
  item.type === 'check' ? v === true : typeof v === 'string' && v.trim() !== '';

const INPUT =
  'w-full min-w-0 rounded-md border border-gray-300 bg-white px-3 text-base text-gray-900 shadow-xs min-h-11 sm:min-h-9 sm:text-sm focus:border-blue-600 focus:ring-2 focus:ring-blue-600/30 focus:outline-none aria-invalid:border-red-600 disabled:cursor-not-allowed disabled:bg-gray-100 disabled:text-gray-500';

/**
 * The checklists of a work order (issue 6 item 6): the templates of its work type, loaded when the
 * panel mounts, each filled in and saved on its own (ticks, texts, numbers). Read-only when the
 * order is closed or locked, or for someone who cannot report on it.
 */
export function ChecklistsPanel(props: ChecklistsPanelProps) {
  // without the checklists app module (or workorders:read) there is no panel at all
  return useCan()('workorders:read', 'checklists') ? <LoadedChecklistsPanel {...props} /> : null;
}

function LoadedChecklistsPanel({ workOrderId, format }: ChecklistsPanelProps) {
  const { t } = useTranslation('checklists');
  const { t: tc } = useTranslation();
  const loader = useFetcher<ChecklistsLoaderResult>();
  const [view, setView] = useState<WorkOrderChecklist[] | null>(null);
  const [canFill, setCanFill] = useState(false);
  const url = `/work-orders/${workOrderId}/checklists`;

  useEffect(() => {
    void loader.load(url);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [workOrderId]);
  // the first answer, and again when the page revalidates (closing or locking the order)
  useEffect(() => {
    if (loader.data && 'data' in loader.data) {
      setView(loader.data.data.checklists);
      setCanFill(loader.data.data.canFill);
    }
  }, [loader.data]);

  const failed = loader.state === 'idle' && loader.data && 'error' in loader.data;
  const headingId = `wo-checklists-${workOrderId}`;
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
      ) : view.length === 0 ? (
        <p className="mt-2 text-sm text-slate-600">{t('panel.empty')}</p>
      ) : (
        <>
          {canFill ? null : <p className="mt-2 text-sm text-slate-600">{t('panel.readOnly')}</p>}
          <div className="mt-3 grid gap-4">
            {view.map((c) => (
              <ChecklistForm
                key={c.id}
                workOrderId={workOrderId}
                checklist={c}
                canFill={canFill}
                format={format}
                onSaved={(checklists, fill) => {
                  setView(checklists);
                  setCanFill(fill);
                }}
              />
            ))}
          </div>
        </>
      )}
    </section>
  );
}

/** One checklist's form; its own fetcher, so saving one leaves what is typed in another alone. */
function ChecklistForm({
  workOrderId,
  checklist,
  canFill,
  format,
  onSaved,
}: {
  workOrderId: string;
  checklist: WorkOrderChecklist;
  canFill: boolean;
  format: (iso: string) => string;
  onSaved: (checklists: WorkOrderChecklist[], canFill: boolean) => void;
}) {
  const { t } = useTranslation('checklists');
  const { t: tc } = useTranslation();
  const toast = useToast();
  const fetcher = useFetcher<ChecklistsActionResult>();
  const [draft, setDraft] = useState<Draft>(() => draftOf(checklist));
  const [fields, setFields] = useState<Record<string, string[]>>({});
  const savedAt = useRef(checklist.updatedAt);
  const id = useId();

  // a newer save (here or elsewhere) replaces what the form shows
  useEffect(() => {
    if (checklist.updatedAt !== savedAt.current) {
      savedAt.current = checklist.updatedAt;
      setDraft(draftOf(checklist));
    }
  }, [checklist]);

  useFetcherResult(fetcher, (result) => {
    if (result.ok) {
      setFields({});
      toast.show({ kind: 'success', message: tc('SUCCESSFULLY_SAVED') });
      onSaved(result.data.checklists, result.data.canFill);
    } else {
      setFields(result.fields ?? {});
      toast.show({ kind: 'error', message: tc(result.code) });
    }
  });

  const busy = fetcher.state !== 'idle';
  const disabled = !canFill || busy;
  const done = checklist.items.filter((item) => filled(item, draft[item.id])).length;
  const err = (itemId: string) => fields[`values.${itemId}`]?.map((k) => tc(k));
  const set = (itemId: string, v: boolean | string) => setDraft((d) => ({ ...d, [itemId]: v }));

  function save() {
    void fetcher.submit(
      { checklistId: checklist.id, values: JSON.stringify(draft) },
      { method: 'post', action: `/work-orders/${workOrderId}/checklists` },
    );
  }

  return (
    <form
      className="rounded-lg p-3 ring-1 ring-slate-200"
      aria-labelledby={`${id}-title`}
      data-testid="checklist"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        if (canFill) save();
      }}
    >
      <div className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1">
        <h4 id={`${id}-title`} className="font-medium break-words">
          {checklist.title}
        </h4>
        <span className="text-sm text-slate-600 tabular-nums">
          {t('panel.progress', { done, total: checklist.items.length })}
        </span>
      </div>
      <p className="text-sm text-slate-500">
        {checklist.updatedAt
          ? t('panel.saved', { name: checklist.updatedByName ?? '—', when: format(checklist.updatedAt) })
          : t('panel.notSaved')}
      </p>
      <ul className="mt-2 grid gap-3">
        {checklist.items.map((item) => {
          const inputId = `${id}-${item.id}`;
          const errors = err(item.id);
          const required = item.required ? (
            <span className="ms-1 text-xs text-slate-500">
              <span aria-hidden="true" className="text-red-700">
                *
              </span>
              <span className="sr-only">{t('panel.required')}</span>
            </span>
          ) : null;
          return (
            <li key={item.id} className="min-w-0">
              {item.type === 'check' ? (
                <label htmlFor={inputId} className="flex min-h-11 items-center gap-3 text-sm sm:min-h-9">
                  <input
                    id={inputId}
                    type="checkbox"
                    className="size-5 accent-brand-600"
                    checked={draft[item.id] === true}
                    disabled={disabled}
                    aria-invalid={errors ? true : undefined}
                    aria-describedby={errors ? `${inputId}-error` : undefined}
                    onChange={(e) => set(item.id, e.target.checked)}
                  />
                  <span className="break-words">
                    {item.label}
                    {required}
                  </span>
                </label>
              ) : (
                <div className="flex flex-col gap-1">
                  <label htmlFor={inputId} className="text-sm font-medium break-words text-gray-900">
                    {item.label}
                    {required}
                  </label>
                  <input
                    id={inputId}
                    className={`${INPUT} ${item.type === 'number' ? 'max-w-48' : ''}`}
                    inputMode={item.type === 'number' ? 'decimal' : undefined}
                    value={typeof draft[item.id] === 'string' ? (draft[item.id] as string) : ''}
                    disabled={disabled}
                    maxLength={item.type === 'text' ? 2000 : 30}
                    aria-invalid={errors ? true : undefined}
                    aria-describedby={errors ? `${inputId}-error` : undefined}
                    onChange={(e) => set(item.id, e.target.value)}
                  />
                </div>
              )}
              {errors ? (
                <span id={`${inputId}-error`} className="text-sm text-red-700">
                  {errors.join(' ')}
                </span>
              ) : null}
            </li>
          );
        })}
      </ul>
      {fields.checklistId ? (
        <p role="alert" className="mt-2 text-sm text-red-700">
          {fields.checklistId.map((k) => tc(k)).join(' ')}
        </p>
      ) : null}
      {canFill ? (
        <div className="mt-3">
          <Button type="submit" size="sm" variant="primary" isPending={busy}>
            {t('panel.save')}
          </Button>
        </div>
      ) : null}
    </form>
  );
}
