import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { data, Form, useActionData, useNavigation } from 'react-router';
import type { Route } from './+types/zone.security';
import { actionError } from '~/app/lib/action-error.server';
import { pageTitle } from '~/app/lib/page-title';
import { requireZoneAuth, runZone, zoneGuard } from '~/app/lib/zone-guard.server';
import { ZonePage } from '~/app/components/zone/zone-parts';
import { Button, TextField } from '~/app/components/ui';
import { confirmMfaEnrollment, disableMfa, isMfaEnabled, startMfaEnrollment } from '~/core/auth/mfa.service';
import { ZONE } from '~/core/auth/principal';

/**
 * The zone user's own second factor (decision 064): turn on TOTP (scan the QR code or type the
 * secret, confirm with a code; ten recovery codes shown once) and turn it off with the password.
 * The zone's sign-in then asks for the code (core/zone/zone-auth.service.ts).
 */
export const middleware = zoneGuard();

export const handle = pageTitle('zoneTitle.security');

export async function loader({ context }: Route.LoaderArgs) {
  const zone = requireZoneAuth(context);
  const enabled = await runZone(context, (ctx) => isMfaEnabled(ctx.trx, zone.user.id, ZONE));
  return { enabled, available: zone.modules.has('mfa'), email: zone.user.email };
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
    if (intent === 'start') {
      const enrol = await runZone(context, (ctx) => startMfaEnrollment(ctx, ZONE));
      return data<ActionResult>({ ok: true, intent, enrol: { qrSvg: enrol.qrSvg, secret: enrol.secret } });
    }
    if (intent === 'confirm') {
      const { recoveryCodes } = await runZone(context, (ctx) =>
        confirmMfaEnrollment(ctx, { code: form.get('code') }, ZONE),
      );
      return data<ActionResult>({ ok: true, intent, recoveryCodes });
    }
    if (intent === 'disable') {
      await runZone(context, (ctx) => disableMfa(ctx, { password: form.get('password') }, ZONE));
      return data<ActionResult>({ ok: true, intent });
    }
    return data<ActionResult>({ code: 'ERROR_INVALID_VALUE' }, { status: 400 });
  } catch (e) {
    return actionError<ActionResult>(e, { intent });
  }
}

const card = 'rounded-lg bg-white p-4 ring-1 ring-slate-200';

export default function ZoneSecurity({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('zonerequests');
  const { t: tc } = useTranslation('common');
  const result = useActionData<ActionResult>();
  const navigation = useNavigation();
  const busy = (intent: string) => navigation.state !== 'idle' && navigation.formData?.get('intent') === intent;
  const [enrol, setEnrol] = useState<ActionResult['enrol']>();
  useEffect(() => {
    if (result?.intent === 'start' && result.enrol) setEnrol(result.enrol);
    if (result?.intent === 'confirm' && result.ok) setEnrol(undefined);
    if (result?.intent === 'disable' && result.ok) setEnrol(undefined);
  }, [result]);
  const err = (intent: string, name: string) =>
    result?.intent === intent ? result.fields?.[name]?.map((k) => tc(k)) : undefined;
  const general = result && !result.ok && result.code && !result.fields ? tc(result.code) : null;
  return (
    <ZonePage title={t('security.title')}>
      <section className={card} aria-labelledby="zone-mfa">
        <h2 id="zone-mfa" className="text-lg font-semibold">
          {t('security.mfa')}
        </h2>
        <p className="mt-1 text-sm text-slate-700">{loaderData.enabled ? t('security.on') : t('security.off')}</p>
        {general ? (
          <p role="alert" className="mt-3 rounded-md bg-red-50 p-3 text-sm text-red-900">
            {general}
          </p>
        ) : null}
        {result?.intent === 'confirm' && result.recoveryCodes ? (
          <div role="status" className="mt-4 rounded-md bg-amber-50 p-3 text-sm text-amber-950">
            <p>{t('security.recovery')}</p>
            <ul className="mt-2 grid grid-cols-2 gap-1 font-mono">
              {result.recoveryCodes.map((c) => (
                <li key={c}>{c}</li>
              ))}
            </ul>
          </div>
        ) : null}
        {result?.intent === 'disable' && result.ok ? (
          <p role="status" className="mt-3 rounded-md bg-green-50 p-3 text-sm text-green-900">
            {t('security.turnedOff')}
          </p>
        ) : null}
        {loaderData.enabled ? (
          <Form method="post" className="mt-4 grid max-w-sm gap-3" noValidate>
            <input type="hidden" name="intent" value="disable" />
            <input type="hidden" name="username" autoComplete="username" value={loaderData.email} />
            <TextField
              name="password"
              type="password"
              autoComplete="current-password"
              label={t('security.password')}
              isRequired
              errorMessage={err('disable', 'password')}
            />
            <div>
              <Button type="submit" variant="danger" isDisabled={busy('disable')}>
                {t('security.turnOff')}
              </Button>
            </div>
          </Form>
        ) : !loaderData.available ? (
          <p className="mt-3 text-sm text-slate-600">{t('security.unavailable')}</p>
        ) : enrol ? (
          <div className="mt-4 grid gap-4 sm:grid-cols-[12rem_1fr]">
            <div
              className="w-48 rounded bg-white p-2 ring-1 ring-slate-200"
              aria-hidden="true"
              dangerouslySetInnerHTML={{ __html: enrol.qrSvg }}
            />
            <div>
              <p className="text-sm">{t('security.scan')}</p>
              <p className="mt-1 break-all font-mono text-xs text-slate-700" data-testid="totp-secret">
                {t('security.secret', { secret: enrol.secret })}
              </p>
              <Form method="post" className="mt-3 grid max-w-sm gap-3" noValidate>
                <input type="hidden" name="intent" value="confirm" />
                <TextField
                  name="code"
                  label={t('security.code')}
                  autoComplete="one-time-code"
                  inputMode="numeric"
                  isRequired
                  errorMessage={err('confirm', 'code')}
                />
                <div>
                  <Button type="submit" variant="primary" isDisabled={busy('confirm')}>
                    {t('security.confirm')}
                  </Button>
                </div>
              </Form>
            </div>
          </div>
        ) : (
          <Form method="post" className="mt-4">
            <input type="hidden" name="intent" value="start" />
            <Button type="submit" variant="secondary" isDisabled={busy('start')}>
              {t('security.turnOn')}
            </Button>
          </Form>
        )}
      </section>
    </ZonePage>
  );
}
