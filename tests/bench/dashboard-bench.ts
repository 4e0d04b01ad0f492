/**
 * Issue 36's figure for the dashboard: its eight cards together (`getDashboardCards`, one unit of
 * work) at 100,000 work orders, 1,000 agreements and 200 projects, target p95 <= 80 ms, beside the
 * raw SQL of its own statements (captured once, then run on a bare `pg` client in one transaction
 * scoped as the app scopes it). On the shared `bench` tenant (seeded by bench-db.ts) with, added
 * once here: 1,000 object agreements invoiced quarterly for two years, invoices for most closed
 * orders, and 200 projects with their invoices. Each period of the switch is timed.
 * (BENCH_DASHBOARD_RUNS, 60.)
 */
import { benchAuth } from './bench-auth';
import { seed } from './bench-db';
import { timeRawStatements, type Statement } from './work-order-raw-sql';
import { parseConfig, setConfig } from '~/core/config/env';
import { getDatabase, withTenant, type Trx } from '~/core/db/with-tenant';
import { getDashboardCards } from '~/core/dashboard/kpi.service';
import { DASHBOARD_PERIODS, type DashboardPeriod } from '~/core/dashboard/dashboard-period';
import { openRuntime } from '~/core/runtime/boot';
import { getTenantBySlug } from '~/tenants/registry';

const RUNS = Number(process.env.BENCH_DASHBOARD_RUNS ?? 60);
const TARGET_MS = 80;
const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.95))]!;
const ms = (n: number) => `${n.toFixed(1)} ms`;

/** What the cards read beyond the orders, made once (skipped when the agreements exist). */
async function seedDashboardVolume(trx: Trx): Promise<void> {
  if (Number((await trx('object_agreements').count({ n: '*' }))[0]!.n) >= 1000) return;
  const [agreement] = (await trx('agreements')
    .insert({ code: 'BENCH-SERVICE', title: 'Serviceavtal', invoice_interval: 'month_3', price_model: 'fixed', price: 4800 })
    .returning('id')) as { id: string }[];
  await trx.raw(
    `insert into object_agreements (business_object_id, agreement_id, valid_from, invoice_scheduled_to, total_price)
     select b.id, ?, current_date - interval '2 years', date_trunc('quarter', current_date)::date, 1200 + (n % 7) * 100
       from (select id, row_number() over (order by serial_code) as n from business_objects) b where b.n <= 1000`,
    [agreement!.id],
  );
  // eight quarters of invoices an agreement, two years back
  await trx.raw(
    `insert into invoices (status, invoice_date, object_agreement_id, period_from, total_price, total_price_vat)
     select 'finalized', (date_trunc('quarter', current_date) - q * interval '3 months')::date, oa.id,
            (date_trunc('quarter', current_date) - q * interval '3 months')::date, oa.total_price, oa.total_price * 1.25
       from object_agreements oa, generate_series(0, 7) q`,
  );
  // four of five closed orders invoiced
  await trx.raw(
    `insert into invoices (status, invoice_date, work_order_id, total_price, total_price_vat)
     select 'finalized', (w.closed_at + interval '1 day')::date, w.id, 1500 + (w.number::int % 20) * 50,
            (1500 + (w.number::int % 20) * 50) * 1.25
       from work_orders w where w.closed_at is not null and w.number::int % 25 <> 0`,
  );
  await trx.raw(
    `insert into projects (number, title, status, contract_sum, start_date, end_date)
     select 5000 + n, 'Benchprojekt ' || n, case when n % 4 = 0 then 'closed' else 'ongoing' end, 100000 + n * 1000,
            current_date - (n * 3) * interval '1 day', current_date + (400 - n) * interval '1 day'
       from generate_series(1, 200) n`,
  );
  await trx.raw(
    `insert into invoices (status, invoice_date, project_id, total_price, total_price_vat, project_contract_amount)
     select 'finalized', current_date - (k * 45) * interval '1 day', p.id, 10000, 12500, 10000
       from projects p, generate_series(0, 4) k where p.title like 'Benchprojekt %'`,
  );
  await trx.raw('analyze');
}

export async function dashboardBench(url: string): Promise<string[]> {
  await seed(url);
  const runtime = await openRuntime(
    setConfig(
      parseConfig({
        DATABASE_URL: url,
        NODE_ENV: 'development',
        LOG_LEVEL: 'warn',
        SECRET_KEY: 'bench-secret-key-bench-secret-key-0000',
      }),
    ),
  );
  const lines: string[] = [];
  try {
    const tenant = (await getTenantBySlug('bench'))!;
    await withTenant(tenant, seedDashboardVolume);
    const admin = await withTenant(tenant, (trx) => trx('users').where({ email: 'admin@bench.se' }).first('id', 'email', 'name'));
    const auth = benchAuth(admin as { id: string; email: string; name: string });
    const cards = (period: DashboardPeriod) =>
      withTenant(tenant, (trx) => getDashboardCards({ trx, tenant, auth, lang: 'sv', now: new Date() }, period));

    lines.push(`dashboard cards (issue 36), ${RUNS} runs each, target p95 <= ${TARGET_MS} ms beside the raw SQL of its statements:`);
    for (const period of DASHBOARD_PERIODS) {
      // its statements as sent, for the floor
      const knex = getDatabase().knex;
      const captured: Statement[] = [];
      const onQuery = (q: { sql: string; bindings?: readonly unknown[] }) => {
        if (/^\s*(select|with)/i.test(q.sql) && !/set_config\(/.test(q.sql))
          captured.push({ sql: q.sql, bindings: [...(q.bindings ?? [])] });
      };
      knex.on('query', onQuery);
      const sample = await cards(period);
      knex.off('query', onQuery);
      for (let i = 0; i < 3; i++) await cards(period);
      const times: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        const t = performance.now();
        await cards(period);
        times.push(performance.now() - t);
      }
      const raw = await timeRawStatements(url, tenant.schemaName, captured, { runs: RUNS });
      const app = p95(times);
      lines.push(
        `  ${period.padEnd(5)} p95 ${ms(app)} (raw SQL ${ms(raw.p95ms)}, ${captured.length} statements, ${(app / raw.p95ms).toFixed(2)}×) ` +
          `${app <= TARGET_MS ? 'ok' : 'OVER'} — open to invoice ${sample.openToInvoice.value}, ` +
          `agreement invoices ${sample.agreementInvoicing.count}, lead time ${sample.leadTime.days} days`,
      );
    }
  } finally {
    await runtime.close();
  }
  return lines;
}
