import { createHash, randomBytes } from 'node:crypto';
import type { Ctx } from '~/core/context';
import { open, seal, type SealContext } from '~/core/crypto/secret-box';
import { tenantIdOf, withTenant, withTenantLock, type TenantScope, type Trx } from '~/core/db/with-tenant';
import { ErpError, isErpError } from '~/core/extension-points/erp-http';
import type {
  ErpAccounts,
  ErpCredentials,
  ErpProvider,
  ErpSession,
  ErpVerification,
} from '~/core/extension-points/erp-provider';
import { getRegistry } from '~/core/extension-points/registry';

/*
 * The tenant's one ERP (issue 14 item 3; decision 025): which plugin, its credentials sealed with
 * SECRET_KEY (core/crypto), the accounts chosen per VAT rate, and the ERP's ids for our customers and
 * articles. Kept in the tenant's own schema, so a refreshed token is written in the tenant's
 * transaction and one database connection is enough (the embedded database has one).
 */

type Row = Record<string, unknown>;

export interface ErpConnection {
  kind: string;
  credentials: ErpCredentials | null;
  accounts: ErpAccounts;
  companyName: string | null;
  connectedAt: string | null;
  lastTestAt: string | null;
  lastTestError: string | null;
}

/** The ERP credentials belong to their tenant (decision 040). */
export const erpCredentialsContext = (tenantId: string): SealContext => ({
  tenant: tenantId,
  purpose: 'erp_connection.credentials',
});

export async function readErpConnection(trx: Trx): Promise<ErpConnection> {
  const r: Row | undefined = await trx('erp_connection').first();
  let credentials: ErpCredentials | null = null;
  if (r?.credentials) {
    try {
      credentials = JSON.parse(
        open(r.credentials as string, erpCredentialsContext(await tenantIdOf(trx))),
      ) as ErpCredentials;
    } catch {
      // sealed with a key no longer known, or for another tenant: the tenant must connect again
      credentials = null;
    }
  }
  const accounts = (r?.accounts as ErpAccounts | undefined) ?? { sales: {} };
  return {
    kind: (r?.kind as string) ?? 'none',
    credentials,
    accounts: {
      sales: accounts.sales ?? {},
      fee: accounts.fee,
      rounding: accounts.rounding,
      ...(accounts.vatCodes ? { vatCodes: accounts.vatCodes } : {}),
    },
    companyName: (r?.company_name as string) ?? null,
    connectedAt: r?.connected_at ? new Date(r.connected_at as string).toISOString() : null,
    lastTestAt: r?.last_test_at ? new Date(r.last_test_at as string).toISOString() : null,
    lastTestError: (r?.last_test_error as string) ?? null,
  };
}

export async function saveErpCredentials(trx: Trx, credentials: ErpCredentials | null): Promise<void> {
  await trx('erp_connection').update({
    credentials: credentials ? seal(JSON.stringify(credentials), erpCredentialsContext(await tenantIdOf(trx))) : null,
    updated_at: new Date(),
  });
}

/** The installed ERP plugins a tenant can choose, the built-in "none" first. */
export function erpKinds(): { id: string; displayName: string; provider: ErpProvider }[] {
  const all = [...getRegistry().erpProviders.values()].map((l) => ({
    id: l.definition.id,
    displayName: l.definition.displayName,
    provider: l.instance,
  }));
  return all.sort((a, b) => (a.id === 'none' ? -1 : b.id === 'none' ? 1 : a.displayName.localeCompare(b.displayName)));
}

/** The plugin of a kind; an uninstalled kind (a plugin removed) acts as "none". */
export function erpProvider(kind: string): {
  id: string;
  displayName: string;
  provider: ErpProvider;
  verification: ErpVerification | null;
} {
  const loaded = getRegistry().erpProviders.get(kind) ?? getRegistry().erpProviders.get('none')!;
  return {
    id: loaded.definition.id,
    displayName: loaded.definition.displayName,
    provider: loaded.instance,
    verification: loaded.definition.verification ?? null,
  };
}

/**
 * Whether invoices can go to the ERP now: an ERP with nothing to connect always can, another only
 * with credentials stored (a switch of ERP forgets them).
 */
export function isErpConnected(connection: Pick<ErpConnection, 'credentials'>, provider: ErpProvider): boolean {
  return provider.auth.type === 'none' || Boolean(connection.credentials);
}

/** The tenant's provider and connection as one answer. */
export async function tenantErp(ctx: Pick<Ctx, 'trx'>): Promise<{
  connection: ErpConnection;
  id: string;
  displayName: string;
  provider: ErpProvider;
}> {
  const connection = await readErpConnection(ctx.trx);
  return { connection, ...erpProvider(connection.kind) };
}

