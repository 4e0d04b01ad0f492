import { useTranslation } from 'react-i18next';
import { data, Form, useActionData, useNavigation } from 'react-router';
import type { Route } from './+types/settings.sign-in';
import { actionError } from '~/app/lib/action-error.server';
import { guard, requireAuth, run } from '~/app/lib/guard.server';
import { Button, TextField } from '~/app/components/ui';
import { useActionToast } from '~/app/components/shell/use-action-toast';
import { getOidcSettings, saveOidcSettings } from '~/core/auth/oidc-settings.service';

// Listed here, not imported: the component runs in the browser and the service module is server-only.
const PROVIDERS = ['microsoft', 'google'] as const;
import { hasAccess } from '~/core/permissions/access';
import { pageTitle } from '~/app/lib/page-title';

/** Settings → sign-in: Microsoft and Google clients and the switch that turns passwords off. */
export const middleware = guard({ permission: 'settings:read', module: 'microsoft_auth' });

export async function loader({ request, context }: Route.LoaderArgs) {
  const auth = requireAuth(context);
  const settings = await run(context, (ctx) => getOidcSettings(ctx));
  return {
    ...settings,
    origin: new URL(request.url).origin,
    canEdit: hasAccess(auth, { permission: 'instance:edit' }),
  };
}

type ActionResult = { ok?: boolean; code?: string; fields?: Record<string, string[]> };

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const provider = String(form.get('provider'));
  try {
    await run(context, (ctx) =>
      saveOidcSettings(
        ctx,
        provider === 'password'
          ? { passwordLoginDisabled: form.get('passwordLoginDisabled') === 'on' }
          : {
              [provider]: {
                enabled: form.get('enabled') === 'on',
                issuer: String(form.get('issuer') ?? '').trim() || undefined,
                clientId: form.get('clientId'),
                clientSecret: String(form.get('clientSecret') ?? '') || undefined,
                allowedDomains: String(form.get('allowedDomains') ?? '')
                  .split(/[\s,]+/)
                  .filter(Boolean),
              },
            },
      ),
    );
    return data<ActionResult>({ ok: true });
  } catch (e) {
    return actionError(e);
  }
}

/** The page's `<title>` (app/lib/page-title.ts). */
export const handle = pageTitle('oidc.settings.title', null, { within: 'settings.title' });

export default function SignInSettings({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const result = useActionData<ActionResult>();
  const busy = useNavigation().state === 'submitting';
  useActionToast(result);
  const disabled = !loaderData.canEdit;
  return (
    <section className="max-w-2xl rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6">
      <h1 className="text-2xl font-semibold">{t('oidc.settings.title')}</h1>
      {PROVIDERS.map((provider) => {
        const c = loaderData.clients.find((x) => x.provider === provider);
        const err = (name: string) => result?.fields?.[`${provider}.${name}`]?.map((k) => t(k));
        return (
          <Form key={provider} method="post" className="mt-6 grid gap-4 border-t border-slate-100 pt-4" noValidate>
            <input type="hidden" name="provider" value={provider} />
            <h2 className="text-lg font-medium">{t(`oidc.settings.${provider}`)}</h2>
            <label className="flex min-h-10 items-center gap-2 text-sm">
              <input
                type="checkbox"
                name="enabled"
                defaultChecked={c?.enabled}
                disabled={disabled}
                className="size-4 accent-brand-600"
              />
              {t('oidc.settings.enabled')}
            </label>
            <TextField
              name="issuer"
              type="url"
              label={t('oidc.settings.issuer')}
              defaultValue={c?.issuer ?? (provider === 'google' ? 'https://accounts.google.com' : '')}
              isDisabled={disabled}
              errorMessage={err('issuer')}
            />
            <TextField
              name="clientId"
              label={t('oidc.settings.clientId')}
              defaultValue={c?.clientId ?? ''}
              isRequired
              isDisabled={disabled}
              errorMessage={err('clientId')}
            />
            <TextField
              name="clientSecret"
              type="password"
              autoComplete="off"
              label={t('oidc.settings.clientSecret')}
              description={c?.hasSecret ? t('oidc.settings.clientSecretKept') : undefined}
              isDisabled={disabled}
              errorMessage={err('clientSecret')}
            />
            <TextField
              name="allowedDomains"
              label={t('oidc.settings.allowedDomains')}
              description={t('oidc.settings.allowedDomainsHelp')}
              defaultValue={c?.allowedDomains.join(' ') ?? ''}
              isDisabled={disabled}
              errorMessage={err('allowedDomains')}
            />
            <p className="break-all text-sm text-slate-600">
              {t('oidc.settings.redirectUri')}: <code>{`${loaderData.origin}/auth/${provider}/callback`}</code>
            </p>
            {disabled ? null : (
              <div>
                <Button type="submit" variant="primary" isPending={busy}>
                  {t('settings.save')}
                </Button>
              </div>
            )}
          </Form>
        );
      })}
      <Form method="post" className="mt-6 grid gap-4 border-t border-slate-100 pt-4">
        <input type="hidden" name="provider" value="password" />
        <label className="flex min-h-10 items-center gap-2 text-sm">
          <input
            type="checkbox"
            name="passwordLoginDisabled"
            defaultChecked={loaderData.passwordLoginDisabled}
            disabled={disabled}
            className="size-4 accent-brand-600"
          />
          {t('oidc.settings.passwordLoginDisabled')}
        </label>
        {disabled ? null : (
          <div>
            <Button type="submit" variant="secondary" isPending={busy}>
              {t('settings.save')}
            </Button>
          </div>
        )}
      </Form>
    </section>
  );
}
