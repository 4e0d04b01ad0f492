import type { Trx } from '~/core/db/with-tenant';
import { AppError } from '~/core/errors/app-error';
import { hashToken, newToken } from './session.service';
import { STAFF, type Principal } from './principal';

export type TokenPurpose = 'signin' | 'registration' | 'recovery';

/** Issues a one-time token for a user (of `principal`'s kind); only its hash is stored. */
export async function issueOneTimeToken(
  trx: Trx,
  input: { userId: string; purpose: TokenPurpose; now: Date; validHours: number },
  principal: Principal = STAFF,
): Promise<string> {
  const token = newToken();
  await trx(principal.tokens).insert({
    user_id: input.userId,
    purpose: input.purpose,
    token_hash: hashToken(token),
    expires_at: new Date(input.now.getTime() + input.validHours * 3_600_000),
  });
  return token;
}

/** The user a valid, unused token belongs to; 400 TOKEN_EXPIRED otherwise (spec section 8). */
export async function checkOneTimeToken(
  trx: Trx,
  token: string,
  purpose: TokenPurpose,
  now: Date,
  principal: Principal = STAFF,
) {
  // Spec: spaces in a token (a mangled '+') are turned back into plus signs.
  const cleaned = token.replace(/ /g, '+');
  const row = await trx(`${principal.tokens} as t`)
    .join(`${principal.users} as u`, 'u.id', 't.user_id')
    .where({ 't.token_hash': hashToken(cleaned), 't.purpose': purpose })
    .whereNull('t.used_at')
    .where('t.expires_at', '>', now)
    .whereNot('u.status', principal.inactive)
    .first('t.id', 'u.id as user_id', 'u.email', 'u.name');
  if (!row) throw new AppError('TOKEN_EXPIRED', 400);
  return row as { id: string; user_id: string; email: string; name: string };
}

export async function consumeOneTimeToken(
  trx: Trx,
  tokenId: string,
  now: Date,
  principal: Principal = STAFF,
): Promise<void> {
  const n = await trx(principal.tokens).where({ id: tokenId }).whereNull('used_at').update({ used_at: now });
  if (n !== 1) throw new AppError('TOKEN_EXPIRED', 400);
}