/**
 * A plugin session for the tenant's ERP, made outside any transaction: every read and write it
 * does is a short unit of work of its own, never one held over a vendor call (decision 049).
 * A refresh is serialised per tenant and ERP across processes (issue 31 item 6; decision 052):
 * withAccessToken takes `withRefreshLock`, re-reads the stored credentials and refreshes only when
 * no other process did meanwhile.
 */
export function erpSession(tenant: TenantScope, connection: ErpConnection): ErpSession {
  const kind = connection.kind;
  return {
    tenantId: tenant.id,
    credentials: connection.credentials,
    accounts: connection.accounts,
    saveCredentials: (next) => withTenant(tenant, (trx) => saveErpCredentials(trx, next)),
    async reloadCredentials() {
      const now = await withTenant(tenant, (trx) => readErpConnection(trx));
      // the tenant switched ERP meanwhile: these credentials are not this plugin's
      return now.kind === kind ? now.credentials : null;
    },
    async withRefreshLock(fn) {
      try {
        return await withTenantLock(tenant, `erp-token:${kind}`, fn);
      } catch (err) {
        if (isErpError(err) || !isLockTimeout(err)) throw err;
        // another process's refresh hangs: this delivery is tried again later
        throw new ErpError('ERP_UNREACHABLE', {
          retryable: true,
          vendorMessage: 'token refresh lock timed out',
          cause: err,
        });
      }
    },
  };
}

/** PostgreSQL's lock_not_available (55P03): the lock's wait ran out (SESSION_LOCK_TIMEOUT_MS). */
const isLockTimeout = (err: unknown) => (err as { code?: unknown } | null)?.code === '55P03';

/** A fresh OAuth state: random, bound to the tenant's row, good for ten minutes. */
export async function newOAuthState(trx: Trx, now: Date): Promise<string> {
  const state = randomBytes(24).toString('base64url');
  await trx('erp_connection').update({
    oauth_state: state,
    oauth_state_expires_at: new Date(now.getTime() + 10 * 60_000),
    updated_at: now,
  });
  return state;
}

/** Uses up the OAuth state: true once for the state we issued, before it expires. */
export async function takeOAuthState(trx: Trx, state: string, now: Date): Promise<boolean> {
  const n = await trx('erp_connection')
    .where({ oauth_state: state })
    .where('oauth_state_expires_at', '>', now)
    .update({ oauth_state: null, oauth_state_expires_at: null, updated_at: now });
  return Number(n) === 1;
}

export interface Mapping {
  externalId: string;
  /** A hash of what the ERP last received (fingerprintOf); null for a mapping made before it was kept. */
  fingerprint: string | null;
}

/** The vendor's id for our customers or articles, as far as this tenant's ERP has told us. */
export async function readMappings(
  trx: Trx,
  kind: string,
  entity: 'customer' | 'article',
  localIds: string[],
): Promise<Map<string, Mapping>> {
  const map = new Map<string, Mapping>();
  if (!localIds.length) return map;
  const rows: Row[] = await trx('erp_mappings')
    .where({ kind, entity })
    .whereIn('local_id', [...new Set(localIds)])
    .select('local_id', 'external_id', 'fingerprint');
  for (const r of rows)
    map.set(r.local_id as string, {
      externalId: r.external_id as string,
      fingerprint: (r.fingerprint as string) ?? null,
    });
  return map;
}

/** A stable hash of the fields an ERP receives of a customer or article. */
export function fingerprintOf(value: object): string {
  const sorted = (v: unknown): unknown =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(
          Object.keys(v as object)
            .sort()
            .map((k) => [k, sorted((v as Record<string, unknown>)[k])]),
        )
      : v;
  return createHash('sha256')
    .update(JSON.stringify(sorted(value)))
    .digest('base64url')
    .slice(0, 22);
}

export async function writeMappings(
  trx: Trx,
  kind: string,
  entity: 'customer' | 'article',
  pairs: { localId: string; externalId: string; fingerprint: string }[],
): Promise<void> {
  if (!pairs.length) return;
  await trx.raw(
    `insert into erp_mappings (kind, entity, local_id, external_id, fingerprint, updated_at)
     select ?, ?, cast(x->>'localId' as uuid), x->>'externalId', x->>'fingerprint', now()
       from jsonb_array_elements(cast(? as jsonb)) x
     on conflict (kind, entity, local_id)
       do update set external_id = excluded.external_id, fingerprint = excluded.fingerprint, updated_at = now()`,
    [kind, entity, JSON.stringify(pairs)],
  );
}
