import { z } from 'zod';
import type { Trx } from '~/core/db/with-tenant';
import { parseInput } from '~/core/errors/validation';
import { hashPassword } from '~/core/auth/password';
import { zNewPassword } from '~/core/auth/password-policy';
import { checkOneTimeToken, consumeOneTimeToken } from '~/core/auth/one-time-token.service';
import { createSession, type SessionPolicy } from '~/core/auth/session.service';

export const ZNewPassword = z
  .object({
    password: zNewPassword(),
    repeat: z.string({ error: 'ERROR_REQUIRED_FIELD' }).min(1, 'ERROR_REQUIRED_FIELD'),
  })
  .refine((v) => v.password === v.repeat, { path: ['repeat'], message: 'ERROR_PASSWORDS_DO_NOT_MATCH' });

/**
 * Completes a one-time sign-in link: sets the password, uses up the token and signs the user in.
 * All or nothing: a bad password leaves the token valid.
 */
export async function completeSignInLink(
  trx: Trx,
  input: { token: string; now: Date; policy: SessionPolicy; ip?: string | null; userAgent?: string | null },
  raw: unknown,
) {
  const { password } = parseInput(ZNewPassword, raw);
  const link = await checkOneTimeToken(trx, input.token, 'signin', input.now);
  await trx('users')
    .where({ id: link.user_id })
    .update({ password_hash: await hashPassword(password), status: 'active', updated_at: input.now });
  await consumeOneTimeToken(trx, link.id, input.now);
  return createSession(trx, {
    userId: link.user_id,
    now: input.now,
    policy: input.policy,
    ip: input.ip,
    userAgent: input.userAgent,
  });
}
