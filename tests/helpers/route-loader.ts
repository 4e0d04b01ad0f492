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
