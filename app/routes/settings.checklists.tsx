import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { data, Link, useFetcher } from 'react-router';
import type { Route } from './+types/settings.checklists';
import { ChecklistEditor, type EditorResult } from '~/app/components/checklists/checklist-editor';
import { Button, ConfirmDialog, useToast } from '~/app/components/ui';
import { actionError } from '~/app/lib/action-error.server';
import { guard, requireAuth, run } from '~/app/lib/guard.server';
import { CHECKLIST_ACCESS, deleteChecklist, listChecklists, saveChecklist } from '~/core/checklists/checklist.service';
import type { Checklist } from '~/core/checklists/checklist.types';
import { AppError } from '~/core/errors/app-error';
import { hasAccess } from '~/core/permissions/access';
import { pageTitle } from '~/app/lib/page-title';

/**
 * Settings → checklists (spec section 2; app module `checklists`): the templates technicians fill
 * in on work orders, each for one or more work types, with ordered items. Read with settings:read,
 * changed with instance:edit, as the work-order settings.
 */
export const middleware = guard(CHECKLIST_ACCESS.settingsRead);

export async function loader({ context }: Route.LoaderArgs) {
  const auth = requireAuth(context);
  const settings = await run(context, (ctx) => listChecklists(ctx));
  return { ...settings, canEdit: hasAccess(auth, CHECKLIST_ACCESS.settingsEdit) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const intent = String(form.get('intent') ?? 'save');
  try {
    if (intent === 'delete') {
      await run(context, (ctx) => deleteChecklist(ctx, form.get('id')));
      return data<EditorResult>({ ok: true, intent });
    }
    let payload: unknown;
    try {
      payload = JSON.parse(String(form.get('payload') ?? '{}'));
    } catch {
      throw new AppError('VALIDATION_FAILED', 400, { fields: { _: ['ERROR_INVALID_VALUE'] } });
    }
    const saved = await run(context, (ctx) => saveChecklist(ctx, payload));
    return data<EditorResult>({ ok: true, intent, id: saved.id });
  } catch (e) {
    return actionError<EditorResult>(e, { intent });
  }
}

/** The page's `<title>` (app/lib/page-title.ts). */
export const handle = pageTitle('settings.checklists', null, { within: 'settings.title' });

export default function ChecklistSettingsPage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('checklists');
  const { t: tc } = useTranslation();
  const { checklists, workTypes, canEdit } = loaderData;
  const toast = useToast();
  /** The template being edited, `null` for a new one; `undefined` while the editor is closed. */
  const [editing, setEditing] = useState<Checklist | null | undefined>(undefined);
  const [deleting, setDeleting] = useState<Checklist | null>(null);
  const remover = useFetcher<EditorResult>();
  const handled = useRef<EditorResult | undefined>(undefined);
  const typeName = new Map(workTypes.map((w) => [w.id, w.name]));

  const removed = remover.state === 'idle' ? remover.data : undefined;
  useEffect(() => {
    if (!removed || handled.current === removed) return;
    handled.current = removed;
    setDeleting(null);
    if (removed.ok) toast.show({ kind: 'success', message: tc('SUCCESSFULLY_DELETED') });
    else if (removed.code) toast.show({ kind: 'error', message: tc(removed.code) });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [removed]);

  return (
    <div className="grid max-w-4xl gap-6">
      <div>
        <Link to="/settings" className="text-sm text-brand-700 underline">
          ← {t('settings.back')}
        </Link>
        <div className="mt-2 flex flex-wrap items-center justify-between gap-3">
          <h1 className="text-2xl font-semibold">{t('settings.title')}</h1>
          {canEdit ? (
            <Button variant="primary" onPress={() => setEditing(null)}>
              {t('settings.new')}
            </Button>
          ) : null}
        </div>
        <p className="mt-1 text-sm text-slate-600">{t('settings.intro')}</p>
        {canEdit ? null : <p className="mt-1 text-sm text-slate-600">{t('settings.readOnly')}</p>}
      </div>

      {checklists.length === 0 ? (
        <div className="rounded-xl border border-dashed border-slate-300 bg-white p-6 text-sm text-slate-600">
          <p className="font-medium text-slate-800">{t('settings.empty')}</p>
          {canEdit ? <p className="mt-1">{t('settings.emptyHint')}</p> : null}
        </div>
      ) : (
        <ul className="grid gap-3" aria-label={t('settings.title')}>
          {checklists.map((c) => (
            <li
              key={c.id}
              data-testid="checklist-template"
              className="flex flex-wrap items-start justify-between gap-3 rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200"
            >
              <div className="min-w-0">
                <h2 className="font-medium break-words">{c.title}</h2>
                <p className="text-sm text-slate-600">
                  {t('settings.workTypesOf', { names: c.workTypeIds.map((id) => typeName.get(id) ?? '—').join(', ') })}
                  {' · '}
                  {t('settings.itemCount', { count: c.items.length })}
                </p>
                <p className="mt-1 text-sm break-words text-slate-500">{c.items.map((i) => i.label).join(' · ')}</p>
              </div>
              {canEdit ? (
                <div className="flex gap-2">
                  <Button
                    size="sm"
                    variant="secondary"
                    aria-label={t('settings.editLabel', { title: c.title })}
                    onPress={() => setEditing(c)}
                  >
                    {t('settings.edit')}
                  </Button>
                  <Button
                    size="sm"
                    variant="ghost"
                    aria-label={t('settings.deleteLabel', { title: c.title })}
                    onPress={() => setDeleting(c)}
                  >
                    {t('settings.delete')}
                  </Button>
                </div>
              ) : null}
            </li>
          ))}
        </ul>
      )}

      {editing !== undefined ? (
        <ChecklistEditor
          key={editing?.id ?? 'new'}
          checklist={editing}
          workTypes={workTypes}
          onClose={() => setEditing(undefined)}
        />
      ) : null}
      <ConfirmDialog
        isOpen={deleting !== null}
        onOpenChange={(open) => (open ? null : setDeleting(null))}
        title={t('settings.deleteTitle')}
        message={deleting ? t('settings.deleteConfirm', { title: deleting.title }) : undefined}
        confirmLabel={t('settings.delete')}
        variant="danger"
        isPending={remover.state !== 'idle'}
        onConfirm={() => {
          if (deleting) void remover.submit({ intent: 'delete', id: deleting.id }, { method: 'post' });
        }}
      />
    </div>
  );
}
