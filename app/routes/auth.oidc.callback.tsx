import { redirect } from 'react-router';
import type { Route } from './+types/auth.oidc.callback';
import { requestContext, tenantContext } from '~/app/context';
import { guard } from '~/app/lib/guard.server';
import { callbackRedirect, finishOidc, OIDC_COOKIE } from '~/core/auth/oidc.service';
import { readCookie } from '~/core/http/session-token';
import { PUBLIC } from '~/core/permissions/access';

// Public: the provider sends the signed-out browser back here.
export const middleware = guard(PUBLIC);

/**
 * GET /auth/:provider/callback: finishes the code flow, then → /<provider>/success?token=…,
 * /login?mfa=… (second step) or /login?error=MS_AUTH|GOOGLE_AUTH.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const tenant = context.get(tenantContext);
  const req = context.get(requestContext);
  const outcome = await finishOidc({
    tenant,
    provider: params.provider,
    currentUrl: request.url,
    stateCookie: readCookie(request.headers.get('cookie'), OIDC_COOKIE),
    ip: req.ip,
    userAgent: request.headers.get('user-agent'),
    previousToken: req.token,
  });
  const next = callbackRedirect(tenant, params.provider, outcome);
  return redirect(next.location, { headers: { 'Set-Cookie': next.setCookie, 'Cache-Control': 'no-store' } });
}
