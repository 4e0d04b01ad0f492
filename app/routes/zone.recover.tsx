import { useTranslation } from 'react-i18next';
import { data, Form, useActionData, useNavigation } from 'react-router';
import type { Route } from './+types/zone.recover';
import { requestContext } from '~/app/context';
import { actionError } from '~/app/lib/action-error.server';
import { guard, run } from '~/app/lib/guard.server';
import { pageTitle } from '~/app/lib/page-title';
import { AuthCard, AuthLink, AuthNotice } from '~/app/components/auth/auth-card';
import { NewPasswordForm } from '~/app/components/auth/new-password-form';
import { Button, TextField } from '~/app/components/ui';
import { ZONE } from '~/core/auth/principal';
import { checkRecoveryLink, completeRecovery, requestRecovery } from '~/core/auth/recovery.service';
import { isAppError } from '~/core/errors/app-error';
import { PUBLIC } from '~/core/permissions/access';
import { sessionPolicy } from '~/core/unit-of-work';

/**
 * The zone's password recovery: without `t` the request for a link (answered the same for any
 * address), with `t` the mailed link's new password. The staff recovery, for the zone's kind of user.
 */
export const middleware = guard(PUBLIC);

export const handle = pageTitle('zoneTitle.recover');

export async function loader({ request, context }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get('t');
  if (token === null) return { mode: 'request' as const };
  try {
    const user = await run(context, (ctx) => checkRecoveryLink(ctx, { token }, ZONE));
    return { mode: 'link' as const, valid: true as const, token, email: user.email };
  } catch (e) {
    if (isAppError(e) && e.status < 500) return { mode: 'link' as const, valid: false as const, code: e.code };
    throw e;
  }
}

type ActionResult = { done?: 'sent' | 'saved'; code?: string; fields?: Record<string, string[]> };

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const { ip } = context.get(requestContext);
  const meta = { ip, userAgent: request.headers.get('user-agent') };
  try {
    if (form.has('t')) {
      const byLink = { token: String(form.get('t') ?? ''), password: form.get('password'), repeat: form.get('repeat') };
      await run(context, (ctx) =>
        completeRecovery(ctx, byLink, { ...meta, signIn: false, policy: sessionPolicy() }, ZONE),
      );
      return data<ActionResult>({ done: 'saved' });
    }
    const hostname = new URL(request.url).hostname;
    await run(context, (ctx) => requestRecovery(ctx, { email: form.get('email'), hostname }, meta, ZONE));
    return data<ActionResult>({ done: 'sent' });
  } catch (e) {
    return actionError(e);
  }
}

export default function ZoneRecover({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('zone');
  const { t: tc } = useTranslation('common');
  const result = useActionData<ActionResult>();
  const busy = useNavigation().state !== 'idle';
  const back = <AuthLink href="/zone/login">{t('register.toSignIn')}</AuthLink>;
  if (result?.done)
    return (
      <AuthCard title={t('recover.title')}>
        <AuthNotice kind="success">{t(result.done === 'sent' ? 'recover.sent' : 'recover.done')}</AuthNotice>
        {back}
      </AuthCard>
    );
  if (loaderData.mode === 'link')
    return (
      <AuthCard title={t('recover.newTitle')}>
        {!loaderData.valid ? (
          <AuthNotice kind="error">{tc(loaderData.code)}</AuthNotice>
        ) : (
          <>
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
        {back}
      </AuthCard>
    );
  return (
    <AuthCard title={t('recover.title')} subtitle={t('recover.intro')}>
      {result?.code && !result.fields ? <AuthNotice kind="error">{tc(result.code)}</AuthNotice> : null}
      <Form method="post" className="mt-6 flex flex-col gap-4" noValidate>
        <TextField
          name="email"
          type="email"
          label={t('signIn.email')}
          autoComplete="username"
          isRequired
          autoFocus
          errorMessage={result?.fields?.email?.map((k) => tc(k))}
        />
        <Button type="submit" isDisabled={busy}>
          {t('recover.submit')}
        </Button>
      </Form>
      {back}
    </AuthCard>
  );
}
