import { useTranslation } from 'react-i18next';
import { data, Form, Link, useActionData, useNavigation } from 'react-router';
import type { Route } from './+types/settings';
import { actionError } from '~/app/lib/action-error.server';
import { AccessLevelCheckboxes } from '~/app/components/users/access-level-checkboxes';
import { guard, requireAuth, run } from '~/app/lib/guard.server';
import { Button, Select, TextField } from '~/app/components/ui';
import { useActionToast } from '~/app/components/shell/use-action-toast';
import {
  COUNTRIES,
  COMPANY_FIELDS,
  DATE_FORMATS,
  LANGUAGE_KEYS,
  MAX_OBJECT_ID_LENGTH,
  OBJECT_KINDS,
} from '~/core/instance/instance-config';
import { getObjectSettings, updateObjectSettings } from '~/core/business-objects/object-settings.service';
import { getInstance, updateCompanyDetails, updateInstance } from '~/core/instance/instance.service';
import { getMfaPolicy, updateMfaPolicy } from '~/core/auth/mfa-policy.service';
import { langFromKey } from '~/core/i18n/languages';
import { hasAccess } from '~/core/permissions/access';
import { pageTitle } from '~/app/lib/page-title';
import { REGIONS_READ } from '~/core/regions/region.service';

/** Settings → general: the instance configuration of spec section 3. */
export const middleware = guard({ permission: 'settings:read' });

export async function loader({ context }: Route.LoaderArgs) {
  const auth = requireAuth(context);
  const [instance, mfa, objects] = await run(
    context,
    async (ctx) => [getInstance(ctx), await getMfaPolicy(ctx), await getObjectSettings(ctx)] as const,
  );
  const links = [
    { to: '/settings/users', labelKey: 'settings.users', access: { permission: 'users:read' as const } },
    {
      to: '/settings/access-levels',
      labelKey: 'settings.accessLevels',
      access: { permission: 'accesslevels:read' as const },
    },
    { to: '/settings/modules', labelKey: 'settings.modules', access: { permission: 'settings:read' as const } },
    { to: '/settings/articles', labelKey: 'settings.articles', access: { permission: 'articles:read' as const } },
    { to: '/settings/work-orders', labelKey: 'settings.workOrders', access: { permission: 'settings:read' as const } },
    {
      to: '/settings/proposals',
      labelKey: 'settings.proposals',
      access: { permission: 'settings:read' as const, module: 'crm' as const },
    },
    {
      to: '/settings/invoicing',
      labelKey: 'settings.invoicing',
      access: { permission: 'instance:read' as const, module: 'invoice_rules' as const },
    },
    {
      to: '/settings/erp',
      labelKey: 'settings.erp',
      access: { permission: 'instance:read' as const, module: 'erp' as const },
    },
    {
      to: '/settings/deviations',
      labelKey: 'settings.deviations',
      access: { permission: 'settings:read' as const, module: 'deviations' as const },
    },
    {
      to: '/settings/checklists',
      labelKey: 'settings.checklists',
      access: { permission: 'settings:read' as const, module: 'checklists' as const },
    },
    {
      to: '/settings/service-reports',
      labelKey: 'settings.serviceReports',
      access: { permission: 'settings:read' as const, module: 'servicereports' as const },
    },
    {
      to: '/settings/work-orders/dispatch',
      labelKey: 'settings.dispatchRules',
      access: { permission: 'settings:read' as const, module: 'dispatch_rules' as const },
    },
    { to: '/settings/holidays', labelKey: 'settings.holidays', access: { permission: 'settings:read' as const } },
    { to: '/settings/regions', labelKey: 'settings.regions', access: REGIONS_READ },
    {
      to: '/settings/time-reports',
      labelKey: 'settings.timeReports',
      access: { permission: 'settings:read' as const },
    },
    {
      to: '/settings/projects',
      labelKey: 'settings.projects',
      access: { permission: 'settings:read' as const, module: 'projects' as const },
    },
    {
      to: '/settings/compensation-types',
      labelKey: 'settings.compensationTypes',
      access: { permission: 'settings:read' as const },
    },
    {
      to: '/settings/import-export',
      labelKey: 'settings.importExport',
      access: { permission: 'settings:import_export' as const },
    },
    { to: '/settings/notifications', labelKey: 'settings.notifications', access: { permission: 'signed-in' as const } },
    { to: '/settings/email', labelKey: 'settings.email', access: { permission: 'instance:read' as const } },
    {
      to: '/settings/sign-in',
      labelKey: 'oidc.settings.title',
      access: { permission: 'settings:read' as const, module: 'microsoft_auth' as const },
    },
  ].filter((l) => hasAccess(auth, l.access));
  return {
    ...instance,
    mfa,
    objects,
    mfaModule: hasAccess(auth, { permission: 'signed-in', module: 'mfa' }),
    canEdit: hasAccess(auth, { permission: 'instance:edit' }),
    links: links.map(({ to, labelKey }) => ({ to, labelKey })),
  };
}

