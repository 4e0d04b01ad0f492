/**
 * knex CLI configuration (ARCHITECTURE §2): the control schema, or one tenant's schema with
 * TENANT=<slug>. Ordo applies migrations itself at boot and with `npm run tenant -- migrate`;
 * this is for inspecting them, e.g. `TENANT=acme npx knex migrate:status`. PostgreSQL only.
 */
import type { Knex } from 'knex';
import { CONTROL_SCHEMA, schemaNameForSlug } from './core/db/identifiers';
import { SchemaMigrationSource } from './core/db/migrate';
import { controlMigrations } from './migrations/control';
import { tenantMigrations } from './migrations/tenant';

const tenant = process.env.TENANT;
const schema = tenant ? schemaNameForSlug(tenant) : CONTROL_SCHEMA;

const config: Knex.Config = {
  client: 'pg',
  connection: process.env.DATABASE_URL,
  migrations: {
    migrationSource: new SchemaMigrationSource(schema, tenant ? tenantMigrations : controlMigrations),
    schemaName: schema,
    tableName: 'knex_migrations',
  },
};

export default config;
