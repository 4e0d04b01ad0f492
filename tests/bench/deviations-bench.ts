/**
 * Issue 34's figures: 100,000 deviations in a tenant (two years of them, a seventh open, one to three
 * relations each). The dashboard's statistics (`deviationStats`: the counts, the 12-month trend, open
 * by category and by relation kind, the latest ten and ten overdue, in one unit of work) target p95
 * <= 50 ms; the filtered list (`listDeviations`: one page of 50 with its count) target p95 <= 40 ms
 * for each of its filters. Beside each, the same statements as raw SQL in a bare transaction on the
 * same connection. Runs in-process on the bench database, in a tenant of its own made fresh each run
 * (BENCH_DEVIATIONS, 100,000; BENCH_DEVIATION_RUNS, 60).
 */
import pg from 'pg';
import { benchAuth } from './bench-auth';
import { addMonthsToFirst, startOfMonth, tenantTimeZone } from '~/core/calendar/dates';
import { parseConfig, setConfig } from '~/core/config/env';
import { withTenant } from '~/core/db/with-tenant';
import { deviationStats, listDeviations } from '~/core/deviations/deviation.service';
import { openRuntime } from '~/core/runtime/boot';
import { inTenant } from '~/core/unit-of-work';
import { tenantToday } from '~/core/calendar/tenant-today';
import { provisionTenant } from '~/tenants/provision';
import { getTenantBySlug } from '~/tenants/registry';

const DEVIATIONS = Number(process.env.BENCH_DEVIATIONS ?? 100_000);
const RUNS = Number(process.env.BENCH_DEVIATION_RUNS ?? 60);
const STATS_TARGET_MS = 50;
const LIST_TARGET_MS = 40;
const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.95))]!;
const ms = (n: number) => `${n.toFixed(1)} ms`;

/** The list's page as plain SQL, with `where` the case's filter (`$n` its values). */
const listPage = (where: string) => `
  select d.id, d.number, d.title, d.status, d.category_id, c.name as category_name, d.responsible_user_id,
         ru.name as responsible_name, to_char(d.due_date, 'YYYY-MM-DD') as due_date,
         to_char(d.occurred_on, 'YYYY-MM-DD') as occurred_on, d.created_at, d.closed_at, d.change_state,
         d.relation_kinds
    from (select d.* from deviations d where ${where} order by d.created_at desc, d.id desc limit 50) d
    left join deviation_categories c on c.id = d.category_id
    left join users ru on ru.id = d.responsible_user_id
   order by d.created_at desc, d.id desc`;
const listCount = (where: string) => `select count(*) as n from deviations d where ${where}`;

/** The dashboard's statements as plain SQL (the counts: `$1` today; the trend: `$1` its first month, `$2` the zone). */
const STATS = [
  `select count(*)::int as open, count(*) filter (where due_date < $1::date)::int as overdue from deviations where status = 'open'`,
  `select to_char(m, 'YYYY-MM') as month,
          (select count(*) from deviations
            where created_at >= m at time zone $2 and created_at < (m + interval '1 month') at time zone $2)::int as opened,
          (select count(*) from deviations
            where closed_at >= m at time zone $2 and closed_at < (m + interval '1 month') at time zone $2)::int as closed
     from generate_series($1::timestamp, $1::timestamp + interval '11 months', interval '1 month') m`,
  `select d.category_id, c.name, count(*)::int as n from deviations d left join deviation_categories c on c.id = d.category_id
    where d.status = 'open' group by d.category_id, c.name order by count(*) desc, c.name nulls last`,
  `select k.kind, sum(g.n)::int as n
     from (select relation_kinds, count(*) as n from deviations where status = 'open' group by relation_kinds) g
     cross join lateral unnest(case when g.relation_kinds = '{}' then array[null]::text[] else g.relation_kinds end) k(kind)
    group by k.kind order by n desc, k.kind nulls last`,
];

