import type { Ctx } from '~/core/context';
import { parseInput } from '~/core/errors/validation';
import { recordAuthEvent } from './audit';
import { checkOneTimeToken, consumeOneTimeToken } from './one-time-token.service';
import { hashPassword } from './password';
import { ZLinkToken, ZPasswordByLink, type RequestMeta } from './recovery.service';

/** An invitation link works for seven days, once. */
export const REGISTRATION_VALID_HOURS = 7 * 24;

/**
 * `POST /registration/rt`: whether an invitation link still works, with the name and e-mail the
 * registration form shows; 400 TOKEN_EXPIRED when not.
 */
export async function checkRegistrationLink(
  ctx: Ctx,
  raw: unknown,
): Promise<{ valid: true; email: string; name: string }> {
  const { token } = parseInput(ZLinkToken, raw);
  const row = await checkOneTimeToken(ctx.trx, token, 'registration', ctx.now);
  return { valid: true, email: row.email, name: row.name };
}

/**
 * `POST /registration/comp`: the invited user chooses a password and becomes active. The link and
 * any older invitation links are used up. It does not sign in: the spec's flow ends in a success
 * message and the person signs in with the new password. A refused password leaves the link usable.
 */
export async function completeRegistration(ctx: Ctx, raw: unknown, meta: RequestMeta = {}): Promise<void> {
  const input = parseInput(ZPasswordByLink, raw);
  const link = await checkOneTimeToken(ctx.trx, input.token, 'registration', ctx.now);
  await consumeOneTimeToken(ctx.trx, link.id, ctx.now);
  await ctx
    .trx('user_tokens')
    .where({ user_id: link.user_id, purpose: 'registration' })
    .whereNull('used_at')
    .update({ used_at: ctx.now });
  await ctx
    .trx('users')
    .where({ id: link.user_id })
    .update({ password_hash: await hashPassword(input.password), status: 'active', updated_at: ctx.now });
  await recordAuthEvent(ctx.trx, {
    event: 'registration.completed',
    at: ctx.now,
    userId: link.user_id,
    email: link.email,
    ip: meta.ip,
    userAgent: meta.userAgent,
  });
}
