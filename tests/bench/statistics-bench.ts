/**
 * Issue 36 item 2's performance: each statistics table (decision 065) on 100,000 work orders (the
 * work-order bench's seeders: registers, 50 technicians in five departments, orders every seven
 * minutes over about 16 months, a fifth closed, assignees, articles and time), with a finalized
 * invoice and its labour rows for every closed order, 1,000 agreements invoiced monthly and 200
 * projects invoiced five times. Each table's service call (`readStatisticsTable`, one unit of work)
 * for the last 12 months, and one with a department, beside its own statement run bare on a
 * connection of its own; target p95 <= 150 ms. The statement is printed once under its figures.
 * In-process, in a tenant of its own (`bench-stat`) seeded once (BENCH_STATISTICS_RUNS, 40).
 */
import pg from 'pg';
import { benchAuth } from './bench-auth';
import { seedRegisters } from './seed-registers';
import { seedWorkOrderExtras, seedWorkOrders } from './seed-work-orders';
import { tenantTimeZone } from '~/core/calendar/dates';
import { tenantToday } from '~/core/calendar/tenant-today';
import { parseConfig, setConfig } from '~/core/config/env';
import { periodRange } from '~/core/dashboard/dashboard-period';
import { withTenant, type Trx } from '~/core/db/with-tenant';
import { openRuntime } from '~/core/runtime/boot';
import { STATISTICS_TABLES, statisticsQuery, type StatisticsTableId } from '~/core/statistics/statistics-queries';
import { readStatisticsTable } from '~/core/statistics/statistics.service';
import { inTenant } from '~/core/unit-of-work';
import { ensureUser } from '~/core/users/create-user';
import { migrateTenant, provisionTenant } from '~/tenants/provision';
import { getTenantBySlug } from '~/tenants/registry';

const RUNS = Number(process.env.BENCH_STATISTICS_RUNS ?? 40);
const TARGET_MS = 150;
const SLUG = 'bench-stat';
const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.95))]!;
const ms = (n: number) => `${n.toFixed(1)} ms`;

/** Invoices for the closed orders, agreements and projects; skipped when the tenant has invoices. */
async function seedInvoices(trx: Trx) {
  if (Number((await trx('invoices').count({ n: '*' }))[0]!.n) > 0) return;
  // every closed order: a finalized invoice on its closing day, its articles' total, 2 h of labour
  await trx.raw(
    `insert into invoices (status, work_order_id, customer_id, invoice_date, total_price, total_price_vat, finalized_at)
     select 'finalized', w.id, w.customer_id, w.closed_at::date, x.total, x.total * 1.25, w.closed_at
       from work_orders w
       cross join lateral (select coalesce(sum(total), 0) as total from work_order_articles where work_order_id = w.id) x
      where w.closed_at is not null and w.deleted_at is null`,
  );
  await trx.raw(
    `insert into invoice_rows (invoice_id, kind, title, amount, price, total, work, user_id)
     select i.id, 'labour', 'Arbete', 2, 650, 1300, 'labour', a.user_id
       from invoices i
       join lateral (select user_id from work_order_assignees where work_order_id = i.work_order_id limit 1) a on true`,
  );
  // 1,000 agreements on the first objects, each invoiced on the 1st of every month over 16 months
  const [type] = await trx('agreements')
    .insert({ code: 'B-STAT', title: 'Service', valid_from: '2020-01-01', invoice_interval: 'month_1', invoice_day: 1 })
    .returning('id');
  await trx.raw(
    `insert into object_agreements (business_object_id, agreement_id, valid_from, total_price)
     select id, ?, '2020-01-01', 1200 from (select id from business_objects order by serial_code limit 1000) o`,
    [type.id],
  );
  await trx.raw(
    `insert into invoices (status, object_agreement_id, period_from, period_to, invoice_date, total_price, total_price_vat)
     select 'finalized', oa.id, m::date, (m + interval '1 month - 1 day')::date, m::date, 1200, 1500
       from object_agreements oa,
            generate_series(date_trunc('month', now()) - interval '15 months', date_trunc('month', now()), interval '1 month') m`,
  );
  // 200 projects, each invoiced five times over the last year
  await trx.raw(
    `with u as (select array_agg(id order by email) as ids from users where email like 'tech%')
     insert into projects (number, title, contract_sum, responsible_user_id)
     select 5000 + g, 'Projekt ' || g, 100000, u.ids[1 + g % cardinality(u.ids)] from generate_series(1, 200) g, u`,
  );
  await trx.raw(
    `insert into invoices (status, project_id, invoice_date, total_price, total_price_vat, project_contract_amount)
     select 'finalized', p.id, (now() - make_interval(days => k * 70))::date, 20000, 25000, 20000
       from projects p, generate_series(0, 4) k`,
  );
  await trx.raw('analyze invoices');
  await trx.raw('analyze invoice_rows');
}

