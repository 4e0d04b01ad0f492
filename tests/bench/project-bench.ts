/**
 * Issue 18's project figures on 2,000 projects of 50 work orders each (100,000 orders), 50 people
 * planned on projects two weeks at a time over four years and on the board every weekday, and one
 * project with 5,000 cost rows (2,500 time and 2,500 article rows; one tenant, seeded once):
 * - the project screen (getProject: the project, its parties, hours and invoicing totals): p95 <= 80 ms;
 * - the cost summary of the 5,000-row project (projectCosts): p95 <= 100 ms;
 * - the resource calendar of the 50 people over 6 months, clashes included (resourcePlan): p95 <= 100 ms;
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
import { migrateTenant, provisionTenant } from '~/tenants/provision';
import { getTenantBySlug } from '~/tenants/registry';
import { getProject } from '~/core/projects/project.service';
import { projectCosts } from '~/core/projects/project-costs.service';
import { planningRange } from '~/core/projects/resource-calendar';
import { resourcePlan } from '~/core/projects/resource.service';

const PROJECTS = 2000;
const ORDERS_PER_PROJECT = 50;
const PEOPLE = 50;
const COST_ROWS = 5000;
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 200);
const FIRST_DAY = '2024-01-01';
const LAST_DAY = '2027-12-31';
const NOW = new Date('2026-03-15T10:00:00Z');

const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.95))]!;
const ms = (n: number) => `${n.toFixed(1)} ms`;
const target = (value: number, limit: number) => (value <= limit ? 'ok' : `MISSED (${limit} ms)`);

/** The planned people, numbered 1 to PEOPLE. */
const people = `(select id, row_number() over (order by email) as k from users where email like 'planerare%')`;

