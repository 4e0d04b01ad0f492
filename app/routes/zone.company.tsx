import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { data, Form, useActionData, useNavigation } from 'react-router';
import type { Route } from './+types/zone.company';
import { actionError } from '~/app/lib/action-error.server';
import { AppError } from '~/core/errors/app-error';
import { pageTitle } from '~/app/lib/page-title';
import { runZone, zoneGuard } from '~/app/lib/zone-guard.server';
import { useZoneDate, ZoneCard, ZoneField, ZonePage } from '~/app/components/zone/zone-parts';
import { Button, TextField } from '~/app/components/ui';
import {
  getZoneCompany,
  inviteZoneCompanyUser,
  listZoneCompanyUsers,
  removeZoneCompanyUser,
  resendZoneCompanyUser,
  updateZoneCompany,
} from '~/core/zone/zone-company.service';

/**
 * The customer's own details and people (decision 064): every zone user sees the company's
 * contact details; where the office allows it for this customer, they change them and invite,
 * re-invite and remove the company's zone users (not themselves).
 */
export const middleware = zoneGuard();

export const handle = pageTitle('zoneTitle.company');

export async function loader({ context }: Route.LoaderArgs) {
  return runZone(context, async (ctx) => {
    const { company } = await getZoneCompany(ctx);
    return { company, users: company.selfService ? (await listZoneCompanyUsers(ctx)).users : [] };
  });
}

type ActionResult = { ok?: boolean; intent?: string; code?: string; fields?: Record<string, string[]> };

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const intent = String(form.get('intent') ?? '');
  const get = (k: string) => form.get(k) ?? undefined;
  const hostname = new URL(request.url).hostname;
  try {
    await runZone(context, async (ctx) => {
      if (intent === 'details')
        await updateZoneCompany(ctx, {
          phone: get('phone'),
          email: get('email'),
          invoiceEmail: get('invoiceEmail'),
          broadcastEmail: get('broadcastEmail'),
        });
      else if (intent === 'invite')
        await inviteZoneCompanyUser(ctx, { name: get('name'), email: get('email') }, hostname);
      else if (intent === 'resend') await resendZoneCompanyUser(ctx, get('userId'), hostname);
      else if (intent === 'remove') await removeZoneCompanyUser(ctx, get('userId'));
      else throw new AppError('ERROR_INVALID_VALUE', 400);
    });
    return data<ActionResult>({ ok: true, intent });
  } catch (e) {
    return actionError<ActionResult>(e, { intent });
  }
}

const card = 'rounded-lg bg-white p-4 ring-1 ring-slate-200';

