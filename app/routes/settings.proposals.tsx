import { useTranslation } from 'react-i18next';
import { SettingsPageHeader } from '~/app/components/settings/settings-page-header';
import { data } from 'react-router';
import type { Route } from './+types/settings.proposals';
import { actionError } from '~/app/lib/action-error.server';
import { guard, requireAuth, run } from '~/app/lib/guard.server';
import {
  CustomFieldsForm,
  PriceTemplatesForm,
  ProposalOptionsForm,
  StandardTextsForm,
} from '~/app/components/proposals/proposal-settings-forms';
import type { SaveResult } from '~/app/components/work-orders/settings/shared';

import { refuseNul } from '~/core/http/edge';
import { hasAccess } from '~/core/permissions/access';
import {
  getProposalConfigurationForSettings,
  updateProposalConfiguration,
} from '~/core/proposals/proposal-configuration.service';
import { pageTitle } from '~/app/lib/page-title';

/**
 * Settings → proposals and sales orders (issue 13 item 8; spec sections 2, 6 and 9): the switches,
 * default terms and numbering; standard texts; custom fields; price templates. Each section saves
 * on its own; read-only without instance:edit.
 */
export const middleware = guard({ permission: 'settings:read', module: 'crm' });

export async function loader({ context }: Route.LoaderArgs) {
  const auth = requireAuth(context);
  const config = await run(context, (ctx) => getProposalConfigurationForSettings(ctx));
  return { config, canEdit: hasAccess(auth, { permission: 'instance:edit' }) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const body = (await request.json().catch(() => ({}))) as Record<string, unknown>;
  const { intent, ...patch } = body;
  try {
    refuseNul(body);
    await run(context, (ctx) => updateProposalConfiguration(ctx, patch));
    return data<SaveResult>({ ok: true, intent: String(intent ?? '') });
  } catch (e) {
    return actionError<SaveResult>(e, { intent: String(intent ?? '') });
  }
}

/** The page's `<title>` (app/lib/page-title.ts). */
export const handle = pageTitle('settings.proposals', null, { within: 'settings.title' });

export default function ProposalSettingsPage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('proposalsettings');
  const { config, canEdit } = loaderData;
  return (
    <div className="grid max-w-4xl gap-6">
      <SettingsPageHeader title={t('title')} backLabel={t('back')} readOnlyText={canEdit ? null : t('readOnly')} />
      <ProposalOptionsForm config={config} canEdit={canEdit} />
      <StandardTextsForm texts={config.standardTexts} canEdit={canEdit} />
      <CustomFieldsForm fields={config.customFields} canEdit={canEdit} />
      <PriceTemplatesForm templates={config.priceTemplates} canEdit={canEdit} />
    </div>
  );
}
