import type { Ctx, ZoneAuth } from '~/core/context';
import { AppError, invalidSession } from '~/core/errors/app-error';
import { parseInput } from '~/core/errors/validation';
import { recordAuthEvent } from '~/core/auth/audit';
import {
  checkPassword,
  ZAuthenticate,
  ZAuthenticateMfa,
  type AuthenticateInput,
} from '~/core/auth/authenticate.service';
import { answerMfaChallenge, createMfaChallenge, isMfaEnabled } from '~/core/auth/mfa.service';
import { hashPassword } from '~/core/auth/password';
import { ZONE } from '~/core/auth/principal';
import { ZLinkToken, ZPasswordByLink, type RequestMeta } from '~/core/auth/recovery.service';
import { hashToken, revokeSession } from '~/core/auth/session.service';
import { startZoneSession } from './zone-session.service';

/** The zone's sign-in outcomes: the staff ones, with the zone user instead of a staff user. */
export type ZoneLoginOutcome =
  | { status: 'success'; token: string; zone: ZoneAuth; expiresAt: Date }
  | { status: 'mfa'; token: string }
  | { status: 'rejected'; code: 'INVALID_EMAIL_OR_PASSWORD' | 'IP_BLOCKED_TRY_AGAIN_LATER' };

/**
 * Signs a zone user in at /zone with e-mail and password: the staff sign-in's password step
 * (throttling, timing, audit: checkPassword), then the zone's own second factor and session. Only
 * STATUS_ACTIVE signs in: an invited user who has set no password, or one the office made inactive,
 * gets the same rejection as a wrong password.
 */
export async function authenticateZone(ctx: AuthenticateInput, raw: unknown): Promise<ZoneLoginOutcome> {
  const input = parseInput(ZAuthenticate, raw);
  const checked = await checkPassword(ctx, input, ZONE);
  if (checked.status === 'rejected') return checked;
  const { userId, who } = checked;
  if (await isMfaEnabled(ctx.trx, userId, ZONE)) {
    await recordAuthEvent(ctx.trx, { ...who, event: 'mfa.challenge', userId, principal: 'zone' });
    return { status: 'mfa', token: await createMfaChallenge(ctx.trx, userId, ctx.now, ZONE) };
  }
  return startZoneSession(ctx, userId, who);
}

/** The zone's second sign-in step, as staff's (POST /zone/authenticate/mfa). */
export async function authenticateZoneMfa(
  ctx: AuthenticateInput,
  raw: unknown,
): Promise<(ZoneLoginOutcome & { status: 'success' }) | { status: 'wrong-code' } | { status: 'failed' }> {
  const input = parseInput(ZAuthenticateMfa, raw);
  const outcome = await answerMfaChallenge(ctx.trx, { token: input.token, code: input.mfaCode, now: ctx.now }, ZONE);
  if (outcome.status !== 'ok') return outcome;
  return startZoneSession(ctx, outcome.userId, { at: ctx.now, ip: ctx.ip, userAgent: ctx.userAgent });
}

/**
 * The invited zone user a link names: the invitation's hash is kept on the zone user (the office's
 * resend replaces it, so only the newest link works), for seven days, while still STATUS_REGISTERED.
 */
async function invitedBy(ctx: Ctx, token: string) {
  // Spec: spaces in a token (a mangled '+') are turned back into plus signs.
  const row = (await ctx
    .trx(ZONE.users)
    .where({ invite_token_hash: hashToken(token.replace(/ /g, '+')), status: 'STATUS_REGISTERED' })
    .where('invite_expires_at', '>', ctx.now)
    .first('id', 'email', 'name')) as { id: string; email: string; name: string } | undefined;
  if (!row) throw new AppError('TOKEN_EXPIRED', 400);
  return row;
}

/** `POST /zone/registration/rt`: whether an invitation link still works, with the person's name and e-mail. */
export async function checkZoneInvitation(ctx: Ctx, raw: unknown): Promise<{ valid: true; email: string; name: string }> {
  const { token } = parseInput(ZLinkToken, raw);
  const row = await invitedBy(ctx, token);
  return { valid: true, email: row.email, name: row.name };
}

/**
 * `POST /zone/registration/comp`: the invited person chooses a password (the staff password policy)
 * and becomes STATUS_ACTIVE; the link is used up. As for staff, it does not sign in: the page says
 * so and the person signs in with the new password. A refused password leaves the link usable.
 */
export async function completeZoneInvitation(ctx: Ctx, raw: unknown, meta: RequestMeta = {}): Promise<void> {
  const input = parseInput(ZPasswordByLink, raw);
  const row = await invitedBy(ctx, input.token);
  const n = await ctx
    .trx(ZONE.users)
    .where({ id: row.id, status: 'STATUS_REGISTERED' })
    .update({
      password_hash: await hashPassword(input.password),
      status: 'STATUS_ACTIVE',
      invite_token_hash: null,
      invite_expires_at: null,
    });
  if (n !== 1) throw new AppError('TOKEN_EXPIRED', 400);
  await recordAuthEvent(ctx.trx, {
    event: 'registration.completed',
    at: ctx.now,
    userId: row.id,
    email: row.email,
    ip: meta.ip,
    userAgent: meta.userAgent,
    principal: 'zone',
  });
}

/** Ends the zone session at once (`GET /zone/logout`, the zone's sign-out). */
export async function signOutZone(ctx: Ctx): Promise<void> {
  if (!ctx.zone) throw invalidSession();
  await revokeSession(ctx.trx, ctx.zone.sessionId, ctx.now, ZONE);
  await recordAuthEvent(ctx.trx, {
    event: 'signout',
    at: ctx.now,
    userId: ctx.zone.user.id,
    email: ctx.zone.user.email,
    principal: 'zone',
  });
}
