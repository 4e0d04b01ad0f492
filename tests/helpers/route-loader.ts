import { RouterContextProvider } from 'react-router';
import { authContext, requestContext, tenantContext } from '~/app/context';
import { i18nextMiddleware } from '~/app/middleware/i18n.server';
import { validateSession } from '~/core/auth/session.service';
import { withTenant } from '~/core/db/with-tenant';
import type { Tenant } from '~/core/tenancy/tenant';
import { sessionPolicy } from '~/core/unit-of-work';

type Loader = (args: never) => unknown;

/**
 * A web route's loader as React Router runs it (the i18n middleware around it), with the session
 * of `token`: a resource route's download, or the Response it throws, comes back as a Response.
 */
export async function runLoaderAs(
  loader: Loader,
  as: { tenant: Tenant; host: string; token: string },
  url: string,
): Promise<Response> {
  const auth = await withTenant(as.tenant, (trx) => validateSession(trx, as.token, new Date(), sessionPolicy()));
  const context = new RouterContextProvider();
  context.set(tenantContext, as.tenant);
  context.set(authContext, auth);
  context.set(requestContext, { ip: null, requestId: 'test', token: as.token });
  const full = new URL(url, `http://${as.host}`);
  const request = new Request(full);
  let answer: unknown;
  await i18nextMiddleware({ request, context, params: {}, url: full, pattern: '' } as never, async () => {
    try {
      answer = await loader({ request, context, params: {} } as never);
    } catch (e) {
      answer = e;
    }
    return new Response(null);
  });
  if (answer instanceof Response) return answer;
  throw answer;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a route answer read by tests
type Json = Record<string, any>;

/**
 * A web route's loader, action or guard run as React Router runs it, with the session of `token`
 * and, for an action, the form (or JSON) posted: its status, JSON body (a `data()` answer's too) and the
 * redirect's location.
 */
export async function runRouteAs(
  handler: (args: never) => unknown,
  as: { tenant: Tenant; host: string; token: string },
  url: string,
  init: { form?: Record<string, string | string[]>; json?: unknown; params?: Record<string, string> } = {},
): Promise<{ status: number; body: Json | undefined; location: string | null }> {
  const auth = await withTenant(as.tenant, (trx) => validateSession(trx, as.token, new Date(), sessionPolicy()));
  const context = new RouterContextProvider();
  context.set(tenantContext, as.tenant);
  context.set(authContext, auth);
  context.set(requestContext, { ip: null, requestId: 'test', token: as.token });
  const full = new URL(url, `http://${as.host}`);
  let body: FormData | undefined;
  if (init.form) {
    body = new FormData();
    for (const [k, v] of Object.entries(init.form)) for (const one of [v].flat()) body.append(k, one);
  }
  const request =
    init.json !== undefined
      ? new Request(full, {
          method: 'POST',
          body: JSON.stringify(init.json),
          headers: { 'content-type': 'application/json' },
        })
      : new Request(full, { method: body ? 'POST' : 'GET', body });
  let answer: unknown;
  await i18nextMiddleware({ request, context, params: {}, url: full, pattern: '' } as never, async () => {
    try {
      answer = await handler({ request, context, params: init.params ?? {} } as never);
    } catch (e) {
      answer = e;
    }
    return new Response(null);
  });
  if (answer instanceof Response)
    return { status: answer.status, body: undefined, location: answer.headers.get('Location') };
  const r = answer as { type?: string; data?: Json; init?: { status?: number } | null };
  if (r?.type === 'DataWithResponseInit') return { status: r.init?.status ?? 200, body: r.data, location: null };
  return { status: 200, body: answer as Json, location: null };
}
