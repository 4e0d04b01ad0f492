import { getConfig } from '~/core/config/env';
import type { Auth, Ctx, ZoneAuth } from '~/core/context';
import { AfterCommitWork, withTenant, type Settled } from '~/core/db/with-tenant';
import type { Lang } from '~/core/i18n/languages';
import type { Tenant } from '~/core/tenancy/tenant';
import type { SessionPolicy } from '~/core/auth/session.service';

/** Runs one request's work for a tenant as one transaction, with the ctx every service takes. */
export function inTenant<T>(
  scope: { tenant: Tenant; auth: Auth | null; zone?: ZoneAuth | null; lang: Lang; now?: Date },
  fn: (ctx: Ctx) => Promise<T>,
): Promise<Settled<T>> {
  return withTenant(scope.tenant, (trx) =>
    fn({
      trx,
      tenant: scope.tenant,
      auth: scope.auth,
      ...(scope.zone ? { zone: scope.zone } : {}),
      lang: scope.lang,
      now: scope.now ?? new Date(),
    }),
  );
}

/** ctx.trx of a call that declared it runs no unit of work: any use is a programming error. */
const NO_UNIT_OF_WORK = new Proxy(() => {}, {
  get() {
    throw new Error('This call declared unitOfWork: false, so it has no transaction');
  },
  apply() {
    throw new Error('This call declared unitOfWork: false, so it has no transaction');
  },
}) as unknown as Ctx['trx'];

/** The ctx of a call answered from the session alone: no transaction, no round trip. */
export async function withoutUnitOfWork<T>(
  scope: { tenant: Tenant; auth: Auth | null; zone?: ZoneAuth | null; lang: Lang; now?: Date },
  fn: (ctx: Ctx) => Promise<T>,
): Promise<Settled<T>> {
  const result = await fn({
    trx: NO_UNIT_OF_WORK,
    tenant: scope.tenant,
    auth: scope.auth,
    ...(scope.zone ? { zone: scope.zone } : {}),
    lang: scope.lang,
    now: scope.now ?? new Date(),
  });
  return (result instanceof AfterCommitWork ? await result.run() : result) as Settled<T>;
}

export function sessionPolicy(): SessionPolicy {
  const c = getConfig();
  return { idleMinutes: c.SESSION_IDLE_MINUTES, absoluteHours: c.SESSION_ABSOLUTE_HOURS };
}
