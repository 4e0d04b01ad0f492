import { useTranslation } from 'react-i18next';
import { Form, Link, redirect, useActionData, useNavigation } from 'react-router';
import type { Route } from './+types/settings.users.new';
import { actionError } from '~/app/lib/action-error.server';
import { AccessLevelCheckboxes } from '~/app/components/users/access-level-checkboxes';
import { guard, run } from '~/app/lib/guard.server';
import { Button, Select, TextField } from '~/app/components/ui';
import { LANGUAGE_KEYS } from '~/core/instance/instance-config';
import { langFromKey } from '~/core/i18n/languages';
import { accessLevelOptions } from '~/core/users/user.service';
import { inviteUser } from '~/core/users/invite.service';
import { pageTitle } from '~/app/lib/page-title';

/** Settings → users → invite: the person gets a registration link by e-mail in their language. */
export const middleware = guard({ permission: 'users:edit' });

export async function loader({ context }: Route.LoaderArgs) {
  return run(context, async (ctx) => ({ levels: await accessLevelOptions(ctx) }));
}

type ActionResult = { code?: string; fields?: Record<string, string[]> };

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  try {
    const { delivery } = await run(context, (ctx) =>
      inviteUser(ctx, {
        email: form.get('email'),
        name: form.get('name'),
        language: form.get('language') || undefined,
        accessLevelIds: form.getAll('accessLevelIds'),
        hostname: new URL(request.url).hostname,
      }),
    );
    // the list says whether the mail left, or waits in the outbox with the link to copy
    return redirect(`/settings/users?registered=true&invited=${delivery}`);
  } catch (e) {
    return actionError(e);
  }
}

/** The page's `<title>` (app/lib/page-title.ts). */
export const handle = pageTitle('title.newUser', null, { within: 'settings.title' });

export default function InviteUser({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('users');
  const { t: tc } = useTranslation();
  const result = useActionData<ActionResult>();
  const busy = useNavigation().state === 'submitting';
  const err = (name: string) => result?.fields?.[name]?.map((k) => tc(k));
  return (
    <section className="max-w-2xl rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6">
      <Link to="/settings/users" className="text-sm text-brand-700 underline">
        ← {t('edit.back')}
      </Link>
      <h1 className="mt-2 text-2xl font-semibold">{t('invite.title')}</h1>
      <p className="mt-1 text-sm text-slate-600">{t('invite.intro')}</p>
      {result && !result.fields ? (
        <p role="alert" className="mt-4 rounded-md bg-red-50 p-3 text-sm text-red-800">
          {tc(result.code ?? 'SERVER_ERROR')}
        </p>
      ) : null}
      <Form method="post" className="mt-6 grid gap-4 sm:grid-cols-2" noValidate>
        <TextField name="name" label={t('field.name')} isRequired errorMessage={err('name')} />
        <TextField name="email" type="email" label={t('col.email')} isRequired errorMessage={err('email')} />
        <Select
          name="language"
          label={tc('profile.language')}
          items={LANGUAGE_KEYS.map((k) => ({ id: k, label: tc(`lang.${langFromKey(k)}`) }))}
        />
        <AccessLevelCheckboxes
          className="sm:col-span-2"
          legend={t('field.accessLevels')}
          name="accessLevelIds"
          levels={loaderData.levels}
        />
        <div className="sm:col-span-2">
          <Button type="submit" variant="primary" isPending={busy}>
            {t('invite.send')}
          </Button>
        </div>
      </Form>
    </section>
  );
}
