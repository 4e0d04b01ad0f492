import { useTranslation } from 'react-i18next';
import { data, Form, useActionData, useNavigation } from 'react-router';
import type { Route } from './+types/settings.email';
import { actionError } from '~/app/lib/action-error.server';
import { guard, requireAuth, run } from '~/app/lib/guard.server';
import { Button, DateTime, Select, TextField } from '~/app/components/ui';
import { useActionToast } from '~/app/components/shell/use-action-toast';
import { hasAccess } from '~/core/permissions/access';
import {
  authorizeMailAccount,
  forgetMailAccount,
  readMailAccount,
  testMailAccount,
} from '~/core/mail/mail-account.service';
import { pageTitle } from '~/app/lib/page-title';

// Listed here, not imported: the component runs in the browser and the service module is server-only.
const SECURITIES = ['starttls', 'tls', 'none'] as const;

/**
 * Settings → e-mail (issue 36 item 6; decision 066): the company's own sending account. Saving
 * tries it with a real test mail (POST /instance/mail/auth) and keeps it only if the server took
 * the mail; "send test mail" tries the stored one again; the password is never shown.
 */
export const middleware = guard({ permission: 'instance:read' });

export async function loader({ context }: Route.LoaderArgs) {
  const auth = requireAuth(context);
  const account = await run(context, (ctx) => readMailAccount(ctx));
  return { account, canEdit: hasAccess(auth, { permission: 'instance:edit' }), myEmail: auth.user.email };
}

type ActionResult = { ok?: boolean; intent?: string; to?: string; code?: string; fields?: Record<string, string[]> };

export async function action({ request, context }: Route.ActionArgs) {
  const form = Object.fromEntries(await request.formData());
  const intent = String(form.intent ?? 'save');
  try {
    if (intent === 'test') {
      const sent = await run(context, (ctx) => testMailAccount(ctx, { testTo: form.testTo }));
      return data<ActionResult>({ ok: true, intent, to: sent.to });
    }
    if (intent === 'forget') {
      await run(context, (ctx) => forgetMailAccount(ctx));
      return data<ActionResult>({ ok: true, intent });
    }
    await run(context, (ctx) => authorizeMailAccount(ctx, form));
    return data<ActionResult>({ ok: true, intent, to: String(form.testTo || '') || undefined });
  } catch (e) {
    return actionError<ActionResult>(e, { intent });
  }
}

/** The page's `<title>` (app/lib/page-title.ts). */
export const handle = pageTitle('settings.email', null, { within: 'settings.title' });

export default function EmailSettings({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('notifications');
  const result = useActionData<ActionResult>();
  const busy = useNavigation().state === 'submitting';
  useActionToast(result);
  const a = loaderData.account;
  const disabled = !loaderData.canEdit;
  const err = (name: string) => result?.fields?.[name]?.map((k) => t(`common:${k}`));
  const refused = result && !result.ok && result.code && !result.fields ? result.code : null;
  return (
    <section
      aria-labelledby="email-title"
      className="max-w-2xl rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6"
    >
      <h1 id="email-title" className="text-2xl font-semibold">
        {t('mail.title')}
      </h1>
      <p className="mt-1 text-sm text-slate-600">{t('mail.help')}</p>
      <p className="mt-3 text-sm" data-testid="mail-account-state">
        {a.configured && a.verifiedAt ? (
          <>
            {t('mail.inUse', { host: a.host, from: a.from })} {t('mail.verifiedAt')} <DateTime iso={a.verifiedAt} />
          </>
        ) : (
          t('mail.platform')
        )}
      </p>
      {refused ? (
        <p role="alert" className="mt-3 rounded-md bg-red-50 p-3 text-sm text-red-800">
          {t(`common:${refused}`)}
        </p>
      ) : null}
      {result?.ok && result.intent !== 'forget' ? (
        <p role="status" className="mt-3 rounded-md bg-green-50 p-3 text-sm text-green-800">
          {t('mail.testSent', { to: result.to ?? loaderData.myEmail })}
        </p>
      ) : null}
      <Form method="post" className="mt-4 grid gap-4" noValidate>
        <input type="hidden" name="intent" value="save" />
        <TextField
          name="host"
          label={t('mail.host')}
          defaultValue={a.host ?? ''}
          isRequired
          isDisabled={disabled}
          errorMessage={err('host')}
        />
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            name="port"
            label={t('mail.port')}
            inputMode="numeric"
            defaultValue={String(a.port ?? 587)}
            isRequired
            isDisabled={disabled}
            errorMessage={err('port')}
          />
          <Select
            name="security"
            label={t('mail.security')}
            defaultSelectedKey={a.security ?? 'starttls'}
            isDisabled={disabled}
            items={SECURITIES.map((s) => ({ id: s, label: t(`mail.security.${s}`) }))}
            errorMessage={err('security')}
          />
        </div>
        <TextField
          name="user"
          label={t('mail.user')}
          autoComplete="off"
          defaultValue={a.user ?? ''}
          isRequired
          isDisabled={disabled}
          errorMessage={err('user')}
        />
        <TextField
          name="password"
          type="password"
          autoComplete="new-password"
          label={t('mail.password')}
          description={a.hasPassword ? t('mail.passwordKept') : undefined}
          isRequired={!a.hasPassword}
          isDisabled={disabled}
          errorMessage={err('password')}
        />
        <TextField
          name="from"
          label={t('mail.from')}
          description={t('mail.fromHelp')}
          defaultValue={a.from ?? ''}
          isRequired
          isDisabled={disabled}
          errorMessage={err('from')}
        />
        <TextField
          name="testTo"
          type="email"
          label={t('mail.testTo')}
          description={t('mail.testToHelp')}
          defaultValue={loaderData.myEmail}
          isDisabled={disabled}
          errorMessage={err('testTo')}
        />
        {disabled ? null : (
          <div>
            <Button type="submit" variant="primary" isPending={busy}>
              {t('mail.save')}
            </Button>
          </div>
        )}
      </Form>
      {a.configured && !disabled ? (
        <div className="mt-6 flex flex-wrap gap-3 border-t border-slate-100 pt-4">
          <Form method="post">
            <input type="hidden" name="intent" value="test" />
            <Button type="submit" variant="secondary" isPending={busy}>
              {t('mail.sendTest')}
            </Button>
          </Form>
          <Form method="post">
            <input type="hidden" name="intent" value="forget" />
            <Button type="submit" variant="ghost" isPending={busy}>
              {t('mail.forget')}
            </Button>
          </Form>
        </div>
      ) : null}
    </section>
  );
}
