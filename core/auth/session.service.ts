import { createHash, randomBytes } from 'node:crypto';
import { tenantStatement, type TenantScope, type Trx } from '~/core/db/with-tenant';
import type { Auth, SessionUser } from '~/core/context';
import { isPermission, type Permission, type WorkOrderLimit } from '~/core/permissions/permissions';
import { STAFF, type Principal } from './principal';

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

export const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/** A new session of a staff user, or of a zone user with `principal` ZONE (its own table). */
export async function createSession(
  trx: Trx,
  input: { userId: string; now: Date; policy: SessionPolicy; ip?: string | null; userAgent?: string | null },
  principal: Principal = STAFF,
): Promise<{ token: string; sessionId: string; expiresAt: Date }> {
  const token = newToken();
  const expiresAt = new Date(input.now.getTime() + input.policy.absoluteHours * 3_600_000);
  const idle = new Date(Math.min(input.now.getTime() + input.policy.idleMinutes * 60_000, expiresAt.getTime()));
  const [row] = await trx(principal.sessions)
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
  /** The tenant's schema (the grants cache is per tenant). */
  schema: string;
  last_seen_at: Date;
  expires_at: Date;
  user_id: string;
  email: string;
  name: string;
  short_name: string | null;
  user_type: 'normal' | 'super';
  language: string | null;
  region: string | null;
  configuration: { startPage?: string } | null;
  /** The user's access levels as `id@xmin`, sorted, joined by commas: the key of their grants. */
  levels: string | null;
  modules: string[] | null;
  must_enroll_mfa: boolean | null;
}

/** The least restrictive work-order limit among a user's access levels wins. */
function widestLimit(limits: string[]): WorkOrderLimit {
  if (limits.length === 0) return 'user';
  if (limits.includes('none')) return 'none';
  if (limits.includes('user.created')) return 'user.created';
  return 'user';
}

/**
 * The session check, its tables prefixed with `s` ('' inside a tenant's transaction, the quoted
 * schema and a dot outside one). It names the user's access levels with their row versions
 * (`xmin` changes with every update of the row) instead of unnesting ~140 permissions each time;
 * what those levels grant is read once per process and kept by that key (grantsFor).
 */
const sessionSql = (s: string) =>
  `select s.id as session_id, s.last_seen_at, s.expires_at, current_schema() as schema,
          u.id as user_id, u.email, u.name, u.short_name, u.user_type, u.language, u.region, u.configuration,
          (select string_agg(al.id::text || '@' || al.xmin::text, ',' order by al.id)
             from ${s}user_access_levels ual join ${s}access_levels al on al.id = ual.access_level_id
            where ual.user_id = u.id) as levels,
          (select array_agg(m.id) from ${s}app_modules m where m.enabled) as modules,
          (select case s2.mfa_required
                    when 'all' then true
                    when 'levels' then exists (select 1 from ${s}user_access_levels ual
                                                where ual.user_id = u.id
                                                  and ual.access_level_id = any (s2.mfa_access_level_ids))
                    else false end
             from ${s}auth_settings s2)
            and not exists (select 1 from ${s}user_mfa um where um.user_id = u.id and um.enabled_at is not null)
            and exists (select 1 from ${s}app_modules am where am.id = 'mfa' and am.enabled)
            as must_enroll_mfa
     from ${s}sessions s join ${s}users u on u.id = s.user_id
    where s.token_hash = ? and s.revoked_at is null
      and s.expires_at > ? and s.idle_expires_at > ? and u.status = 'active'`;

/** Moves a session's idle deadline (`table`: the kind's sessions, prefixed as in sessionSql). */
export const touchSql = (s: string, table = STAFF.sessions) =>
  `update ${s}${table} set last_seen_at = ?, idle_expires_at = ? where id = ?`;

const grantsSql = (s: string) =>
  `select permissions, work_order_limit, id::text || '@' || xmin::text as version
     from ${s}access_levels where id = any (?::uuid[])`;

interface Grants {
  perms: ReadonlySet<Permission>;
  limit: WorkOrderLimit;
}

/**
 * What a set of access levels grants, by tenant and the levels' ids and row versions. An edited
 * level has a new version, so it is read again; nothing here needs invalidating, even across
 * processes. Bounded: a tenant has a handful of distinct sets.
 */
const grantsCache = new Map<string, Grants>();
const GRANTS_CACHE_MAX = 2_000;

