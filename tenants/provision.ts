import { z } from 'zod';
import type { Migration } from '~/core/db/migrate';
import { migrateSchema } from '~/core/db/migrate';
import { assertSchemaName, schemaNameForSlug } from '~/core/db/identifiers';
import { getDatabase, withControl, withTenant } from '~/core/db/with-tenant';
import { AppError } from '~/core/errors/app-error';
import { parseInput, zEmail } from '~/core/errors/validation';
import {
  COUNTRIES,
  defaultInstanceConfig,
  readInstanceConfig,
  ZFileLimits,
  type TFileLimits,
} from '~/core/instance/instance-config';
import { hashPassword, PASSWORD_MIN_LENGTH } from '~/core/auth/password';
import { issueOneTimeToken } from '~/core/auth/one-time-token.service';
import { ensureUser } from '~/core/users/create-user';
import { tenantMigrations } from '~/migrations/tenant';
import { getRegistry, pluginMigrations } from '~/core/extension-points/registry';
import { getTenantBySlug, HOSTNAME, invalidateHostCache } from './registry';
import { seedTenant } from './seed';

export const SLUG = /^[a-z][a-z0-9-]{1,39}$/;

export const ZCreateTenant = z.object({
  slug: z.string().regex(SLUG, 'ERROR_INVALID_SLUG'),
  name: z.string().trim().min(1, 'ERROR_REQUIRED_FIELD').max(200, 'ERROR_MAX_LENGTH'),
  hosts: z.array(z.string().toLowerCase().regex(HOSTNAME, 'ERROR_INVALID_HOSTNAME')).min(1, 'ERROR_REQUIRED_FIELD'),
  adminEmail: zEmail(),
  adminName: z.string().trim().min(1).max(200).optional(),
  country: z.enum(COUNTRIES).default('SE'),
  language: z.enum(['se', 'en', 'ee', 'lv']).optional(),
  adminPassword: z.string().min(PASSWORD_MIN_LENGTH, 'ERROR_PASSWORD_MIN_LENGTH').max(128).optional(),
});
export type TCreateTenant = z.input<typeof ZCreateTenant>;

export interface ProvisionResult {
  tenantId: string;
  slug: string;
  schemaName: string;
  /** false when the tenant was already fully provisioned: nothing changed. */
  created: boolean;
  /** Steps this run performed (a resumed run skips none: every step is idempotent). */
  steps: string[];
  /** One-time sign-in token for the admin, when no password was given and none is set. */
  signInToken: string | null;
}

export type MigrationList = readonly Migration[];

/** Every tenant migration: the core set, then those of app-module plugins (the registry must be loaded). */
export function allTenantMigrations(): MigrationList {
  return [...tenantMigrations, ...pluginMigrations(getRegistry())];
}

/**
 * Provisions a tenant step by step: registry row and hosts → schema and migrations → seed →
 * active. Each step is idempotent and records its progress, so a run interrupted anywhere is
 * finished by running it again; a finished tenant is left unchanged.
 */
export async function provisionTenant(
  raw: TCreateTenant,
  options: { migrations?: MigrationList; now?: Date } = {},
): Promise<ProvisionResult> {
  const input = parseInput(ZCreateTenant, raw);
  const now = options.now ?? new Date();
  const schemaName = schemaNameForSlug(input.slug);
  const steps: string[] = [];

  // 1. The registry row and hosts, in one transaction.
  const tenantId = await withControl(async (trx) => {
    await trx.raw(
      `insert into tenants (slug, schema_name, display_name, config) values (?, ?, ?, ?)
       on conflict (slug) do nothing`,
      [
        input.slug,
        schemaName,
        input.name,
        defaultInstanceConfig(input.country, input.language ? { languageKey: input.language } : {}),
      ],
    );
    const row = await trx('tenants').where({ slug: input.slug }).first('id');
    for (const host of input.hosts) {
      await trx.raw(`insert into tenant_hosts (hostname, tenant_id) values (?, ?) on conflict (hostname) do nothing`, [
        host,
        row.id,
      ]);
      const owner = await trx('tenant_hosts').where({ hostname: host }).first('tenant_id');
      if (owner.tenant_id !== row.id)
        throw new AppError('HOST_TAKEN', 409, { message: `The host ${host} already belongs to another tenant` });
    }
    return row.id as string;
  });
  const existing = await getTenantBySlug(input.slug);
  if (!existing) throw new Error('tenant row vanished during provisioning');
  if (existing.provisionStep === 'active') {
    invalidateHostCache();
    return { tenantId, slug: input.slug, schemaName, created: false, steps, signInToken: null };
  }
  steps.push('registered');

  // 2. Schema and migrations (their own transaction; a no-op when already applied).
  await migrateSchema(getDatabase().knex, schemaName, options.migrations ?? allTenantMigrations());
  await withControl((trx) => trx('tenants').where({ id: tenantId }).update({ provision_step: 'migrated' }));
  steps.push('migrated');

  // 3. Seed: access levels, app modules, the admin.
  const scope = { id: tenantId, schemaName, cluster: existing.cluster };
  const signInToken = await withTenant(scope, async (trx) => {
    await seedTenant(trx);
    const admin = await ensureUser(trx, {
      email: input.adminEmail,
      name: input.adminName ?? input.adminEmail.split('@')[0]!,
      accessLevels: ['Administrator'],
      userType: 'super',
    });
    const user = await trx('users').where({ id: admin.id }).first('password_hash');
    if (input.adminPassword && !user.password_hash) {
      await trx('users')
        .where({ id: admin.id })
        .update({ password_hash: await hashPassword(input.adminPassword) });
      return null;
    }
    if (user.password_hash) return null;
    return issueOneTimeToken(trx, { userId: admin.id, purpose: 'signin', now, validHours: 7 * 24 });
  });
  await withControl((trx) => trx('tenants').where({ id: tenantId }).update({ provision_step: 'seeded' }));
  steps.push('seeded');

  // 4. Open for business.
  await withControl((trx) =>
    trx('tenants')
      .where({ id: tenantId })
      .update({
        provision_step: 'active',
        status: trx.raw(`case when status = 'provisioning' then 'active' else status end`),
        updated_at: now,
      }),
  );
  steps.push('active');
  invalidateHostCache();
  return { tenantId, slug: input.slug, schemaName, created: true, steps, signInToken };
}

