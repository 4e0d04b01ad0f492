import { z } from 'zod';
import { authenticate, authenticateMfa, ZAuthenticate, ZAuthenticateMfa } from '~/core/auth/authenticate.service';
import { assertPasswordLoginAllowed, passwordLoginRedirect } from '~/core/auth/oidc-settings.service';
import { revokeSession } from '~/core/auth/session.service';
import { sessionData, sessionUser } from '~/core/auth/session-data';
import { invalidSession } from '~/core/errors/app-error';
import { PUBLIC, SIGNED_IN } from '~/core/permissions/access';
import { sessionPolicy } from '~/core/unit-of-work';
import { updateUserConf, ZUserConf } from '~/core/users/user-conf.service';
import { asSent, defineCall, Reply, shownOnly } from '../define-call';

export const authenticateCall = defineCall({
  method: 'POST',
  path: '/authenticate',
  access: PUBLIC,
  // Shown, but checked by the service alone: a tenant that turned password login off answers its
  // redirect (302) or 403 before the body is read, whatever was sent.
  input: shownOnly(ZAuthenticate),
  summary: 'Sign in with e-mail and password; answers the session token',
  async handler(ctx, input, meta) {
    const redirectTo = await passwordLoginRedirect(ctx.trx);
    if (redirectTo) return new Reply(302, { status: 'redirect', action: null, url: redirectTo });
    await assertPasswordLoginAllowed(ctx.trx);
    const outcome = await authenticate(
      {
        trx: ctx.trx,
        now: ctx.now,
        policy: sessionPolicy(),
        ip: meta.ip,
        userAgent: meta.userAgent,
        previousToken: meta.token,
        tenantId: ctx.tenant.id,
      },
      input,
    );
    if (outcome.status === 'rejected')
      return new Reply(outcome.code === 'IP_BLOCKED_TRY_AGAIN_LATER' ? 429 : 401, { code: outcome.code });
    // Action required: the client keeps the token and provider and asks for the code.
    if (outcome.status === 'mfa')
      return { status: 'action', action: 'MFA', data: { provider: 'totp' }, token: outcome.token, user: null };
    const data = await sessionData(ctx.trx, outcome.auth, ctx.tenant);
    return { status: 'success', action: null, data, token: outcome.token, user: data.user };
  },
});

export const authenticateMfaCall = defineCall({
  method: 'POST',
  path: '/authenticate/mfa',
  access: PUBLIC,
  // The service parses the body before the challenge is touched, so a malformed one never counts
  // as an attempt, here as before.
  input: asSent(ZAuthenticateMfa),
  summary: 'The second sign-in step: {mfaCode, token}; 400 for a wrong code, 409 when the challenge is over',
  async handler(ctx, input, meta) {
    const outcome = await authenticateMfa(
      {
        trx: ctx.trx,
        now: ctx.now,
        policy: sessionPolicy(),
        ip: meta.ip,
        userAgent: meta.userAgent,
        previousToken: meta.token,
        tenantId: ctx.tenant.id,
      },
      input,
    );
    if (outcome.status === 'wrong-code') return new Reply(400, { code: 'TWO_FACTOR_CODE_INCORRECT' });
    if (outcome.status === 'failed') return new Reply(409, { code: 'MFA_AUTHENTICATION_FAILED' });
    const data = await sessionData(ctx.trx, outcome.auth, ctx.tenant);
    return { status: 'success', action: null, data, token: outcome.token, user: data.user };
  },
});
export { ZAuthenticate };

export const keepaliveCall = defineCall({
  method: 'GET',
  path: '/keepalive',
  access: SIGNED_IN,
  // Takes nothing; other query parameters are let through.
  input: z.object({}).passthrough(),
  summary: 'Keeps the session alive; answers the signed-in user',
  // the session check before every call already extended the session: nothing else to do
  unitOfWork: false,
  async handler(ctx) {
    if (!ctx.auth) throw invalidSession();
    return { user: sessionUser(ctx.auth) };
  },
});

export const logoutCall = defineCall({
  method: 'GET',
  path: '/logout',
  access: SIGNED_IN,
  // Takes nothing; other query parameters are let through.
  input: z.object({}).passthrough(),
  summary: 'Ends the session: the token stops working at once',
  async handler(ctx) {
    if (!ctx.auth) throw invalidSession();
    await revokeSession(ctx.trx, ctx.auth.sessionId, ctx.now);
    return {};
  },
});

export const userConfCall = defineCall({
  method: 'PATCH',
  path: '/users/conf',
  access: SIGNED_IN,
  input: asSent(ZUserConf),
  summary: "Saves one of the user's preferences: ui, language or startPage",
  async handler(ctx, input) {
    await updateUserConf(ctx, input);
    return {};
  },
});
export { ZUserConf };
