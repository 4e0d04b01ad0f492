import { z } from 'zod';
import { completeRecovery, checkRecoveryLink, requestRecovery } from '~/core/auth/recovery.service';
import { checkRegistrationLink, completeRegistration } from '~/core/auth/registration.service';
import { sessionData } from '~/core/auth/session-data';
import { PUBLIC } from '~/core/permissions/access';
import { sessionPolicy } from '~/core/unit-of-work';
import { defineCall, type ApiCall } from '../define-call';

// Inputs are validated by the services so field errors carry the spec's message keys and every
// unusable token is the same 400 TOKEN_EXPIRED.

export const requestRecoveryCall = defineCall({
  method: 'POST',
  path: '/pw',
  access: PUBLIC,
  input: z.unknown(),
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
  input: z.unknown(),
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
  input: z.unknown(),
  summary: 'Sets a new password with a recovery token and ends every other session; signs in unless the user has MFA',
  async handler(ctx, input, meta) {
    const outcome = await completeRecovery(ctx, input, { ...meta, signIn: true, policy: sessionPolicy() });
    if (!outcome.signedIn) return { status: 'success', signedIn: false };
    const data = sessionData(outcome.auth, ctx.tenant);
    return { status: 'success', signedIn: true, token: outcome.token, data, user: data.user };
  },
});

export const checkRegistrationLinkCall = defineCall({
  method: 'POST',
  path: '/registration/rt',
  access: PUBLIC,
  input: z.unknown(),
  summary: 'Whether a registration token still works: {valid, name, email}, or 400 TOKEN_EXPIRED',
  async handler(ctx, input) {
    return checkRegistrationLink(ctx, input);
  },
});

export const completeRegistrationCall = defineCall({
  method: 'POST',
  path: '/registration/comp',
  access: PUBLIC,
  input: z.unknown(),
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
