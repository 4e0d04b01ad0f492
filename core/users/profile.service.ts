import { z } from 'zod';
import type { Ctx } from '~/core/context';
import { recordHistory } from '~/core/history/history';
import { AppError, invalidSession, notFound } from '~/core/errors/app-error';
import { isUuid, parseInput, zRequiredString } from '~/core/errors/validation';
import { hashPassword, verifyPassword } from '~/core/auth/password';
import { recordAuthEvent } from '~/core/auth/audit';
import { ZNewPassword } from './set-password.service';

export const ZProfile = z.object({
  name: zRequiredString().max(200, 'ERROR_MAX_LENGTH'),
  phone: z
    .string()
    .trim()
    .max(40, 'ERROR_MAX_LENGTH')
    .optional()
    .transform((v) => v || null),
});

/** The signed-in user's own details (spec: profile has name and phone). */
export async function getProfile(ctx: Ctx) {
  if (!ctx.auth) throw invalidSession();
  const row = await ctx
    .trx('users')
    .where({ id: ctx.auth.user.id })
    .first('name', 'phone', 'email', 'language', 'configuration');
  return {
    name: row.name as string,
    phone: (row.phone as string) ?? '',
    email: row.email as string,
    language: (row.language as string) ?? '',
    startPage: (row.configuration?.startPage as string) === 'dashboard' ? 'dashboard' : 'workorders',
  };
}

export async function updateProfile(ctx: Ctx, raw: unknown): Promise<void> {
  if (!ctx.auth) throw invalidSession();
  const input = parseInput(ZProfile, raw);
  await ctx
    .trx('users')
    .where({ id: ctx.auth.user.id })
    .update({ name: input.name, phone: input.phone, updated_at: ctx.now });
  await recordHistory(ctx, { entity: 'user', entityId: ctx.auth.user.id, action: 'edit.profile', data: input });
}

export const ZChangePassword = z.intersection(
  z.object({ current: z.string({ error: 'ERROR_REQUIRED_FIELD' }).min(1, 'ERROR_REQUIRED_FIELD') }),
  ZNewPassword,
);

/**
 * Changes one's own password: the current one is required (spec section 5); every other session
 * of the user ends, this one stays.
 */
export async function changePassword(ctx: Ctx, raw: unknown, meta: { ip?: string | null } = {}): Promise<void> {
  if (!ctx.auth) throw invalidSession();
  const input = parseInput(ZChangePassword, raw);
  const row = await ctx.trx('users').where({ id: ctx.auth.user.id }).first('password_hash');
  if (!(await verifyPassword(row?.password_hash, input.current)))
    throw new AppError('VALIDATION_FAILED', 400, { fields: { current: ['ERROR_WRONG_CURRENT_PASSWORD'] } });
  await ctx
    .trx('users')
    .where({ id: ctx.auth.user.id })
    .update({ password_hash: await hashPassword(input.password), updated_at: ctx.now });
  await ctx
    .trx('sessions')
    .where({ user_id: ctx.auth.user.id })
    .whereNot({ id: ctx.auth.sessionId })
    .whereNull('revoked_at')
    .update({ revoked_at: ctx.now });
  await recordAuthEvent(ctx.trx, {
    event: 'password.changed',
    at: ctx.now,
    userId: ctx.auth.user.id,
    email: ctx.auth.user.email,
    ip: meta.ip,
  });
}

/** One's own live sessions, newest first, marking the one in use. */
export async function listMySessions(ctx: Ctx) {
  if (!ctx.auth) throw invalidSession();
  const rows = await ctx
    .trx('sessions')
    .where({ user_id: ctx.auth.user.id })
    .whereNull('revoked_at')
    .where('expires_at', '>', ctx.now)
    .where('idle_expires_at', '>', ctx.now)
    .orderBy('last_seen_at', 'desc')
    .select('id', 'created_at', 'last_seen_at', 'ip', 'user_agent');
  return rows.map(
    (r: { id: string; created_at: Date; last_seen_at: Date; ip: string | null; user_agent: string | null }) => ({
      id: r.id,
      createdAt: new Date(r.created_at).toISOString(),
      lastSeenAt: new Date(r.last_seen_at).toISOString(),
      ip: r.ip,
      userAgent: r.user_agent,
      current: r.id === ctx.auth!.sessionId,
    }),
  );
}

/** Ends one of one's own sessions; someone else's id is not found. */
export async function revokeMySession(ctx: Ctx, id: unknown): Promise<void> {
  if (!ctx.auth) throw invalidSession();
  if (!isUuid(id)) throw notFound();
  const n = await ctx
    .trx('sessions')
    .where({ id, user_id: ctx.auth.user.id })
    .whereNull('revoked_at')
    .update({ revoked_at: ctx.now });
  if (n !== 1) throw notFound();
  await recordAuthEvent(ctx.trx, {
    event: 'session.revoked',
    at: ctx.now,
    userId: ctx.auth.user.id,
    data: { sessionId: id },
  });
}
