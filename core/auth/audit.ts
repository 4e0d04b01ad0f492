import type { Trx } from '~/core/db/with-tenant';
import type { PrincipalKind } from './principal';

/** The sign-in audit log's events (ARCHITECTURE §8, issue 3 §6). */
export type AuthEvent =
  | 'signin.success'
  | 'signin.failure'
  | 'signin.blocked'
  | 'mfa.challenge'
  | 'mfa.success'
  | 'mfa.failure'
  | 'mfa.enabled'
  | 'mfa.disabled'
  | 'password.changed'
  | 'password.recovery.requested'
  | 'password.recovered'
  | 'registration.completed'
  | 'session.revoked'
  | 'signout';

/** Writes one audit row in the caller's transaction, so it commits or rolls back with the work. */
export async function recordAuthEvent(
  trx: Trx,
  entry: {
    event: AuthEvent;
    at: Date;
    userId?: string | null;
    email?: string | null;
    ip?: string | null;
    userAgent?: string | null;
    data?: Record<string, unknown>;
    /** A customer-zone user's event: `userId` names a zone user, kept in `data` (user_id is staff's). */
    principal?: PrincipalKind;
  },
): Promise<void> {
  const zone = entry.principal === 'zone';
  const data = zone ? { ...entry.data, zoneUserId: entry.userId ?? null } : entry.data;
  await trx('auth_events').insert({
    event: entry.event,
    at: entry.at,
    user_id: zone ? null : (entry.userId ?? null),
    email: entry.email?.toLowerCase() ?? null,
    ip: entry.ip ?? null,
    user_agent: entry.userAgent?.slice(0, 500) ?? null,
    data: data ? JSON.stringify(data) : null,
  });
}
