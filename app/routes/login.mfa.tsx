import { useTranslation } from 'react-i18next';
import { data, Form, redirect, useActionData, useNavigation, useSearchParams } from 'react-router';
import type { Route } from './+types/login.mfa';
import { authContext, requestContext } from '~/app/context';
import { actionError } from '~/app/lib/action-error.server';
import { guard, run } from '~/app/lib/guard.server';
import { afterSignIn } from '~/app/lib/safe-redirect';
import { Button, TextField } from '~/app/components/ui';
import { authenticateMfa } from '~/core/auth/authenticate.service';
import { MFA_COOKIE, readCookie, sessionCookie } from '~/core/http/session-token';
import { PUBLIC } from '~/core/permissions/access';
import { sessionPolicy } from '~/core/unit-of-work';
import { pageTitle } from '~/app/lib/page-title';

/**
 * The login screen's second step (spec section 2: "a multifactor step when a token is pending"):
 * the pending challenge travels in a short-lived HttpOnly cookie set by the first step.
 */
export const middleware = guard(PUBLIC);

export function loader({ request, context }: Route.LoaderArgs) {
  if (context.get(authContext)) throw redirect('/');
  if (!readCookie(request.headers.get('cookie'), MFA_COOKIE)) throw redirect('/login');
  return null;
}

type ActionResult = { code: string; fields?: Record<string, string[]> };

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const token = readCookie(request.headers.get('cookie'), MFA_COOKIE) ?? '';
  const { ip } = context.get(requestContext);
  try {
    const outcome = await run(context, (ctx) =>
      authenticateMfa(
        { trx: ctx.trx, now: ctx.now, policy: sessionPolicy(), ip, userAgent: request.headers.get('user-agent') },
        { token, mfaCode: form.get('code') },
      ),
    );
    if (outcome.status === 'wrong-code')
      return data<ActionResult>({ code: 'TWO_FACTOR_CODE_INCORRECT' }, { status: 400 });
    const clear = `${MFA_COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0`;
    if (outcome.status === 'failed') return redirect('/login?error=MFA', { headers: { 'Set-Cookie': clear } });
    const headers = new Headers();
    headers.append('Set-Cookie', clear);
    headers.append('Set-Cookie', sessionCookie(outcome.token, outcome.expiresAt));
    return redirect(afterSignIn(form.get('redirectTo')), { headers });
  } catch (e) {
    return actionError(e);
  }
}

/** The page's `<title>` (app/lib/page-title.ts). */
export const handle = pageTitle('login.mfaTitle');

export default function LoginMfa() {
  const { t } = useTranslation();
  const result = useActionData<ActionResult>();
  const busy = useNavigation().state !== 'idle';
  const [params] = useSearchParams();
  const codeError =
    result?.fields?.mfaCode?.map((k) => t(k)) ??
    (result?.code === 'TWO_FACTOR_CODE_INCORRECT' ? t(result.code) : undefined);
  return (
    <main className="flex min-h-dvh items-center justify-center p-4">
      <div className="w-full max-w-sm rounded-xl bg-white p-6 shadow-sm ring-1 ring-slate-200 sm:p-8">
        <h1 className="text-2xl font-semibold">{t('login.mfaTitle')}</h1>
        <p className="mt-1 text-sm text-slate-600">{t('login.mfaIntro')}</p>
        <Form method="post" className="mt-6 flex flex-col gap-4" noValidate>
          <input type="hidden" name="redirectTo" value={params.get('redirectTo') ?? '/'} />
          <TextField
            name="code"
            label={t('profile.mfaCode')}
            autoComplete="one-time-code"
            isRequired
            autoFocus
            errorMessage={codeError}
          />
          <Button type="submit" variant="primary" isPending={busy}>
            {t('login.submit')}
          </Button>
        </Form>
        <a href="/login" className="mt-4 inline-block text-sm text-brand-700 underline">
          {t('login.mfaStartOver')}
        </a>
      </div>
    </main>
  );
}
