import { createHash, randomBytes } from 'node:crypto';
import { promiseMfaRegisteredMail } from '~/core/notifications/notification-mails';
import { generateSecret, generateURI, verify } from 'otplib';
import QRCode from 'qrcode';
import { z } from 'zod';
import type { Ctx } from '~/core/context';
import { open, seal, type SealContext } from '~/core/crypto/secret-box';
import { tenantIdOf, type Trx } from '~/core/db/with-tenant';
import { AppError, invalidSession } from '~/core/errors/app-error';
import { parseInput } from '~/core/errors/validation';
import { recordAuthEvent } from './audit';
import { requireModule } from '~/core/permissions/access';
import { verifyPassword } from './password';
import { hashToken, newToken } from './session.service';
import { STAFF, type Principal } from './principal';

/** Spec section 9: two-factor codes have 6 digits. */
export const ZMfaCode = z
  .string({ error: 'ERROR_REQUIRED_FIELD' })
  .trim()
  .transform((v) => v.replace(/[\s-]/g, ''))
  .pipe(z.string().min(1, 'ERROR_REQUIRED_FIELD').max(20, 'ERROR_INVALID_VALUE'));

const RECOVERY_CODES = 10;
/** A pending second step lives this long and allows this many wrong codes. */
export const MFA_CHALLENGE = { minutes: 5, maxAttempts: 5 } as const;

const sha = (v: string) => createHash('sha256').update(v).digest('hex');
const normalizeRecovery = (v: string) => v.toUpperCase().replace(/[^A-Z0-9]/g, '');

function recoveryCode(): string {
  const raw = randomBytes(10)
    .toString('base64url')
    .toUpperCase()
    .replace(/[^A-Z0-9]/g, '')
    .padEnd(10, 'X')
    .slice(0, 10);
  return `${raw.slice(0, 5)}-${raw.slice(5)}`;
}

async function mfaRow(trx: Trx, userId: string, principal: Principal) {
  return trx(principal.mfa).where({ user_id: userId }).first('secret_sealed', 'enabled_at', 'last_used_step');
}

export async function isMfaEnabled(trx: Trx, userId: string, principal: Principal = STAFF): Promise<boolean> {
  const row = await mfaRow(trx, userId, principal);
  return Boolean(row?.enabled_at);
}

/**
 * Who sets up or turns off their own second factor: the staff user, or with `principal` ZONE the
 * zone user; the `mfa` app module must be on either way.
 */
function mfaSelf(ctx: Ctx, principal: Principal): { id: string; email: string } {
  if (principal.kind === 'zone') {
    if (!ctx.zone) throw invalidSession();
    if (!ctx.zone.modules.has('mfa')) throw new AppError('WARNING_PERMISSION_DENIED', 403);
    return ctx.zone.user;
  }
  // Spec section 1: multifactor sign-in is available when the instance enables it (app module).
  requireModule(ctx.auth, 'mfa');
  if (!ctx.auth) throw invalidSession();
  return ctx.auth.user;
}

/**
 * Starts enrolment: a new secret (sealed at rest), its otpauth URI and a QR code to scan. Nothing
 * changes for sign-in until a code from the app confirms it.
 */
