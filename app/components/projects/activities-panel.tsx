import { useEffect, useId, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { PanelSection, usePanelData } from './panel-shell';
import { useFetcher } from 'react-router';
import {
  Button,
  ConfirmDialog,
  DatePicker,
  Dialog,
  formatDate,
  formatDateTime,
  NativeSelect,
  TextField,
  dateValueOf,
  useToast,
  type DateFormat,
} from '~/app/components/ui';
import { NATIVE_INPUT_CLASS } from '~/app/components/ui/native-field';
import { useDragReorder } from '~/app/components/ui/use-drag-reorder';
import { useFetcherResult } from '~/app/lib/use-fetcher-result';
import type { ActivitiesActionResult, ActivitiesLoaderResult } from '~/app/routes/projects.$id.activities';
import { moveToPosition } from '~/core/projects/activity-order';
import type { ActivitiesPanelData, ProjectActivity } from '~/core/projects/activity.service';

export interface ActivitiesPanelProps {
  projectId: string;
  /** projects:edit (the server also refuses changes to a closed project). */
  canEdit: boolean;
}

type Config = { dateFormat: DateFormat; country: string };

/** What the activity dialog edits; null id for a new activity. */
interface Draft {
  id: string | null;
  title: string;
  description: string;
  dueDate: string;
  responsibleUserId: string;
}

const panelUrl = (projectId: string) => `/projects/${projectId}/activities`;

/**
 * A project's activities (api-calls.md "Activities"): an ordered list of steps with due date and
 * responsible person, ticked off when done. Added and edited in a dialog, deleted after a question,
 * reordered by dragging the handle or, from the keyboard, with the move up / move down buttons.
 * Loads and saves through /projects/:id/activities, so the project page's loader does not change.
 */
export function ActivitiesPanel({ projectId, canEdit }: ActivitiesPanelProps) {
  const { t } = useTranslation('projects');
  const { data: answer, pending } = usePanelData<Exclude<ActivitiesLoaderResult, { error: string }>>(
    panelUrl(projectId),
    { loading: t('activities.loading'), retry: t('activities.retry') },
  );
  if (answer) {
    const { config, ...data } = answer;
    return <ActivitiesContent projectId={projectId} canEdit={canEdit} data={data} config={config} />;
  }
  return <Section projectId={projectId}>{pending}</Section>;
}

function Section({ projectId, action, children }: { projectId: string; action?: ReactNode; children: ReactNode }) {
  const { t } = useTranslation('projects');
  return (
    <PanelSection headingId={`project-activities-${projectId}`} title={t('activities.title')} action={action}>
      {children}
    </PanelSection>
  );
}

export interface ActivitiesContentProps extends ActivitiesPanelProps {
  data: ActivitiesPanelData;
  config: Config;
}

/** The list with its dialogs, on data already loaded (server-rendered alone in tests). */
export function ActivitiesContent({ projectId, canEdit, data, config }: ActivitiesContentProps) {
  const { t } = useTranslation('projects');
  const { t: tc } = useTranslation();
  const toast = useToast();
  const fetcher = useFetcher<ActivitiesActionResult>();
  /** The list as the server last answered it; `view` adds a move or tick not yet saved. */
  const [server, setServer] = useState(data);
  const [view, setView] = useState(data);
  const [draft, setDraft] = useState<Draft | null>(null);
  const [deleting, setDeleting] = useState<ProjectActivity | null>(null);
  const [fields, setFields] = useState<Record<string, string[]>>({});

  useEffect(() => {
    setServer(data);
    setView(data);
  }, [data]);

  useFetcherResult(fetcher, (result) => {
    if (result.ok) {
      setServer(result.data);
      setView(result.data);
      if (result.intent === 'create' || result.intent === 'update') setDraft(null);
      if (result.intent === 'delete') setDeleting(null);
      if (result.intent !== 'reorder' && result.intent !== 'complete')
        toast.show({
          kind: 'success',
          message: tc(result.intent === 'delete' ? 'SUCCESSFULLY_DELETED' : 'SUCCESSFULLY_SAVED'),
        });
    } else {
      setFields(result.fields ?? {});
      // a refused move or tick: show the list as the server has it
      if (result.intent === 'reorder' || result.intent === 'complete') setView(server);
      if (result.code !== 'VALIDATION_FAILED' || !draft) toast.show({ kind: 'error', message: tc(result.code) });
    }
  });

  const editable = canEdit && view.canEdit;
  const busy = fetcher.state !== 'idle';
  const list = view.activities;
  const submit = (values: Record<string, string>) =>
    void fetcher.submit(values, { method: 'post', action: panelUrl(projectId) });
  const err = (key: string) => {
    const messages = (fields[key] ?? []).map((k) => tc(k));
    return messages.length ? messages : undefined;
  };
  const set = (patch: Partial<Draft>) => setDraft((d) => (d ? { ...d, ...patch } : d));

  /** Moves the activity at index `from` to index `to`: shown at once, then saved. */
  function moveTo(from: number, to: number) {
    const moved = list[from];
    if (!moved || from === to || to < 0 || to >= list.length) return;
    const order = moveToPosition(
      list.map((a) => a.id),
      moved.id,
      to + 1,
    );
    const byId = new Map(list.map((a) => [a.id, a]));
    setView((v) => ({ ...v, activities: order.map((id, i) => ({ ...byId.get(id)!, sortOrder: i + 1 })) }));
    submit({ intent: 'reorder', id: moved.id, sortOrder: String(to + 1) });
  }
  const { drag, dragged } = useDragReorder({ enabled: editable && !busy, handleOnly: true, onMove: moveTo });

  function toggle(a: ProjectActivity) {
    setView((v) => ({
      ...v,
      activities: v.activities.map((x) => (x.id === a.id ? { ...x, completed: !a.completed } : x)),
    }));
    submit({ intent: 'complete', id: a.id, completed: String(!a.completed) });
  }

  function openDraft(a: ProjectActivity | null) {
    setFields({});
    setDraft(
      a
        ? {
            id: a.id,
            title: a.title,
            description: a.description ?? '',
            dueDate: a.dueDate ?? '',
            responsibleUserId: a.responsibleUserId ?? '',
          }
        : { id: null, title: '', description: '', dueDate: '', responsibleUserId: '' },
    );
  }

  function save(d: Draft) {
    submit({
      intent: d.id ? 'update' : 'create',
      id: d.id ?? '',
      title: d.title,
      description: d.description,
      dueDate: d.dueDate,
      responsibleUserId: d.responsibleUserId,
    });
  }

  // an activity's responsible person may no longer be active: keep them choosable while editing it
  const userItems = [
    { id: '', label: t('activities.noResponsible') },
    ...view.users.map((u) => ({ id: u.id, label: u.name })),
  ];
  const current = draft?.id ? list.find((a) => a.id === draft.id) : undefined;
  if (current?.responsibleUserId && !view.users.some((u) => u.id === current.responsibleUserId))
    userItems.push({ id: current.responsibleUserId, label: current.responsibleUserName ?? '—' });

  return (
    <Section
      projectId={projectId}
      action={
        editable ? (
          <Button size="sm" onPress={() => openDraft(null)}>
            {t('activities.add')}
          </Button>
        ) : null
      }
    >
      {view.projectClosed ? <p className="mt-2 text-sm text-slate-600">{t('activities.closed')}</p> : null}
      {list.length === 0 ? (
        <p className="mt-2 text-sm text-slate-600">{t('activities.empty')}</p>
      ) : (
        <ol className="mt-3 divide-y divide-slate-100" aria-label={t('activities.title')}>
          {list.map((a, i) => (
            <li
              key={a.id}
              {...drag(i)}
              data-testid="project-activity"
              className={`flex flex-wrap items-start gap-2 py-2 ${dragged === i ? 'opacity-50' : ''}`}
            >
              {editable ? (
                <span
                  data-drag-handle
                  aria-hidden
                  title={t('activities.drag')}
                  className="cursor-grab px-1 pt-1 text-lg leading-none text-slate-500 select-none"
                >
                  ⠿
                </span>
              ) : null}
              <ActivityLine activity={a} position={i + 1} config={config} editable={editable} onToggle={toggle} />
              {editable ? (
                <div className="flex flex-wrap gap-1">
                  <Button
                    size="sm"
                    variant="ghost"
                    isDisabled={i === 0 || busy}
                    onPress={() => moveTo(i, i - 1)}
                    aria-label={t('activities.moveUp', { title: a.title })}
                  >
                    ↑
                  </Button>
                  <Button
                    size="sm"
                    variant="ghost"
                    isDisabled={i === list.length - 1 || busy}
                    onPress={() => moveTo(i, i + 1)}
                    aria-label={t('activities.moveDown', { title: a.title })}
                  >
                    ↓
                  </Button>
                  <Button
                    size="sm"
                    variant="secondary"
                    onPress={() => openDraft(a)}
                    aria-label={t('activities.editRow', { title: a.title })}
                  >
                    {t('activities.edit')}
                  </Button>
                  <Button
                    size="sm"
                    variant="ghost"
                    onPress={() => setDeleting(a)}
                    aria-label={t('activities.deleteRow', { title: a.title })}
                  >
                    {t('activities.delete')}
                  </Button>
                </div>
              ) : null}
            </li>
          ))}
        </ol>
      )}

      <Dialog
        title={draft?.id ? t('activities.editTitle') : t('activities.addTitle')}
        isOpen={draft !== null}
        onOpenChange={(open) => {
          if (!open) setDraft(null);
        }}
        isDismissable={!busy}
        footer={({ close }) => (
          <>
            <Button variant="secondary" onPress={close} isDisabled={busy}>
              {t('activities.cancel')}
            </Button>
            <Button isPending={busy} onPress={() => draft && save(draft)}>
              {t('activities.save')}
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
            <TextField
              label={t('activities.fieldTitle')}
              value={draft.title}
              onChange={(v) => set({ title: v })}
              isRequired
              maxLength={200}
              errorMessage={err('title')}
              autoFocus
            />
            <TextArea
              label={t('activities.description')}
              value={draft.description}
              onChange={(v) => set({ description: v })}
              errors={err('description')}
            />
            <DatePicker
              label={t('activities.dueDate')}
              value={dateValueOf(draft.dueDate)}
              onChange={(v) => set({ dueDate: v?.toString() ?? '' })}
              errorMessage={err('dueDate')}
            />
            <NativeSelect
              label={t('activities.responsible')}
              items={userItems}
              value={draft.responsibleUserId}
              onChange={(v) => set({ responsibleUserId: v })}
            />
            {err('responsibleUserId') ? (
              <p className="text-sm text-red-700">{err('responsibleUserId')!.join(' ')}</p>
            ) : null}
            {/* Enter in a field saves */}
            <button type="submit" hidden />
          </form>
        ) : null}
      </Dialog>

      <ConfirmDialog
        title={t('activities.deleteTitle')}
        message={deleting ? t('activities.deleteMessage', { title: deleting.title }) : undefined}
        confirmLabel={t('activities.delete')}
        variant="danger"
        isOpen={deleting !== null}
        onOpenChange={(open) => {
          if (!open) setDeleting(null);
        }}
        isPending={busy}
        onConfirm={() => {
          if (deleting) submit({ intent: 'delete', id: deleting.id });
        }}
      />
    </Section>
  );
}

function ActivityLine({
  activity: a,
  position,
  config,
  editable,
  onToggle,
}: {
  activity: ProjectActivity;
  position: number;
  config: Config;
  editable: boolean;
  onToggle: (a: ProjectActivity) => void;
}) {
  const { t } = useTranslation('projects');
  const id = useId();
  return (
    <div className="min-w-0 flex-1 text-sm">
      <div className="flex items-start gap-2">
        <span className="min-w-6 pt-0.5 text-slate-500 tabular-nums">{position}.</span>
        <input
          id={id}
          type="checkbox"
          className="mt-1 size-5 shrink-0 accent-blue-700"
          checked={a.completed}
          disabled={!editable}
          onChange={() => onToggle(a)}
        />
        <label htmlFor={id} className={`font-medium break-words ${a.completed ? 'text-slate-600 line-through' : ''}`}>
          {a.title}
        </label>
      </div>
      <div className="ms-8 flex flex-wrap gap-x-3 text-slate-600">
        {a.dueDate ? <span>{t('activities.due', { date: formatDate(a.dueDate, config.dateFormat) })}</span> : null}
        {a.responsibleUserName ? <span>{t('activities.responsibleLine', { name: a.responsibleUserName })}</span> : null}
        {a.completed && a.completedAt ? (
          <span>
            {t('activities.completedLine', {
              date: formatDateTime(a.completedAt, config),
              name: a.completedByName ?? '—',
            })}
          </span>
        ) : null}
      </div>
      {a.description ? <p className="ms-8 break-words whitespace-pre-line text-slate-700">{a.description}</p> : null}
    </div>
  );
}

function TextArea({
  label,
  value,
  onChange,
  errors,
}: {
  label: string;
  value: string;
  onChange: (v: string) => void;
  errors?: string[];
}) {
  const id = useId();
  return (
    <div className="flex min-w-0 flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium text-gray-900">
        {label}
      </label>
      <textarea
        id={id}
        rows={3}
        maxLength={4000}
        className={`${NATIVE_INPUT_CLASS} py-2`}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={errors ? true : undefined}
        aria-describedby={errors ? `${id}-error` : undefined}
      />
      {errors ? (
        <span id={`${id}-error`} className="text-sm text-red-700">
          {errors.join(' ')}
        </span>
      ) : null}
    </div>
  );
}
