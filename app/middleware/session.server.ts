import type { MiddlewareFunction } from 'react-router';
import { authContext, requestContext, tenantContext, zoneAuthContext } from '~/app/context';
import { checkSession } from '~/core/auth/session.service';
import { checkZoneSession } from '~/core/zone/zone-session.service';
import { sessionPolicy } from '~/core/unit-of-work';
import { logContext } from '~/core/log/logger';

/** The customer zone's pages (and their data requests): /zone, /zone/…, /zone.data. */
export function isZonePath(pathname: string): boolean {
  return /^\/zone(?:\/|\.data$|$)/.test(pathname);
}

/**
 * Resolves who is signed in (or null) for every loader and action: on the customer zone's pages
 * the zone's cookie alone (a zone user, never a staff user), everywhere else the staff cookie alone
 * (a staff user, never a zone user). So a zone session opens no staff page and a staff session acts
 * as no zone user (decision 061).
 */
export const sessionMiddleware: MiddlewareFunction<Response> = async ({ request, context }, next) => {
  const { token, zoneToken } = context.get(requestContext);
  const tenant = context.get(tenantContext);
  if (isZonePath(new URL(request.url).pathname)) {
    if (zoneToken) context.set(zoneAuthContext, await checkZoneSession(tenant, zoneToken, new Date(), sessionPolicy()));
    return next();
  }
  if (token) {
    const auth = await checkSession(tenant, token, new Date(), sessionPolicy());
    context.set(authContext, auth);
    const store = logContext.getStore();
    if (store && auth) store.userId = auth.user.id;
  }
  return next();
};
