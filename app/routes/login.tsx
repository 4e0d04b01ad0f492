import { useTranslation } from 'react-i18next';
import { data, Form, redirect, useActionData, useNavigation, useSearchParams } from 'react-router';
import type { Route } from './+types/login';
import { authContext, requestContext, tenantContext } from '~/app/context';
import { actionError } from '~/app/lib/action-error.server';
import { guard, run } from '~/app/lib/guard.server';
import { afterSignIn, safeRedirect } from '~/app/lib/safe-redirect';
import { Button, TextField } from '~/app/components/ui';
import {
  ForgotPasswordScreen,
  RecoveryScreen,
  RegistrationScreen,
  type LinkActionResult,
  type LinkCheck,
} from '~/app/components/auth/link-screens';
import { ForgotPasswordLink } from '~/app/components/auth/recovery-request-form';
import { authenticate } from '~/core/auth/authenticate.service';
import { checkRecoveryLink, completeRecovery, requestRecovery } from '~/core/auth/recovery.service';
import { checkRegistrationLink, completeRegistration } from '~/core/auth/registration.service';
import { isAppError } from '~/core/errors/app-error';
import { mfaCookie, sessionCookie } from '~/core/http/session-token';
import { assertPasswordLoginAllowed, loginOptions } from '~/core/auth/oidc-settings.service';
import { PUBLIC } from '~/core/permissions/access';
import { LANGS } from '~/core/i18n/languages';
import { sessionPolicy } from '~/core/unit-of-work';
import { pageTitle } from '~/app/lib/page-title';

export const middleware = guard(PUBLIC);

type Mode = 'login' | 'forgot' | 'recovery' | 'registration';

/** A mailed link's token, checked now so the page can say at once when it no longer works. */
async function checkLink(
  context: Route.LoaderArgs['context'],
  mode: 'recovery' | 'registration',
  token: string,
): Promise<LinkCheck> {
  try {
    const check = mode === 'recovery' ? checkRecoveryLink : checkRegistrationLink;
    const user = await run(context, (ctx) => check(ctx, { token }));
    return { valid: true, token, email: user.email, name: user.name };
  } catch (e) {
    if (isAppError(e) && e.status < 500) return { valid: false, code: e.code };
    throw e;
  }
}

/**
 * Spec modes of the login screen: registration (rt, lang), recovery (t, lang), the recovery
 * request behind the can't-log-in link (forgot), else normal login.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const company = context.get(tenantContext).displayName;
  const params = new URL(request.url).searchParams;
  const rt = params.get('rt');
  const t = params.get('t');
  if (rt !== null) return { company, mode: 'registration' as Mode, link: await checkLink(context, 'registration', rt) };
  if (t !== null) return { company, mode: 'recovery' as Mode, link: await checkLink(context, 'recovery', t) };
  // Already signed in: nothing to do here.
  if (context.get(authContext)) throw redirect('/');
  // Microsoft or Google sign-in of a user with MFA: the second step is pending.
  const mfa = params.get('mfa');
  if (mfa) throw redirect('/login/mfa', { headers: { 'Set-Cookie': mfaCookie(mfa) } });
  // Spec: the screen asks whether Microsoft (and Google) sign-in is on and password login off.
  const sso = await run(context, async (ctx) => ({
    microsoft: await loginOptions(ctx.trx, 'microsoft'),
    google: await loginOptions(ctx.trx, 'google'),
  }));
  return {
    company,
    mode: (params.has('forgot') ? 'forgot' : 'login') as Mode,
    link: null,
    sso: {
      microsoft: sso.microsoft.oauthEnabled,
      google: sso.google.oauthEnabled,
      passwordDisabled: sso.microsoft.passwordDisabled,
    },
  };
}

type ActionResult = { code: string; fields?: Record<string, string[]> };

/** The recovery and registration forms: one service call each, answered with a result the screen shows. */
async function linkAction(
  request: Request,
  context: Route.ActionArgs['context'],
  intent: 'forgot' | 'recover' | 'register',
  form: FormData,
) {
  const { ip } = context.get(requestContext);
  const meta = { ip, userAgent: request.headers.get('user-agent') };
  const byLink = { token: String(form.get('token') ?? ''), password: form.get('password'), repeat: form.get('repeat') };
  try {
    if (intent === 'forgot') {
      const hostname = new URL(request.url).hostname;
      await run(context, (ctx) => requestRecovery(ctx, { email: form.get('email'), hostname }, meta));
      return data<LinkActionResult>({ done: 'forgot' });
    }
    if (intent === 'recover') {
      // The page shows a success message and the person signs in: no session from here.
      await run(context, (ctx) => completeRecovery(ctx, byLink, { ...meta, signIn: false, policy: sessionPolicy() }));
      return data<LinkActionResult>({ done: 'recovered' });
    }
    await run(context, (ctx) => completeRegistration(ctx, byLink, meta));
    return data<LinkActionResult>({ done: 'registered' });
  } catch (e) {
    return actionError(e);
  }
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const intent = form.get('intent');
  if (intent === 'forgot' || intent === 'recover' || intent === 'register')
    return linkAction(request, context, intent, form);
  const { ip, token } = context.get(requestContext);
  try {
    const outcome = await run(context, async (ctx) => {
      await assertPasswordLoginAllowed(ctx.trx);
      return authenticate(
        {
          trx: ctx.trx,
          now: ctx.now,
          policy: sessionPolicy(),
          ip,
          userAgent: request.headers.get('user-agent'),
          previousToken: token,
          tenantId: ctx.tenant.id,
        },
        { email: form.get('email'), password: form.get('password') },
      );
    });
    if (outcome.status === 'rejected')
      return data<ActionResult>(
        { code: outcome.code },
        { status: outcome.code === 'IP_BLOCKED_TRY_AGAIN_LATER' ? 429 : 401 },
      );
    // The second factor is pending: its page takes the challenge from a short-lived cookie.
    if (outcome.status === 'mfa') {
      const back = safeRedirect(form.get('redirectTo'));
      return redirect(`/login/mfa${back === '/' ? '' : `?redirectTo=${encodeURIComponent(back)}`}`, {
        headers: { 'Set-Cookie': mfaCookie(outcome.token) },
      });
    }
    return redirect(afterSignIn(form.get('redirectTo')), {
      headers: { 'Set-Cookie': sessionCookie(outcome.token, outcome.expiresAt) },
    });
  } catch (e) {
    return actionError(e);
  }
}

