import { redirect } from 'react-router';
import type { Route } from './+types/settings.erp.callback';
import { ErpCallbackFailure, type CallbackFailure } from '~/app/components/invoice-settings/erp-settings-panel';
import { guard, run } from '~/app/lib/guard.server';
import { isAppError } from '~/core/errors/app-error';
import { completeErpAuth, getErpSettings } from '~/core/invoicing/erp-settings.service';
import { pageTitle } from '~/app/lib/page-title';

/**
 * GET /settings/erp/callback?code&state: where an OAuth2 ERP sends the browser back after the
 * tenant signed in there. Exchanges the code (origin: this request's, as when the round trip
 * started), tests the connection and goes back to /settings/erp, which says "Connected to …". A
 * refusal (the state too old or from elsewhere, the vendor saying no, the person cancelling) is
 * shown here in the page's words with the vendor's, with the way back.
 */
export const middleware = guard({ permission: 'instance:edit', module: 'erp' });

export async function loader({ request, context }: Route.LoaderArgs): Promise<CallbackFailure> {
  const url = new URL(request.url);
  const vendorError = url.searchParams.get('error');
  try {
    if (vendorError) {
      // the person cancelled, or the vendor refused before handing out a code
      const { displayName } = await run(context, (ctx) => getErpSettings(ctx));
      return {
        code: 'ERP_AUTH_FAILED',
        vendorMessage: url.searchParams.get('error_description') ?? vendorError,
        erpName: displayName,
      };
    }
    await run(context, (ctx) =>
      completeErpAuth(ctx, {
        code: url.searchParams.get('code') ?? '',
        state: url.searchParams.get('state') ?? '',
        origin: url.origin,
        // what else the vendor put on the way back (QuickBooks: the company's realmId)
        params: Object.fromEntries([...url.searchParams].filter(([k]) => k !== 'code' && k !== 'state')),
      }),
    );
  } catch (e) {
    if (!isAppError(e) || e.status === 500) throw e;
    const { displayName } = await run(context, (ctx) => getErpSettings(ctx)).catch(() => ({ displayName: 'ERP' }));
    return {
      code: e.code === 'VALIDATION_FAILED' ? 'ERP_OAUTH_STATE_INVALID' : e.code,
      vendorMessage: (e.details?.vendorMessage as string | null | undefined) ?? null,
      erpName: displayName,
    };
  }
  throw redirect('/settings/erp?connected=1');
}

/** The page's `<title>` (app/lib/page-title.ts). */
export const handle = pageTitle('settings.erp', null, { within: 'settings.title' });

export default function ErpCallbackPage({ loaderData }: Route.ComponentProps) {
  return <ErpCallbackFailure failure={loaderData} />;
}
