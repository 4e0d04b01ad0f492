import { useTranslation } from 'react-i18next';
import { redirect, useActionData, useNavigation } from 'react-router';
import type { Route } from './+types/welcome';
import { requestContext } from '~/app/context';
import { actionError } from '~/app/lib/action-error.server';
import { guard, run } from '~/app/lib/guard.server';
import { AuthCard, AuthLink, AuthNotice } from '~/app/components/auth/auth-card';
import { NewPasswordForm } from '~/app/components/auth/new-password-form';
import { checkOneTimeToken } from '~/core/auth/one-time-token.service';
import { isAppError } from '~/core/errors/app-error';
import { sessionCookie } from '~/core/http/session-token';
import { PUBLIC } from '~/core/permissions/access';
import { sessionPolicy } from '~/core/unit-of-work';
import { completeSignInLink } from '~/core/users/set-password.service';
import { pageTitle } from '~/app/lib/page-title';

/** The one-time sign-in link the tenant CLI prints for a new admin: choose a password, go. */
export const middleware = guard(PUBLIC);

export async function loader({ request, context }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get('t') ?? '';
  try {
    const user = await run(context, (ctx) => checkOneTimeToken(ctx.trx, token, 'signin', ctx.now));
    return { valid: true as const, token, name: user.name, email: user.email };
  } catch (e) {
    if (isAppError(e)) return { valid: false as const, code: e.code };
    throw e;
  }
}

type ActionResult = { code: string; fields?: Record<string, string[]> };

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const { ip } = context.get(requestContext);
  try {
    const session = await run(context, (ctx) =>
      completeSignInLink(
        ctx.trx,
        {
          token: String(form.get('t') ?? ''),
          now: ctx.now,
          policy: sessionPolicy(),
          ip,
          userAgent: request.headers.get('user-agent'),
        },
        { password: form.get('password'), repeat: form.get('repeat') },
      ),
    );
    return redirect('/', { headers: { 'Set-Cookie': sessionCookie(session.token, session.expiresAt) } });
  } catch (e) {
    return actionError(e);
  }
}

/** The page's `<title>` (app/lib/page-title.ts). */
export const handle = pageTitle('welcome.title');

export default function Welcome({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const result = useActionData<ActionResult>();
  const busy = useNavigation().state !== 'idle';
  return (
    <AuthCard title={t('welcome.title')}>
      {!loaderData.valid ? (
        <>
          <AuthNotice kind="error">{t(loaderData.code)}</AuthNotice>
          <AuthLink href="/login">{t('login.title')}</AuthLink>
        </>
      ) : (
        <>
          <p className="mt-2 text-sm text-slate-600">
            {t('welcome.intro', { name: loaderData.name, email: loaderData.email })}
          </p>
          {result && !result.fields ? <AuthNotice kind="error">{t(result.code)}</AuthNotice> : null}
          <NewPasswordForm
            hidden={{ t: loaderData.token }}
            username={loaderData.email}
            fields={result?.fields}
            submitLabel={t('welcome.submit')}
            busy={busy}
          />
        </>
      )}
    </AuthCard>
  );
}