async function grantsFor(
  tenantKey: string,
  levels: string | null,
  read: (ids: string[]) => Promise<{ permissions: string[]; work_order_limit: string; version: string }[]>,
): Promise<Grants> {
  const key = `${tenantKey}|${levels ?? ''}`;
  const hit = grantsCache.get(key);
  if (hit) return hit;
  const wanted = levels ? levels.split(',') : [];
  const rows = wanted.length ? await read(wanted.map((l) => l.slice(0, l.indexOf('@')))) : [];
  const grants: Grants = {
    perms: new Set(rows.flatMap((r) => r.permissions).filter(isPermission) as Permission[]),
    limit: widestLimit(rows.map((r) => r.work_order_limit)),
  };
  // Keep it only if nothing changed between the two reads (else the next request reads again).
  const found = rows.map((r) => r.version).sort();
  if (found.length === wanted.length && found.every((v, i) => v === [...wanted].sort()[i])) {
    if (grantsCache.size >= GRANTS_CACHE_MAX) grantsCache.clear();
    grantsCache.set(key, grants);
  }
  return grants;
}

/** The idle deadline moves at most once a minute: a write per request would cost more than it tells. */
export function touchDue(
  row: { last_seen_at: Date; expires_at: Date; session_id: string },
  now: Date,
  policy: SessionPolicy,
): [Date, Date, string] | null {
  if (now.getTime() - new Date(row.last_seen_at).getTime() <= 60_000) return null;
  const idle = new Date(Math.min(now.getTime() + policy.idleMinutes * 60_000, new Date(row.expires_at).getTime()));
  return [now, idle, row.session_id];
}

function toAuth(row: SessionRow, grants: Grants): Auth {
  const user: SessionUser = {
    id: row.user_id,
    email: row.email,
    fullName: row.name,
    shortName: row.short_name,
    initials: initials(row.name),
    userType: row.user_type,
    language: row.language,
    region: row.region ?? null,
    startPage: row.configuration?.startPage === 'dashboard' ? 'dashboard' : 'workorders',
  };
  return {
    sessionId: row.session_id,
    user,
    perms: grants.perms,
    modules: new Set(row.modules ?? []),
    limit: grants.limit,
    mustEnrollMfa: Boolean(row.must_enroll_mfa),
  };
}

/**
 * Resolves a token to who is signed in, or null when the session is unknown, revoked, idle too
 * long, past its absolute end, or its user is no longer active. Extends the idle deadline.
 * One read (user, access levels and modules together), and a touch at most once a minute.
 */
export async function validateSession(trx: Trx, token: string, now: Date, policy: SessionPolicy): Promise<Auth | null> {
  if (!TOKEN_SHAPE.test(token)) return null;
  const { rows } = await trx.raw<{ rows: SessionRow[] }>(sessionSql(''), [hashToken(token), now, now]);
  const row = rows[0];
  if (!row) return null;
  const touch = touchDue(row, now, policy);
  if (touch) await trx.raw(touchSql(''), touch);
  return toAuth(
    row,
    await grantsFor(row.schema, row.levels, async (ids) => (await trx.raw(grantsSql(''), [ids])).rows),
  );
}

/**
 * The same check for a request, before its unit of work: one prepared statement outside any
 * transaction (tenantStatement), so a signed-in request pays one round trip and no planning for
 * it, and a refused one never opens a transaction.
 */
export async function checkSession(
  tenant: TenantScope,
  token: string,
  now: Date,
  policy: SessionPolicy,
): Promise<Auth | null> {
  if (!TOKEN_SHAPE.test(token)) return null;
  const [row] = await tenantStatement<SessionRow>(
    tenant,
    { name: 'session', sql: (schema) => sessionSql(`${schema}.`) },
    [hashToken(token), now, now],
  );
  if (!row) return null;
  const touch = touchDue(row, now, policy);
  if (touch) await tenantStatement(tenant, { sql: (schema) => touchSql(`${schema}.`) }, touch);
  const grants = await grantsFor(row.schema, row.levels, (ids) =>
    tenantStatement(tenant, { sql: (schema) => grantsSql(`${schema}.`) }, [ids]),
  );
  return toAuth(row, grants);
}

export async function revokeSession(trx: Trx, sessionId: string, now: Date, principal: Principal = STAFF) {
  await trx(principal.sessions).where({ id: sessionId }).whereNull('revoked_at').update({ revoked_at: now });
}

/** Revokes the session a token names, if any (used when a new sign-in replaces an old session). */
export async function revokeToken(trx: Trx, token: string, now: Date, principal: Principal = STAFF): Promise<void> {
  if (!TOKEN_SHAPE.test(token)) return;
  await trx(principal.sessions)
    .where({ token_hash: hashToken(token) })
    .whereNull('revoked_at')
    .update({ revoked_at: now });
}

/** Deletes sessions past their end; revoked ones are kept a day for the audit trail. */
export async function purgeExpiredSessions(trx: Trx, now: Date, principal: Principal = STAFF): Promise<number> {
  const dayAgo = new Date(now.getTime() - 86_400_000);
  return trx(principal.sessions)
    .where('expires_at', '<', now)
    .orWhere('idle_expires_at', '<', now)
    .orWhere('revoked_at', '<', dayAgo)
    .delete();
}
