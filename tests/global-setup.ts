import knexFactory from 'knex';
import { CONTROL_SCHEMA } from '~/core/db/identifiers';
import { migrateSchema } from '~/core/db/migrate';
import { controlMigrations } from '~/migrations/control';

/**
 * On PostgreSQL, every run starts from an empty database: tenant schemas and the control schema
 * of earlier runs are dropped, so a test never depends on leftovers. The control schema is then
 * migrated once, here: test files run side by side and would otherwise race to create it.
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
  } finally {
    await knex.destroy();
  }
}
