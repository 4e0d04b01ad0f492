import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openPglite, openPostgres, type Database } from '~/core/db/database';
import { setDatabase } from '~/core/db/with-tenant';
import { migrateSchema } from '~/core/db/migrate';
import { CONTROL_SCHEMA } from '~/core/db/identifiers';
import { controlMigrations } from '~/migrations/control';

/**
 * The database tests run on: PostgreSQL when TEST_DATABASE_URL is set (CI), otherwise a fresh
 * embedded PGlite in a temporary directory. Same migrations, same tests.
 */
export async function openTestDatabase(): Promise<Database> {
  const url = process.env.TEST_DATABASE_URL;
  const db = url
    ? await openPostgres(url, { poolMax: 10 })
    : await openPglite(fs.mkdtempSync(path.join(os.tmpdir(), 'ordo-test-')));
  setDatabase(db);
  await migrateSchema(db.knex, CONTROL_SCHEMA, controlMigrations);
  return db;
}

/** A unique suffix for slugs and schema names, so test files never collide on a shared database. */
export function uniqueSlug(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
}