/** The page's `<title>` (app/lib/page-title.ts). */
export const handle = pageTitle('login.title');

export default function Login({ loaderData }: Route.ComponentProps) {
  const linkResult = useActionData<LinkActionResult>();
  const busy = useNavigation().state !== 'idle';
  const { mode, link } = loaderData;
  let screen;
  if (mode === 'forgot') screen = <ForgotPasswordScreen result={linkResult} busy={busy} />;
  else if (mode === 'recovery' && link) screen = <RecoveryScreen link={link} result={linkResult} busy={busy} />;
  else if (mode === 'registration' && link) screen = <RegistrationScreen link={link} result={linkResult} busy={busy} />;
  if (!screen)
    screen = <LoginScreen company={loaderData.company} sso={'sso' in loaderData ? loaderData.sso : undefined} />;
  return (
    <>
      {screen}
      <LanguageSwitch />
    </>
  );
}

/** The language switch of every login mode: back to the same screen, without its lang parameter. */
function LanguageSwitch() {
  const { t, i18n } = useTranslation();
  const [params] = useSearchParams();
  const back = new URLSearchParams(params);
  back.delete('lang');
  const query = back.toString().replace(/=(&|$)/g, '$1');
  return (
    <Form
      method="post"
      action="/language"
      aria-label={t('login.languages')}
      className="-mt-2 flex flex-wrap justify-center gap-x-3 gap-y-1 pb-6 text-sm"
    >
      <input type="hidden" name="redirectTo" value={`/login${query ? `?${query}` : ''}`} />
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
  );
}

type Sso = { microsoft: boolean; google: boolean; passwordDisabled: boolean };

function LoginScreen({ company, sso }: { company: string; sso?: Sso }) {
  const { t } = useTranslation();
  const result = useActionData<ActionResult>();
  const navigation = useNavigation();
  const [params] = useSearchParams();
  // pending while the form is on its way only: after a refusal the page reloads its data, and a
  // pending button then would swallow an Enter pressed in the corrected form
  const busy = navigation.state === 'submitting' && navigation.formAction === '/login';
  const fieldError = (name: string) => result?.fields?.[name]?.map((k) => t(k));
  const msg = params.get('msg');
  // Spec: error=MS_AUTH means Microsoft sign-in failed; any other error code is a generic failure.
  const queryError = params.get('error');
  const formError = result && !result.fields ? t(result.code) : null;
  return (
    <main className="flex min-h-dvh items-center justify-center p-4">
      <div className="w-full max-w-sm rounded-xl bg-white p-6 shadow-sm ring-1 ring-slate-200 sm:p-8">
        <h1 className="text-2xl font-semibold">{t('login.title')}</h1>
        <p className="mt-1 text-sm text-slate-600">{t('login.subtitle', { company })}</p>
        {msg === 'signedOut' || msg === 'sessionExpired' ? (
          <p role="status" className="mt-4 rounded-md bg-slate-100 p-3 text-sm text-slate-700">
            {t(`notices.${msg}`)}
          </p>
        ) : null}
        {queryError && !result ? (
          <p role="alert" className="mt-4 rounded-md bg-red-50 p-3 text-sm text-red-800">
            {t(
              queryError === 'MS_AUTH'
                ? 'FAILED_TO_AUTHENTICATE_MS_AUTH'
                : queryError === 'MFA'
                  ? 'MFA_AUTHENTICATION_FAILED'
                  : 'ERROR_MESSAGE_TITLE',
            )}
          </p>
        ) : null}
        {formError ? (
          <p role="alert" className="mt-4 rounded-md bg-red-50 p-3 text-sm text-red-800">
            {formError}
          </p>
        ) : null}
        {sso?.microsoft || sso?.google ? (
          <div className="mt-6 flex flex-col gap-2">
            {/* A full page load: the start route sets the state cookie and leaves for the provider. */}
            {sso.microsoft ? (
              <a
                href="/auth/microsoft/start"
                className="rounded-md border border-slate-300 px-4 py-2.5 text-center font-medium hover:bg-slate-50"
              >
                {t('oidc.signInWithMicrosoft')}
              </a>
            ) : null}
            {sso.google ? (
              <a
                href="/auth/google/start"
                className="rounded-md border border-slate-300 px-4 py-2.5 text-center font-medium hover:bg-slate-50"
              >
                {t('oidc.signInWithGoogle')}
              </a>
            ) : null}
          </div>
        ) : null}
        {sso?.passwordDisabled ? (
          <p className="mt-4 text-sm text-slate-600">{t('oidc.passwordLoginDisabled')}</p>
        ) : (
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
        )}
        {sso?.passwordDisabled ? null : <ForgotPasswordLink />}
      </div>
    </main>
  );
}
