import { redirect } from 'react-router';
import { START_PAGE } from '~/app/lib/safe-redirect';
import type { Route } from './+types/oidc-success';
import { tenantContext } from '~/app/context';
import { guard } from '~/app/lib/guard.server';
import { clearOidcCookie, completeOidcSuccess, failurePath, OIDC_COOKIE } from '~/core/auth/oidc.service';
import { readCookie, sessionCookie } from '~/core/http/session-token';
import { PUBLIC } from '~/core/permissions/access';

// Public: the browser arrives here signed out, with the new session's token.
export const middleware = guard(PUBLIC);

/**
 * /microsoft/success and /google/success (spec §2): the token query parameter becomes the
 * session cookie and the browser goes to /. The token is accepted only in the browser that ran
 * the sign-in (the hand-off cookie set by the callback), so a crafted link cannot sign anyone in.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const provider = url.pathname.split('/')[1] ?? '';
  const done = await completeOidcSuccess({
    tenant: context.get(tenantContext),
    provider,
    token: url.searchParams.get('token'),
    handoffCookie: readCookie(request.headers.get('cookie'), OIDC_COOKIE),
  });
  const headers = new Headers({ 'Cache-Control': 'no-store' });
  headers.append('Set-Cookie', clearOidcCookie());
  if (!done) return redirect(failurePath(provider), { headers });
  headers.append('Set-Cookie', sessionCookie(done.token, done.expiresAt));
  return redirect(START_PAGE, { headers });
}
