import {
  completeRecovery,
  checkRecoveryLink,
  requestRecovery,
  ZLinkToken,
  ZPasswordByLink,
  ZRequestRecovery,
} from '~/core/auth/recovery.service';
import { checkRegistrationLink, completeRegistration } from '~/core/auth/registration.service';
import { sessionData } from '~/core/auth/session-data';
import { PUBLIC } from '~/core/permissions/access';
import { sessionPolicy } from '~/core/unit-of-work';
import { asSent, defineCall, type ApiCall } from '../define-call';

// The inputs are the services' schemas, checked here and parsed again by the services before they
// touch anything, so the answers are as before: field errors carry the spec's message keys, and a
// token is never refused here (zLinkToken turns an unusable one into '', so every bad link is the
// service's same 400 TOKEN_EXPIRED).

export const requestRecoveryCall = defineCall({
  method: 'POST',
  path: '/pw',
  access: PUBLIC,
  input: asSent(ZRequestRecovery),
  summary: 'Asks for a password-recovery mail; answers the same whether or not the address exists',
  async handler(ctx, input, meta) {
    await requestRecovery(ctx, input, meta);
    return {};
  },
});

export const checkRecoveryLinkCall = defineCall({
  method: 'POST',
  path: '/pw/rt',
  access: PUBLIC,
  input: asSent(ZLinkToken),
  summary: 'Whether a recovery token still works: {valid: true}, or 400 TOKEN_EXPIRED',
  async handler(ctx, input) {
    await checkRecoveryLink(ctx, input);
    return { valid: true };
  },
});

export const completeRecoveryCall = defineCall({
  method: 'POST',
  path: '/pw/comp',
  access: PUBLIC,
  input: asSent(ZPasswordByLink),
  summary: 'Sets a new password with a recovery token and ends every other session; signs in unless the user has MFA',
  async handler(ctx, input, meta) {
    const outcome = await completeRecovery(ctx, input, { ...meta, signIn: true, policy: sessionPolicy() });
    if (!outcome.signedIn) return { status: 'success', signedIn: false };
    const data = await sessionData(ctx.trx, outcome.auth, ctx.tenant);
    return { status: 'success', signedIn: true, token: outcome.token, data, user: data.user };
  },
});

export const checkRegistrationLinkCall = defineCall({
  method: 'POST',
  path: '/registration/rt',
  access: PUBLIC,
  input: asSent(ZLinkToken),
  summary: 'Whether a registration token still works: {valid, name, email}, or 400 TOKEN_EXPIRED',
  async handler(ctx, input) {
    return checkRegistrationLink(ctx, input);
  },
});

export const completeRegistrationCall = defineCall({
  method: 'POST',
  path: '/registration/comp',
  access: PUBLIC,
  input: asSent(ZPasswordByLink),
  summary: 'Sets the invited user’s password with a registration token; the user becomes active',
  async handler(ctx, input, meta) {
    await completeRegistration(ctx, input, meta);
    return { status: 'success' };
  },
});

export const recoveryCalls: ApiCall[] = [
  requestRecoveryCall,
  checkRecoveryLinkCall,
  completeRecoveryCall,
  checkRegistrationLinkCall,
  completeRegistrationCall,
];
