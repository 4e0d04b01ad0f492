import { useTranslation } from 'react-i18next';
import { data, Form, redirect, useActionData, useNavigation, useSearchParams } from 'react-router';
import type { Route } from './+types/login';
import { authContext, requestContext, tenantContext } from '~/app/context';
import { guard, run } from '~/app/lib/guard.server';
import { safeRedirect } from '~/app/lib/safe-redirect';
import { Button, TextField } from '~/app/components/ui';
import { authenticate } from '~/core/auth/authenticate.service';
import { isAppError } from '~/core/errors/app-error';
import { sessionCookie } from '~/core/http/session-token';
import { PUBLIC } from '~/core/permissions/access';
import { LANGS } from '~/core/i18n/languages';
import { sessionPolicy } from '~/core/unit-of-work';

export const middleware = guard(PUBLIC);

export function loader({ context }: Route.LoaderArgs) {
  // Already signed in: nothing to do here.
  if (context.get(authContext)) throw redirect('/');
  return { company: context.get(tenantContext).displayName };
}

type ActionResult = { code: string; fields?: Record<string, string[]> };

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const { ip, token } = context.get(requestContext);
  try {
    const outcome = await run(context, (ctx) =>
      authenticate(
        {
          trx: ctx.trx,
          now: ctx.now,
          policy: sessionPolicy(),
          ip,
          userAgent: request.headers.get('user-agent'),
          previousToken: token,
        },
        { email: form.get('email'), password: form.get('password') },
      ),
    );
    if (outcome.status === 'rejected')
      return data<ActionResult>(
        { code: outcome.code },
        { status: outcome.code === 'IP_BLOCKED_TRY_AGAIN_LATER' ? 429 : 401 },
      );
    return redirect(safeRedirect(form.get('redirectTo')), {
      headers: { 'Set-Cookie': sessionCookie(outcome.token, outcome.expiresAt) },
    });
  } catch (e) {
    if (isAppError(e) && e.status < 500)
      return data<ActionResult>({ code: e.code, fields: e.details?.fields }, { status: e.status });
    throw e;
  }
}

export default function Login({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const result = useActionData<ActionResult>();
  const navigation = useNavigation();
  const [params] = useSearchParams();
  const busy = navigation.state !== 'idle' && navigation.formAction === '/login';
  const fieldError = (name: string) => result?.fields?.[name]?.map((k) => t(k));
  const msg = params.get('msg');
  // Spec: error=MS_AUTH means Microsoft sign-in failed; any other error code is a generic failure.
  const queryError = params.get('error');
  const formError = result && !result.fields ? t(result.code) : null;
  return (
    <main className="flex min-h-dvh items-center justify-center p-4">
      <div className="w-full max-w-sm rounded-xl bg-white p-6 shadow-sm ring-1 ring-slate-200 sm:p-8">
        <h1 className="text-2xl font-semibold">{t('login.title')}</h1>
        <p className="mt-1 text-sm text-slate-600">{t('login.subtitle', { company: loaderData.company })}</p>
        {msg === 'signedOut' || msg === 'sessionExpired' ? (
          <p role="status" className="mt-4 rounded-md bg-slate-100 p-3 text-sm text-slate-700">
            {t(`notices.${msg}`)}
          </p>
        ) : null}
        {queryError && !result ? (
          <p role="alert" className="mt-4 rounded-md bg-red-50 p-3 text-sm text-red-800">
            {t(queryError === 'MS_AUTH' ? 'FAILED_TO_AUTHENTICATE_MS_AUTH' : 'ERROR_MESSAGE_TITLE')}
          </p>
        ) : null}
        {formError ? (
          <p role="alert" className="mt-4 rounded-md bg-red-50 p-3 text-sm text-red-800">
            {formError}
          </p>
        ) : null}
        <Form method="post" className="mt-6 flex flex-col gap-4" noValidate>
          <input type="hidden" name="redirectTo" value={params.get('redirectTo') ?? '/'} />
          <TextField
            name="email"
            type="email"
            label={t('login.email')}
            autoComplete="username"
            isRequired
            autoFocus
            errorMessage={fieldError('email')}
          />
          <TextField
            name="password"
            type="password"
            label={t('login.password')}
            autoComplete="current-password"
            isRequired
            errorMessage={fieldError('password')}
          />
          <Button type="submit" variant="primary" isPending={busy}>
            {busy ? t('login.submitting') : t('login.submit')}
          </Button>
        </Form>
        <Form
          method="post"
          action="/language"
          aria-label={t('login.languages')}
          className="mt-6 flex flex-wrap justify-center gap-x-3 gap-y-1 border-t border-slate-100 pt-4 text-sm"
        >
          <input
            type="hidden"
            name="redirectTo"
            value={`/login${params.get('redirectTo') ? `?redirectTo=${encodeURIComponent(params.get('redirectTo')!)}` : ''}`}
          />
          {LANGS.map((lang) => (
            <button
              key={lang}
              type="submit"
              name="lang"
              value={lang}
              lang={lang}
              aria-current={i18n.language === lang ? 'true' : undefined}
              className="min-h-10 rounded px-1 text-slate-600 underline-offset-2 hover:underline aria-[current]:font-semibold aria-[current]:text-slate-900"
            >
              {t(`lang.${lang}`)}
            </button>
          ))}
        </Form>
      </div>
    </main>
  );
}
