import { useEffect, useId, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useFetcher } from 'react-router';
import type { PlannerLoaderData } from '~/app/routes/projects.resources';
import {
  Button,
  ComboBox,
  DatePicker,
  Dialog,
  Spinner,
  TextField,
  dateValueOf,
  type SelectItem,
} from '~/app/components/ui';

/** What the plan dialog edits: a new plan (id null) or one on the calendar. */
export interface PlanDraft {
  id: string | null;
  projectId: string;
  ownerKind: 'user' | 'supplier';
  userId: string;
  supplierId: string;
  startDate: string;
  endDate: string;
  hoursPerDay: string;
  comment: string;
  /** A plan of a closed project (or without projects:edit): shown, not changed. */
  locked?: boolean;
  /** The plan's project and who is planned, as the calendar names them (kept when not among the choices). */
  projectLabel?: string;
  ownerName?: string;
}

/**
 * The planner's dialog: plan a person or a supplier on a project from a day to a day, with hours
 * a day and a comment; on a plan, change it or delete it. What it chooses from (ongoing projects,
 * active users, plannable suppliers) is read when it opens. Reached from "Plan", a row's + and a
 * bar (click or Enter), so the keyboard does all a drag does.
 */
export function ResourcePlanDialog({
  draft,
  onChange,
  onClose,
  onSave,
  onDelete,
  busy,
  fields,
  projectId,
}: {
  draft: PlanDraft | null;
  onChange: (draft: PlanDraft) => void;
  onClose: () => void;
  onSave: (draft: PlanDraft) => void;
  onDelete: () => void;
  busy: boolean;
  fields: Record<string, string[]>;
  /** The project the planner is fixed to (a project's tab): no project choice. */
  projectId?: string;
}) {
  const { t } = useTranslation('projects');
  const { t: tc } = useTranslation();
  const kindName = useId();
  const options = useFetcher<PlannerLoaderData>();
  const open = draft !== null;
  useEffect(() => {
    if (open && options.state === 'idle' && !options.data)
      void options.load(`/projects/resources?options=1${projectId ? `&projectId=${projectId}` : ''}`);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- read once, when first opened
  }, [open]);
  const choices = options.data?.kind === 'options' ? options.data.options : null;

  const err = (k: string) => fields[k]?.map((c) => tc(c));
  const set = (patch: Partial<PlanDraft>) => draft && onChange({ ...draft, ...patch });
  const withCurrent = (items: SelectItem[], id: string, label: string | undefined) =>
    id && label && !items.some((i) => i.id === id) ? [{ id, label }, ...items] : items;

  const projectItems = withCurrent(
    (choices?.projects ?? []).map((p) => ({
      id: p.id,
      label: t('planning.projectLabel', { number: p.number, title: p.title }),
    })),
    draft?.projectId ?? '',
    draft?.projectLabel,
  );
  const userItems = withCurrent(
    (choices?.users ?? []).map((u) => ({ id: u.id, label: u.name })),
    draft?.ownerKind === 'user' ? draft.userId : '',
    draft?.ownerName,
  );
  const supplierItems = withCurrent(
    (choices?.suppliers ?? []).map((s) => ({
      id: s.id,
      label: s.linked ? t('planning.supplierLinked', { name: s.title, number: s.number }) : `${s.title} (${s.number})`,
    })),
    draft?.ownerKind === 'supplier' ? draft.supplierId : '',
    draft?.ownerName,
  );

  function submit(e: FormEvent) {
    e.preventDefault();
    if (draft && !draft.locked) onSave(draft);
  }

  const locked = draft?.locked === true;
  return (
    <Dialog
      title={draft?.id ? (locked ? t('planning.viewTitle') : t('planning.editTitle')) : t('planning.planTitle')}
      isOpen={open}
      onOpenChange={(o) => (o ? undefined : onClose())}
      isDismissable={!busy}
    >
      {draft ? (
        <form className="grid gap-3" onSubmit={submit} noValidate data-testid="resource-dialog">
          {/* The pickers wait for what they choose from: typed into while it loads, a picker would
              have nothing to list and stay closed when the choices arrive. */}
          {!choices ? (
            <Spinner label={t('planning.loading')} />
          ) : (
            <>
              {projectId ? null : (
                <ComboBox
                  label={t('planning.project')}
                  items={projectItems}
                  selectedKey={draft.projectId || null}
                  onSelectionChange={(k) => set({ projectId: k ? String(k) : '' })}
                  isRequired
                  isDisabled={locked}
                  autoFocus={!draft.id}
                  errorMessage={err('projectId')}
                />
              )}
              <fieldset className="grid gap-1" disabled={locked}>
                <legend className="text-sm font-medium text-gray-900">{t('planning.who')}</legend>
                <div className="flex flex-wrap gap-4">
                  {(['user', 'supplier'] as const).map((kind) => (
                    <label key={kind} className="inline-flex min-h-9 items-center gap-2 text-sm">
                      <input
                        type="radio"
                        name={kindName}
                        value={kind}
                        checked={draft.ownerKind === kind}
                        onChange={() => set({ ownerKind: kind })}
                        className="h-4 w-4"
                      />
                      {kind === 'user' ? t('planning.person') : t('planning.supplier')}
                    </label>
                  ))}
                </div>
              </fieldset>
              {draft.ownerKind === 'user' ? (
                <ComboBox
                  label={t('planning.person')}
                  items={userItems}
                  selectedKey={draft.userId || null}
                  onSelectionChange={(k) => set({ userId: k ? String(k) : '' })}
                  isRequired
                  isDisabled={locked}
                  autoFocus={Boolean(projectId && !draft.id)}
                  errorMessage={err('userId')}
                />
              ) : (
                <ComboBox
                  label={t('planning.supplier')}
                  items={supplierItems}
                  selectedKey={draft.supplierId || null}
                  onSelectionChange={(k) => set({ supplierId: k ? String(k) : '' })}
                  isRequired
                  isDisabled={locked}
                  errorMessage={err('supplierId') ?? err('userId')}
                />
              )}
            </>
          )}
          <div className="grid gap-3 sm:grid-cols-2">
            {(['startDate', 'endDate'] as const).map((name) => (
              <DatePicker
                key={name}
                label={name === 'startDate' ? t('planning.start') : t('planning.end')}
                isRequired
                isDisabled={locked}
                value={dateValueOf(draft[name])}
                onChange={(v) =>
                  set(name === 'startDate' ? { startDate: v?.toString() ?? '' } : { endDate: v?.toString() ?? '' })
                }
                errorMessage={err(name)}
              />
            ))}
          </div>
          <TextField
            label={t('planning.hoursPerDay')}
            description={t('planning.hoursPerDayHelp')}
            value={draft.hoursPerDay}
            onChange={(v) => set({ hoursPerDay: v })}
            inputMode="decimal"
            isDisabled={locked}
            errorMessage={err('hoursPerDay')}
          />
          <TextField
            label={t('planning.comment')}
            value={draft.comment}
            onChange={(v) => set({ comment: v })}
            isDisabled={locked}
            errorMessage={err('comment')}
          />
          {locked ? <p className="text-sm text-slate-600">{t('planning.lockedHelp')}</p> : null}
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-between">
            {draft.id && !locked ? (
              <Button variant="ghost" onPress={onDelete} isDisabled={busy}>
                {t('planning.delete')}
              </Button>
            ) : (
              <span />
            )}
            <div className="flex flex-col-reverse gap-2 sm:flex-row">
              <Button variant="secondary" onPress={onClose} isDisabled={busy}>
                {locked ? t('planning.close') : t('planning.cancel')}
              </Button>
              {locked ? null : (
                <Button variant="primary" type="submit" isPending={busy}>
                  {t('planning.save')}
                </Button>
              )}
            </div>
          </div>
        </form>
      ) : null}
    </Dialog>
  );
}