export async function deviationsBench(url: string): Promise<string[]> {
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
    const slug = `bench-dev-${Date.now().toString(36)}`;
    await provisionTenant({
      slug,
      name: 'Avvikelse Bench AB',
      hosts: [`${slug}.localhost`],
      adminEmail: `admin@${slug}.se`,
      adminPassword: 'bench-password-1',
    });
    const tenant = (await getTenantBySlug(slug))!;
    const seeded = Date.now();
    const { admin, person, category, object } = await withTenant(tenant, async (trx) => {
      const admin = await trx('users')
        .where({ email: `admin@${slug}.se` })
        .first('id', 'email', 'name');
      await trx.raw(
        `insert into users (email, name) select 'p' || g || '@${slug}.se', 'Person ' || g from generate_series(1, 30) g`,
      );
      await trx.raw(`insert into deviation_categories (name) select 'Kategori ' || g from generate_series(1, 8) g`);
      // two years, newest first every ~10 minutes; a seventh open (some overdue), the rest closed within
      // two months; eight categories and none; thirty people responsible; some with an approved change
      await trx.raw(
        `with c as (select array_agg(id order by name) as ids from deviation_categories),
              u as (select array_agg(id order by email) as ids from users where email like 'p%')
         insert into deviations (number, title, description, category_id, occurred_on, status, responsible_user_id,
           due_date, change_needed, change_state, approved_at, closed_at, close_comment, created_at, updated_at, search_text)
         overriding system value
         select g, t.title, 'Beskrivning ' || g, case when g % 9 = 0 then null else c.ids[1 + g % 8] end,
           (x.created at time zone 'Europe/Stockholm')::date,
           case when g % 7 = 0 then 'open' else 'closed' end,
           case when g % 5 = 0 then null else u.ids[1 + g % 30] end,
           case when g % 2 = 0 then (x.created at time zone 'Europe/Stockholm')::date + 30 end,
           g % 4 = 0, case when g % 4 = 0 then (case when g % 7 = 0 then 'defined' else 'approved' end) end,
           case when g % 4 = 0 and g % 7 <> 0 then x.created + interval '5 days' end,
           case when g % 7 <> 0 then least(now(), x.created + make_interval(days => g % 60)) end,
           case when g % 7 <> 0 then 'Åtgärdad' end,
           x.created, x.created, g || ' ' || lower(t.title) || ' beskrivning ' || g
         from generate_series(1, ?) g
           cross join lateral (select now() - make_interval(secs => g * 630) as created) x
           cross join lateral (select (array['Detektor larmar falskt', 'Dörrstängare slår igen', 'Fel artikel levererad',
             'Batteri under gränsvärdet', 'Kund klagar på ljudnivå', 'Kabel skadad vid montage'])[1 + g % 6] || ' ' || (g % 997) as title) t,
           c, u`,
        [DEVIATIONS],
      );
      // one to three relations each (a twentieth none): the object (of 2,000), its customer (of 500),
      // and every third a work order
      await trx.raw(
        `insert into deviation_relations (deviation_id, kind, target_id)
         select d.id, k.kind,
           case k.kind
             when 'object' then ('00000000-0000-4000-8000-' || lpad(to_hex(d.number % 2000), 12, '0'))::uuid
             when 'customer' then ('00000000-0000-4000-9000-' || lpad(to_hex(d.number % 500), 12, '0'))::uuid
             else gen_random_uuid() end
         from deviations d
           cross join lateral unnest(case
             when d.number % 20 = 0 then array[]::text[]
             when d.number % 3 = 0 then array['object', 'customer', 'work_order']
             when d.number % 3 = 1 then array['object', 'customer']
             else array['supplier'] end) k(kind)`,
      );
      // their kinds kept on the deviation, as the service's writeRelations keeps them (migration 0055)
      await trx.raw(
        `update deviations d set relation_kinds = k.kinds
           from (select deviation_id, array_agg(distinct kind order by kind) as kinds
                   from deviation_relations group by deviation_id) k
          where k.deviation_id = d.id`,
      );
      const category = (await trx('deviation_categories').orderBy('name').first('id')).id as string;
      const person = (
        await trx('deviations').where('status', 'open').whereNotNull('responsible_user_id').first('responsible_user_id')
      ).responsible_user_id as string;
      return { admin, person, category, object: '00000000-0000-4000-8000-' + (7).toString(16).padStart(12, '0') };
    });
    // this bench's own connection: the checks below read the tenant's tables outside a transaction
    await client.query(`set search_path = "${tenant.schemaName}"`);
    await client.query(`vacuum analyze "${tenant.schemaName}".deviations`);
    await client.query(`vacuum analyze "${tenant.schemaName}".deviation_relations`);
    log(
      `deviations  seeded ${DEVIATIONS.toLocaleString('en')} deviations in ${((Date.now() - seeded) / 1000).toFixed(1)} s`,
    );

    const auth = benchAuth(admin);
    const ctxOf = { tenant, auth, lang: 'sv' as const };
    const zone = tenantTimeZone(tenant.config?.country);
    const today = tenantToday({ tenant, now: new Date() });
    const first = addMonthsToFirst(startOfMonth(today), -11);
    const month = today.slice(0, 7);
    const monthStart = `${month}-01`;
    const half = `${addMonthsToFirst(startOfMonth(today), -6)}`;

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
    const verdict = (s: number, r: number, target: number) =>
      `p95 ${ms(s)}, raw SQL p95 ${ms(r)}, ratio ${(s / r).toFixed(2)}  ${s <= target ? 'ok' : `MISSED (${target} ms)`}`;

    // the dashboard
    {
      const stats = await inTenant(ctxOf, (ctx) => deviationStats(ctx));
      if (!stats.openCount || stats.trend.length !== 12) throw new Error('bench: the dashboard found nothing');
      const rawList = (where: string, params: unknown[]) => client.query(listPage(where), params);
      const { s, r } = await measure(
        () => inTenant(ctxOf, (ctx) => deviationStats(ctx)),
        async () => {
          await client.query(STATS[0]!, [today]);
          await client.query(STATS[1]!, [first, zone]);
          await client.query(STATS[2]!);
          await client.query(STATS[3]!);
          await rawList('true', []);
          await rawList(`d.status = 'open' and d.due_date < $1`, [today]);
        },
      );
      log(
        `deviations  dashboard statistics (${stats.openCount.toLocaleString('en')} open): ${verdict(s, r, STATS_TARGET_MS)}`,
      );
    }

    // the list, one page of 50 with its count, by each filter
    const cases: { name: string; input: Record<string, unknown>; where: string; params: unknown[] }[] = [
      { name: 'open (the default)', input: {}, where: `d.status = 'open'`, params: [] },
      { name: 'all', input: { status: 'all' }, where: 'true', params: [] },
      { name: 'closed', input: { status: 'closed' }, where: `d.status = 'closed'`, params: [] },
      {
        name: 'a category, all',
        input: { status: 'all', categoryId: category },
        where: 'd.category_id = $1',
        params: [category],
      },
      {
        name: 'no category, open',
        input: { categoryId: 'none' },
        where: `d.status = 'open' and d.category_id is null`,
        params: [],
      },
      {
        name: 'relation kind work order, all',
        input: { status: 'all', relationKind: 'work_order' },
        where: `d.relation_kinds @> array[$1]::text[]`,
        params: ['work_order'],
      },
      {
        name: 'one object’s, all',
        input: { status: 'all', relationKind: 'object', relationId: object },
        where: `exists (select 1 from deviation_relations fr where fr.deviation_id = d.id and fr.kind = $1 and fr.target_id = $2)`,
        params: ['object', object],
      },
      {
        name: 'a person responsible, open',
        input: { responsibleUserId: person },
        where: `d.status = 'open' and d.responsible_user_id = $1`,
        params: [person],
      },
      {
        name: 'raised in the last six months, all',
        input: { status: 'all', from: half, to: today },
        where: `d.created_at >= ($1::date)::timestamp at time zone $3 and d.created_at < ($2::date + 1)::timestamp at time zone $3`,
        params: [half, today, zone],
      },
      {
        name: 'closed this month',
        input: { status: 'closed', closedFrom: monthStart, closedTo: today },
        where: `d.status = 'closed' and d.closed_at >= ($1::date)::timestamp at time zone $3 and d.closed_at < ($2::date + 1)::timestamp at time zone $3`,
        params: [monthStart, today, zone],
      },
      {
        name: 'overdue',
        input: { overdue: true },
        where: `d.status = 'open' and d.due_date < $1`,
        params: [today],
      },
      {
        name: 'search "slår igen 12", all',
        input: { status: 'all', q: 'slår igen 12' },
        where: `d.search_text like $1`,
        params: ['%slår igen 12%'],
      },
    ];
    for (const c of cases) {
      const page = await inTenant(ctxOf, (ctx) => listDeviations(ctx, c.input));
      if (!page.deviations.length) throw new Error(`bench case "${c.name}" found no deviations`);
      const raw = await client.query(listCount(c.where), c.params);
      if (Number(raw.rows[0].n) !== page.totalCount)
        throw new Error(`bench case "${c.name}": the raw SQL counts ${raw.rows[0].n}, the list ${page.totalCount}`);
      const { s, r } = await measure(
        () => inTenant(ctxOf, (ctx) => listDeviations(ctx, c.input)),
        async () => {
          await client.query(listPage(c.where), c.params);
          await client.query(listCount(c.where), c.params);
        },
      );
      log(`deviations  list ${c.name} (${page.totalCount.toLocaleString('en')}): ${verdict(s, r, LIST_TARGET_MS)}`);
    }
  } catch (e) {
    // a case that fails leaves the figures measured before it
    for (const line of lines) console.error(line);
    throw e;
  } finally {
    await client.end();
    await runtime.close();
  }
  return lines;
}
