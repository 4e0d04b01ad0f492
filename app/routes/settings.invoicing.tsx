import { useTranslation } from 'react-i18next';
import { SettingsPageHeader } from '~/app/components/settings/settings-page-header';
import { data } from 'react-router';
import type { Route } from './+types/settings.invoicing';
import { actionError } from '~/app/lib/action-error.server';
import { guard, requireAuth, run } from '~/app/lib/guard.server';
import { InvoiceRulesForm } from '~/app/components/invoice-settings/invoice-rules-form';
import type { SaveResult } from '~/app/components/work-orders/settings/shared';

import { refuseNul } from '~/core/http/edge';
import {
  getInvoiceRules,
  INVOICE_RULES_EDIT,
  INVOICE_RULES_READ,
  saveInvoiceRules,
} from '~/core/invoicing/invoice-rules.service';
import { hasAccess } from '~/core/permissions/access';
import { activeUserChoices } from '~/core/users/active-users';
import { readWorkTypes } from '~/core/work-orders/settings/settings.service';
import { pageTitle } from '~/app/lib/page-title';

/**
 * Settings → invoicing (issue 14 items 1 and 6): the invoice rules and the labour article per work
 * type and per person, as one form posted as JSON. instance:read with the invoice_rules module to
 * see it; read-only without instance:edit.
 */
export const middleware = guard(INVOICE_RULES_READ);

export async function loader({ context }: Route.LoaderArgs) {
  const auth = requireAuth(context);
  return run(context, async (ctx) => {
    const rules = await getInvoiceRules(ctx);
    const workTypes = (await readWorkTypes(ctx)).map((w) => ({ id: w.id, name: w.name }));
    const users = await activeUserChoices(ctx.trx);
    return { rules, workTypes, users, canEdit: hasAccess(auth, INVOICE_RULES_EDIT) };
  });
}

export async function action({ request, context }: Route.ActionArgs) {
  const body = (await request.json().catch(() => ({}))) as Record<string, unknown>;
  try {
    refuseNul(body);
    await run(context, (ctx) => saveInvoiceRules(ctx, body));
    return data<SaveResult>({ ok: true });
  } catch (e) {
    return actionError<SaveResult>(e);
  }
}

/** The page's `<title>` (app/lib/page-title.ts). */
export const handle = pageTitle('settings.invoicing', null, { within: 'settings.title' });

export default function InvoiceSettingsPage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('invoicesettings');
  const { rules, workTypes, users, canEdit } = loaderData;
  return (
    <div className="grid max-w-4xl gap-6">
      <SettingsPageHeader
        title={t('rules.title')}
        intro={t('rules.intro')}
        backLabel={t('back')}
        readOnlyText={canEdit ? null : t('readOnly')}
      />
      <InvoiceRulesForm rules={rules} workTypes={workTypes} users={users} canEdit={canEdit} />
    </div>
  );
}