/** Applies pending migrations to one tenant's schema. */
export async function migrateTenant(
  slug: string,
  migrations: MigrationList = allTenantMigrations(),
): Promise<string[]> {
  const tenant = await getTenantBySlug(slug);
  if (!tenant) throw new AppError('NOT_FOUND', 404, { message: `No tenant ${slug}` });
  return migrateSchema(getDatabase().knex, tenant.schemaName, migrations);
}

export async function setTenantStatus(slug: string, status: 'active' | 'disabled'): Promise<void> {
  const n = await withControl((trx) =>
    trx('tenants').where({ slug }).whereNot('status', 'provisioning').update({ status, updated_at: new Date() }),
  );
  if (n !== 1) throw new AppError('NOT_FOUND', 404, { message: `No provisioned tenant ${slug}` });
  invalidateHostCache();
}

/**
 * The tenant's file limits (issue 12), set by the operator: the largest file an upload may hold
 * and the bytes it may store in all. Answers the limits now in force and what is stored.
 */
export async function setFileLimits(
  slug: string,
  change: { maxUploadMb?: number; quotaMb?: number },
): Promise<TFileLimits & { usedMb: number }> {
  const result = await withControl(async (trx) => {
    const row = await trx('tenants')
      .where({ slug })
      .whereNot('status', 'provisioning')
      .first('id', 'config', 'schema_name');
    if (!row) throw new AppError('NOT_FOUND', 404, { message: `No provisioned tenant ${slug}` });
    const config = readInstanceConfig(row.config);
    const given = Object.fromEntries(Object.entries(change).filter(([, v]) => v !== undefined));
    const files = parseInput(ZFileLimits, { ...config.files, ...given });
    await trx('tenants')
      .where({ id: row.id })
      .update({ config: { ...config, files }, updated_at: new Date() });
    const used = await trx
      .withSchema(assertSchemaName(row.schema_name as string))
      .table('file_storage')
      .first('bytes');
    return { ...files, usedMb: Math.round((Number(used?.bytes ?? 0) / 1024 / 1024) * 10) / 10 };
  });
  invalidateHostCache();
  return result;
}

export async function addHost(slug: string, host: string): Promise<void> {
  const hostname = host.toLowerCase();
  if (!HOSTNAME.test(hostname))
    throw new AppError('ERROR_INVALID_HOSTNAME', 400, { message: `Not a hostname: ${host}` });
  await withControl(async (trx) => {
    const tenant = await trx('tenants').where({ slug }).first('id');
    if (!tenant) throw new AppError('NOT_FOUND', 404, { message: `No tenant ${slug}` });
    const owner = await trx('tenant_hosts').where({ hostname }).first('tenant_id');
    if (owner && owner.tenant_id !== tenant.id)
      throw new AppError('HOST_TAKEN', 409, { message: `The host ${hostname} already belongs to another tenant` });
    if (!owner) await trx('tenant_hosts').insert({ hostname, tenant_id: tenant.id });
  });
  invalidateHostCache();
}

export async function removeHost(slug: string, host: string): Promise<void> {
  const n = await withControl(async (trx) => {
    const tenant = await trx('tenants').where({ slug }).first('id');
    if (!tenant) return 0;
    return trx('tenant_hosts').where({ hostname: host.toLowerCase(), tenant_id: tenant.id }).delete();
  });
  if (n !== 1) throw new AppError('NOT_FOUND', 404, { message: `${host} is not a host of ${slug}` });
  invalidateHostCache();
}
