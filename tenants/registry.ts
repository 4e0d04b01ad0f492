import type { Trx } from '~/core/db/with-tenant';
import { afterCommit, withControl } from '~/core/db/with-tenant';
import { forgetEverywhere, onForget } from '~/core/events/cache-events';
import { readInstanceConfig, type TInstanceConfig } from '~/core/instance/instance-config';
import type { Tenant, TenantStatus } from '~/core/tenancy/tenant';

interface TenantRow {
  id: string;
  slug: string;
  schema_name: string;
  display_name: string;
  status: TenantStatus;
  cluster: string;
  config: unknown;
  provision_step: string;
}

export function toTenant(row: TenantRow): Tenant {
  return {
    id: row.id,
    slug: row.slug,
    schemaName: row.schema_name,
    displayName: row.display_name,
    status: row.status,
    cluster: row.cluster,
    config: readInstanceConfig(row.config),
  };
}

/** A Host header → the hostname we register: lower case, port and trailing dot removed. */
export function normalizeHost(host: string | null | undefined): string | null {
  if (!host) return null;
  let h = host.trim().toLowerCase();
  if (h.startsWith('[')) {
    const end = h.indexOf(']');
    h = end > 0 ? h.slice(0, end + 1) : h;
  } else {
    h = h.replace(/:\d*$/, '');
  }
  h = h.replace(/\.$/, '');
  return /^[a-z0-9.[\]:-]{1,253}$/.test(h) ? h : null;
}

export const HOSTNAME = /^(?=.{1,253}$)[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/;

export async function findTenantRowByHost(trx: Trx, hostname: string): Promise<TenantRow | undefined> {
  return trx('tenants as t')
    .join('tenant_hosts as h', 'h.tenant_id', 't.id')
    .where('h.hostname', hostname)
    .first('t.*');
}

export async function getTenantBySlug(slug: string): Promise<(Tenant & { provisionStep: string }) | null> {
  const row = await withControl((trx) => trx<TenantRow>('tenants').where({ slug }).first());
  return row ? { ...toTenant(row), provisionStep: row.provision_step } : null;
}

export interface TenantListing extends Tenant {
  hosts: string[];
  provisionStep: string;
}

export async function listTenants(filter: { status?: TenantStatus } = {}): Promise<TenantListing[]> {
  return withControl(async (trx) => {
    const q = trx('tenants as t')
      .leftJoin('tenant_hosts as h', 'h.tenant_id', 't.id')
      .groupBy('t.id')
      .orderBy('t.slug')
      .select(
        't.*',
        trx.raw(
          `coalesce(array_agg(h.hostname order by h.hostname) filter (where h.hostname is not null), '{}') as hosts`,
        ),
      );
    if (filter.status) q.where('t.status', filter.status);
    const rows = (await q) as (TenantRow & { hosts: string[] })[];
    return rows.map((r) => ({ ...toTenant(r), hosts: r.hosts, provisionStep: r.provision_step }));
  });
}

export async function setInstanceConfig(tenantId: string, config: TInstanceConfig): Promise<void> {
  await withControl((trx) => trx('tenants').where({ id: tenantId }).update({ config, updated_at: new Date() }));
  invalidateHostCache();
}

// ---- host → tenant, cached ----------------------------------------------------------------

/** Cache lifetime: a disabled tenant or a moved host takes effect within this time everywhere. */
export const HOST_CACHE_MS = 5_000;
const MAX_CACHED = 10_000;
const cache = new Map<string, { tenant: Tenant | null; until: number }>();

export function invalidateHostCache(): void {
  cache.clear();
}

const HOST_CACHE = 'tenant-hosts';
onForget(HOST_CACHE, () => cache.clear());

/**
 * Forgets the hostname cache once the caller's transaction commits, in every process (issue 30
 * item 2): a tenant's configuration changed inside a unit of work is seen by nobody before that.
 */
export function invalidateHostCacheAfterCommit(trx: Trx): void {
  afterCommit(trx, () => forgetEverywhere(HOST_CACHE, '*'));
}

/** Hostnames that mean "this machine": DEFAULT_TENANT serves them unless one is registered. */
export const BARE_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * The active tenant serving a hostname, or null. Unknown and disabled hosts are cached too, so
 * probing random names costs one query per name per cache lifetime.
 */
export async function findTenantByHost(
  hostname: string,
  defaultSlug?: string,
  now = Date.now(),
): Promise<Tenant | null> {
  const hit = cache.get(hostname);
  if (hit && hit.until > now) return hit.tenant;
  const row = await withControl(async (trx) => {
    const byHost = await findTenantRowByHost(trx, hostname);
    if (byHost || !defaultSlug || !BARE_HOSTS.has(hostname)) return byHost;
    return trx<TenantRow>('tenants').where({ slug: defaultSlug }).first();
  });
  const tenant = row && row.status === 'active' ? toTenant(row) : null;
  if (cache.size >= MAX_CACHED) cache.clear();
  cache.set(hostname, { tenant, until: now + HOST_CACHE_MS });
  return tenant;
}