/** The tenant with its projects, orders, plans, board and cost rows, built once in set-based statements. */
async function seededTenant(): Promise<Tenant> {
  const slug = 'bench-projects';
  let tenant = await getTenantBySlug(slug);
  if (!tenant) {
    await provisionTenant({
      slug,
      name: 'Projekt Larm AB',
      hosts: [`${slug}.localhost`],
      adminEmail: `admin@${slug}.se`,
      adminPassword: 'bench-password-1',
    });
    tenant = (await getTenantBySlug(slug))!;
  }
  // a tenant seeded before the projects migration gets it
  await migrateTenant(slug);
  await withTenant(tenant, async (trx) => {
    if (await trx('projects').first('id')) return;
    await trx.raw(
      `insert into users (email, name) select 'planerare' || n || '@bench-projects.se', 'Tekniker ' || lpad(n::text, 2, '0')
       from generate_series(1, ?) n`,
      [PEOPLE],
    );
    await trx.raw(`insert into customers (name) select 'Kund ' || n from generate_series(1, 200) n`);
    await trx.raw(
      `insert into suppliers (number, title) select 'L' || n, 'Underentreprenör ' || n from generate_series(1, 20) n`,
    );
    await trx.raw(
      `insert into articles (article_id, title, price, purchase_price)
       select lpad(n::text, 6, '0'), 'Artikel ' || n, 100 + n, 60 + n from generate_series(1, 50) n`,
    );
    // every 10th project closed; the first is the big one
    await trx.raw(
      `insert into projects (number, title, status, closed_at, start_date, end_date, contract_sum, estimated_hours,
                             estimated_cost, responsible_user_id)
       select 1000 + n, case when n = 1 then 'Stort projekt' else 'Projekt ' || n end,
              case when n % 10 = 0 then 'closed' else 'ongoing' end, case when n % 10 = 0 then now() end,
              date '2024-01-01' + (n % 700), date '2024-01-01' + (n % 700) + 180, 100000 + n * 10, 500, 250000,
              (select id from users where email like 'planerare%' order by email limit 1 offset (n % ?))
       from generate_series(1, ?) n`,
      [PEOPLE, PROJECTS],
    );
    await trx.raw('update project_settings set next_number = ?', [1001 + PROJECTS]);
    await trx.raw(
      `insert into project_customers (project_id, customer_id)
       select p.id, c.ids[1 + p.number % cardinality(c.ids)]
       from projects p, (select array_agg(id order by name) ids from customers) c`,
    );
    await trx.raw(
      `insert into project_suppliers (project_id, supplier_id)
       select p.id, s.ids[1 + p.number % cardinality(s.ids)]
       from projects p, (select array_agg(id order by number) ids from suppliers) s where p.number % 3 = 0`,
    );
    // 50 orders a project: order n belongs to project 1 + (n - 1) / 50
    await trx.raw(
      `with st as (select array_agg(id order by sort_order) filter (where not is_closing) as open from work_order_statuses),
            wt as (select array_agg(id order by sort_order) as ids from work_types),
            pr as (select array_agg(id order by number) as ids from projects)
       insert into work_orders (number, title, status_id, work_type_id, project_id, project_invoice_status, intake_ts)
       select n::text, 'Projektorder ' || n, st.open[1 + n % cardinality(st.open)], wt.ids[1 + n % cardinality(wt.ids)],
              pr.ids[1 + (n - 1) / ?], 'open', now() - (n * interval '3 minutes')
       from generate_series(1, ?) n, st, wt, pr`,
      [ORDERS_PER_PROJECT, PROJECTS * ORDERS_PER_PROJECT],
    );
    await trx.raw('update work_order_settings set next_number = greatest(next_number, ?)', [
      PROJECTS * ORDERS_PER_PROJECT + 1,
    ]);
    await trx.raw('analyze work_orders; analyze projects');
    // two weeks at a time on a project (Monday of the first week to Friday of the second); every
    // fifth person also on a second project over a week of every fourth span: the clashes
    await trx.raw(
      `with pr as (select array_agg(id order by number) as ids from projects),
            spans as (select i, date '2024-01-01' + i * 14 as monday
                        from generate_series(0, ((date '2027-12-31' - date '2024-01-01') / 14)) i)
       insert into project_resources (project_id, user_id, start_date, end_date, hours_per_day)
       select pr.ids[1 + (p.k * 13 + s.i) % ?], p.id, s.monday, s.monday + 11, case when s.i % 3 = 0 then 4 end
       from ${people} p cross join spans s, pr
       union all
       select pr.ids[1 + (p.k * 13 + s.i + 7) % ?], p.id, s.monday + 7, s.monday + 11, null
       from ${people} p cross join spans s, pr
       where p.k % 5 = 0 and s.i % 4 = 0`,
      [PROJECTS, PROJECTS],
    );
    await trx.raw(
      `with pr as (select array_agg(id order by number) as ids from projects)
       insert into project_resources (project_id, supplier_id, start_date, end_date)
       select pr.ids[1 + (s.n * 7 + i) % ?], s.id, date '2024-01-01' + i * 28, date '2024-01-01' + i * 28 + 18
       from (select id, row_number() over (order by number) n from suppliers) s
            cross join generate_series(0, 51) i, pr`,
      [PROJECTS],
    );
  });
  // the board (seeded apart, so its share of clashes can change without seeding the rest again)
  await withTenant(tenant, async (trx) => {
    if (await trx('work_order_schedules').first('id')) return;
    // every weekday one order; nine days in ten one of the planned project's, else one of another
    // project (a clash)
    await trx.raw(
      `with wo as (select array_agg(id order by number::int) as ids from work_orders),
            days as (select d::date as d, (d::date - date '2024-01-01') as n
                       from generate_series(?::date, ?::date, interval '1 day') d where extract(isodow from d) < 6)
       insert into work_order_schedules (work_order_id, user_id, date, start_ts, end_ts)
       select wo.ids[case when days.n % 10 = 9
                          then 1 + ((p.k * 13 + days.n / 14 + 500) % ?) * ? + days.n % ?
                          else 1 + ((p.k * 13 + days.n / 14) % ?) * ? + days.n % ? end],
              p.id, days.d, (days.d + time '08:00') at time zone 'Europe/Stockholm',
              (days.d + time '10:00') at time zone 'Europe/Stockholm'
       from ${people} p cross join days, wo
       on conflict do nothing`,
      [
        FIRST_DAY,
        LAST_DAY,
        PROJECTS,
        ORDERS_PER_PROJECT,
        ORDERS_PER_PROJECT,
        PROJECTS,
        ORDERS_PER_PROJECT,
        ORDERS_PER_PROJECT,
      ],
    );
    await trx.raw('analyze work_order_schedules');
  });
  await withTenant(tenant, async (trx) => {
    if (await trx('work_order_time').first('id')) return;
    // the big project's 5,000 cost rows over its 50 orders: half time, half articles
    await trx.raw(
      `with big as (select w.id, row_number() over (order by w.number::int) as i
                      from work_orders w join projects p on p.id = w.project_id where p.number = 1001),
            us as (select array_agg(id order by email) as ids from users where email like 'planerare%')
       insert into work_order_time (work_order_id, user_id, date, work_minutes, travel_minutes)
       select big.id, us.ids[1 + (big.i + r) % cardinality(us.ids)], date '2025-06-01' + (r % 300), 60 + r % 120, r % 30
       from big, us, generate_series(1, ?) r`,
      [COST_ROWS / 2 / ORDERS_PER_PROJECT],
    );
    await trx.raw(
      `with big as (select w.id, row_number() over (order by w.number::int) as i
                      from work_orders w join projects p on p.id = w.project_id where p.number = 1001),
            ar as (select array_agg(id order by article_id) as ids, array_agg(title order by article_id) as titles
                     from articles)
       insert into work_order_articles (work_order_id, article_id, title, amount, price, total, purchase_price,
                                        sort_order, created_at)
       select big.id, ar.ids[1 + (big.i + r) % 50], ar.titles[1 + (big.i + r) % 50], 1 + r % 5, 150, 150 * (1 + r % 5),
              90, r, timestamptz '2025-06-01 10:00+00' + (r % 300) * interval '1 day'
       from big, ar, generate_series(1, ?) r`,
      [COST_ROWS / 2 / ORDERS_PER_PROJECT],
    );
    await trx.raw(
      'analyze project_resources; analyze work_order_time; analyze work_order_articles; ' +
        'analyze project_customers; analyze project_suppliers; analyze users',
    );
  });
  return tenant;
}

