/**
 * The bench database: created when missing and seeded once (registers, 50 technicians and issue 5's
 * 100,000 work orders). Shared by `run.ts` and `explain-work-orders.ts`.
 */
import knexFactory from 'knex';
import { parseConfig, setConfig } from '~/core/config/env';
import { openRuntime } from '~/core/runtime/boot';
import { getDatabase, withTenant } from '~/core/db/with-tenant';
import { ensureUser } from '~/core/users/create-user';
import { migrateTenant, provisionTenant } from '~/tenants/provision';
import { getTenantBySlug } from '~/tenants/registry';
import { seedSchedules } from './calendar-bench';
import { seedRegisters } from './seed-registers';
import { seedWorkOrderExtras, seedWorkOrderPositions, seedWorkOrders } from './seed-work-orders';

export const BENCH_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/ordo_bench';
/** The benches' key, the one the servers they start are given: there is no fallback key (issue 30). */
export const benchSecretKey = () => process.env.SECRET_KEY ?? 'bench-secret-key-bench-secret-key-0000';
export const HOST = 'bench.localhost';
export const PASSWORD = 'bench-password-1';
export const EMAIL = 'admin@bench.se';

export async function ensureDatabase(url: string) {
  const u = new URL(url);
  const name = u.pathname.slice(1);
  const admin = knexFactory({
    client: 'pg',
    connection: { connectionString: Object.assign(new URL(url), { pathname: '/postgres' }).toString() },
  });
  try {
    const { rows } = await admin.raw('select 1 from pg_database where datname = ?', [name]);
    if (!rows.length) await admin.raw(`create database "${name.replace(/"/g, '')}"`);
  } finally {
    await admin.destroy();
  }
}

/** Provisions the bench tenant (migrations included) and seeds it; idempotent. */
export async function seed(url: string) {
  await ensureDatabase(url);
  const config = setConfig(
    parseConfig({ DATABASE_URL: url, NODE_ENV: 'development', LOG_LEVEL: 'warn', SECRET_KEY: benchSecretKey() }),
  );
  const runtime = await openRuntime(config);
  try {
    await provisionTenant({
      slug: 'bench',
      name: 'Bench Larm AB',
      hosts: [HOST],
      adminEmail: EMAIL,
      adminPassword: PASSWORD,
    });
    // An existing bench tenant gets migrations added since it was provisioned (indexes, say).
    await migrateTenant('bench');
    const tenant = (await getTenantBySlug('bench'))!;
    await withTenant(tenant, async (trx) => {
      for (let i = 0; i < 50; i++)
        await ensureUser(trx, { email: `tech${i}@bench.se`, name: `Tekniker ${i}`, accessLevels: ['Technician'] });
      await seedRegisters(trx);
      // Issue 5's volume: 100,000 work orders with assignees, tags, articles and time (about a minute, once).
      await seedWorkOrders(trx);
      await seedWorkOrderExtras(trx);
      // Issue 6's map tab: 70% of the orders with a position.
      await seedWorkOrderPositions(trx);
      // Issue 6's planning board: two plans a working day for each technician, for a year.
      await seedSchedules(trx);
    });
    // Fresh statistics and visibility maps (a migration's backfill leaves every order's old row
    // version behind; without this the first plans read dead rows and skip index-only scans).
    await getDatabase().knex.raw(
      `vacuum (analyze) ${['work_orders', 'work_order_assignees', 'work_order_tags', 'customers', 'business_objects']
        .map((t) => `"${tenant.schemaName}".${t}`)
        .join(', ')}`,
    );
  } finally {
    await runtime.close();
  }
}