export async function startMfaEnrollment(
  ctx: Ctx,
  principal: Principal = STAFF,
): Promise<{ secret: string; uri: string; qrSvg: string }> {
  const self = mfaSelf(ctx, principal);
  if (await isMfaEnabled(ctx.trx, self.id, principal)) throw new AppError('MFA_ALREADY_ENABLED', 409);
  const secret = generateSecret();
  await ctx.trx.raw(
    `insert into ?? (user_id, secret_sealed) values (?, ?)
     on conflict (user_id) do update set secret_sealed = excluded.secret_sealed, enabled_at = null, last_used_step = null`,
    [principal.mfa, self.id, seal(secret, mfaSecretContext(ctx.tenant.id, self.id, principal))],
  );
  const uri = generateURI({ issuer: `Ordo ${ctx.tenant.displayName}`, label: self.email, secret });
  const qrSvg = await QRCode.toString(uri, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' });
  return { secret, uri, qrSvg };
}

/** A TOTP secret belongs to its tenant and user (decision 040). */
export const mfaSecretContext = (tenantId: string, userId: string, principal: Principal = STAFF): SealContext => ({
  tenant: tenantId,
  purpose: `${principal.mfaSealPurpose}:${userId}`,
});

/** Checks a TOTP code once: a code already used (same or earlier time step) is refused. */
async function checkTotp(trx: Trx, userId: string, code: string, now: Date, principal: Principal): Promise<boolean> {
  const row = await mfaRow(trx, userId, principal);
  if (!row || !/^\d{6}$/.test(code)) return false;
  const secret = open(row.secret_sealed, mfaSecretContext(await tenantIdOf(trx), userId, principal));
  const result = await verify({ secret, token: code, epoch: Math.floor(now.getTime() / 1000), epochTolerance: 30 });
  if (!result.valid) return false;
  const step = (result as { timeStep: number }).timeStep;
  if (row.last_used_step !== null && Number(row.last_used_step) >= step) return false;
  await trx(principal.mfa).where({ user_id: userId }).update({ last_used_step: step });
  return true;
}

/** Confirms enrolment with a code from the app; answers the recovery codes, shown this once. */
export async function confirmMfaEnrollment(
  ctx: Ctx,
  raw: unknown,
  principal: Principal = STAFF,
): Promise<{ recoveryCodes: string[] }> {
  const self = principal.kind === 'zone' ? ctx.zone?.user : ctx.auth?.user;
  if (!self) throw invalidSession();
  const { code } = parseInput(z.object({ code: ZMfaCode }), raw);
  const row = await mfaRow(ctx.trx, self.id, principal);
  if (!row) throw new AppError('MFA_NOT_STARTED', 409);
  if (row.enabled_at) throw new AppError('MFA_ALREADY_ENABLED', 409);
  if (!(await checkTotp(ctx.trx, self.id, code, ctx.now, principal)))
    throw new AppError('VALIDATION_FAILED', 400, { fields: { code: ['TWO_FACTOR_CODE_INCORRECT'] } });
  await ctx.trx(principal.mfa).where({ user_id: self.id }).update({ enabled_at: ctx.now });
  const codes = Array.from({ length: RECOVERY_CODES }, recoveryCode);
  await ctx.trx(principal.mfaRecoveryCodes).where({ user_id: self.id }).delete();
  await ctx
    .trx(principal.mfaRecoveryCodes)
    .insert(codes.map((c) => ({ user_id: self.id, code_hash: sha(normalizeRecovery(c)) })));
  // MFA_REGISTERED (decision 066): a staff user is told, unless they chose not to be
  if (principal.kind !== 'zone') await promiseMfaRegisteredMail(ctx, self.id);
  await recordAuthEvent(ctx.trx, {
    event: 'mfa.enabled',
    at: ctx.now,
    userId: self.id,
    email: self.email,
    principal: principal.kind,
  });
  return { recoveryCodes: codes };
}

/** Turns MFA off; the current password is asked again first (re-authentication). */
export async function disableMfa(ctx: Ctx, raw: unknown, principal: Principal = STAFF): Promise<void> {
  const self = principal.kind === 'zone' ? ctx.zone?.user : ctx.auth?.user;
  if (!self) throw invalidSession();
  const { password } = parseInput(
    z.object({ password: z.string({ error: 'ERROR_REQUIRED_FIELD' }).min(1, 'ERROR_REQUIRED_FIELD') }),
    raw,
  );
  const user = await ctx.trx(principal.users).where({ id: self.id }).first('password_hash');
  if (!(await verifyPassword(user?.password_hash, password)))
    throw new AppError('VALIDATION_FAILED', 400, { fields: { password: ['ERROR_WRONG_CURRENT_PASSWORD'] } });
  await ctx.trx(principal.mfa).where({ user_id: self.id }).delete();
  await ctx.trx(principal.mfaRecoveryCodes).where({ user_id: self.id }).delete();
  await recordAuthEvent(ctx.trx, {
    event: 'mfa.disabled',
    at: ctx.now,
    userId: self.id,
    email: self.email,
    principal: principal.kind,
  });
}

/** After a right password, for a user with MFA: a pending second step instead of a session. */
export async function createMfaChallenge(
  trx: Trx,
  userId: string,
  now: Date,
  principal: Principal = STAFF,
): Promise<string> {
  const token = newToken();
  await trx(principal.mfaChallenges).insert({
    token_hash: hashToken(token),
    user_id: userId,
    expires_at: new Date(now.getTime() + MFA_CHALLENGE.minutes * 60_000),
  });
  return token;
}

export type MfaOutcome = { status: 'ok'; userId: string } | { status: 'wrong-code' } | { status: 'failed' };

/**
 * The second step: a TOTP code (each usable once) or an unused recovery code. A wrong code counts
 * an attempt (the caller commits it); an expired, used or exhausted challenge fails for good.
 */
export async function answerMfaChallenge(
  trx: Trx,
  input: { token: string; code: string; now: Date },
  principal: Principal = STAFF,
): Promise<MfaOutcome> {
  const challenge = await trx(principal.mfaChallenges)
    .where({ token_hash: hashToken(input.token) })
    .whereNull('used_at')
    .where('expires_at', '>', input.now)
    .where('attempts', '<', MFA_CHALLENGE.maxAttempts)
    .forUpdate()
    .first('id', 'user_id');
  if (!challenge) return { status: 'failed' };
  const code = input.code.replace(/[\s]/g, '');
  let ok = await checkTotp(trx, challenge.user_id, code, input.now, principal);
  if (!ok && !/^\d{6}$/.test(code)) {
    const used = await trx(principal.mfaRecoveryCodes)
      .where({ user_id: challenge.user_id, code_hash: sha(normalizeRecovery(code)) })
      .whereNull('used_at')
      .update({ used_at: input.now });
    ok = used === 1;
  }
  const who = { at: input.now, userId: challenge.user_id, principal: principal.kind };
  if (!ok) {
    await trx(principal.mfaChallenges).where({ id: challenge.id }).increment('attempts', 1);
    await recordAuthEvent(trx, { ...who, event: 'mfa.failure' });
    return { status: 'wrong-code' };
  }
  await trx(principal.mfaChallenges).where({ id: challenge.id }).update({ used_at: input.now });
  await recordAuthEvent(trx, { ...who, event: 'mfa.success' });
  return { status: 'ok', userId: challenge.user_id };
}
