import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from './database';
import { appliedMigrations, migrateSchema, type Migration } from './migrate';
import { openTestDatabase, uniqueSlug } from '~/tests/helpers/db';
import { schemaNameForSlug } from './identifiers';
import { tenantMigrations } from '~/migrations/tenant';

let db: Database;
beforeAll(async () => {
  db = await openTestDatabase();
});
afterAll(() => db.close());

async function shape(schema: string) {
  const { rows } = await db.knex.raw(
    `select table_name, column_name, data_type from information_schema.columns
      where table_schema = ? order by table_name, column_name`,
    [schema],
  );
  return rows;
}

describe('tenant migrations', () => {
  it('bring a new schema and an already-migrated one to the same state; re-running is a no-op', async () => {
    const fresh = schemaNameForSlug(uniqueSlug('mig-a'));
    const older = schemaNameForSlug(uniqueSlug('mig-b'));
    // The older tenant was created when only the first migration existed.
    await migrateSchema(db.knex, older, tenantMigrations.slice(0, 1));
    const extra: Migration = {
      name: '9999-test-extra',
      up: async (knex) => {
        await knex.raw('create table extra_things (id serial primary key, label text)');
      },
    };
    const all = [...tenantMigrations, extra];
    expect(await migrateSchema(db.knex, fresh, all)).toEqual(all.map((m) => m.name));
    expect(await migrateSchema(db.knex, older, all)).toEqual(all.slice(1).map((m) => m.name));
    expect(await shape(fresh)).toEqual(await shape(older));
    expect(await migrateSchema(db.knex, fresh, all)).toEqual([]);
    expect(await appliedMigrations(db.knex, fresh)).toEqual(all.map((m) => m.name));
    // Nothing landed outside the tenant schemas.
    const { rows } = await db.knex.raw(`select to_regclass('public.extra_things') as t`);
    expect(rows[0].t).toBeNull();
  });

  it('let two processes that start at once migrate the same schema: one applies, the other waits and finds it done', async () => {
    const schema = schemaNameForSlug(uniqueSlug('mig-d'));
    const slow: Migration = {
      name: '9997-slow',
      up: async (knex) => {
        await knex.raw('create table slow_things (id int)');
        await knex.raw('select pg_sleep(0.5)');
      },
    };
    const migrations = [...tenantMigrations.slice(0, 2), slow];
    // two web processes and a worker booting together (compose.yaml) each migrate every schema
    const [a, b] = await Promise.all([
      migrateSchema(db.knex, schema, migrations),
      migrateSchema(db.knex, schema, migrations),
    ]);
    expect([...a, ...b].sort()).toEqual(migrations.map((m) => m.name).sort());
    expect(await appliedMigrations(db.knex, schema)).toEqual(migrations.map((m) => m.name));
  });

  it('rolls a failing migration back completely', async () => {
    const schema = schemaNameForSlug(uniqueSlug('mig-c'));
    const broken: Migration = {
      name: '9998-broken',
      up: async (knex) => {
        await knex.raw('create table half_done (id int)');
        await knex.raw('select no_such_function()');
      },
    };
    await expect(migrateSchema(db.knex, schema, [...tenantMigrations, broken])).rejects.toThrow();
    const { rows } = await db.knex.raw(`select to_regclass(?) as t`, [`${schema}.half_done`]);
    expect(rows[0].t).toBeNull();
  });

  it('refuses schema names that are not ours', async () => {
    await expect(migrateSchema(db.knex, 'public; drop table x', tenantMigrations)).rejects.toThrow(
      /Invalid schema name/,
    );
  });
});
