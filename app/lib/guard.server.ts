import { data, redirect, type MiddlewareFunction, type RouterContextProvider } from 'react-router';
import { authContext, tenantContext } from '~/app/context';
import type { Auth, Ctx } from '~/core/context';
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
      const back = url.pathname === '/' ? '' : `?redirectTo=${encodeURIComponent(url.pathname + url.search)}`;
      throw redirect(`/login${back}`);
    }
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
export function run<T>(context: Readonly<RouterContextProvider>, fn: (ctx: Ctx) => Promise<T>): Promise<T> {
  return inTenant({ tenant: context.get(tenantContext), auth: context.get(authContext), lang: langOf(context) }, fn);
}
