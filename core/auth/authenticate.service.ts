import { z } from 'zod';
import type { Trx } from '~/core/db/with-tenant';
import { AppError } from '~/core/errors/app-error';
import { parseInput, zEmail } from '~/core/errors/validation';
import type { Auth } from '~/core/context';
import { verifyPassword } from './password';
import { recordAuthEvent } from './audit';
import { answerMfaChallenge, createMfaChallenge, isMfaEnabled, ZMfaCode } from './mfa.service';
import { throttleFor, throttleKeys } from './login-throttle';
import { createSession, revokeToken, validateSession, type SessionPolicy } from './session.service';
import { STAFF, type Principal } from './principal';

export const ZAuthenticate = z.object({
  email: zEmail(),
  password: z.string({ error: 'ERROR_REQUIRED_FIELD' }).min(1, 'ERROR_REQUIRED_FIELD').max(1000, 'ERROR_MAX_LENGTH'),
  hostname: z.string().max(255).optional(),
  deviceData: z.unknown().optional(),
});
export type TAuthenticate = z.infer<typeof ZAuthenticate>;

export interface AuthenticateInput {
  trx: Trx;
  now: Date;
  policy: SessionPolicy;
  ip?: string | null;
  userAgent?: string | null;
  /** Whose sign-in this is: throttling counters are kept per tenant. */
  tenantId?: string;
  /** The token the client already holds, revoked on success (session rotation at sign-in). */
  previousToken?: string | null;
}

/** Spec login outcomes; `action` (MFA) and `redirect` (SSO) arrive with the identity issue. */
export type LoginOutcome =
  | { status: 'success'; token: string; auth: Auth; expiresAt: Date }
  | { status: 'mfa'; token: string }
  | { status: 'rejected'; code: 'INVALID_EMAIL_OR_PASSWORD' | 'IP_BLOCKED_TRY_AGAIN_LATER' };

/**
 * Signs a staff user in with e-mail and password. Unknown e-mail, wrong password, no password
 * and an inactive user are all the same rejection. A rejection is returned, not thrown, so the
 * caller commits the failure count and the audit row; after repeated failures every attempt is
 * refused as blocked (429) before the password is checked.
 */
export async function authenticate(ctx: AuthenticateInput, raw: unknown): Promise<LoginOutcome> {
  const input = parseInput(ZAuthenticate, raw);
  const checked = await checkPassword(ctx, input, STAFF);
  if (checked.status === 'rejected') return checked;
  const { userId, who } = checked;
  if (await isMfaEnabled(ctx.trx, userId)) {
    await recordAuthEvent(ctx.trx, { ...who, event: 'mfa.challenge', userId });
    return { status: 'mfa', token: await createMfaChallenge(ctx.trx, userId, ctx.now) };
  }
  return startSession(ctx, userId, who);
}

export type PasswordCheck =
  | { status: 'ok'; userId: string; who: { at: Date; email: string; ip?: string | null; userAgent?: string | null } }
  | { status: 'rejected'; code: 'INVALID_EMAIL_OR_PASSWORD' | 'IP_BLOCKED_TRY_AGAIN_LATER' };

/**
 * The password step of a sign-in of either kind of user (staff, or the customer zone's with
 * `principal` ZONE): throttled per address and per e-mail, the same time spent for an unknown
 * e-mail, one rejection for every wrong case, each attempt audited.
 */
export async function checkPassword(
  ctx: AuthenticateInput,
  input: { email: string; password: string },
  principal: Principal,
): Promise<PasswordCheck> {
  const keys = throttleKeys(ctx.ip, input.email, principal);
  const throttle = throttleFor(ctx.trx, ctx.tenantId ?? 'default');
  const who = { at: ctx.now, email: input.email, ip: ctx.ip, userAgent: ctx.userAgent };
  const audit = { ...who, principal: principal.kind };
  if (await throttle.isBlocked(keys, ctx.now)) {
    await recordAuthEvent(ctx.trx, { ...audit, event: 'signin.blocked' });
    return { status: 'rejected', code: 'IP_BLOCKED_TRY_AGAIN_LATER' };
  }

  const user = await ctx
    .trx(principal.users)
    .whereRaw('lower(email) = lower(?)', [input.email])
    .first('id', 'password_hash', 'status');
  const ok = await verifyPassword(user?.password_hash, input.password);
  if (!user || !ok || user.status !== principal.active) {
    await throttle.recordFailure(keys, ctx.now);
    await recordAuthEvent(ctx.trx, { ...audit, event: 'signin.failure', userId: user?.id ?? null });
    return { status: 'rejected', code: 'INVALID_EMAIL_OR_PASSWORD' };
  }
  await throttle.clearFailures(keys[1]!);
  return { status: 'ok', userId: user.id as string, who };
}

/** The end of every sign-in: a new session (replacing the one presented), audited. */
export async function startSession(
  ctx: AuthenticateInput,
  userId: string,
  who: { at: Date; email?: string | null; ip?: string | null; userAgent?: string | null },
): Promise<LoginOutcome & { status: 'success' }> {
  const user = { id: userId };
  if (ctx.previousToken) await revokeToken(ctx.trx, ctx.previousToken, ctx.now);
  const session = await createSession(ctx.trx, {
    userId: user.id,
    now: ctx.now,
    policy: ctx.policy,
    ip: ctx.ip,
    userAgent: ctx.userAgent,
  });
  await recordAuthEvent(ctx.trx, { ...who, event: 'signin.success', userId: user.id });
  const auth = await validateSession(ctx.trx, session.token, ctx.now, ctx.policy);
  if (!auth) throw new AppError('SERVER_ERROR', 500);
  return { status: 'success', token: session.token, auth, expiresAt: session.expiresAt };
}

export const ZAuthenticateMfa = z.object({
  mfaCode: ZMfaCode,
  token: z.string({ error: 'ERROR_REQUIRED_FIELD' }).min(1, 'ERROR_REQUIRED_FIELD').max(100),
});

/**
 * The second sign-in step (POST /authenticate/mfa). A wrong code is returned (its attempt must
 * commit); an expired, used or exhausted challenge fails for good and the person starts over.
 */
export async function authenticateMfa(
  ctx: AuthenticateInput,
  raw: unknown,
): Promise<(LoginOutcome & { status: 'success' }) | { status: 'wrong-code' } | { status: 'failed' }> {
  const input = parseInput(ZAuthenticateMfa, raw);
  const outcome = await answerMfaChallenge(ctx.trx, { token: input.token, code: input.mfaCode, now: ctx.now });
  if (outcome.status !== 'ok') return outcome;
  return startSession(ctx, outcome.userId, { at: ctx.now, ip: ctx.ip, userAgent: ctx.userAgent });
}