export async function statisticsBench(url: string): Promise<string[]> {
  const config = setConfig(
    parseConfig({
      DATABASE_URL: url,
      NODE_ENV: 'development',
      LOG_LEVEL: 'warn',
      SECRET_KEY: 'bench-secret-key-bench-secret-key-0000',
    }),
  );
  const runtime = await openRuntime(config);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const lines: string[] = [];
  const log = (line: string) => lines.push(line);
  try {
    await provisionTenant({
      slug: SLUG,
      name: 'Statistik Bench AB',
      hosts: [`${SLUG}.localhost`],
      adminEmail: `admin@${SLUG}.se`,
      adminPassword: 'bench-password-1',
    });
    await migrateTenant(SLUG);
    const tenant = (await getTenantBySlug(SLUG))!;
    const seeded = Date.now();
    const { admin, department } = await withTenant(tenant, async (trx) => {
      for (let i = 0; i < 50; i++)
        await ensureUser(trx, { email: `tech${i}@bench.se`, name: `Tekniker ${i}`, accessLevels: ['Technician'] });
      await seedRegisters(trx);
      await seedWorkOrders(trx);
      await seedWorkOrderExtras(trx);
      await seedInvoices(trx);
      const admin = await trx('users')
        .where({ email: `admin@${SLUG}.se` })
        .first('id', 'email', 'name');
      const department = (await trx('departments').orderBy('name').first('id')).id as string;
      return { admin, department };
    });
    await client.query(
      `vacuum analyze ${['work_orders', 'work_order_assignees', 'work_order_time', 'invoices', 'invoice_rows']
        .map((t) => `"${tenant.schemaName}".${t}`)
        .join(', ')}`,
    );
    log(`statistics  seeded (or found) in ${((Date.now() - seeded) / 1000).toFixed(1)} s`);

    const ctxOf = { tenant, auth: benchAuth(admin), lang: 'sv' as const };
    const zone = tenantTimeZone(tenant.config?.country);
    const range = periodRange('12m', tenantToday({ tenant, now: new Date() }));

    /** Times `service` and `raw` alternately, RUNS times after five warm-ups each. */
    const measure = async (service: () => Promise<unknown>, raw: () => Promise<unknown>) => {
      const s: number[] = [];
      const r: number[] = [];
      for (let i = 0; i < RUNS + 5; i++) {
        let t = performance.now();
        await service();
        if (i >= 5) s.push(performance.now() - t);
        t = performance.now();
        await client.query('begin');
        await client.query(`set local search_path = "${tenant.schemaName}"`);
        await raw();
        await client.query('commit');
        if (i >= 5) r.push(performance.now() - t);
      }
      return { s: p95(s), r: p95(r) };
    };

    const cases: { table: StatisticsTableId; departmentId: string | null }[] = [
      ...STATISTICS_TABLES.map((table) => ({ table, departmentId: null })),
      ...STATISTICS_TABLES.map((table) => ({ table, departmentId: department })),
    ];
    const printed = new Set<string>();
    for (const c of cases) {
      const input = { period: '12m', departmentId: c.departmentId ?? '' };
      const read = await inTenant(ctxOf, (ctx) => readStatisticsTable(ctx, c.table, input));
      const { sql, bindings } = statisticsQuery(c.table, {
        from: range.from,
        to: range.to,
        zone,
        departmentId: c.departmentId,
        region: null,
      });
      let n = 0;
      const text = sql.replace(/\?/g, () => `$${++n}`);
      const { s, r } = await measure(
        () => inTenant(ctxOf, (ctx) => readStatisticsTable(ctx, c.table, input)),
        () => client.query(text, bindings),
      );
      const name = `${c.table}${c.departmentId ? ', a department' : ''}`;
      log(
        `statistics  ${name} (${read.table.rows.length} rows): p95 ${ms(s)}, raw SQL p95 ${ms(r)}, ratio ${(s / r).toFixed(2)}  ${s <= TARGET_MS ? 'ok' : `MISSED (${TARGET_MS} ms)`}`,
      );
      if (!printed.has(c.table)) {
        printed.add(c.table);
        log(text.replace(/\s+/g, ' ').trim());
      }
    }
  } catch (e) {
    for (const line of lines) console.error(line);
    throw e;
  } finally {
    await client.end();
    await runtime.close();
  }
  return lines;
}
