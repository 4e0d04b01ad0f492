import { useTranslation } from 'react-i18next';
import { data, Form, redirect, useActionData, useNavigation, useSearchParams } from 'react-router';
import type { Route } from './+types/zone.login';
import { requestContext, tenantContext, zoneAuthContext } from '~/app/context';
import { actionError } from '~/app/lib/action-error.server';
import { guard, run } from '~/app/lib/guard.server';
import { pageTitle } from '~/app/lib/page-title';
import { zoneRedirect } from '~/app/lib/zone-guard.server';
import { AuthCard, AuthLink, AuthNotice } from '~/app/components/auth/auth-card';
import { Button, TextField } from '~/app/components/ui';
import { sessionCookie, ZONE_SESSION_COOKIE } from '~/core/http/session-token';
import { PUBLIC } from '~/core/permissions/access';
import { sessionPolicy } from '~/core/unit-of-work';
import { authenticateZone, authenticateZoneMfa, type ZoneLoginOutcome } from '~/core/zone/zone-auth.service';

/** The customer zone's sign-in at /zone/login (decision 061): e-mail and password, then a TOTP code when set up. */
export const middleware = guard(PUBLIC);

export const handle = pageTitle('zoneTitle.signIn');

export function loader({ context }: Route.LoaderArgs) {
  if (context.get(zoneAuthContext)) throw redirect('/zone');
  const tenant = context.get(tenantContext);
  return { company: tenant.displayName, logoUrl: tenant.config.logoUrl ?? null };
}

type ActionResult = { code?: string; fields?: Record<string, string[]>; mfaToken?: string };

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const { ip, zoneToken } = context.get(requestContext);
  const signIn = (ctx: { trx: Parameters<typeof authenticateZone>[0]['trx']; now: Date; tenant: { id: string } }) => ({
    trx: ctx.trx,
    now: ctx.now,
    policy: sessionPolicy(),
    ip,
    userAgent: request.headers.get('user-agent'),
    previousToken: zoneToken ?? null,
    tenantId: ctx.tenant.id,
  });
  try {
    const mfaToken = form.get('mfaToken');
    if (typeof mfaToken === 'string' && mfaToken) {
      const outcome = await run(context, (ctx) =>
        authenticateZoneMfa(signIn(ctx), { token: mfaToken, mfaCode: form.get('code') }),
      );
      if (outcome.status === 'wrong-code')
        return data<ActionResult>({ fields: { code: ['TWO_FACTOR_CODE_INCORRECT'] }, mfaToken }, { status: 400 });
      if (outcome.status === 'failed') return data<ActionResult>({ code: 'MFA_AUTHENTICATION_FAILED' }, { status: 409 });
      return signedIn(outcome, form);
    }
    const outcome = await run(context, (ctx) =>
      authenticateZone(signIn(ctx), { email: form.get('email'), password: form.get('password') }),
    );
    if (outcome.status === 'rejected')
      return data<ActionResult>(
        { code: outcome.code },
        { status: outcome.code === 'IP_BLOCKED_TRY_AGAIN_LATER' ? 429 : 401 },
      );
    if (outcome.status === 'mfa') return data<ActionResult>({ mfaToken: outcome.token });
    return signedIn(outcome, form);
  } catch (e) {
    return actionError(e);
  }
}

function signedIn(outcome: ZoneLoginOutcome & { status: 'success' }, form: FormData) {
  return redirect(zoneRedirect(form.get('redirectTo')), {
    headers: { 'Set-Cookie': sessionCookie(outcome.token, outcome.expiresAt, ZONE_SESSION_COOKIE) },
  });
}

export default function ZoneLogin({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('zone');
  const { t: tc } = useTranslation('common');
  const result = useActionData<ActionResult>();
  const busy = useNavigation().state !== 'idle';
  const [params] = useSearchParams();
  const redirectTo = params.get('redirectTo') ?? '';
  const fieldError = (name: string) => result?.fields?.[name]?.map((key) => tc(key));
  return (
    <AuthCard title={t('signIn.title')} subtitle={loaderData.company}>
      {loaderData.logoUrl ? (
        <img src={loaderData.logoUrl} alt={loaderData.company} className="mt-4 max-h-16 max-w-full" />
      ) : null}
      {params.get('msg') === 'sessionExpired' && !result ? (
        <AuthNotice kind="info">{t('signIn.sessionExpired')}</AuthNotice>
      ) : null}
      {result?.code ? <AuthNotice kind="error">{tc(result.code)}</AuthNotice> : null}
      {result?.mfaToken ? (
        <Form method="post" className="mt-6 flex flex-col gap-4" noValidate>
          <input type="hidden" name="mfaToken" value={result.mfaToken} />
          <input type="hidden" name="redirectTo" value={redirectTo} />
          <TextField
            name="code"
            label={t('signIn.code')}
            description={t('signIn.codeHint')}
            autoComplete="one-time-code"
            inputMode="numeric"
            isRequired
            autoFocus
            errorMessage={fieldError('code')}
          />
          <Button type="submit" isDisabled={busy}>
            {t('signIn.verify')}
          </Button>
        </Form>
      ) : (
        <Form method="post" className="mt-6 flex flex-col gap-4" noValidate>
          <input type="hidden" name="redirectTo" value={redirectTo} />
          <TextField
            name="email"
            type="email"
            label={t('signIn.email')}
            autoComplete="username"
            isRequired
            autoFocus
            errorMessage={fieldError('email')}
          />
          <TextField
            name="password"
            type="password"
            label={t('signIn.password')}
            autoComplete="current-password"
            isRequired
            errorMessage={fieldError('password')}
          />
          <Button type="submit" isDisabled={busy}>
            {t('signIn.submit')}
          </Button>
        </Form>
      )}
      <AuthLink href="/zone/recover">{t('signIn.forgot')}</AuthLink>
    </AuthCard>
  );
}
