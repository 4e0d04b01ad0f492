import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import knexFactory from 'knex';
import { CONTROL_SCHEMA } from '~/core/db/identifiers';
import { migrateSchema } from '~/core/db/migrate';
import { loadRegistry } from '~/core/extension-points/registry';
import { controlMigrations } from '~/migrations/control';
import { allTenantMigrations } from '~/tenants/provision';
import { dumpSchemaScript } from './helpers/schema-dump';
import { TEMPLATE_SCHEMA, TEMPLATE_TOKEN } from './tenant-template';

/**
 * On PostgreSQL, every run starts from an empty database: tenant schemas and the control schema
 * of earlier runs are dropped, so a test never depends on leftovers. The control schema is then
 * migrated once, here: test files run side by side and would otherwise race to create it.
 *
 * Then one tenant schema is migrated and dumped (pg_dump, rows included) as the template every
 * test tenant is made from (tests/setup-tenant-template.ts; issue 30 item 7): one script for a
 * new schema instead of every migration in a transaction of its own.
 */
export default async function setup() {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) return;
  const knex = knexFactory({ client: 'pg', connection: url });
  try {
    const { rows } = await knex.raw(
      `select nspname from pg_namespace where nspname = 'control' or nspname like 't\\_%' or nspname = 'bullmq'`,
    );
    for (const { nspname } of rows as { nspname: string }[]) await knex.raw(`drop schema "${nspname}" cascade`);
    await migrateSchema(knex, CONTROL_SCHEMA, controlMigrations);

    await loadRegistry({});
    const migrations = allTenantMigrations();
    await migrateSchema(knex, TEMPLATE_SCHEMA, migrations);
    const script = dumpSchemaScript(url, TEMPLATE_SCHEMA, TEMPLATE_TOKEN);
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'ordo-template-')), 'tenant.sql');
    fs.writeFileSync(file, script);
    process.env.ORDO_TENANT_TEMPLATE_SQL = file;
    process.env.ORDO_TENANT_TEMPLATE_NAMES = JSON.stringify(migrations.map((m) => m.name));
  } finally {
    await knex.destroy();
  }
}