async function timed<T>(fn: () => Promise<T>): Promise<number> {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}

export async function projectBench(url: string): Promise<string[]> {
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
    const facts = await withTenant(tenant, async (trx) => ({
      admin: await trx('users').where('email', 'like', 'admin@%').first('id', 'email', 'name'),
      big: (await trx('projects').where({ number: 1001 }).first('id')).id as string,
      projects: (await trx('projects').orderBy('number').pluck('id')) as string[],
      counts: (
        await trx.raw(
          `select (select count(*) from projects) as projects, (select count(*) from work_orders) as orders,
                  (select count(*) from project_resources) as plans, (select count(*) from work_order_schedules) as schedules,
                  (select count(*) from work_order_time t join work_orders w on w.id = t.work_order_id
                    join projects p on p.id = w.project_id where p.number = 1001)
                + (select count(*) from work_order_articles r join work_orders w on w.id = r.work_order_id
                    join projects p on p.id = w.project_id where p.number = 1001) as cost_rows`,
        )
      ).rows[0] as Record<string, string>,
    }));
    const n = (v: string | undefined) => Number(v).toLocaleString('en');
    lines.push(
      `projects  ${n(facts.counts.projects)} projects, ${n(facts.counts.orders)} work orders, ${n(facts.counts.plans)} resource plans, ` +
        `${n(facts.counts.schedules)} board plans, ${n(facts.counts.cost_rows)} cost rows on one project (seeding/reset ${seeded.toFixed(1)} s)`,
    );
    const auth = benchAuth(facts.admin);
    const call = <T>(fn: Parameters<typeof inTenant<T>>[1]) => inTenant({ tenant, auth, lang: 'sv', now: NOW }, fn);

    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const schema = (await withTenant(tenant, (trx) => trx.raw('select current_schema() as s'))).rows[0].s as string;
    await client.query(`set search_path to ${schema}, public`);
    // the planner's cost of an index read as the unit of work sets it (core/db/tenant-transaction.ts)
    await client.query('set random_page_cost = 1.1');
    const rawQueries = async (statements: [string, unknown[]][]) => {
      await client.query('begin');
      for (const [sql, params] of statements) await client.query(sql, params);
      await client.query('commit');
    };

    // (1) the project screen: the big project every other time, the others in turn
    const screenMs: number[] = [];
    const screenRaw: number[] = [];
    for (let i = 0; i < REQUESTS; i++) {
      const id = i % 2 ? facts.big : facts.projects[(i * 37) % facts.projects.length]!;
      screenMs.push(await timed(() => call((ctx) => getProject(ctx, id))));
      screenRaw.push(
        await timed(() =>
          rawQueries([
            [
              `select p.*, ru.name, su.name, ic.name,
                      (select coalesce(sum(t.work_minutes), 0) from work_orders w join work_order_time t on t.work_order_id = w.id
                        where w.project_id = p.id and w.deleted_at is null) as minutes,
                      (select count(*) from work_orders w where w.project_id = p.id and w.deleted_at is null) as orders
                 from projects p left join users ru on ru.id = p.responsible_user_id
                 left join users su on su.id = p.sales_user_id left join customers ic on ic.id = p.invoice_customer_id
                where p.id = $1`,
              [id],
            ],
            [
              `select project_id, status = 'draft', count(*), sum(project_contract_amount), sum(project_backlog_amount)
                 from invoices where project_id = any($1::uuid[]) and status <> 'void' group by 1, 2`,
              [[id]],
            ],
            [
              `select sum(v) from (
                 select t.work_minutes / 60.0 * 500 as v from work_orders w join work_order_time t on t.work_order_id = w.id
                  where w.project_id = $1 and w.deleted_at is null and w.project_invoice_status = 'open'
                 union all
                 select a.total from work_orders w join work_order_articles a on a.work_order_id = w.id
                  where w.project_id = $1 and w.deleted_at is null and coalesce(a.project_status, w.project_invoice_status) = 'open') r`,
              [id],
            ],
            [
              `select c.id, c.name from project_customers pc join customers c on c.id = pc.customer_id where pc.project_id = $1
               union all select s.id, s.title from project_suppliers ps join suppliers s on s.id = ps.supplier_id where ps.project_id = $1
               union all select b.id, b.serial_code from project_business_objects pb join business_objects b on b.id = pb.business_object_id
                where pb.project_id = $1`,
              [id],
            ],
          ]),
        ),
      );
    }
    lines.push(
      `projects  the project screen (getProject)  p95 ${ms(p95(screenMs))} (target <= 80 ms: ${target(p95(screenMs), 80)})  ` +
        `raw SQL p95 ${ms(p95(screenRaw))}  x raw SQL ${(p95(screenMs) / p95(screenRaw)).toFixed(1)}`,
    );

    // (2) the cost summary of the 5,000-row project
    const costMs: number[] = [];
    const costRaw: number[] = [];
    const costRequests = Math.max(20, Math.floor(REQUESTS / 2));
    for (let i = 0; i < costRequests; i++) {
      costMs.push(await timed(() => call((ctx) => projectCosts(ctx, facts.big))));
      costRaw.push(
        await timed(() =>
          rawQueries([
            [
              `select t.user_id, date_trunc('month', t.date), sum(t.work_minutes), sum(t.travel_minutes)
                 from work_orders w join work_order_time t on t.work_order_id = w.id
                where w.project_id = $1 and w.deleted_at is null group by grouping sets ((t.user_id), (date_trunc('month', t.date)), ())`,
              [facts.big],
            ],
            [
              `select date_trunc('month', r.created_at), sum(r.amount * coalesce(r.purchase_price, a.purchase_price, 0)), sum(r.total)
                 from work_orders w join work_order_articles r on r.work_order_id = w.id left join articles a on a.id = r.article_id
                where w.project_id = $1 and w.deleted_at is null group by grouping sets ((date_trunc('month', r.created_at)), ())`,
              [facts.big],
            ],
          ]),
        ),
      );
    }
    lines.push(
      `projects  cost summary of ${n(facts.counts.cost_rows)} rows (projectCosts)  p95 ${ms(p95(costMs))} (target <= 100 ms: ${target(p95(costMs), 100)})  ` +
        `raw SQL p95 ${ms(p95(costRaw))}  x raw SQL ${(p95(costMs) / p95(costRaw)).toFixed(1)}`,
    );

    // (3) the resource calendar of the 50 people over 6 months (whole weeks), starting months in turn
    const planMs: number[] = [];
    const planRaw: number[] = [];
    let conflicts = 0;
    let plans = 0;
    for (let i = 0; i < REQUESTS; i++) {
      const month = 1 + (i % 6);
      const range = planningRange(`2026-${String(month).padStart(2, '0')}-01`, 6);
      planMs.push(
        await timed(async () => {
          const plan = await call((ctx) => resourcePlan(ctx, range));
          conflicts = plan.conflicts.length;
          plans = plan.people.reduce((s, p) => s + p.rows.length, 0);
        }),
      );
      planRaw.push(
        await timed(() =>
          rawQueries([
            [
              `select r.*, p.number, p.title, p.status, u.name, s.title from project_resources r join projects p on p.id = r.project_id
                 left join users u on u.id = r.user_id left join suppliers s on s.id = r.supplier_id
                where r.start_date <= $1 and r.end_date >= $2 order by r.start_date, p.number, r.id`,
              [range.to, range.from],
            ],
            [`select id, name from users where status = 'active' order by lower(name), id`, []],
            [
              `with planned as materialized (
                 select user_id, project_id, start_date, end_date from project_resources
                  where user_id = any(array(select id from users)) and start_date <= $1 and end_date >= $2),
               board as materialized (
                 select s.user_id, s.date, s.work_order_id from work_order_schedules s
                  where s.user_id = any(array(select id from users)) and s.start_ts >= $2::date - 1 and s.start_ts < $1::date + 2
                    and s.date between $2 and $1
                    and exists (select 1 from planned p where p.user_id = s.user_id and s.date between p.start_date and p.end_date))
               select ws.user_id, ws.date, w.id, w.number, w.title, w.project_id
                 from board ws join work_orders w on w.id = ws.work_order_id
                where w.deleted_at is null and not exists (select 1 from planned p where p.user_id = ws.user_id
                      and p.project_id = w.project_id and ws.date between p.start_date and p.end_date)`,
              [range.to, range.from],
            ],
          ]),
        ),
      );
    }
    lines.push(
      `projects  resource calendar, ${PEOPLE} people over 6 months (${plans} plans, ${conflicts} week clashes)  p95 ${ms(p95(planMs))} ` +
        `(target <= 100 ms: ${target(p95(planMs), 100)})  raw SQL p95 ${ms(p95(planRaw))}  x raw SQL ${(p95(planMs) / p95(planRaw)).toFixed(1)}`,
    );
    await client.end();
  } finally {
    await runtime.close();
  }
  return lines;
}
