/**
 * Issue 17's time figures on 100 technicians × 3 years of daily reports (one tenant, seeded once):
 * - a person's week (the /time page's data: own time, work-order time, holidays, locks, approval,
 *   totals): p95 <= 50 ms;
 * - the month for everyone (the office's grid, one grouped query): p95 <= 150 ms;
 * - the payroll export of a locked month for the 100 (PAXml): <= 2 s;
 * each beside the raw SQL of the same rows on a bare `pg` client, measured in the same run (only
 * the ratio means anything on a shared, noisy 2-core machine). Services are called in-process, as
 * the page loaders do.
 */
import pg from 'pg';
import { benchAuth } from './bench-auth';
import { parseConfig, setConfig } from '~/core/config/env';
import { withTenant } from '~/core/db/with-tenant';
import type { Tenant } from '~/core/tenancy/tenant';
import { openRuntime } from '~/core/runtime/boot';
import { inTenant } from '~/core/unit-of-work';
import { provisionTenant } from '~/tenants/provision';
import { getTenantBySlug } from '~/tenants/registry';
import { timeMonth, timeWeek } from '~/core/time-reports/time-week.service';
import { payrollExport } from '~/core/time-reports/payroll/payroll.service';

const PEOPLE = Number(process.env.BENCH_TIME_PEOPLE ?? 100);
const YEARS = Number(process.env.BENCH_TIME_YEARS ?? 3);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 200);
const FIRST_DAY = '2024-01-01';
const NOW = new Date('2026-12-15T10:00:00Z');

const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.95))]!;
const ms = (n: number) => `${n.toFixed(1)} ms`;

/** The tenant with PEOPLE technicians and YEARS of reports, built once in set-based statements. */
async function seededTenant(): Promise<Tenant> {
  const slug = 'bench-time';
  let tenant = await getTenantBySlug(slug);
  if (!tenant) {
    await provisionTenant({
      slug,
      name: 'Tid AB',
      hosts: [`${slug}.localhost`],
      adminEmail: `admin@${slug}.se`,
      adminPassword: 'bench-password-1',
    });
    tenant = (await getTenantBySlug(slug))!;
  }
  await withTenant(tenant, async (trx) => {
    if (await trx('time_reports').first('id')) return;
    await trx.raw(
      `insert into users (email, name) select 'tekniker' || n || '@bench-time.se', 'Tekniker ' || lpad(n::text, 3, '0')
       from generate_series(1, ?) n`,
      [PEOPLE],
    );
    await trx.raw(
      `insert into work_orders (number, title, status_id, work_type_id)
       select 'WO-' || n, 'Service ' || n, (select id from work_order_statuses order by sort_order limit 1),
              (select id from work_types order by sort_order limit 1)
       from generate_series(1, 2000) n`,
    );
    const days = `(select d::date as d from generate_series(?::date, ?::date + (? * 365 - 1), interval '1 day') d
                   where extract(isodow from d) < 6)`;
    const people = `(select id, row_number() over (order by email) as k from users where email like 'tekniker%')`;
    // two ranges a weekday, a vacation day every 20th
    await trx.raw(
      `insert into time_reports (user_id, tag_id, date, start_time, end_time, minutes)
       select p.id, (select id from time_report_tags where code = 'ARB'), d.d, r.s, r.e, r.m
       from ${people} p cross join ${days} d
            cross join (values (time '07:00', time '11:30', 270), (time '12:00', time '16:00', 240)) r(s, e, m)
       where (extract(doy from d.d)::int + p.k) % 20 <> 0`,
      [FIRST_DAY, FIRST_DAY, YEARS],
    );
    await trx.raw(
      `insert into time_reports (user_id, tag_id, date, minutes)
       select p.id, (select id from time_report_tags where code = 'SEM'), d.d, 480
       from ${people} p cross join ${days} d where (extract(doy from d.d)::int + p.k) % 20 = 0`,
      [FIRST_DAY, FIRST_DAY, YEARS],
    );
    // an hour on a work order every weekday, and a trip
    await trx.raw(
      `insert into work_order_time (work_order_id, user_id, date, work_minutes, travel_minutes, distance_km)
       select w.ids[1 + (p.k * 31 + extract(doy from d.d)::int) % 2000], p.id, d.d, 60, 15, 12.5
       from ${people} p cross join ${days} d, (select array_agg(id) ids from work_orders) w`,
      [FIRST_DAY, FIRST_DAY, YEARS],
    );
    await trx.raw(
      `insert into distance_reports (user_id, date, vehicle, distance_km, tag_id)
       select p.id, d.d, 'ABC ' || p.k, 20 + p.k % 30, (select id from compensation_tags where code = '821')
       from ${people} p cross join ${days} d`,
      [FIRST_DAY, FIRST_DAY, YEARS],
    );
    await trx.raw(
      `insert into compensation_reports (user_id, tag_id, date, quantity, amount)
       select p.id, (select id from compensation_tags where code = '892'), d.d, 1, 150
       from ${people} p cross join ${days} d where extract(isodow from d.d) = 3`,
      [FIRST_DAY, FIRST_DAY, YEARS],
    );
    await trx.raw(
      'analyze time_reports; analyze work_order_time; analyze distance_reports; analyze compensation_reports',
    );
  });
  // the month the export reads is locked, and approved for everyone, each with an employee number
  // (only approved people with one are exported, issue 28)
  await withTenant(tenant, async (trx) => {
    await trx.raw(
      `insert into time_period_locks (month, locked) values ('2026-11-01', true) on conflict (month) do nothing`,
    );
    await trx.raw(
      `update users set erp_employee_id = (5000 + row_number)::text
         from (select id, row_number() over (order by email) from users where email like 'tekniker%') n
        where users.id = n.id and users.erp_employee_id is null`,
    );
    await trx.raw(
      `insert into time_report_parents (user_id, period_start, period_end, status, approved_at)
       select id, '2026-11-01', '2026-11-30', 'approved', now() from users where email like 'tekniker%'
       on conflict (user_id, period_start, period_end) do nothing`,
    );
  });
  return tenant;
}