export default function ZoneCompany({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('zonerequests');
  const { t: tc } = useTranslation('common');
  const date = useZoneDate();
  const result = useActionData<ActionResult>();
  const navigation = useNavigation();
  const busy = (intent: string) => navigation.state !== 'idle' && navigation.formData?.get('intent') === intent;
  const err = (intent: string, name: string) =>
    result?.intent === intent ? result.fields?.[name]?.map((k) => tc(k)) : undefined;
  const inviteForm = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (result?.intent === 'invite' && result.ok) inviteForm.current?.reset();
  }, [result]);
  const { company, users } = loaderData;
  const notice =
    result?.ok && result.intent
      ? t(`company.done.${result.intent}`)
      : result?.code && !result.fields
        ? tc(result.code)
        : null;
  return (
    <ZonePage title={t('company.title')} intro={company.selfService ? t('company.intro') : t('company.readOnly')}>
      {notice ? (
        <p
          role={result?.ok ? 'status' : 'alert'}
          className={`rounded-md p-3 text-sm ${result?.ok ? 'bg-green-50 text-green-900' : 'bg-red-50 text-red-900'}`}
        >
          {notice}
        </p>
      ) : null}
      <section className={card} aria-labelledby="zone-company-details">
        <h2 id="zone-company-details" className="text-lg font-semibold">
          {company.name}
        </h2>
        {company.selfService ? (
          <Form method="post" className="mt-3 grid gap-3 sm:grid-cols-2" noValidate>
            <input type="hidden" name="intent" value="details" />
            <TextField
              name="phone"
              type="tel"
              label={t('company.phone')}
              defaultValue={company.phone ?? ''}
              errorMessage={err('details', 'phone')}
            />
            <TextField
              name="email"
              type="email"
              label={t('company.email')}
              defaultValue={company.email ?? ''}
              errorMessage={err('details', 'email')}
            />
            <TextField
              name="invoiceEmail"
              type="email"
              label={t('company.invoiceEmail')}
              defaultValue={company.invoiceEmail ?? ''}
              errorMessage={err('details', 'invoiceEmail')}
            />
            <TextField
              name="broadcastEmail"
              type="email"
              label={t('company.broadcastEmail')}
              defaultValue={company.broadcastEmail ?? ''}
              errorMessage={err('details', 'broadcastEmail')}
            />
            <div className="sm:col-span-2">
              <Button type="submit" variant="primary" isDisabled={busy('details')}>
                {t('company.save')}
              </Button>
            </div>
          </Form>
        ) : (
          <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
            <ZoneField label={t('company.phone')}>{company.phone ?? t('company.none')}</ZoneField>
            <ZoneField label={t('company.email')}>{company.email ?? t('company.none')}</ZoneField>
            <ZoneField label={t('company.invoiceEmail')}>{company.invoiceEmail ?? t('company.none')}</ZoneField>
            <ZoneField label={t('company.broadcastEmail')}>{company.broadcastEmail ?? t('company.none')}</ZoneField>
          </dl>
        )}
      </section>
      {company.selfService ? (
        <section className="flex flex-col gap-3" aria-labelledby="zone-company-users">
          <h2 id="zone-company-users" className="text-lg font-semibold">
            {t('users.title')}
          </h2>
          <ul className="grid gap-3 sm:grid-cols-2">
            {users.map((u) => (
              <ZoneCard
                key={u.id}
                title={u.self ? t('users.you', { name: u.name }) : u.name}
                actions={
                  u.self ? null : (
                    <div className="flex flex-wrap gap-2">
                      <Form method="post">
                        <input type="hidden" name="intent" value="resend" />
                        <input type="hidden" name="userId" value={u.id} />
                        <Button
                          type="submit"
                          variant="secondary"
                          size="sm"
                          aria-label={t('users.resendTo', { name: u.name })}
                          isDisabled={busy('resend') && navigation.formData?.get('userId') === u.id}
                        >
                          {t('users.resend')}
                        </Button>
                      </Form>
                      <Form
                        method="post"
                        onSubmit={(e) => {
                          if (!window.confirm(t('users.removeConfirm', { name: u.name }))) e.preventDefault();
                        }}
                      >
                        <input type="hidden" name="intent" value="remove" />
                        <input type="hidden" name="userId" value={u.id} />
                        <Button
                          type="submit"
                          variant="danger"
                          size="sm"
                          aria-label={t('users.removeUser', { name: u.name })}
                          isDisabled={busy('remove') && navigation.formData?.get('userId') === u.id}
                        >
                          {t('users.remove')}
                        </Button>
                      </Form>
                    </div>
                  )
                }
              >
                <ZoneField label={t('users.email')}>
                  <span className="break-all">{u.email}</span>
                </ZoneField>
                <ZoneField label={t('users.status')}>
                  {t(`users.statusName.${u.status}`, { defaultValue: u.status })}
                </ZoneField>
                <ZoneField label={t('users.lastSignIn')}>
                  {u.lastSignInAt ? date(u.lastSignInAt) : t('users.never')}
                </ZoneField>
              </ZoneCard>
            ))}
          </ul>
          <Form method="post" ref={inviteForm} className={`${card} grid gap-3 sm:grid-cols-2`} noValidate>
            <input type="hidden" name="intent" value="invite" />
            <h3 className="font-medium sm:col-span-2">{t('users.invite')}</h3>
            <TextField name="name" label={t('users.name')} isRequired errorMessage={err('invite', 'name')} />
            <TextField
              name="email"
              type="email"
              label={t('users.email')}
              isRequired
              errorMessage={err('invite', 'email')}
            />
            <p className="text-sm text-slate-600 sm:col-span-2">{t('users.inviteHelp')}</p>
            <div className="sm:col-span-2">
              <Button type="submit" variant="primary" isDisabled={busy('invite')}>
                {t('users.send')}
              </Button>
            </div>
          </Form>
        </section>
      ) : null}
    </ZonePage>
  );
}
