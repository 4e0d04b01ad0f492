import { useTranslation } from 'react-i18next';
import { data, useActionData, useNavigation } from 'react-router';
import type { Route } from './+types/zone.register';
import { requestContext } from '~/app/context';
import { actionError } from '~/app/lib/action-error.server';
import { guard, run } from '~/app/lib/guard.server';
import { pageTitle } from '~/app/lib/page-title';
import { AuthCard, AuthLink, AuthNotice } from '~/app/components/auth/auth-card';
import { NewPasswordForm } from '~/app/components/auth/new-password-form';
import { isAppError } from '~/core/errors/app-error';
import { PUBLIC } from '~/core/permissions/access';
import { checkZoneInvitation, completeZoneInvitation } from '~/core/zone/zone-auth.service';

/** The office's invitation link (`/zone/register?t=…`): the zone user chooses a password and becomes active. */
export const middleware = guard(PUBLIC);

export const handle = pageTitle('zoneTitle.register');

export async function loader({ request, context }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get('t') ?? '';
  try {
    const user = await run(context, (ctx) => checkZoneInvitation(ctx, { token }));
    return { valid: true as const, token, name: user.name, email: user.email };
  } catch (e) {
    if (isAppError(e) && e.status < 500) return { valid: false as const, code: e.code };
    throw e;
  }
}

type ActionResult = { done?: true; code?: string; fields?: Record<string, string[]> };

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const { ip } = context.get(requestContext);
  try {
    await run(context, (ctx) =>
      completeZoneInvitation(
        ctx,
        { token: String(form.get('t') ?? ''), password: form.get('password'), repeat: form.get('repeat') },
        { ip, userAgent: request.headers.get('user-agent') },
      ),
    );
    return data<ActionResult>({ done: true });
  } catch (e) {
    return actionError(e);
  }
}

export default function ZoneRegister({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('zone');
  const { t: tc } = useTranslation('common');
  const result = useActionData<ActionResult>();
  const busy = useNavigation().state !== 'idle';
  if (result?.done)
    return (
      <AuthCard title={t('register.title')}>
        <AuthNotice kind="success">{t('register.done')}</AuthNotice>
        <AuthLink href="/zone/login">{t('register.toSignIn')}</AuthLink>
      </AuthCard>
    );
  return (
    <AuthCard title={t('register.title')}>
      {!loaderData.valid ? (
        <>
          <AuthNotice kind="error">{tc(loaderData.code)}</AuthNotice>
          <AuthLink href="/zone/login">{t('register.toSignIn')}</AuthLink>
        </>
      ) : (
        <>
          <p className="mt-2 text-sm text-slate-600">
            {t('register.intro', { name: loaderData.name, email: loaderData.email })}
          </p>
          {result?.code && !result.fields ? <AuthNotice kind="error">{tc(result.code)}</AuthNotice> : null}
          <NewPasswordForm
            hidden={{ t: loaderData.token }}
            username={loaderData.email}
            fields={result?.fields}
            submitLabel={t('register.submit')}
            busy={busy}
          />
        </>
      )}
    </AuthCard>
  );
}
