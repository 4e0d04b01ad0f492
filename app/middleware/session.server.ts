import type { MiddlewareFunction } from 'react-router';
import { authContext, requestContext, tenantContext } from '~/app/context';
import { checkSession } from '~/core/auth/session.service';
import { sessionPolicy } from '~/core/unit-of-work';
import { logContext } from '~/core/log/logger';

/** Resolves the session cookie to who is signed in (or null) for every loader and action. */
export const sessionMiddleware: MiddlewareFunction<Response> = async ({ context }, next) => {
  const { token } = context.get(requestContext);
  if (token) {
    const tenant = context.get(tenantContext);
    const auth = await checkSession(tenant, token, new Date(), sessionPolicy());
    context.set(authContext, auth);
    const store = logContext.getStore();
    if (store && auth) store.userId = auth.user.id;
  }
  return next();
};
