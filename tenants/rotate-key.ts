import type { Knex } from 'knex';
import { accessCodeContext } from '~/core/business-objects/access-codes.service';
import { mfaSecretContext } from '~/core/auth/mfa.service';
import { ZONE } from '~/core/auth/principal';
import { oidcSecretContext } from '~/core/auth/oidc-settings.service';
import { keyRing, needsReseal, reseal, type KeyRing, type SealContext } from '~/core/crypto/secret-box';
import { CONTROL_SCHEMA } from '~/core/db/identifiers';
import { withTenant, type Trx } from '~/core/db/with-tenant';
import { pluginOptionsContext } from '~/core/extension-points/tenant-plugins';
import { erpCredentialsContext } from '~/core/invoicing/erp-connection';
import { mailAccountSealContext } from '~/core/mail/mailer';
import { listTenants, type TenantListing } from './registry';

/**
 * Every column that holds sealed values (decision 040): where it is, how a row is keyed, and the
 * context its values are sealed for. A new sealed column belongs here, or rotate-key leaves it
 * under the old key (tests/integration/secret-keys.test.ts checks that every `*_sealed` column is listed).
 */
interface SealedColumn {
  name: string;
  table: string;
  /** the control schema's table, rows of this tenant (tenant_id) */
  control?: boolean;
  key: string;
  column: string;
  context(tenantId: string, key: string): SealContext;
}

export const SEALED_COLUMNS: SealedColumn[] = [
  {
    name: 'tenant_plugins.options',
    table: 'tenant_plugins',
    control: true,
    key: 'plugin_id',
    column: 'options',
    context: pluginOptionsContext,
  },
  {
    name: 'user_mfa.secret_sealed',
    table: 'user_mfa',
    key: 'user_id',
    column: 'secret_sealed',
    context: (tenantId, userId) => mfaSecretContext(tenantId, userId),
  },
  {
    // the customer zone's second factor (decision 061)
    name: 'zone_user_mfa.secret_sealed',
    table: 'zone_user_mfa',
    key: 'user_id',
    column: 'secret_sealed',
    context: (tenantId, userId) => mfaSecretContext(tenantId, userId, ZONE),
  },
  {
    name: 'oidc_clients.client_secret_sealed',
    table: 'oidc_clients',
    key: 'provider',
    column: 'client_secret_sealed',
    context: oidcSecretContext,
  },
  {
    name: 'erp_connection.credentials',
    table: 'erp_connection',
    key: 'id',
    column: 'credentials',
    context: (tenantId) => erpCredentialsContext(tenantId),
  },
  { name: 'codes.value_sealed', table: 'codes', key: 'id', column: 'value_sealed', context: accessCodeContext },
  {
    // the tenant's own sending account (decision 066): one row
    name: 'mail_account.password_sealed',
    table: 'mail_account',
    key: 'id',
    column: 'password_sealed',
    context: (tenantId) => mailAccountSealContext(tenantId),
  },
];

export interface TenantRotation {
  slug: string;
  /** values re-sealed under the current key, per column */
  resealed: Record<string, number>;
  /** values already sealed with the current key */
  current: number;
  /** when the tenant's transaction failed (nothing of it changed): why */
  error?: string;
}

async function rotateTenant(trx: Trx, tenantId: string, ring: KeyRing): Promise<Omit<TenantRotation, 'slug'>> {
  const resealed: Record<string, number> = {};
  let current = 0;
  for (const c of SEALED_COLUMNS) {
    const scoped = (): Knex.QueryBuilder =>
      c.control ? trx.withSchema(CONTROL_SCHEMA).from(c.table).where({ tenant_id: tenantId }) : trx(c.table);
    const rows: Record<string, string | null>[] = await scoped()
      .whereNotNull(c.column)
      .forUpdate()
      .select(c.key, c.column);
    resealed[c.name] = 0;
    for (const row of rows) {
      const value = row[c.column]!;
      if (!needsReseal(value, ring)) {
        current++;
        continue;
      }
      const next = reseal(value, c.context(tenantId, String(row[c.key])), ring);
      await scoped()
        .where({ [c.key]: row[c.key] })
        .update({ [c.column]: next });
      resealed[c.name]!++;
    }
  }
  return { resealed, current };
}

/**
 * `npm run tenant -- rotate-key [<slug>…]`: every sealed value of every tenant (or of those named) opened with any known key
 * (SECRET_KEY, SECRET_KEYS_OLD) and sealed again under SECRET_KEY, each tenant in its own
 * transaction. Idempotent: a value already under the current key is left as it is. A value no
 * known key opens fails its tenant's transaction (that tenant is left unchanged) and is reported.
 */
export async function rotateKeys(ring: KeyRing = keyRing(), slugs?: string[]): Promise<TenantRotation[]> {
  const tenants = (await listTenants()).filter(
    (t: TenantListing) => t.status !== 'provisioning' && (!slugs?.length || slugs.includes(t.slug)),
  );
  const out: TenantRotation[] = [];
  for (const t of tenants) {
    try {
      out.push({ slug: t.slug, ...(await withTenant(t, (trx) => rotateTenant(trx, t.id, ring))) });
    } catch (e) {
      out.push({ slug: t.slug, resealed: {}, current: 0, error: (e as Error).message });
    }
  }
  return out;
}

export function rotationText(results: TenantRotation[], ring: KeyRing): string {
  const lines = results.map((r) => {
    if (r.error) return `${r.slug}: FAILED, nothing changed: ${r.error}`;
    const counts = Object.entries(r.resealed)
      .filter(([, n]) => n)
      .map(([c, n]) => `${c} ${n}`);
    const total = Object.values(r.resealed).reduce((a, b) => a + b, 0);
    return `${r.slug}: re-sealed ${total}${counts.length ? ` (${counts.join(', ')})` : ''}, ${r.current} already under the current key`;
  });
  return [`Current key ${ring.current.id}.`, ...lines].join('\n');
}
