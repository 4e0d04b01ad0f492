import { useTranslation } from 'react-i18next';
import { data, Form, Link, useActionData, useNavigation } from 'react-router';
import type { Route } from './+types/settings.projects';
import { actionError, type ActionError } from '~/app/lib/action-error.server';
import { guard, requireAuth, run } from '~/app/lib/guard.server';
import { useActionToast } from '~/app/components/shell/use-action-toast';
import { useFieldErrors } from '~/app/components/objects/shared';
import { Button, TextField } from '~/app/components/ui';
import { hasAccess } from '~/core/permissions/access';
import { PROJECT_ACCESS } from '~/core/projects/project-access';
import { getProjectSettings, updateProjectSettings } from '~/core/projects/project.service';
import { pageTitle } from '~/app/lib/page-title';

/**
 * Settings → projects and resource planning (spec section 2 "project resource planning", section
 * 9 "a configurable month day to reset costs"): the day the ongoing cost starts again each month,
 * the hourly price and cost a project's time is valued at unless the project sets its own, and
 * how many days an extra-work approval link stays valid.
 */
export const middleware = guard({ permission: 'settings:read', module: 'projects' });

export async function loader({ context }: Route.LoaderArgs) {
  const auth = requireAuth(context);
  const { settings } = await run(context, (ctx) => getProjectSettings(ctx));
  return { settings, canEdit: hasAccess(auth, PROJECT_ACCESS.edit) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = Object.fromEntries(await request.formData());
  try {
    await run(context, (ctx) => updateProjectSettings(ctx, form));
    return data<{ ok: boolean; code?: string; fields?: Record<string, string[]> }>({ ok: true });
  } catch (e) {
    return actionError(e);
  }
}

/** The page's `<title>` (app/lib/page-title.ts). */
export const handle = pageTitle('settings.projects', null, { within: 'settings.title' });

export default function ProjectSettings({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('projects');
  const result = useActionData<ActionError | { ok: boolean; code?: string; fields?: Record<string, string[]> }>();
  useActionToast(result);
  const errors = useFieldErrors(result);
  const busy = useNavigation().state === 'submitting';
  const { settings, canEdit } = loaderData;
  const money = (v: string) => v.replace('.', ',');
  return (
    <section className="max-w-3xl rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6">
      <Link to="/settings" className="text-sm text-brand-700 underline">
        ← {t('settings.back')}
      </Link>
      <h1 className="mt-2 text-2xl font-semibold">{t('settings.title')}</h1>
      <p className="mt-1 text-sm text-slate-600">{t('settings.intro')}</p>
      <Form method="post" className="mt-6 grid gap-4 sm:grid-cols-2" noValidate>
        <TextField
          name="costResetDay"
          label={t('settings.costResetDay')}
          description={t('settings.costResetDay.help')}
          defaultValue={String(settings.costResetDay)}
          isDisabled={!canEdit}
          errorMessage={errors('costResetDay')}
        />
        <TextField
          name="extraWorkLinkDays"
          label={t('settings.extraWorkLinkDays')}
          description={t('settings.extraWorkLinkDays.help')}
          defaultValue={String(settings.extraWorkLinkDays)}
          isDisabled={!canEdit}
          errorMessage={errors('extraWorkLinkDays')}
        />
        <TextField
          name="hourlyPrice"
          label={t('settings.hourlyPrice')}
          description={t('settings.hourlyPrice.help')}
          defaultValue={money(settings.hourlyPrice)}
          isDisabled={!canEdit}
          errorMessage={errors('hourlyPrice')}
        />
        <TextField
          name="hourlyCost"
          label={t('settings.hourlyCost')}
          description={t('settings.hourlyCost.help')}
          defaultValue={money(settings.hourlyCost)}
          isDisabled={!canEdit}
          errorMessage={errors('hourlyCost')}
        />
        {canEdit ? (
          <div className="sm:col-span-2">
            <Button type="submit" variant="primary" isPending={busy}>
              {t('save')}
            </Button>
          </div>
        ) : null}
      </Form>
    </section>
  );
}
