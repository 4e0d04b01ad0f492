import type { Logger } from '~/core/log/logger';
import { listTenants } from '~/tenants/registry';
import type { Tenant } from '~/core/tenancy/tenant';

/**
 * A sweep's walk over every active tenant: `work` runs for each on its own (its own transactions),
 * one tenant's failure is logged with `what` and does not stop the others, and the run fails at the
 * end naming them, so the queue retries it (each sweep is safe to run again). Not tenant scoped on
 * purpose: the schedule stays a single entry however many tenants exist.
 */
export async function forEachActiveTenant(
  log: Logger,
  what: string,
  work: (tenant: Tenant) => Promise<void>,
): Promise<{ tenants: number; failed: number }> {
  const tenants = await listTenants({ status: 'active' });
  const failed: string[] = [];
  for (const tenant of tenants) {
    try {
      await work(tenant);
    } catch (err) {
      failed.push(tenant.slug);
      log.error({ err, tenant: tenant.slug }, `${what} failed for a tenant`);
    }
  }
  if (failed.length) throw new Error(`${what} failed for: ${failed.join(', ')}`);
  return { tenants: tenants.length, failed: failed.length };
}
