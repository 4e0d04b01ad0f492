import { redirect, type RouterContextProvider } from 'react-router';
import { requestContext, tenantContext, zoneAuthContext } from '~/app/context';
import { GUARD, langOf, type GuardMiddleware } from '~/app/lib/guard.server';
import type { Ctx, ZoneAuth } from '~/core/context';
import type { Settled } from '~/core/db/with-tenant';
import { clearSessionCookie, ZONE_SESSION_COOKIE } from '~/core/http/session-token';
import { ZONE_ACCESS } from '~/core/permissions/access';
import { inTenant } from '~/core/unit-of-work';

/**
 * The access declaration of the customer zone's signed-in pages (decision 061): a zone session, or
 * the zone's sign-in page (and back afterwards). Declared as `zone` for the route walk test.
 */
export function zoneGuard(): GuardMiddleware[] {
  const mw = (async ({ request, context }, next) => {
    if (!context.get(zoneAuthContext)) {
      const url = new URL(request.url);
      const query = new URLSearchParams();
      const expired = Boolean(context.get(requestContext).zoneToken);
      if (expired) query.set('msg', 'sessionExpired');
      if (url.pathname !== '/zone') query.set('redirectTo', url.pathname + url.search);
      throw redirect(
        `/zone/login${query.size ? `?${query}` : ''}`,
        expired ? { headers: { 'Set-Cookie': clearSessionCookie(ZONE_SESSION_COOKIE) } } : undefined,
      );
    }
    return next();
  }) as GuardMiddleware;
  mw[GUARD] = ZONE_ACCESS;
  return [mw];
}

export function requireZoneAuth(context: Readonly<RouterContextProvider>): ZoneAuth {
  const zone = context.get(zoneAuthContext);
  if (!zone) throw redirect('/zone/login');
  return zone;
}

/** One unit of work for a zone page: the tenant's transaction with the zone user (and no staff user). */
export function runZone<T>(
  context: Readonly<RouterContextProvider>,
  fn: (ctx: Ctx) => Promise<T>,
): Promise<Settled<T>> {
  return inTenant(
    { tenant: context.get(tenantContext), auth: null, zone: context.get(zoneAuthContext), lang: langOf(context) },
    fn,
  );
}

/** A zone page's redirect target after sign-in: a path inside the zone, else the zone's start. */
export function zoneRedirect(value: FormDataEntryValue | string | null | undefined): string {
  const v = typeof value === 'string' ? value : '';
  return v.startsWith('/zone') && !v.startsWith('//') && !v.includes('\\') ? v : '/zone';
}
