import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { SettingsPageHeader } from '~/app/components/settings/settings-page-header';
import { data, redirect, useSearchParams } from 'react-router';
import type { Route } from './+types/settings.erp';
import { actionError } from '~/app/lib/action-error.server';
import { guard, requireAuth, run } from '~/app/lib/guard.server';
import { ErpSettingsPanel, type ErpActionResult } from '~/app/components/invoice-settings/erp-settings-panel';
import { useToast } from '~/app/components/ui';
import { AppError } from '~/core/errors/app-error';
import { refuseNul } from '~/core/http/edge';
import {
  disconnectErp,
  getErpSettings,
  resolveErpCustomerConflict,
  saveErpSettings,
  startErpAuth,
  testErpConnection,
} from '~/core/invoicing/erp-settings.service';
import { readErpConnection } from '~/core/invoicing/erp-connection';
import { hasAccess } from '~/core/permissions/access';
import { pageTitle } from '~/app/lib/page-title';

/**
 * Settings → ERP (issue 14 item 6): the ERP kind, connecting it (the vendor's sign-in for OAuth2,
 * which comes back to /settings/erp/callback; the key's fields for an API-key ERP), testing,
 * disconnecting, the accounts, and the last deliveries. instance:read with the erp module to see
 * it; changes need instance:edit.
 */
export const middleware = guard({ permission: 'instance:read', module: 'erp' });

const EDIT = { permission: 'instance:edit', module: 'erp' } as const;

export async function loader({ context }: Route.LoaderArgs) {
  const auth = requireAuth(context);
  const settings = await run(context, (ctx) => getErpSettings(ctx));
  return { settings, canEdit: hasAccess(auth, EDIT) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const body = (await request.json().catch(() => ({}))) as Record<string, unknown>;
  const intent = String(body.intent ?? '');
  try {
    refuseNul(body);
    if (intent === 'connect') {
      // the vendor sends the browser back to this host's /settings/erp/callback
      const { url } = await run(context, (ctx) => startErpAuth(ctx, { origin: new URL(request.url).origin }));
      return redirect(url);
    }
    if (intent === 'test') {
      const test = await run(context, (ctx) => testErpConnection(ctx));
      return data<ErpActionResult>({ ok: test.ok, intent, test });
    }
    await run(context, async (ctx) => {
      if (intent === 'disconnect') await disconnectErp(ctx);
      else if (intent === 'kind') await saveErpSettings(ctx, { kind: body.kind });
      // the accounts keep the ERP as it is now (another person may have changed it since the page loaded)
      else if (intent === 'accounts')
        await saveErpSettings(ctx, { kind: (await readErpConnection(ctx.trx)).kind, accounts: body.accounts });
      else if (intent === 'credentials') await saveErpSettings(ctx, { kind: body.kind, credentials: body.credentials });
      // a customer conflict of a first delivery: this card of the ERP, or a new customer there
      else if (intent === 'resolveConflict')
        await resolveErpCustomerConflict(ctx, {
          customerId: body.customerId,
          choice: body.choice,
          externalId: body.externalId,
        });
      else throw new AppError('VALIDATION_FAILED', 400, { fields: { intent: ['ERROR_INVALID_VALUE'] } });
    });
    if (intent === 'credentials') {
      // "save and connect": the key is kept, then tried at once, so the person learns now whether it works
      const test = await run(context, (ctx) => testErpConnection(ctx));
      return data<ErpActionResult>({ ok: true, intent, test });
    }
    return data<ErpActionResult>({ ok: true, intent });
  } catch (e) {
    return actionError<ErpActionResult>(e, { intent }, (d) => ({
      vendorMessage: (d.vendorMessage as string | null | undefined) ?? null,
    }));
  }
}

/** The page's `<title>` (app/lib/page-title.ts). */
export const handle = pageTitle('settings.erp', null, { within: 'settings.title' });

export default function ErpSettingsPage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('invoicesettings');
  const { settings, canEdit } = loaderData;
  const [params, setParams] = useSearchParams();
  const toast = useToast();
  const shown = useRef(false);
  // back from the vendor's sign-in (/settings/erp/callback): say so once, and drop the marker
  useEffect(() => {
    if (params.get('connected') !== '1' || shown.current) return;
    shown.current = true;
    toast.show({
      kind: 'success',
      message: t('erp.connectedTo', { company: settings.companyName ?? settings.displayName }),
    });
    setParams(
      (p) => {
        p.delete('connected');
        return p;
      },
      { replace: true, preventScrollReset: true },
    );
  }, [params, setParams, settings.companyName, settings.displayName, t, toast]);
  return (
    <div className="grid max-w-4xl gap-6">
      <SettingsPageHeader
        title={t('erp.title')}
        intro={t('erp.intro')}
        backLabel={t('back')}
        readOnlyText={canEdit ? null : t('readOnly')}
      />
      <ErpSettingsPanel settings={settings} canEdit={canEdit} />
    </div>
  );
}
