import { redirect } from 'react-router';
import type { Route } from './+types/logout';
import { authContext } from '~/app/context';
import { guard, run } from '~/app/lib/guard.server';
import { revokeSession } from '~/core/auth/session.service';
import { clearSessionCookie } from '~/core/http/session-token';
import { PUBLIC } from '~/core/permissions/access';

// Public: signing out with an already dead session must still clear the cookie.
export const middleware = guard(PUBLIC);

export function loader() {
  // Signing out changes state, so it is a POST (a link prefetch must not sign anyone out).
  throw redirect('/');
}

export async function action({ context }: Route.ActionArgs) {
  const auth = context.get(authContext);
  if (auth) await run(context, (ctx) => revokeSession(ctx.trx, auth.sessionId, ctx.now));
  return redirect('/login?msg=signedOut', { headers: { 'Set-Cookie': clearSessionCookie() } });
}
