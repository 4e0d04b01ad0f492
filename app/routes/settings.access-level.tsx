import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { data, Form, Link, redirect, useActionData, useNavigation, useSubmit } from 'react-router';
import type { Route } from './+types/settings.access-level';
import { actionError } from '~/app/lib/action-error.server';
import { guard, requireAuth, run } from '~/app/lib/guard.server';
import { Button, ConfirmDialog, Select, TextField } from '~/app/components/ui';
import { PermissionPicker } from '~/app/components/access/permission-picker';
import { useActionToast } from '~/app/components/shell/use-action-toast';
import {
  createAccessLevel,
  deleteAccessLevel,
  getAccessLevel,
  updateAccessLevel,
  type TAccessLevel,
} from '~/core/access-levels/access-level.service';
import { workOrderLimitKey } from '~/core/access-levels/permission-keys';
import { isAppError } from '~/core/errors/app-error';
import { hasAccess } from '~/core/permissions/access';
import { WORK_ORDER_LIMITS, type Permission } from '~/core/permissions/permissions';
import { pageTitle } from '~/app/lib/page-title';

/**
 * Settings → one access level: name, description, work-order limit and permissions by group.
 * The id `new` opens an empty form that creates one.
 */
export const middleware = guard({ permission: 'accesslevels:read' });

const EMPTY: TAccessLevel = {
  id: 'new',
  displayName: '',
  description: null,
  configuration: {},
  permissions: [],
  limit: 'none',
  userCount: 0,
};

export async function loader({ params, context }: Route.LoaderArgs) {
  const auth = requireAuth(context);
  const canEdit = hasAccess(auth, { permission: 'accesslevels:edit' });
  if (params.id === 'new') {
    if (!canEdit) throw data('permission denied', { status: 403 });
    return { level: EMPTY, isNew: true, canEdit };
  }
  try {
    const level = await run(context, (ctx) => getAccessLevel(ctx, params.id));
    return { level, isNew: false, canEdit };
  } catch (e) {
    if (isAppError(e) && e.status === 404) throw data('not found', { status: 404 });
    throw e;
  }
}

type ActionResult = {
  ok?: boolean;
  code?: string;
  fields?: Record<string, string[]>;
};

export async function action({ request, params, context }: Route.ActionArgs) {
  const form = await request.formData();
  try {
    if (form.get('intent') === 'delete') {
      await run(context, (ctx) => deleteAccessLevel(ctx, params.id));
      // back to the list, which says so: the deleted level has nothing left to load
      return redirect('/settings/access-levels?deleted=1');
    }
    const input = {
      displayName: form.get('displayName'),
      description: form.get('description'),
      limit: form.get('limit') || undefined,
      permissions: form.getAll('permissions'),
    };
    if (params.id === 'new') {
      await run(context, (ctx) => createAccessLevel(ctx, input));
      return redirect('/settings/access-levels?created=1');
    }
    await run(context, (ctx) => updateAccessLevel(ctx, { ...input, id: params.id }));
    return data<ActionResult>({ ok: true });
  } catch (e) {
    return actionError(e);
  }
}

/** The page's `<title>` (app/lib/page-title.ts). */
export const handle = pageTitle(
  'title.accessLevel',
  (d: Route.ComponentProps['loaderData']) => (d.isNew ? null : d.level.displayName),
  { orElse: 'title.newAccessLevel', within: 'settings.title' },
);

export default function AccessLevel({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('access');
  const { t: tc } = useTranslation();
  const { level, isNew, canEdit } = loaderData;
  const result = useActionData<ActionResult>();
  const navigation = useNavigation();
  const submit = useSubmit();
  const [selected, setSelected] = useState<Set<Permission>>(() => new Set(level.permissions));
  const [confirmOpen, setConfirmOpen] = useState(false);
  const busy = navigation.state === 'submitting';
  const deleting = busy && navigation.formData?.get('intent') === 'delete';

  // A different level (or a saved one) brings its own permissions.
  useEffect(() => setSelected(new Set(level.permissions)), [level]);

  useActionToast(result);

  const err = (name: string) => result?.fields?.[name]?.map((k) => tc(k));
  const title = isNew ? t('level.newTitle') : canEdit ? t('level.editTitle') : t('level.viewTitle');
  const disabled = !canEdit;

  return (
    <section className="flex max-w-4xl flex-col gap-4">
      <Link to="/settings/access-levels" className="self-start text-sm text-blue-700 underline">
        {t('level.back')}
      </Link>
      <div>
        <h1 className="text-2xl font-semibold">{title}</h1>
        {!isNew ? <p className="mt-1 text-lg text-gray-700">{level.displayName}</p> : null}
        {disabled ? <p className="mt-2 text-sm text-gray-600">{t('level.readOnly')}</p> : null}
      </div>
      <Form
        method="post"
        className="flex flex-col gap-4 rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6"
        noValidate
      >
        <TextField
          name="displayName"
          label={t('level.displayName')}
          defaultValue={level.displayName}
          isRequired
          isDisabled={disabled}
          errorMessage={err('displayName')}
          autoFocus={isNew}
        />
        <TextField
          name="description"
          label={t('level.description')}
          defaultValue={level.description ?? ''}
          isDisabled={disabled}
          errorMessage={err('description')}
        />
        <Select
          name="limit"
          label={t('level.limit')}
          defaultSelectedKey={level.limit}
          isDisabled={disabled}
          items={WORK_ORDER_LIMITS.map((l) => ({ id: l, label: t(workOrderLimitKey(l)) }))}
          errorMessage={err('limit')}
        />
        <div className="flex flex-col gap-2">
          <h2 className="text-lg font-medium">{t('level.permissions')}</h2>
          {result?.fields && Object.keys(result.fields).some((k) => k.startsWith('permissions')) ? (
            <p className="text-sm text-red-700">{tc('ERROR_INVALID_VALUE')}</p>
          ) : null}
          <PermissionPicker name="permissions" selected={selected} onChange={setSelected} isDisabled={disabled} />
        </div>
        {canEdit ? (
          <div className="flex flex-col-reverse gap-2 border-t border-gray-100 pt-4 sm:flex-row sm:justify-between">
            {!isNew ? (
              <Button variant="danger" onPress={() => setConfirmOpen(true)} isDisabled={busy}>
                {t('level.delete')}
              </Button>
            ) : (
              <span />
            )}
            <Button type="submit" variant="primary" isPending={busy && !deleting}>
              {isNew ? t('level.create') : t('level.save')}
            </Button>
          </div>
        ) : null}
        {!isNew && level.userCount > 0 ? (
          <p className="text-sm text-gray-600">
            {t('level.usedBy', { count: level.userCount })} {canEdit ? t('level.inUseHint') : null}
          </p>
        ) : null}
      </Form>
      {canEdit && !isNew ? (
        <ConfirmDialog
          title={t('level.deleteTitle')}
          message={t('level.deleteConfirm', { name: level.displayName })}
          confirmLabel={t('level.delete')}
          variant="danger"
          isOpen={confirmOpen}
          onOpenChange={setConfirmOpen}
          isPending={deleting}
          onConfirm={() => {
            void submit({ intent: 'delete' }, { method: 'post' });
            setConfirmOpen(false);
          }}
        />
      ) : null}
    </section>
  );
}
