import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { data, Form, Link, useActionData, useNavigation, useSubmit } from 'react-router';
import type { Route } from './+types/settings.user';
import { actionError } from '~/app/lib/action-error.server';
import { AccessLevelCheckboxes } from '~/app/components/users/access-level-checkboxes';
import { guard, requireAuth, run } from '~/app/lib/guard.server';
import { Button, ConfirmDialog, Select, TextField } from '~/app/components/ui';
import { useActionToast } from '~/app/components/shell/use-action-toast';
import { LANGUAGE_KEYS } from '~/core/instance/instance-config';
import { langFromKey } from '~/core/i18n/languages';
import { hasAccess } from '~/core/permissions/access';
import { accessLevelOptions, getUser, listDepartments, setUserActive, updateUser } from '~/core/users/user.service';
import { pageTitle } from '~/app/lib/page-title';
import { RegionSelect } from '~/app/components/regions/region-select';
import { regionChoices } from '~/core/regions/region.service';

/** Settings → users → one user: the spec's user fields, access levels, deactivation. */
export const middleware = guard({ permission: 'users:read' });

export async function loader({ params, context }: Route.LoaderArgs) {
  const auth = requireAuth(context);
  return run(context, async (ctx) => {
    const user = await getUser(ctx, params.id);
    return {
      user,
      departments: await listDepartments(ctx),
      regions: await regionChoices(ctx, user.region),
      levels: await accessLevelOptions(ctx),
      canEdit: hasAccess(auth, { permission: 'users:edit' }),
      isSelf: auth.user.id === params.id,
    };
  });
}

type ActionResult = { ok?: boolean; code?: string; fields?: Record<string, string[]>; toast?: string };

export async function action({ request, params, context }: Route.ActionArgs) {
  const form = await request.formData();
  try {
    const intent = form.get('intent');
    await run(context, (ctx) =>
      intent === 'deactivate' || intent === 'reactivate'
        ? setUserActive(ctx, { id: params.id, active: intent === 'reactivate' })
        : updateUser(ctx, {
            id: params.id,
            name: form.get('name'),
            shortName: form.get('shortName') ?? undefined,
            phone: form.get('phone') ?? undefined,
            language: form.get('language') || null,
            departmentId: form.get('departmentId') || null,
            region: form.has('region') ? form.get('region') : undefined,
            accessLevelIds: form.getAll('accessLevelIds'),
            trackerId: form.get('trackerId') ?? undefined,
            erpEmployeeId: form.get('erpEmployeeId') ?? undefined,
          }),
    );
    return data<ActionResult>({ ok: true });
  } catch (e) {
    return actionError(e);
  }
}

/** The page's `<title>` (app/lib/page-title.ts). */
export const handle = pageTitle('title.user', (d: Route.ComponentProps['loaderData']) => d.user.name, {
  within: 'settings.title',
});

export default function EditUser({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('users');
  const { t: tc } = useTranslation();
  const result = useActionData<ActionResult>();
  const busy = useNavigation().state === 'submitting';
  const submit = useSubmit();
  const [confirming, setConfirming] = useState(false);
  useActionToast(result);
  const { user, canEdit } = loaderData;
  const err = (name: string) => result?.fields?.[name]?.map((k) => tc(k));
  const disabled = !canEdit;
  return (
    <section className="max-w-2xl rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6">
      <Link to="/settings/users" className="text-sm text-brand-700 underline">
        ← {t('edit.back')}
      </Link>
      <h1 className="mt-2 text-2xl font-semibold">{t('edit.title')}</h1>
      <p className="mt-1 break-all text-sm text-slate-600">
        {user.email} · {t(`status.${user.status}`)}
      </p>
      <Form method="post" className="mt-6 grid gap-4 sm:grid-cols-2" noValidate>
        <TextField
          name="name"
          label={t('field.name')}
          defaultValue={user.name}
          isRequired
          isDisabled={disabled}
          errorMessage={err('name')}
          className="sm:col-span-2"
        />
        <TextField
          name="shortName"
          label={t('field.shortName')}
          defaultValue={user.shortName ?? ''}
          isDisabled={disabled}
          errorMessage={err('shortName')}
        />
        <TextField
          name="phone"
          type="tel"
          label={t('field.phone')}
          defaultValue={user.phone ?? ''}
          isDisabled={disabled}
          errorMessage={err('phone')}
        />
        <Select
          name="departmentId"
          label={t('field.department')}
          isDisabled={disabled}
          defaultSelectedKey={user.departmentId ?? ''}
          items={[
            { id: '', label: t('field.noDepartment') },
            ...loaderData.departments.map((d) => ({ id: d.id, label: d.name })),
          ]}
          errorMessage={err('departmentId')}
        />
        <RegionSelect
          choices={loaderData.regions}
          value={user.region}
          isDisabled={disabled}
          errorMessage={err('region')}
        />
        <Select
          name="language"
          label={tc('profile.language')}
          isDisabled={disabled}
          defaultSelectedKey={user.language ?? undefined}
          items={LANGUAGE_KEYS.map((k) => ({ id: k, label: tc(`lang.${langFromKey(k)}`) }))}
        />
        <TextField
          name="trackerId"
          label={t('field.trackerId')}
          defaultValue={user.trackerId ?? ''}
          isDisabled={disabled}
        />
        <TextField
          name="erpEmployeeId"
          label={t('field.erpEmployeeId')}
          defaultValue={user.erpEmployeeId ?? ''}
          isDisabled={disabled}
        />
        <AccessLevelCheckboxes
          className="sm:col-span-2"
          legend={t('field.accessLevels')}
          name="accessLevelIds"
          levels={loaderData.levels}
          checked={user.accessLevelIds}
          isDisabled={disabled}
        />
        {canEdit ? (
          <div className="flex flex-wrap gap-2 sm:col-span-2">
            <Button type="submit" variant="primary" isPending={busy}>
              {t('save')}
            </Button>
            {user.status === 'active' && !loaderData.isSelf ? (
              <Button variant="danger" onPress={() => setConfirming(true)}>
                {t('deactivate')}
              </Button>
            ) : null}
            {user.status === 'inactive' ? (
              <Button variant="secondary" onPress={() => submit({ intent: 'reactivate' }, { method: 'post' })}>
                {t('reactivate')}
              </Button>
            ) : null}
          </div>
        ) : null}
      </Form>
      <ConfirmDialog
        isOpen={confirming}
        onOpenChange={setConfirming}
        title={t('deactivate')}
        message={t('deactivate.confirm', { name: user.name })}
        confirmLabel={t('deactivate')}
        variant="danger"
        onConfirm={() => {
          submit({ intent: 'deactivate' }, { method: 'post' });
          setConfirming(false);
        }}
      />
    </section>
  );
}
