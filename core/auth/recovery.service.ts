import { z } from 'zod';
import type { Ctx } from '~/core/context';
import { AppError } from '~/core/errors/app-error';
import { parseInput, zEmail } from '~/core/errors/validation';
import { keyFromLang, langFromKey, type Lang } from '~/core/i18n/languages';
import { sendAfterCommit } from '~/core/mail/templates/deliver';
import { tenantLink } from '~/core/mail/templates/links';
import { recoveryMail } from '~/core/mail/templates/recovery';
import { renderMail } from '~/core/mail/templates/render';
import { recordAuthEvent } from './audit';
import { throttleFor, throttleKeys } from './login-throttle';
import { checkOneTimeToken, consumeOneTimeToken, issueOneTimeToken } from './one-time-token.service';
import { hashPassword } from './password';
import { zNewPassword } from './password-policy';
import { createSession, validateSession, type SessionPolicy } from './session.service';
import { STAFF, type Principal } from './principal';

/** A recovery link works for one hour, once. */
export const RECOVERY_VALID_HOURS = 1;
/** Unused, unexpired recovery links per user; past it requests are answered but send nothing (mailbox flooding). */
export const MAX_OPEN_RECOVERY_LINKS = 5;

/** Who asked, for the audit log. */
export interface RequestMeta {
  ip?: string | null;
  userAgent?: string | null;
}

/** Where a recovery link of each kind of user leads (the page that sets the new password). */
const RECOVERY_PAGE = { staff: '/login', zone: '/zone/recover' } as const;

export const ZRequestRecovery = z.object({
  email: zEmail(),
  hostname: z.string().max(255).optional(),
});
export type TRequestRecovery = z.infer<typeof ZRequestRecovery>;

/**
 * A token as the link carried it. Anything unusable (missing, not text, absurdly long) is simply a
 * token that matches nothing, so every bad link answers the same 400 TOKEN_EXPIRED (spec section 8).
 * Not trimmed: a trailing space is a mangled '+' (spec section 5).
 */
export const zLinkToken = () => z.string().max(512).catch('');

export const ZLinkToken = z.object({ token: zLinkToken() });

/**
 * A new password set through a mailed link (recovery or registration). `repeat` is the form's second
 * field; API clients may leave it out.
 */
export const ZPasswordByLink = z
  .object({
    token: zLinkToken(),
    password: zNewPassword(),
    repeat: z.string({ error: 'ERROR_REQUIRED_FIELD' }).min(1, 'ERROR_REQUIRED_FIELD').optional(),
  })
  .refine((v) => v.repeat === undefined || v.repeat === v.password, {
    path: ['repeat'],
    message: 'ERROR_PASSWORDS_DO_NOT_MATCH',
  });
export type TPasswordByLink = z.infer<typeof ZPasswordByLink>;

/** The user's language for mail: their own, else the tenant's (spec keys se/en/ee/lv/ru). */
export function mailLang(ctx: Ctx, userLanguage: string | null | undefined): Lang {
  return langFromKey(userLanguage, langFromKey(ctx.tenant.config.languageKey));
}

/**
 * `POST /pw`: mails a recovery link to an active user. The answer and the work done before it are
 * the same for an unknown, inactive or invited address (the link host is resolved either way and
 * the mail leaves after commit, unawaited), so neither the answer nor its time tells who has an
 * account. Every request is audited, with the user when there is one.
 */
export async function requestRecovery(
  ctx: Ctx,
  raw: unknown,
  meta: RequestMeta = {},
  principal: Principal = STAFF,
): Promise<void> {
  const input = parseInput(ZRequestRecovery, raw);
  const user = await ctx
    .trx(principal.users)
    .whereRaw('lower(email) = lower(?)', [input.email])
    .first<{ id: string; email: string; name: string; language: string | null; status: string } | undefined>(
      'id',
      'email',
      'name',
      'language',
      'status',
    );
  const lang = mailLang(ctx, user?.language);
  const base = await tenantLink(ctx.trx, ctx.tenant, input.hostname, RECOVERY_PAGE[principal.kind]);
  const audit = (data: Record<string, unknown>) =>
    recordAuthEvent(ctx.trx, {
      event: 'password.recovery.requested',
      at: ctx.now,
      userId: user?.id ?? null,
      email: input.email,
      ip: meta.ip,
      userAgent: meta.userAgent,
      data,
      principal: principal.kind,
    });
  if (!user || user.status !== principal.active)
    return audit({ sent: false, reason: user ? user.status : 'unknown' });

  const [{ open }] = await ctx
    .trx(principal.tokens)
    .where({ user_id: user.id, purpose: 'recovery' })
    .whereNull('used_at')
    .where('expires_at', '>', ctx.now)
    .count<{ open: string | number }[]>({ open: '*' });
  if (Number(open) >= MAX_OPEN_RECOVERY_LINKS) return audit({ sent: false, reason: 'too many open links' });

  const token = await issueOneTimeToken(
    ctx.trx,
    { userId: user.id, purpose: 'recovery', now: ctx.now, validHours: RECOVERY_VALID_HOURS },
    principal,
  );
  const link = `${base}?t=${encodeURIComponent(token)}&lang=${keyFromLang(lang)}`;
  const mail = renderMail(recoveryMail, lang, { name: user.name, company: ctx.tenant.displayName }, link);
  await sendAfterCommit(ctx, { to: [user.email], ...mail, tenantId: ctx.tenant.id });
  await audit({ sent: true, lang });
}