type ActionResult = { ok?: boolean; code?: string; fields?: Record<string, string[]> };

export async function action({ request, context }: Route.ActionArgs) {
  const formData = await request.formData();
  const form = Object.fromEntries(formData);
  try {
    await run(context, async (ctx) => {
      if (form.intent === 'company') await updateCompanyDetails(ctx, form);
      else if (form.intent === 'objects')
        await updateObjectSettings(ctx, { kind: form.kind, minIdLength: form.minIdLength });
      else if (form.intent === 'mfa')
        await updateMfaPolicy(ctx, {
          mfaRequired: form.mfaRequired,
          mfaAccessLevelIds: formData.getAll('mfaAccessLevelIds'),
        });
      else await updateInstance(ctx, form);
    });
    return data<ActionResult>({ ok: true });
  } catch (e) {
    return actionError(e);
  }
}

/** Each settings form's submit button. */
function SaveButton({ isPending }: { isPending: boolean }) {
  const { t } = useTranslation();
  return (
    <div>
      <Button type="submit" variant="primary" isPending={isPending}>
        {t('settings.save')}
      </Button>
    </div>
  );
}

/** The page's `<title>` (app/lib/page-title.ts). */
export const handle = pageTitle('settings.title');

export default function Settings({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const result = useActionData<ActionResult>();
  const busy = useNavigation().state === 'submitting';
  useActionToast(result);
  const c = loaderData.configuration;
  const err = (name: string) => result?.fields?.[name]?.map((k) => t(k));
  const disabled = !loaderData.canEdit;
  return (
    <section className="max-w-xl rounded-xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
      <h1 className="text-2xl font-semibold">{t('settings.title')}</h1>
      <nav aria-label={t('settings.title')} className="mt-3 flex flex-wrap gap-x-4 gap-y-1 text-sm">
        {loaderData.links.map((l) => (
          <Link key={l.to} to={l.to} className="min-h-10 py-2 text-brand-700 underline">
            {t(l.labelKey)}
          </Link>
        ))}
      </nav>
      <h2 className="mt-4 text-lg font-medium">{t('settings.general')}</h2>
      {disabled ? <p className="mt-2 text-sm text-slate-600">{t('settings.readOnly')}</p> : null}
      <Form method="post" className="mt-4 flex flex-col gap-4" noValidate>
        <TextField
          name="displayName"
          label={t('settings.displayName')}
          defaultValue={loaderData.displayName}
          isRequired
          isDisabled={disabled}
          errorMessage={err('displayName')}
        />
        <Select
          name="country"
          label={t('settings.country')}
          defaultSelectedKey={c.country}
          isDisabled={disabled}
          items={COUNTRIES.map((k) => ({ id: k, label: t(`country.${k}`) }))}
          errorMessage={err('country')}
        />
        <Select
          name="languageKey"
          label={t('settings.language')}
          defaultSelectedKey={c.languageKey}
          isDisabled={disabled}
          items={LANGUAGE_KEYS.map((k) => ({ id: k, label: t(`lang.${langFromKey(k)}`) }))}
          errorMessage={err('languageKey')}
        />
        <Select
          name="dateFormat"
          label={t('settings.dateFormat')}
          defaultSelectedKey={c.dateFormat}
          isDisabled={disabled}
          items={DATE_FORMATS.map((k) => ({ id: k, label: k }))}
          errorMessage={err('dateFormat')}
        />
        <TextField
          name="currencySymbol"
          label={t('settings.currencySymbol')}
          defaultValue={c.currency.symbol}
          isRequired
          isDisabled={disabled}
          errorMessage={err('currencySymbol')}
        />
        <TextField
          name="logoUrl"
          type="url"
          label={t('settings.logoUrl')}
          defaultValue={c.logoUrl ?? ''}
          isDisabled={disabled}
          errorMessage={err('logoUrl')}
        />
        {disabled ? null : <SaveButton isPending={busy} />}
      </Form>
      <h2 className="mt-8 text-lg font-medium">{t('settings.company')}</h2>
      <p className="mt-1 text-sm text-slate-600">{t('settings.company.help')}</p>
      <Form method="post" className="mt-4 flex flex-col gap-4" noValidate aria-label={t('settings.company')}>
        <input type="hidden" name="intent" value="company" />
        {COMPANY_FIELDS.map((field) => (
          <TextField
            key={field}
            name={field}
            type={field === 'email' ? 'email' : field === 'phone' ? 'tel' : 'text'}
            label={t(`settings.company.${field}`)}
            placeholder={field === 'companyName' ? loaderData.displayName : undefined}
            defaultValue={c.company[field] ?? ''}
            isDisabled={disabled}
            errorMessage={err(field)}
          />
        ))}
        {disabled ? null : <SaveButton isPending={busy} />}
      </Form>
      <h2 className="mt-8 text-lg font-medium">{t('settings.objects')}</h2>
      <p className="mt-1 text-sm text-slate-600">{t('settings.objects.help')}</p>
      <Form method="post" className="mt-4 flex flex-col gap-4" noValidate aria-label={t('settings.objects')}>
        <input type="hidden" name="intent" value="objects" />
        <Select
          name="kind"
          label={t('settings.objects.kind')}
          defaultSelectedKey={loaderData.objects.kind}
          isDisabled={disabled}
          items={OBJECT_KINDS.map((k) => ({ id: k, label: t(`settings.objects.kind.${k}`) }))}
          errorMessage={err('kind')}
        />
        <TextField
          name="minIdLength"
          inputMode="numeric"
          label={t('settings.objects.minIdLength')}
          description={t('settings.objects.minIdLength.help', { max: MAX_OBJECT_ID_LENGTH })}
          defaultValue={String(loaderData.objects.minIdLength)}
          isDisabled={disabled}
          errorMessage={err('minIdLength')}
        />
        {disabled ? null : <SaveButton isPending={busy} />}
      </Form>
      {loaderData.mfaModule ? (
        <>
          <h2 className="mt-8 text-lg font-medium">{t('settings.security')}</h2>
          <Form method="post" className="mt-4 flex flex-col gap-4">
            <input type="hidden" name="intent" value="mfa" />
            <Select
              name="mfaRequired"
              label={t('settings.mfaRequired')}
              defaultSelectedKey={loaderData.mfa.mfaRequired}
              isDisabled={disabled}
              items={(['off', 'all', 'levels'] as const).map((k) => ({ id: k, label: t(`settings.mfa.${k}`) }))}
            />
            <AccessLevelCheckboxes
              legend={t('settings.mfa.levels')}
              name="mfaAccessLevelIds"
              levels={loaderData.mfa.levels}
              checked={loaderData.mfa.mfaAccessLevelIds}
              isDisabled={disabled}
              errorMessage={err('mfaAccessLevelIds')}
            />
            {disabled ? null : <SaveButton isPending={busy} />}
          </Form>
        </>
      ) : null}
    </section>
  );
}
