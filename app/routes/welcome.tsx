import { useTranslation } from 'react-i18next';
import { data, Form, redirect, useActionData, useNavigation } from 'react-router';
import type { Route } from './+types/welcome';
import { requestContext } from '~/app/context';
import { guard, run } from '~/app/lib/guard.server';
import { Button, TextField } from '~/app/components/ui';
import { checkOneTimeToken } from '~/core/auth/one-time-token.service';
import { isAppError } from '~/core/errors/app-error';
import { sessionCookie } from '~/core/http/session-token';
import { PUBLIC } from '~/core/permissions/access';
import { sessionPolicy } from '~/core/unit-of-work';
import { completeSignInLink } from '~/core/users/set-password.service';

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
    if (isAppError(e) && e.status < 500)
      return data<ActionResult>({ code: e.code, fields: e.details?.fields }, { status: e.status });
    throw e;
  }
}

export default function Welcome({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const result = useActionData<ActionResult>();
  const busy = useNavigation().state !== 'idle';
  const fieldError = (name: string) => result?.fields?.[name]?.map((k) => t(k));
  return (
    <main className="flex min-h-dvh items-center justify-center p-4">
      <div className="w-full max-w-sm rounded-xl bg-white p-6 shadow-sm ring-1 ring-slate-200 sm:p-8">
        <h1 className="text-2xl font-semibold">{t('welcome.title')}</h1>
        {!loaderData.valid ? (
          <>
            <p role="alert" className="mt-4 rounded-md bg-red-50 p-3 text-sm text-red-800">
              {t(loaderData.code)}
            </p>
            <a className="mt-4 inline-block text-brand-700 underline" href="/login">
              {t('login.title')}
            </a>
          </>
        ) : (
          <>
            <p className="mt-2 text-sm text-slate-600">
              {t('welcome.intro', { name: loaderData.name, email: loaderData.email })}
            </p>
            {result && !result.fields ? (
              <p role="alert" className="mt-4 rounded-md bg-red-50 p-3 text-sm text-red-800">
                {t(result.code)}
              </p>
            ) : null}
            <Form method="post" className="mt-6 flex flex-col gap-4" noValidate>
              <input type="hidden" name="t" value={loaderData.token} />
              <input type="hidden" name="username" autoComplete="username" value={loaderData.email} />
              <TextField
                name="password"
                type="password"
                label={t('welcome.password')}
                description={t('welcome.hint')}
                autoComplete="new-password"
                isRequired
                errorMessage={fieldError('password')}
              />
              <TextField
                name="repeat"
                type="password"
                label={t('welcome.repeat')}
                autoComplete="new-password"
                isRequired
                errorMessage={fieldError('repeat')}
              />
              <Button type="submit" variant="primary" isPending={busy}>
                {t('welcome.submit')}
              </Button>
            </Form>
          </>
        )}
      </div>
    </main>
  );
}
