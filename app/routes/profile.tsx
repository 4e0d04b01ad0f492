import { useEffect, useState } from 'react';
import { actionError } from '~/app/lib/action-error.server';
import { useTranslation } from 'react-i18next';
import { data, Form, useActionData, useNavigation } from 'react-router';
import type { Route } from './+types/profile';
import { requestContext } from '~/app/context';
import { guard, run } from '~/app/lib/guard.server';
import { Button, formatDateTime, Select, TextField, useTenantClock } from '~/app/components/ui';
import { useActionToast } from '~/app/components/shell/use-action-toast';
import { isAppError } from '~/core/errors/app-error';
import { LANGUAGE_KEYS } from '~/core/instance/instance-config';
import { langFromKey } from '~/core/i18n/languages';
import { logger } from '~/core/log/logger';
import { hasAccess, SIGNED_IN } from '~/core/permissions/access';
import {
  changePassword,
  getProfile,
  listMySessions,
  revokeMySession,
  updateProfile,
} from '~/core/users/profile.service';
import { updateUserConf } from '~/core/users/user-conf.service';
import { confirmMfaEnrollment, disableMfa, isMfaEnabled, startMfaEnrollment } from '~/core/auth/mfa.service';
import { pageTitle } from '~/app/lib/page-title';
import { NotificationsLink } from '~/app/components/notifications/notifications-link';

/** The user's own profile: details, preferences, password and sessions (spec section 2). */
export const middleware = guard(SIGNED_IN);

export async function loader({ context }: Route.LoaderArgs) {
  return run(context, async (ctx) => ({
    profile: await getProfile(ctx),
    sessions: await listMySessions(ctx),
    mfaEnabled: await isMfaEnabled(ctx.trx, ctx.auth!.user.id),
    mfaModule: hasAccess(ctx.auth, { permission: 'signed-in', module: 'mfa' }),
    mfaRequired: ctx.auth!.mustEnrollMfa,
  }));
}

type ActionResult = {
  ok?: boolean;
  intent?: string;
  code?: string;
  fields?: Record<string, string[]>;
  enrol?: { qrSvg: string; secret: string };
  recoveryCodes?: string[];
};

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const intent = String(form.get('intent') ?? '');
  try {
    if (intent === 'mfa-start') {
      const enrol = await run(context, (ctx) => startMfaEnrollment(ctx));
      return data<ActionResult>({ ok: true, intent, enrol: { qrSvg: enrol.qrSvg, secret: enrol.secret } });
    }
    if (intent === 'mfa-confirm') {
      const { recoveryCodes } = await run(context, (ctx) => confirmMfaEnrollment(ctx, { code: form.get('code') }));
      return data<ActionResult>({ ok: true, intent, recoveryCodes });
    }
    await run(context, async (ctx) => {
      if (intent === 'mfa-disable') await disableMfa(ctx, { password: form.get('password') });
      else if (intent === 'details')
        await updateProfile(ctx, { name: form.get('name'), phone: form.get('phone') ?? undefined });
      else if (intent === 'password')
        await changePassword(
          ctx,
          { current: form.get('current'), password: form.get('password'), repeat: form.get('repeat') },
          { ip: context.get(requestContext).ip },
        );
      else if (intent === 'revoke') await revokeMySession(ctx, form.get('id'));
      else
        await updateUserConf(ctx, {
          language: form.get('language') || undefined,
          startPage: form.get('startPage') || undefined,
        });
    });
    return data<ActionResult>({ ok: true, intent });
  } catch (e) {
    // Spec section 8: a preference that fails to save is only logged.
    if (intent === 'preferences' && isAppError(e) && e.status < 500)
      logger.warn({ code: e.code }, 'preference not saved');
    return actionError<ActionResult>(e, { intent });
  }
}

const card = 'rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6';

/** The page's `<title>` (app/lib/page-title.ts). */
export const handle = pageTitle('profile.title');