async function timed<T>(fn: () => Promise<T>): Promise<number> {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}

export async function timeBench(url: string): Promise<string[]> {
  const config = setConfig(
    parseConfig({
      DATABASE_URL: url,
      NODE_ENV: 'development',
      LOG_LEVEL: 'warn',
      SECRET_KEY: 'bench-secret-key-bench-secret-key-0000',
    }),
  );
  const runtime = await openRuntime(config);
  const lines: string[] = [];
  try {
    const s0 = performance.now();
    const tenant = await seededTenant();
    const seeded = (performance.now() - s0) / 1000;
    const { admin, people, rows } = await withTenant(tenant, async (trx) => ({
      admin: await trx('users').where('email', 'like', 'admin@%').first('id', 'email', 'name'),
      people: (await trx('users').where('email', 'like', 'tekniker%').orderBy('email').pluck('id')) as string[],
      rows: Number((await trx('time_reports').count({ n: '*' }))[0]!.n),
    }));
    lines.push(
      `time  ${people.length} technicians, ${rows.toLocaleString('en')} own time reports (seeding/reset ${seeded.toFixed(1)} s)`,
    );
    const auth = benchAuth(admin);
    const call = <T>(fn: Parameters<typeof inTenant<T>>[1]) => inTenant({ tenant, auth, lang: 'sv', now: NOW }, fn);

    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const schema = (await withTenant(tenant, (trx) => trx.raw('select current_schema() as s'))).rows[0].s as string;
    await client.query(`set search_path to ${schema}, public`);
    const rawQuery = async (sql: string, params: unknown[]) => {
      await client.query('begin');
      await client.query(sql, params);
      await client.query('commit');
    };

    // a person's week, weeks all over the three years
    const weekMs: number[] = [];
    const weekRaw: number[] = [];
    for (let i = 0; i < REQUESTS; i++) {
      const userId = people[(i * 37) % people.length]!;
      const year = 2024 + (i % 3);
      const week = 1 + ((i * 7) % 52);
      weekMs.push(await timed(() => call((ctx) => timeWeek(ctx, { year, week, userId }))));
      const monday = new Date(Date.UTC(year, 0, 4 + (week - 1) * 7)).toISOString().slice(0, 10);
      weekRaw.push(
        await timed(() =>
          rawQuery(
            `select r.id, r.date, r.start_time, r.end_time, r.minutes, t.code, t.type
             from time_reports r join time_report_tags t on t.id = r.tag_id
             where r.user_id = $1 and r.date between $2::date and $2::date + 6
             union all select w.id, w.date, null, null, w.work_minutes + w.travel_minutes, o.number, 'wo'
             from work_order_time w join work_orders o on o.id = w.work_order_id
             where w.user_id = $1 and w.date between $2::date and $2::date + 6`,
            [userId, monday],
          ),
        ),
      );
    }
    lines.push(
      `time  a person's week  p95 ${ms(p95(weekMs))} (target <= 50 ms)  raw SQL p95 ${ms(p95(weekRaw))}  x raw SQL ${(p95(weekMs) / p95(weekRaw)).toFixed(1)}`,
    );

    // the month for everyone
    const monthMs: number[] = [];
    const monthRaw: number[] = [];
    const monthRequests = Math.max(20, Math.floor(REQUESTS / 4));
    for (let i = 0; i < monthRequests; i++) {
      const month = 1 + (i % 12);
      monthMs.push(await timed(() => call((ctx) => timeMonth(ctx, { year: 2026, month }))));
      const from = `2026-${String(month).padStart(2, '0')}-01`;
      monthRaw.push(
        await timed(() =>
          rawQuery(
            `select user_id, date, sum(minutes) from (
               select user_id, date, minutes from time_reports where date >= $1::date and date < $1::date + interval '1 month'
               union all select user_id, date, work_minutes + travel_minutes from work_order_time
               where date >= $1::date and date < $1::date + interval '1 month') x group by user_id, date`,
            [from],
          ),
        ),
      );
    }
    lines.push(
      `time  the month for everyone  p95 ${ms(p95(monthMs))} (target <= 150 ms)  raw SQL p95 ${ms(p95(monthRaw))}  x raw SQL ${(p95(monthMs) / p95(monthRaw)).toFixed(1)}`,
    );

    // the payroll export of the locked month
    const exportMs: number[] = [];
    let size = 0;
    for (let i = 0; i < 5; i++)
      exportMs.push(
        await timed(async () => {
          const file = await call((ctx) => payrollExport(ctx, { month: '2026-11', format: 'paxml' }));
          size = file.body.length;
        }),
      );
    const exportRaw = await timed(() =>
      rawQuery(
        `select user_id, date, tag_id, sum(minutes) from time_reports where date between '2026-11-01' and '2026-11-30' group by 1, 2, 3`,
        [],
      ),
    );
    lines.push(
      `time  payroll export (PAXml) of a month for ${people.length} people  worst of 5 ${ms(Math.max(...exportMs))} (target <= 2,000 ms)  ${Math.round(size / 1024)} KiB  raw SQL of its rows ${ms(exportRaw)}`,
    );
    await client.end();
  } finally {
    await runtime.close();
  }
  return lines;
}
