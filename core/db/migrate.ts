import type { Knex } from 'knex';
import { assertSchemaName, quoteIdent } from './identifiers';
import { migrationLockOf } from './database';

/** A migration: a name that orders it, and an `up` that runs inside the target schema. */
export interface Migration {
  name: string;
  up(knex: Knex): Promise<void>;
  down?(knex: Knex): Promise<void>;
}

/**
 * Serves a fixed list of migrations to knex, wrapping each so it runs in its transaction with
 * the target schema as search_path. Migrations are always transactional: one outside a
 * transaction would land in `public`.
 */
export class SchemaMigrationSource implements Knex.MigrationSource<Migration> {
  constructor(
    private readonly schema: string,
    private readonly migrations: readonly Migration[],
  ) {}

  async getMigrations() {
    return [...this.migrations];
  }

  getMigrationName(m: Migration) {
    return m.name;
  }

  async getMigration(m: Migration): Promise<Knex.Migration> {
    const scoped =
      (step: (knex: Knex) => Promise<void>) =>
      async (knex: Knex): Promise<void> => {
        await knex.raw(`select set_config('search_path', ?, true)`, [quoteIdent(this.schema)]);
        await step(knex);
      };
    return {
      up: scoped(m.up),
      down: scoped(m.down ?? (async () => Promise.reject(new Error(`${m.name} cannot be undone`)))),
      // knex reads a per-migration `config`; ours are always transactional.
      config: { transaction: true },
    } as Knex.Migration;
  }
}

/**
 * A schema already migrated with exactly `names`, as the SQL that makes it again under another
 * name (`sql(schema)`: its tables, indexes, functions, triggers and rows, knex's bookkeeping
 * included). The tests set one (tests/setup-tenant-template.ts): a new test tenant's schema is
 * then one script instead of forty migrations in forty transactions (issue 30 item 7).
 */
export interface SchemaTemplate {
  names: readonly string[];
  sql(schema: string): string;
}

let schemaTemplate: SchemaTemplate | null = null;

export function setSchemaTemplate(template: SchemaTemplate | null): void {
  schemaTemplate = template;
}

export function currentSchemaTemplate(): SchemaTemplate | null {
  return schemaTemplate;
}

/** Makes a new schema from the template when it holds exactly these migrations; false otherwise. */
async function fromTemplate(knex: Knex, schema: string, names: readonly string[]): Promise<boolean> {
  const template = schemaTemplate;
  if (!template || template.names.length !== names.length || template.names.some((n, i) => n !== names[i]))
    return false;
  const exists = await knex.raw(`select 1 from pg_namespace where nspname = ?`, [schema]);
  if (exists.rows.length) return false;
  // one simple-protocol message on a connection of its own: the script may hold `?` (jsonb), which
  // knex would read as a binding, and it is all or nothing
  const client = knex.client as {
    acquireConnection(): Promise<{ query(sql: string): Promise<unknown> }>;
    releaseConnection(c: unknown): Promise<void>;
  };
  const conn = await client.acquireConnection();
  try {
    // as pg_dump's own preamble would, but for this transaction only: a SQL function's body names
    // tables of its schema unqualified, checked when it runs rather than when it is made
    await conn.query(
      `begin;\nset local check_function_bodies = false;\nset local search_path = ${quoteIdent(schema)};\n${template.sql(schema)}\ncommit;`,
    );
  } catch (err) {
    await conn.query('rollback').catch(() => undefined);
    throw err;
  } finally {
    await client.releaseConnection(conn);
  }
  return true;
}

/** Creates the schema if needed and applies every pending migration; a no-op when up to date. */
export async function migrateSchema(knex: Knex, schema: string, migrations: readonly Migration[]): Promise<string[]> {
  const name = assertSchemaName(schema);
  const names = migrations.map((m) => m.name);
  if (new Set(names).size !== names.length) throw new Error(`Duplicate migration names for ${name}`);
  const migrate = async () => {
    if (await fromTemplate(knex, name, names)) return names;
    await knex.raw(`create schema if not exists ${quoteIdent(name)}`);
    const [, applied] = (await knex.migrate.latest({
      migrationSource: new SchemaMigrationSource(name, migrations),
      schemaName: name,
      tableName: 'knex_migrations',
    })) as [number, string[]];
    return applied;
  };
  // processes that start together wait for each other here, and the later finds nothing to apply
  const lock = migrationLockOf(knex);
  return lock ? lock(name, migrate) : migrate();
}

/** Names of the migrations already applied to a schema. */
export async function appliedMigrations(knex: Knex, schema: string): Promise<string[]> {
  const name = assertSchemaName(schema);
  const exists = await knex.raw(`select to_regclass(?) as t`, [`${quoteIdent(name)}.knex_migrations`]);
  if (!exists.rows[0].t) return [];
  const rows = await knex.withSchema(name).select('name').from('knex_migrations').orderBy('id');
  return rows.map((r: { name: string }) => r.name);
}
