import { createHash, randomBytes } from 'node:crypto';
import type { Trx } from '~/core/db/with-tenant';
import type { Auth, SessionUser } from '~/core/context';
import { isPermission, type Permission, type WorkOrderLimit } from '~/core/permissions/permissions';

export interface SessionPolicy {
  idleMinutes: number;
  absoluteHours: number;
}

/** A new opaque session token: 256 random bits. Only its hash is stored. */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

export async function createSession(
  trx: Trx,
  input: { userId: string; now: Date; policy: SessionPolicy; ip?: string | null; userAgent?: string | null },
): Promise<{ token: string; sessionId: string; expiresAt: Date }> {
  const token = newToken();
  const expiresAt = new Date(input.now.getTime() + input.policy.absoluteHours * 3_600_000);
  const idle = new Date(Math.min(input.now.getTime() + input.policy.idleMinutes * 60_000, expiresAt.getTime()));
  const [row] = await trx('sessions')
    .insert({
      token_hash: hashToken(token),
      user_id: input.userId,
      created_at: input.now,
      last_seen_at: input.now,
      idle_expires_at: idle,
      expires_at: expiresAt,
      ip: input.ip ?? null,
      user_agent: input.userAgent?.slice(0, 500) ?? null,
    })
    .returning(['id']);
  return { token, sessionId: row.id, expiresAt };
}

function initials(name: string): string {
  return name
    .split(/\s+/)
    .filter(Boolean)
    .map((p) => p[0]!.toUpperCase())
    .join('')
    .slice(0, 4);
}

interface SessionRow {
  session_id: string;
  last_seen_at: Date;
  expires_at: Date;
  user_id: string;
  email: string;
  name: string;
  short_name: string | null;
  user_type: 'normal' | 'super';
  language: string | null;
  configuration: { startPage?: string } | null;
  perms: string[] | null;
  limits: string[] | null;
}

/** The least restrictive work-order limit among a user's access levels wins. */
function widestLimit(limits: string[] | null): WorkOrderLimit {
  if (!limits || limits.length === 0) return 'user';
  if (limits.includes('none')) return 'none';
  if (limits.includes('user.created')) return 'user.created';
  return 'user';
}

/**
 * Resolves a token to who is signed in, or null when the session is unknown, revoked, idle too
 * long, past its absolute end, or its user is no longer active. Extends the idle deadline.
 * Two statements: one read (user, permissions and modules together), one touch at most a minute.
 */
export async function validateSession(trx: Trx, token: string, now: Date, policy: SessionPolicy): Promise<Auth | null> {
  if (!TOKEN_SHAPE.test(token)) return null;
  const result = await trx.raw<{
    rows: (SessionRow & { modules: string[] | null; must_enroll_mfa: boolean | null })[];
  }>(
    `select s.id as session_id, s.last_seen_at, s.expires_at,
            u.id as user_id, u.email, u.name, u.short_name, u.user_type, u.language, u.configuration,
            (select array_agg(distinct p) from user_access_levels ual
               join access_levels al on al.id = ual.access_level_id, unnest(al.permissions) p
              where ual.user_id = u.id) as perms,
            (select array_agg(distinct al.work_order_limit) from user_access_levels ual
               join access_levels al on al.id = ual.access_level_id where ual.user_id = u.id) as limits,
            (select array_agg(m.id) from app_modules m where m.enabled) as modules,
            (select case s2.mfa_required
                      when 'all' then true
                      when 'levels' then exists (select 1 from user_access_levels ual
                                                  where ual.user_id = u.id
                                                    and ual.access_level_id = any (s2.mfa_access_level_ids))
                      else false end
               from auth_settings s2)
              and not exists (select 1 from user_mfa um where um.user_id = u.id and um.enabled_at is not null)
              and exists (select 1 from app_modules am where am.id = 'mfa' and am.enabled)
              as must_enroll_mfa
       from sessions s join users u on u.id = s.user_id
      where s.token_hash = ? and s.revoked_at is null
        and s.expires_at > ? and s.idle_expires_at > ? and u.status = 'active'`,
    [hashToken(token), now, now],
  );
  const row = result.rows[0];
  if (!row) return null;
  if (now.getTime() - new Date(row.last_seen_at).getTime() > 60_000) {
    const idle = new Date(Math.min(now.getTime() + policy.idleMinutes * 60_000, new Date(row.expires_at).getTime()));
    await trx('sessions').where({ id: row.session_id }).update({ last_seen_at: now, idle_expires_at: idle });
  }
  const user: SessionUser = {
    id: row.user_id,
    email: row.email,
    fullName: row.name,
    shortName: row.short_name,
    initials: initials(row.name),
    userType: row.user_type,
    language: row.language,
    startPage: row.configuration?.startPage === 'dashboard' ? 'dashboard' : 'workorders',
  };
  return {
    sessionId: row.session_id,
    user,
    perms: new Set((row.perms ?? []).filter(isPermission) as Permission[]),
    modules: new Set(row.modules ?? []),
    limit: widestLimit(row.limits),
    mustEnrollMfa: Boolean(row.must_enroll_mfa),
  };
}

export async function revokeSession(trx: Trx, sessionId: string, now: Date): Promise<void> {
  await trx('sessions').where({ id: sessionId }).whereNull('revoked_at').update({ revoked_at: now });
}

/** Revokes the session a token names, if any (used when a new sign-in replaces an old session). */
export async function revokeToken(trx: Trx, token: string, now: Date): Promise<void> {
  if (!TOKEN_SHAPE.test(token)) return;
  await trx('sessions')
    .where({ token_hash: hashToken(token) })
    .whereNull('revoked_at')
    .update({ revoked_at: now });
}

/** Deletes sessions past their end; revoked ones are kept a day for the audit trail. */
export async function purgeExpiredSessions(trx: Trx, now: Date): Promise<number> {
  const dayAgo = new Date(now.getTime() - 86_400_000);
  return trx('sessions')
    .where('expires_at', '<', now)
    .orWhere('idle_expires_at', '<', now)
    .orWhere('revoked_at', '<', dayAgo)
    .delete();
}
