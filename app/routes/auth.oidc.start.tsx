import { redirect } from 'react-router';
import type { Route } from './+types/auth.oidc.start';
import { tenantContext } from '~/app/context';
import { guard } from '~/app/lib/guard.server';
import { failurePath, oidcCookie, OidcRefused, startOidc } from '~/core/auth/oidc.service';
import { logger } from '~/core/log/logger';
import { PUBLIC } from '~/core/permissions/access';

// Public: this is how a signed-out person starts Microsoft or Google sign-in.
export const middleware = guard(PUBLIC);

/** GET /auth/:provider/start → the provider's sign-in page, with the flow's sealed state cookie. */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const provider = params.provider;
  try {
    const started = await startOidc({
      tenant: context.get(tenantContext),
      provider,
      origin: new URL(request.url).origin,
    });
    return redirect(started.url, {
      headers: { 'Set-Cookie': oidcCookie(started.cookie), 'Cache-Control': 'no-store' },
    });
  } catch (err) {
    if (!(err instanceof OidcRefused)) logger.error({ err, provider }, 'OIDC start failed');
    return redirect(failurePath(provider));
  }
}
