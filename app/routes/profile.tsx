import { useTranslation } from 'react-i18next';
import { data, Form, useActionData, useNavigation } from 'react-router';
import type { Route } from './+types/profile';
import { guard, requireAuth, run } from '~/app/lib/guard.server';
import { Button, Select } from '~/app/components/ui';
import { useActionToast } from '~/app/components/shell/use-action-toast';
import { isAppError } from '~/core/errors/app-error';
import { LANGUAGE_KEYS } from '~/core/instance/instance-config';
import { langFromKey } from '~/core/i18n/languages';
import { SIGNED_IN } from '~/core/permissions/access';
import { updateUserConf } from '~/core/users/user-conf.service';

export const middleware = guard(SIGNED_IN);

export function loader({ context }: Route.LoaderArgs) {
  const { user } = requireAuth(context);
  return { name: user.fullName, email: user.email, language: user.language ?? '', startPage: user.startPage };
}

type ActionResult = { ok?: boolean; code?: string; fields?: Record<string, string[]> };

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  try {
    await run(context, (ctx) =>
      updateUserConf(ctx, {
        language: form.get('language') || undefined,
        startPage: form.get('startPage') || undefined,
      }),
    );
    return data<ActionResult>({ ok: true });
  } catch (e) {
    if (isAppError(e) && e.status < 500)
      return data<ActionResult>({ code: e.code, fields: e.details?.fields }, { status: e.status });
    throw e;
  }
}

export default function Profile({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const result = useActionData<ActionResult>();
  const busy = useNavigation().state === 'submitting';
  useActionToast(result);
  return (
    <section className="max-w-xl rounded-xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
      <h1 className="text-2xl font-semibold">{t('profile.title')}</h1>
      <dl className="mt-4 grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
        <dt className="text-slate-500">{t('profile.name')}</dt>
        <dd>{loaderData.name}</dd>
        <dt className="text-slate-500">{t('profile.email')}</dt>
        <dd className="break-all">{loaderData.email}</dd>
      </dl>
      <Form method="post" className="mt-6 flex flex-col gap-4">
        <Select
          name="language"
          label={t('profile.language')}
          defaultSelectedKey={loaderData.language || undefined}
          items={LANGUAGE_KEYS.map((k) => ({ id: k, label: t(`lang.${langFromKey(k)}`) }))}
          errorMessage={result?.fields?.language?.map((k) => t(k))}
        />
        <Select
          name="startPage"
          label={t('profile.startPage')}
          defaultSelectedKey={loaderData.startPage}
          items={[
            { id: 'workorders', label: t('profile.startPage.workorders') },
            { id: 'dashboard', label: t('profile.startPage.dashboard') },
          ]}
        />
        <div>
          <Button type="submit" variant="primary" isPending={busy}>
            {t('profile.save')}
          </Button>
        </div>
      </Form>
    </section>
  );
}
