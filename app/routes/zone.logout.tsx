import { redirect } from 'react-router';
import type { Route } from './+types/zone.logout';
import { runZone, zoneGuard } from '~/app/lib/zone-guard.server';
import { clearSessionCookie, ZONE_SESSION_COOKIE } from '~/core/http/session-token';
import { signOutZone } from '~/core/zone/zone-auth.service';

/** The zone's sign-out (a POST, so no link from elsewhere signs anyone out): the session ends at once. */
export const middleware = zoneGuard();

export async function action({ context }: Route.ActionArgs) {
  await runZone(context, (ctx) => signOutZone(ctx));
  return redirect('/zone/login', { headers: { 'Set-Cookie': clearSessionCookie(ZONE_SESSION_COOKIE) } });
}

export function loader() {
  return redirect('/zone');
}
