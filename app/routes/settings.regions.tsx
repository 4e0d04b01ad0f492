import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { data, Link, useFetcher } from 'react-router';
import type { Route } from './+types/settings.regions';
import { actionError, type ActionError } from '~/app/lib/action-error.server';
import { guard, requireAuth, run } from '~/app/lib/guard.server';
import { Button, ConfirmDialog, TextField, useToast } from '~/app/components/ui';
import { hasAccess } from '~/core/permissions/access';
import {
  createRegion,
  deleteRegion,
  listRegions,
  REGIONS_EDIT,
  REGIONS_READ,
  updateRegion,
  type Region,
} from '~/core/regions/region.service';
import { useFetcherResult } from '~/app/lib/use-fetcher-result';
import { pageTitle } from '~/app/lib/page-title';

/**
 * Settings → regions (issue 36 item 4, the regions module; decision 067): the regions users,
 * objects and projects belong to. One in use is deactivated (it stays on what has it, and is no
 * longer offered); one nothing uses can be deleted.
 */
export const middleware = guard(REGIONS_READ);

export async function loader({ context }: Route.LoaderArgs) {
  const auth = requireAuth(context);
  return run(context, async (ctx) => ({
    regions: await listRegions(ctx),
    canEdit: hasAccess(auth, REGIONS_EDIT),
  }));
}

type Result = { ok: true; intent: string } | ActionError;

export async function action({ request, context }: Route.ActionArgs) {
  const form = Object.fromEntries(await request.formData()) as Record<string, string>;
  try {
    return await run(context, async (ctx) => {
      if (form.intent === 'delete') await deleteRegion(ctx, { name: form.name });
      else if (form.intent === 'rename') await updateRegion(ctx, { name: form.name, newName: form.newName });
      else if (form.intent === 'active') await updateRegion(ctx, { name: form.name, active: form.active === 'true' });
      else await createRegion(ctx, { name: form.name });
      return data<Result>({ ok: true, intent: form.intent ?? 'add' });
    });
  } catch (e) {
    return actionError(e);
  }
}

/** The page's `<title>` (app/lib/page-title.ts). */
export const handle = pageTitle('settings.regions', null, { within: 'settings.title' });

export default function RegionsPage({ loaderData: d }: Route.ComponentProps) {
  const { t } = useTranslation('regions');
  const { t: tc } = useTranslation();
  const toast = useToast();
  const fetcher = useFetcher<Result>();
  const [name, setName] = useState('');
  const [renaming, setRenaming] = useState<{ name: string; value: string } | null>(null);
  const [removing, setRemoving] = useState<Region | null>(null);
  const result = useFetcherResult(fetcher, (result) => {
    if ('ok' in result) {
      toast.show({
        kind: 'success',
        message: tc(result.intent === 'delete' ? 'SUCCESSFULLY_DELETED' : 'SUCCESSFULLY_SAVED'),
      });
      if (result.intent === 'add') setName('');
      if (result.intent === 'rename') setRenaming(null);
      setRemoving(null);
    } else if (result.code !== 'VALIDATION_FAILED') {
      toast.show({ kind: 'error', message: tc(result.code) });
      setRemoving(null);
    }
  });
  const fields = result && !('ok' in result) ? (result.fields ?? {}) : {};
  const err = (k: string) => fields[k]?.map((c) => tc(c));
  const pending = fetcher.state !== 'idle';

  return (
    <div className="grid max-w-3xl gap-6">
      <div>
        <Link to="/settings" className="text-sm text-brand-700 underline">
          ← {tc('settings.title')}
        </Link>
        <h1 className="mt-2 text-2xl font-semibold">{t('title')}</h1>
        <p className="mt-1 text-sm text-slate-600">{t('intro')}</p>
      </div>
      <section aria-labelledby="regions-list" className="rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6">
        <h2 id="regions-list" className="text-lg font-semibold">
          {t('list')}
        </h2>
        {d.regions.length === 0 ? (
          <p className="mt-3 rounded-lg border border-dashed border-slate-300 p-4 text-sm text-slate-600">{t('empty')}</p>
        ) : (
          <ul className="mt-3 divide-y divide-slate-100" aria-labelledby="regions-list">
            {d.regions.map((r) => (
              <li key={r.name} className="flex flex-wrap items-center justify-between gap-3 py-2">
                {renaming?.name === r.name ? (
                  <fetcher.Form method="post" className="flex flex-wrap items-end gap-2" noValidate>
                    <input type="hidden" name="intent" value="rename" />
                    <input type="hidden" name="name" value={r.name} />
                    <TextField
                      label={t('newName', { name: r.name })}
                      name="newName"
                      value={renaming.value}
                      onChange={(value) => setRenaming({ name: r.name, value })}
                      errorMessage={err('newName')}
                      autoFocus
                    />
                    <Button type="submit" size="sm" variant="primary" isPending={pending}>
                      {t('save')}
                    </Button>
                    <Button size="sm" variant="ghost" onPress={() => setRenaming(null)}>
                      {t('cancel')}
                    </Button>
                  </fetcher.Form>
                ) : (
                  <span>
                    <span className="font-medium">{r.name}</span>
                    {r.active ? null : <span className="ml-2 text-sm text-slate-600">({t('inactive')})</span>}
                    <span className="block text-sm text-slate-600">
                      {t('usage', { users: r.users, objects: r.objects, projects: r.projects })}
                    </span>
                  </span>
                )}
                {d.canEdit && renaming?.name !== r.name ? (
                  <span className="flex flex-wrap gap-1">
                    <Button
                      size="sm"
                      variant="ghost"
                      onPress={() => setRenaming({ name: r.name, value: r.name })}
                      aria-label={t('renameLabel', { name: r.name })}
                    >
                      {t('rename')}
                    </Button>
                    <Button
                      size="sm"
                      variant="ghost"
                      isDisabled={pending}
                      onPress={() =>
                        void fetcher.submit(
                          { intent: 'active', name: r.name, active: String(!r.active) },
                          { method: 'post' },
                        )
                      }
                      aria-label={t(r.active ? 'deactivateLabel' : 'activateLabel', { name: r.name })}
                    >
                      {t(r.active ? 'deactivate' : 'activate')}
                    </Button>
                    <Button
                      size="sm"
                      variant="ghost"
                      onPress={() => setRemoving(r)}
                      aria-label={t('deleteLabel', { name: r.name })}
                    >
                      {t('delete')}
                    </Button>
                  </span>
                ) : null}
              </li>
            ))}
          </ul>
        )}
        {d.canEdit ? (
          <fetcher.Form method="post" className="mt-4 grid gap-3 sm:grid-cols-[1fr_auto] sm:items-end" noValidate>
            <input type="hidden" name="intent" value="add" />
            <TextField label={t('name')} name="name" value={name} onChange={setName} isRequired errorMessage={err('name')} />
            <Button type="submit" variant="primary" isPending={pending}>
              {t('add')}
            </Button>
          </fetcher.Form>
        ) : null}
      </section>
      <ConfirmDialog
        isOpen={removing !== null}
        onOpenChange={(open) => (open ? undefined : setRemoving(null))}
        title={t('deleteTitle')}
        message={removing ? t('deleteMessage', { name: removing.name }) : undefined}
        variant="danger"
        confirmLabel={t('delete')}
        isPending={pending}
        onConfirm={() => {
          if (removing) void fetcher.submit({ intent: 'delete', name: removing.name }, { method: 'post' });
        }}
      />
    </div>
  );
}
