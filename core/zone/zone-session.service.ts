import type { Ctx, ZoneAuth } from '~/core/context';
import { tenantStatement, type TenantScope, type Trx } from '~/core/db/with-tenant';
import { AppError } from '~/core/errors/app-error';
import { recordAuthEvent } from '~/core/auth/audit';
import type { AuthenticateInput } from '~/core/auth/authenticate.service';
import { ZONE } from '~/core/auth/principal';
import {
  createSession,
  hashToken,
  revokeToken,
  touchDue,
  touchSql,
  TOKEN_SHAPE,
  type SessionPolicy,
} from '~/core/auth/session.service';

interface ZoneSessionRow {
  session_id: string;
  last_seen_at: Date;
  expires_at: Date;
  user_id: string;
  email: string;
  name: string;
  language: string | null;
  customer_id: string;
  customer_name: string;
  customer_language: string | null;
  modules: string[] | null;
}

/**
 * The zone's session check (decision 061): a token of the zone's own table, its zone user active,
 * the customer zone module on. A staff token is never in this table, so it finds nothing here.
 * Tables prefixed with `s` as in the staff check ('' inside a transaction, the schema outside).
 */
const zoneSessionSql = (s: string) =>
  `select s.id as session_id, s.last_seen_at, s.expires_at,
          z.id as user_id, z.email, z.name, z.language,
          c.id as customer_id, c.name as customer_name, c.invoice_language as customer_language,
          (select array_agg(m.id) from ${s}app_modules m where m.enabled) as modules
     from ${s}zone_sessions s
     join ${s}customer_zone_users z on z.id = s.user_id
     join ${s}customers c on c.id = z.customer_id
    where s.token_hash = ? and s.revoked_at is null
      and s.expires_at > ? and s.idle_expires_at > ? and z.status = 'STATUS_ACTIVE'
      and exists (select 1 from ${s}app_modules am where am.id = 'customerzone' and am.enabled)`;

function toZoneAuth(row: ZoneSessionRow): ZoneAuth {
  return {
    sessionId: row.session_id,
    user: { id: row.user_id, email: row.email, name: row.name, language: row.language },
    customerId: row.customer_id,
    customerName: row.customer_name,
    customerLanguage: row.customer_language,
    modules: new Set(row.modules ?? []),
  };
}

/** Resolves a zone token inside a unit of work (right after sign-in); extends the idle deadline. */
export async function validateZoneSession(
  trx: Trx,
  token: string,
  now: Date,
  policy: SessionPolicy,
): Promise<ZoneAuth | null> {
  if (!TOKEN_SHAPE.test(token)) return null;
  const { rows } = await trx.raw<{ rows: ZoneSessionRow[] }>(zoneSessionSql(''), [hashToken(token), now, now]);
  const row = rows[0];
  if (!row) return null;
  const touch = touchDue(row, now, policy);
  if (touch) await trx.raw(touchSql('', ZONE.sessions), touch);
  return toZoneAuth(row);
}

/** The same check for a request before its unit of work: one prepared statement, as staff's. */
export async function checkZoneSession(
  tenant: TenantScope,
  token: string,
  now: Date,
  policy: SessionPolicy,
): Promise<ZoneAuth | null> {
  if (!TOKEN_SHAPE.test(token)) return null;
  const [row] = await tenantStatement<ZoneSessionRow>(
    tenant,
    { name: 'zone-session', sql: (schema) => zoneSessionSql(`${schema}.`) },
    [hashToken(token), now, now],
  );
  if (!row) return null;
  const touch = touchDue(row, now, policy);
  if (touch) await tenantStatement(tenant, { sql: (schema) => touchSql(`${schema}.`, ZONE.sessions) }, touch);
  return toZoneAuth(row);
}

/**
 * The end of every zone sign-in: a new zone session (replacing the zone session presented), the
 * zone user's last sign-in for the office to see, the audit row.
 */
export async function startZoneSession(
  ctx: AuthenticateInput,
  userId: string,
  who: { at: Date; email?: string | null; ip?: string | null; userAgent?: string | null },
): Promise<{ status: 'success'; token: string; zone: ZoneAuth; expiresAt: Date }> {
  if (ctx.previousToken) await revokeToken(ctx.trx, ctx.previousToken, ctx.now, ZONE);
  const session = await createSession(
    ctx.trx,
    { userId, now: ctx.now, policy: ctx.policy, ip: ctx.ip, userAgent: ctx.userAgent },
    ZONE,
  );
  await ctx.trx(ZONE.users).where({ id: userId }).update({ last_sign_in_at: ctx.now });
  await recordAuthEvent(ctx.trx, { ...who, event: 'signin.success', userId, principal: 'zone' });
  const zone = await validateZoneSession(ctx.trx, session.token, ctx.now, ctx.policy);
  // The module is off or the customer gone: the password was right, but there is no zone to enter.
  if (!zone) throw new AppError('WARNING_PERMISSION_DENIED', 403);
  return { status: 'success', token: session.token, zone, expiresAt: session.expiresAt };
}

/** What the zone's pages and `GET /zone/keepalive` show of who is signed in. */
export function zoneSessionData(ctx: Ctx, zone: ZoneAuth) {
  return {
    user: { id: zone.user.id, name: zone.user.name, email: zone.user.email, language: zone.user.language },
    customer: { id: zone.customerId, name: zone.customerName },
    instance: { displayName: ctx.tenant.displayName, logoUrl: ctx.tenant.config.logoUrl ?? null },
    appModules: [...zone.modules].filter((m) => ZONE_VISIBLE_MODULES.has(m)).sort(),
  };
}

/** The app modules a zone user's client may need to know of (the rest are the office's business). */
const ZONE_VISIBLE_MODULES = new Set(['customerzone', 'customer_workorders', 'mfa', 'deviations', 'servicereports']);