/** `POST /pw/rt`: whether a recovery link still works; 400 TOKEN_EXPIRED when not. */
export async function checkRecoveryLink(
  ctx: Ctx,
  raw: unknown,
  principal: Principal = STAFF,
): Promise<{ valid: true; email: string; name: string }> {
  const { token } = parseInput(ZLinkToken, raw);
  const row = await checkOneTimeToken(ctx.trx, token, 'recovery', ctx.now, principal);
  return { valid: true, email: row.email, name: row.name };
}

export type RecoveryOutcome =
  | { signedIn: false }
  | { signedIn: true; token: string; expiresAt: Date; auth: NonNullable<Awaited<ReturnType<typeof validateSession>>> };

/**
 * `POST /pw/comp`: sets the new password through a recovery link. The link and every other open
 * recovery link of the user are used up; every session of the user ends (whoever knew the old
 * password is out) and the sign-in throttle for the address is cleared.
 *
 * With `signIn`, a staff user without MFA gets a fresh session. A user with MFA never does: a
 * mailbox alone must not get past the second factor, so they sign in normally afterwards; nor does a
 * zone user (`principal` ZONE), who signs in on the zone's page.
 * A refused password (policy, repeat) leaves the link usable.
 */
export async function completeRecovery(
  ctx: Ctx,
  raw: unknown,
  options: RequestMeta & { signIn: boolean; policy: SessionPolicy },
  principal: Principal = STAFF,
): Promise<RecoveryOutcome> {
  const input = parseInput(ZPasswordByLink, raw);
  const link = await checkOneTimeToken(ctx.trx, input.token, 'recovery', ctx.now, principal);
  await consumeOneTimeToken(ctx.trx, link.id, ctx.now, principal);
  await ctx
    .trx(principal.tokens)
    .where({ user_id: link.user_id, purpose: 'recovery' })
    .whereNull('used_at')
    .update({ used_at: ctx.now });
  await ctx
    .trx(principal.users)
    .where({ id: link.user_id })
    .update({
      password_hash: await hashPassword(input.password),
      ...(principal.kind === 'staff' ? { updated_at: ctx.now } : {}),
    });
  const revoked = await ctx
    .trx(principal.sessions)
    .where({ user_id: link.user_id })
    .whereNull('revoked_at')
    .update({ revoked_at: ctx.now });
  await throttleFor(ctx.trx, ctx.tenant.id).clearFailures(throttleKeys(options.ip, link.email, principal)[1]!);
  const who = {
    at: ctx.now,
    userId: link.user_id,
    email: link.email,
    ip: options.ip,
    userAgent: options.userAgent,
    principal: principal.kind,
  };
  await recordAuthEvent(ctx.trx, { ...who, event: 'password.recovered', data: { revokedSessions: revoked } });

  if (!options.signIn || principal.kind !== 'staff') return { signedIn: false };
  const mfa = await ctx.trx('user_mfa').where({ user_id: link.user_id }).whereNotNull('enabled_at').first('user_id');
  if (mfa) return { signedIn: false };
  const session = await createSession(ctx.trx, {
    userId: link.user_id,
    now: ctx.now,
    policy: options.policy,
    ip: options.ip,
    userAgent: options.userAgent,
  });
  await recordAuthEvent(ctx.trx, { ...who, event: 'signin.success', data: { via: 'recovery' } });
  const auth = await validateSession(ctx.trx, session.token, ctx.now, options.policy);
  if (!auth) throw new AppError('SERVER_ERROR', 500);
  return { signedIn: true, token: session.token, expiresAt: session.expiresAt, auth };
}