export default function Profile({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const result = useActionData<ActionResult>();
  const navigation = useNavigation();
  const busy = (intent: string) => navigation.state === 'submitting' && navigation.formData?.get('intent') === intent;
  useActionToast(
    result?.intent === 'password' || result?.intent?.startsWith('mfa') ? (result.ok ? undefined : result) : result,
  );
  const [enrol, setEnrol] = useState<ActionResult['enrol']>();
  useEffect(() => {
    if (result?.intent === 'mfa-start' && result.enrol) setEnrol(result.enrol);
    if (result?.intent === 'mfa-confirm' && result.ok) setEnrol(undefined);
  }, [result]);
  const err = (intent: string, name: string) =>
    result?.intent === intent ? result.fields?.[name]?.map((k) => t(k)) : undefined;
  const { profile, sessions } = loaderData;
  const clock = useTenantClock();
  return (
    <div className="grid max-w-3xl gap-6">
      <h1 className="text-2xl font-semibold">{t('profile.title')}</h1>
      <section className={card} aria-labelledby="details">
        <h2 id="details" className="text-lg font-medium">
          {t('profile.details')}
        </h2>
        <p className="mt-1 break-all text-sm text-slate-600">{profile.email}</p>
        <Form method="post" className="mt-4 grid gap-4 sm:grid-cols-2" noValidate>
          <input type="hidden" name="intent" value="details" />
          <TextField
            name="name"
            label={t('profile.name')}
            defaultValue={profile.name}
            isRequired
            errorMessage={err('details', 'name')}
          />
          <TextField
            name="phone"
            type="tel"
            label={t('profile.phone')}
            defaultValue={profile.phone}
            errorMessage={err('details', 'phone')}
          />
          <div className="sm:col-span-2">
            <Button type="submit" variant="primary" isPending={busy('details')}>
              {t('profile.save')}
            </Button>
          </div>
        </Form>
      </section>
      <section className={card} aria-labelledby="prefs">
        <h2 id="prefs" className="text-lg font-medium">
          {t('profile.preferences')}
        </h2>
        <Form method="post" className="mt-4 grid gap-4 sm:grid-cols-2">
          <input type="hidden" name="intent" value="preferences" />
          <Select
            name="language"
            label={t('profile.language')}
            defaultSelectedKey={profile.language || undefined}
            items={LANGUAGE_KEYS.map((k) => ({ id: k, label: t(`lang.${langFromKey(k)}`) }))}
          />
          <Select
            name="startPage"
            label={t('profile.startPage')}
            defaultSelectedKey={profile.startPage}
            items={[
              { id: 'workorders', label: t('profile.startPage.workorders') },
              { id: 'dashboard', label: t('profile.startPage.dashboard') },
            ]}
          />
          <div className="sm:col-span-2">
            <Button type="submit" variant="primary" isPending={busy('preferences')}>
              {t('profile.save')}
            </Button>
          </div>
        </Form>
        <NotificationsLink />
      </section>
      <section className={card} aria-labelledby="password">
        <h2 id="password" className="text-lg font-medium">
          {t('profile.password')}
        </h2>
        {result?.intent === 'password' && result.ok ? (
          <p role="status" className="mt-2 rounded-md bg-green-50 p-3 text-sm text-green-900">
            {t('profile.passwordChanged')}
          </p>
        ) : null}
        <Form
          method="post"
          className="mt-4 grid gap-4 sm:grid-cols-2"
          noValidate
          key={result?.intent === 'password' && result.ok ? 'done' : 'form'}
        >
          <input type="hidden" name="intent" value="password" />
          <input type="hidden" name="username" autoComplete="username" value={profile.email} />
          <TextField
            name="current"
            type="password"
            autoComplete="current-password"
            label={t('profile.currentPassword')}
            isRequired
            errorMessage={err('password', 'current')}
            className="sm:col-span-2"
          />
          <TextField
            name="password"
            type="password"
            autoComplete="new-password"
            label={t('profile.newPassword')}
            description={t('welcome.hint')}
            isRequired
            errorMessage={err('password', 'password')}
          />
          <TextField
            name="repeat"
            type="password"
            autoComplete="new-password"
            label={t('profile.repeatPassword')}
            isRequired
            errorMessage={err('password', 'repeat')}
          />
          <div className="sm:col-span-2">
            <Button type="submit" variant="primary" isPending={busy('password')}>
              {t('profile.changePassword')}
            </Button>
          </div>
        </Form>
      </section>
      {loaderData.mfaModule || loaderData.mfaEnabled ? (
        <section className={card} aria-labelledby="mfa">
          <h2 id="mfa" className="text-lg font-medium">
            {t('profile.mfa')}
          </h2>
          <p className="mt-1 text-sm text-slate-600">
            {loaderData.mfaEnabled ? t('profile.mfaOn') : t('profile.mfaOff')}
          </p>
          {result?.intent === 'mfa-confirm' && result.recoveryCodes ? (
            <div role="status" className="mt-4 rounded-md bg-amber-50 p-3 text-sm text-amber-950">
              <p>{t('profile.mfaRecovery')}</p>
              <ul className="mt-2 grid grid-cols-2 gap-1 font-mono sm:grid-cols-5">
                {result.recoveryCodes.map((c) => (
                  <li key={c}>{c}</li>
                ))}
              </ul>
            </div>
          ) : null}
          {loaderData.mfaEnabled ? (
            <Form method="post" className="mt-4 flex flex-wrap items-end gap-2" noValidate>
              <input type="hidden" name="intent" value="mfa-disable" />
              <input type="hidden" name="username" autoComplete="username" value={profile.email} />
              <TextField
                name="password"
                type="password"
                autoComplete="current-password"
                label={t('profile.mfaDisablePassword')}
                isRequired
                errorMessage={err('mfa-disable', 'password')}
              />
              <Button type="submit" variant="danger" isPending={busy('mfa-disable')}>
                {t('profile.mfaDisable')}
              </Button>
            </Form>
          ) : enrol ? (
            <div className="mt-4 grid gap-4 sm:grid-cols-[12rem_1fr]">
              <div
                className="w-48 rounded bg-white p-2 ring-1 ring-slate-200"
                aria-hidden="true"
                dangerouslySetInnerHTML={{ __html: enrol.qrSvg }}
              />
              <div>
                <p className="text-sm">{t('profile.mfaScan')}</p>
                <p className="mt-1 break-all font-mono text-xs text-slate-600">
                  {t('profile.mfaSecret', { secret: enrol.secret })}
                </p>
                <Form method="post" className="mt-3 flex flex-wrap items-end gap-2" noValidate>
                  <input type="hidden" name="intent" value="mfa-confirm" />
                  <TextField
                    name="code"
                    label={t('profile.mfaCode')}
                    autoComplete="one-time-code"
                    isRequired
                    errorMessage={err('mfa-confirm', 'code')}
                  />
                  <Button type="submit" variant="primary" isPending={busy('mfa-confirm')}>
                    {t('profile.mfaConfirm')}
                  </Button>
                </Form>
              </div>
            </div>
          ) : (
            <Form method="post" className="mt-4">
              <input type="hidden" name="intent" value="mfa-start" />
              <Button type="submit" variant="secondary" isPending={busy('mfa-start')}>
                {t('profile.mfaStart')}
              </Button>
            </Form>
          )}
        </section>
      ) : null}
      <section className={card} aria-labelledby="sessions">
        <h2 id="sessions" className="text-lg font-medium">
          {t('profile.sessions')}
        </h2>
        <ul className="mt-2 divide-y divide-slate-100">
          {sessions.map((s) => (
            <li key={s.id} className="flex flex-wrap items-center justify-between gap-2 py-3 text-sm">
              <div className="min-w-0">
                <p className="truncate font-medium">{s.current ? t('profile.sessionCurrent') : (s.userAgent ?? '—')}</p>
                <p className="text-slate-500">
                  <time dateTime={s.lastSeenAt}>
                    {t('profile.sessionSeen', { time: formatDateTime(s.lastSeenAt, clock), ip: s.ip ?? '—' })}
                  </time>
                </p>
              </div>
              {s.current ? null : (
                <Form method="post">
                  <input type="hidden" name="intent" value="revoke" />
                  <input type="hidden" name="id" value={s.id} />
                  <Button type="submit" variant="secondary" size="sm">
                    {t('profile.sessionRevoke')}
                  </Button>
                </Form>
              )}
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}
