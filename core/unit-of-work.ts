import { getConfig } from '~/core/config/env';
import type { Auth, Ctx } from '~/core/context';
import { withTenant } from '~/core/db/with-tenant';
import type { Lang } from '~/core/i18n/languages';
import type { Tenant } from '~/core/tenancy/tenant';
import type { SessionPolicy } from '~/core/auth/session.service';

/** Runs one request's work for a tenant as one transaction, with the ctx every service takes. */
export function inTenant<T>(
  scope: { tenant: Tenant; auth: Auth | null; lang: Lang; now?: Date },
  fn: (ctx: Ctx) => Promise<T>,
): Promise<T> {
  return withTenant(scope.tenant, (trx) =>
    fn({ trx, tenant: scope.tenant, auth: scope.auth, lang: scope.lang, now: scope.now ?? new Date() }),
  );
}

export function sessionPolicy(): SessionPolicy {
  const c = getConfig();
  return { idleMinutes: c.SESSION_IDLE_MINUTES, absoluteHours: c.SESSION_ABSOLUTE_HOURS };
}
