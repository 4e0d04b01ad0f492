import { getConfig } from '~/core/config/env';
import { CONTROL_SCHEMA } from '~/core/db/identifiers';
import type { Trx } from '~/core/db/with-tenant';
import type { Tenant } from '~/core/tenancy/tenant';
import { BARE_HOSTS, normalizeHost } from '~/tenants/registry';

/**
 * The host a mailed link names. The client's `hostname` is used only when it is one of this
 * tenant's hosts (or a bare localhost name served by the default tenant): a link to a host an
 * attacker chose would hand them the token. Otherwise the tenant's first host.
 * Reads the registry through the tenant's transaction: the embedded database has one connection.
 */
async function trustedHost(trx: Trx, tenant: Tenant, hostname: string | null | undefined): Promise<string> {
  const hosts: string[] = await trx
    .withSchema(CONTROL_SCHEMA)
    .from('tenant_hosts')
    .where({ tenant_id: tenant.id })
    .orderBy('hostname')
    .pluck('hostname');
  const wanted = normalizeHost(hostname);
  if (wanted && hosts.includes(wanted)) return wanted;
  if (wanted && BARE_HOSTS.has(wanted) && getConfig().DEFAULT_TENANT === tenant.slug) return wanted;
  return hosts[0] ?? 'localhost';
}

/**
 * An absolute link into the tenant's app: https on a public deployment, else http with the app's port
 * (as tenants/cli.ts builds sign-in links).
 */
export async function tenantLink(
  trx: Trx,
  tenant: Tenant,
  hostname: string | null | undefined,
  pathAndQuery: string,
): Promise<string> {
  const config = getConfig();
  const host = await trustedHost(trx, tenant, hostname);
  const base = config.httpsOnly ? `https://${host}` : `http://${host}:${config.PORT}`;
  return `${base}${pathAndQuery}`;
}
