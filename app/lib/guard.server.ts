import { data, redirect, type MiddlewareFunction, type RouterContextProvider } from 'react-router';
import { authContext, requestContext, tenantContext } from '~/app/context';
import { clearSessionCookie } from '~/core/http/session-token';
import type { Auth, Ctx } from '~/core/context';
import type { Settled } from '~/core/db/with-tenant';
import { isAppError } from '~/core/errors/app-error';
import { hasAccess, type Access } from '~/core/permissions/access';
import { inTenant } from '~/core/unit-of-work';
import { getLocale } from '~/app/middleware/i18n.server';
import { isLang, DEFAULT_LANG } from '~/core/i18n/languages';

/** Marks middleware made by `guard`, so the route walk test can tell a declared route. */
export const GUARD = Symbol.for('ordo.guard');

export type GuardMiddleware = MiddlewareFunction<Response> & { [GUARD]: Access };

/**
 * A route's access declaration, enforced before its loader and action run. Without a session
 * the visitor is sent to the login page (and back afterwards); without the permission or app
 * module the route answers 403 and the 403 page shows.
 */
export function guard(access: Access): GuardMiddleware[] {
  const mw = (async ({ request, context }, next) => {
    const auth = context.get(authContext);
    if (access.permission !== 'public' && !auth) {
      const url = new URL(request.url);
      const query = new URLSearchParams();
      // A cookie that no longer names a session: it ended (spec: signed out with INVALID_SESSION).
      const expired = Boolean(context.get(requestContext).token);
      if (expired) query.set('msg', 'sessionExpired');
      if (url.pathname !== '/') query.set('redirectTo', url.pathname + url.search);
      const target = `/login${query.size ? `?${query}` : ''}`;
      throw redirect(target, expired ? { headers: { 'Set-Cookie': clearSessionCookie() } } : undefined);
    }
    // A second factor the tenant requires comes first: until it is set up, only the profile opens.
    if (auth?.mustEnrollMfa && access.permission !== 'public' && new URL(request.url).pathname !== '/profile')
      throw redirect('/profile?mfa=required');
    if (!hasAccess(auth, access)) throw data('permission denied', { status: 403 });
    return next();
  }) as GuardMiddleware;
  mw[GUARD] = access;
  return [mw];
}

export function requireAuth(context: Readonly<RouterContextProvider>): Auth {
  const auth = context.get(authContext);
  if (!auth) throw redirect('/login');
  return auth;
}

export function langOf(context: Readonly<RouterContextProvider>) {
  const l = getLocale(context);
  return isLang(l) ? l : DEFAULT_LANG;
}

/** One unit of work for a loader or action: the tenant's transaction with who is asking. */
export function run<T>(context: Readonly<RouterContextProvider>, fn: (ctx: Ctx) => Promise<T>): Promise<Settled<T>> {
  return inTenant({ tenant: context.get(tenantContext), auth: context.get(authContext), lang: langOf(context) }, fn);
}

/**
 * `run` for a resource route or a fetcher's loader: a refusal (another tenant's id, a missing
 * permission, bad input) answers with its status and code instead of becoming a server error.
 */
export async function runResource<T>(
  context: Readonly<RouterContextProvider>,
  fn: (ctx: Ctx) => Promise<T>,
): Promise<Settled<T>> {
  try {
    return await run(context, fn);
  } catch (e) {
    if (isAppError(e) && e.status < 500) throw data(e.code, { status: e.status });
    throw e;
  }
}
