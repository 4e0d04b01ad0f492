import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Form, useActionData, useSubmit } from 'react-router';
import type { Route } from './+types/settings.deviations';
import { DeviationField, INPUT } from '~/app/components/deviations/deviation-fields';
import { useResultToast } from '~/app/components/objects/shared';
import { Button, ConfirmDialog } from '~/app/components/ui';
import { actionError } from '~/app/lib/action-error.server';
import { guard, requireAuth, run } from '~/app/lib/guard.server';
import { pageTitle } from '~/app/lib/page-title';
import { hasAccess } from '~/core/permissions/access';
import {
  deleteDeviationCategory,
  DEVIATION_ACCESS,
  deviationAssignees,
  listDeviationCategories,
  saveDeviationCategory,
} from '~/core/deviations/deviation.service';

/**
 * Settings → deviations (issue 34 item 1): the tenant's categories (name 2–50, unique) and who is
 * notified when a deviation of each is raised; a category in use cannot be deleted.
 */
export const middleware = guard(DEVIATION_ACCESS.settingsRead);

export async function loader({ context }: Route.LoaderArgs) {
  const auth = requireAuth(context);
  return run(context, async (ctx) => ({
    categories: await listDeviationCategories(ctx),
    people: await deviationAssignees(ctx),
    canEdit: hasAccess(auth, DEVIATION_ACCESS.settingsEdit),
  }));
}

type ActionResult = { ok?: boolean; intent?: string; id?: string; message?: string; code?: string; fields?: Record<string, string[]> };

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const intent = String(form.get('intent') ?? 'save');
  const id = String(form.get('id') ?? '');
  try {
    if (intent === 'delete') {
      await run(context, (ctx) => deleteDeviationCategory(ctx, id));
      return { ok: true, intent, id, message: 'settings.deleted' } satisfies ActionResult;
    }
    await run(context, (ctx) =>
      saveDeviationCategory(ctx, {
        id: id || null,
        name: String(form.get('name') ?? ''),
        notifyUserIds: form.getAll('notifyUserIds').map(String),
      }),
    );
    return { ok: true, intent, id, message: 'settings.saved' } satisfies ActionResult;
  } catch (e) {
    return actionError<ActionResult>(e, { intent, id });
  }
}

export const handle = pageTitle('settings.deviations', null, { within: 'settings.title' });

function CategoryForm({
  category,
  people,
  canEdit,
  errors,
}: {
  category: { id: string; name: string; notifyUserIds: string[] } | null;
  people: { id: string; name: string }[];
  canEdit: boolean;
  errors?: Record<string, string[]>;
}) {
  const { t } = useTranslation('deviations');
  const key = category?.id ?? 'new';
  return (
    <Form method="post" className="grid gap-3 rounded-lg p-4 ring-1 ring-slate-200" noValidate>
      <input type="hidden" name="intent" value="save" />
      {category ? <input type="hidden" name="id" value={category.id} /> : null}
      <fieldset disabled={!canEdit} className="grid min-w-0 gap-3">
        <DeviationField id={`cat-${key}-name`} label={t('settings.name')} errors={errors?.name}>
          {(p) => <input {...p} name="name" defaultValue={category?.name ?? ''} maxLength={50} className={INPUT} />}
        </DeviationField>
        <fieldset className="grid gap-1">
          <legend className="text-sm font-medium text-slate-800">{t('settings.notify')}</legend>
          <div className="flex flex-wrap gap-x-4 gap-y-1">
            {people.map((u) => (
              <label key={u.id} className="flex min-h-11 items-center gap-2 text-sm">
                <input
                  type="checkbox"
                  name="notifyUserIds"
                  value={u.id}
                  defaultChecked={category?.notifyUserIds.includes(u.id)}
                  className="size-5"
                />
                {u.name}
              </label>
            ))}
          </div>
        </fieldset>
        {canEdit ? (
          <div>
            <Button type="submit" variant={category ? 'secondary' : 'primary'}>
              {category ? t('save') : t('settings.add')}
            </Button>
          </div>
        ) : null}
      </fieldset>
    </Form>
  );
}

export default function DeviationSettings({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('deviations');
  const result = useActionData<ActionResult>();
  const submit = useSubmit();
  const [deleting, setDeleting] = useState<{ id: string; name: string } | null>(null);
  useResultToast(result, { ns: 'deviations' });
  const errorsFor = (id: string) => (result?.intent === 'save' && (result.id ?? '') === id ? result.fields : undefined);
  return (
    <section className="min-w-0 rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6">
      <h1 className="text-2xl font-semibold">{t('settings.title')}</h1>
      <h2 className="mt-4 text-lg font-semibold">{t('settings.categories')}</h2>
      {loaderData.categories.length ? null : <p className="mt-2 text-sm text-slate-700">{t('settings.empty')}</p>}
      <div className="mt-3 grid max-w-3xl gap-3">
        {loaderData.categories.map((c) => (
          <div key={c.id} className="grid gap-2">
            <CategoryForm category={c} people={loaderData.people} canEdit={loaderData.canEdit} errors={errorsFor(c.id)} />
            {loaderData.canEdit ? (
              <div>
                <Button variant="danger" size="sm" onPress={() => setDeleting(c)}>
                  {t('settings.delete', { name: c.name })}
                </Button>
              </div>
            ) : null}
          </div>
        ))}
        {loaderData.canEdit ? (
          <CategoryForm category={null} people={loaderData.people} canEdit errors={errorsFor('')} />
        ) : null}
      </div>
      <ConfirmDialog
        isOpen={deleting !== null}
        onOpenChange={(open) => (open ? null : setDeleting(null))}
        title={t('settings.delete', { name: deleting?.name ?? '' })}
        message={t('settings.deleteConfirm', { name: deleting?.name ?? '' })}
        confirmLabel={t('delete')}
        variant="danger"
        onConfirm={() => submit({ intent: 'delete', id: deleting?.id ?? '' }, { method: 'post' })}
      />
    </section>
  );
}
