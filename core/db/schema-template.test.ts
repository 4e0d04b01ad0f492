import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '~/core/db/database';
import { loadRegistry } from '~/core/extension-points/registry';
import { allTenantMigrations } from '~/tenants/provision';
import { openTestDatabase, uniqueSlug } from '~/tests/helpers/db';
import { currentSchemaTemplate, migrateSchema, setSchemaTemplate } from './migrate';

/*
 * Issue 30 item 7: on PostgreSQL the tests make tenant schemas from one migrated template's script
 * (tests/global-setup.ts, tests/setup-tenant-template.ts). A schema made so must be the schema the
 * migrations make: the same columns, indexes, constraints, triggers, functions and rows.
 */

let db: Database;
beforeAll(async () => {
  db = await openTestDatabase();
  await loadRegistry({});
});
afterAll(async () => {
  await db?.knex.destroy();
});

/** What a schema is made of, its name left out. */
async function shape(schema: string) {
  const q = async (sql: string) =>
    JSON.stringify((await db.knex.raw(sql, [schema])).rows).replaceAll(schema, '<schema>');
  return {
    columns: await q(
      `select table_name, column_name, data_type, is_nullable, column_default from information_schema.columns
        where table_schema = ? order by 1, 2`,
    ),
    indexes: await q(`select tablename, indexname, indexdef from pg_indexes where schemaname = ? order by 1, 2`),
    constraints: await q(
      `select conrelid::regclass::text as t, conname, pg_get_constraintdef(c.oid) as def
         from pg_constraint c join pg_namespace n on n.oid = c.connamespace where n.nspname = ? order by 1, 2`,
    ),
    triggers: await q(
      `select tgrelid::regclass::text as t, tgname, pg_get_triggerdef(t.oid) as def from pg_trigger t
         join pg_class c on c.oid = t.tgrelid join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = ? and not tgisinternal order by 1, 2`,
    ),
    functions: await q(
      `select proname, pg_get_functiondef(p.oid) as def from pg_proc p join pg_namespace n on n.oid = p.pronamespace
        where n.nspname = ? order by 1`,
    ),
  };
}

describe.runIf(process.env.TEST_DATABASE_URL)('tenant schemas made from the template', () => {
  it('is set for this run, and a schema made from it equals one the migrations made, rows included', async () => {
    const migrations = allTenantMigrations();
    const { ORDO_TENANT_TEMPLATE_SQL: file } = process.env;
    expect(file, 'tests/global-setup.ts wrote the template').toBeTruthy();
    const cloned = `t_${uniqueSlug('clone').replace(/-/g, '_')}`;
    const migrated = `t_${uniqueSlug('migrated').replace(/-/g, '_')}`;
    const template = currentSchemaTemplate();
    expect(template?.names).toEqual(migrations.map((m) => m.name));
    await migrateSchema(db.knex, cloned, migrations);
    // without the template: every migration, one by one
    setSchemaTemplate(null);
    try {
      await migrateSchema(db.knex, migrated, migrations);
    } finally {
      if (template) setSchemaTemplate(template);
    }
    const [a, b] = [await shape(cloned), await shape(migrated)];
    expect(a.columns).toBe(b.columns);
    expect(a.indexes).toBe(b.indexes);
    expect(a.constraints).toBe(b.constraints);
    expect(a.triggers).toBe(b.triggers);
    expect(a.functions).toBe(b.functions);
    const rows = async (schema: string) =>
      (await db.knex.withSchema(schema).from('knex_migrations').orderBy('id').pluck('name')) as string[];
    expect(await rows(cloned)).toEqual(migrations.map((m) => m.name));
    expect(await rows(migrated)).toEqual(migrations.map((m) => m.name));
    // the rows the migrations wrote (settings, defaults), table by table
    const tables = (await db.knex.raw(`select tablename from pg_tables where schemaname = ? order by 1`, [migrated]))
      .rows as { tablename: string }[];
    expect(tables.length).toBeGreaterThan(40);
    // knex_migrations differs in its times only: its names are compared above
    for (const { tablename } of tables.filter((t) => t.tablename !== 'knex_migrations')) {
      // generated ids and times differ by nature: the rest of every row must be the same (ids inside
      // jsonb too: a built-in service-report template's pages and fields carry generated ids)
      const content = async (schema: string) =>
        JSON.stringify(
          (
            (
              await db.knex.raw(
                `select (select coalesce(jsonb_object_agg(k, v), '{}') from jsonb_each(to_jsonb(t)) as e(k, v)
                          where k not in ('created_at', 'updated_at')) as r
                   from ??.?? t`,
                [schema, tablename],
              )
            ).rows as { r: unknown }[]
          )
            .map(({ r }) => JSON.stringify(r).replace(/"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"/g, '"<id>"'))
            .sort(),
        );
      expect(await content(cloned), tablename).toBe(await content(migrated));
    }
    // each copy's rows have ids of their own: another tenant's id must stay "not found"
    const second = `t_${uniqueSlug('clone2').replace(/-/g, '_')}`;
    await migrateSchema(db.knex, second, migrations);
    const ids = async (schema: string) =>
      (
        await db.knex.raw(
          `select string_agg(x.id::text, ',') as ids from (
             ${tables
               .filter((t) => t.tablename !== 'knex_migrations')
               .map((t) => `select to_jsonb(r) ->> 'id' as id from ${schema}.${t.tablename} r`)
               .join(' union all ')}) x where x.id ~ '^[0-9a-f]{8}-'`,
        )
      ).rows[0].ids.split(',') as string[];
    const [first, other] = [await ids(cloned), await ids(second)];
    expect(first.length).toBeGreaterThan(10);
    expect(first.filter((id) => other.includes(id))).toEqual([]);
    // a second call is a no-op: nothing pending
    expect(await migrateSchema(db.knex, cloned, migrations)).toEqual([]);
  });
});
