import { z } from 'zod';
import { addDays } from '~/core/calendar/dates';
import { tenantToday } from '~/core/calendar/tenant-today';
import type { Ctx } from '~/core/context';
import type { Trx } from '~/core/db/with-tenant';
import { parseInput } from '~/core/errors/validation';
import { requireAccess } from '~/core/permissions/access';

/*
 * Load-time metrics from the browser (api-calls.md: POST /instance/m {name, timeMs}; decision 062).
 * Each report adds one to its page's bucket for the day; operators read p50 and p95 a page with
 * `npm run tenant -- load-times <slug>`. A percentile is the upper edge of the bucket it falls in.
 */

/** Upper edges of the buckets, in ms; the last takes everything slower. */
export const LOAD_BUCKETS_MS = [
  50, 100, 150, 200, 300, 400, 500, 750, 1000, 1500, 2000, 3000, 4000, 5000, 7500, 10_000, 15_000, 20_000, 30_000,
  60_000, 600_000,
] as const;
/** Distinct page names kept a day: a client cannot grow the table without end. */
export const MAX_PAGES_A_DAY = 100;
export const KEEP_DAYS = 30;

export const ZLoadMetric = z.object({
  name: z
    .string({ error: 'ERROR_REQUIRED_FIELD' })
    .regex(/^[A-Za-z0-9][A-Za-z0-9/_.:$-]{0,99}$/, 'ERROR_INVALID_VALUE'),
  timeMs: z.coerce
    .number({ error: 'ERROR_INVALID_VALUE' })
    .int('ERROR_INVALID_VALUE')
    .min(0, 'ERROR_INVALID_VALUE')
    .max(600_000, 'ERROR_INVALID_VALUE'),
});

export function bucketOf(timeMs: number): number {
  const i = LOAD_BUCKETS_MS.findIndex((edge) => timeMs <= edge);
  return i === -1 ? LOAD_BUCKETS_MS.length - 1 : i;
}

/** POST /instance/m: one statement to count it (a new page only while the day has room), one to forget old days. */
export async function recordLoadTime(ctx: Ctx, raw: unknown): Promise<Record<string, never>> {
  requireAccess(ctx.auth, { permission: 'signed-in' });
  const { name, timeMs } = parseInput(ZLoadMetric, raw);
  const day = tenantToday(ctx);
  await ctx.trx.raw(
    `insert into page_load_metrics (day, name, bucket, count)
     select ?::date, ?, ?, 1
      where exists (select 1 from page_load_metrics where day = ?::date and name = ?)
         or (select count(distinct name) from page_load_metrics where day = ?::date) < ?
     on conflict (day, name, bucket) do update set count = page_load_metrics.count + 1`,
    [day, name, bucketOf(timeMs), day, name, day, MAX_PAGES_A_DAY],
  );
  await ctx.trx('page_load_metrics').where('day', '<', addDays(day, -KEEP_DAYS)).delete();
  return {};
}

export interface LoadTimes {
  name: string;
  count: number;
  p50Ms: number;
  p95Ms: number;
}

/** Each page's reports since `since` (`YYYY-MM-DD`) with p50 and p95, counted in SQL. */
export async function readLoadTimes(trx: Trx, since: string): Promise<LoadTimes[]> {
  const { rows } = (await trx.raw(
    `with s as (select name, bucket, sum(count) as n from page_load_metrics where day >= ?::date group by name, bucket),
          c as (select name, bucket, n, sum(n) over (partition by name order by bucket) as cum,
                       sum(n) over (partition by name) as total from s)
     select name, max(total)::int as total,
            min(bucket) filter (where cum >= 0.5 * total) as p50,
            min(bucket) filter (where cum >= 0.95 * total) as p95
       from c group by name order by name`,
    [since],
  )) as { rows: { name: string; total: number; p50: number; p95: number }[] };
  return rows.map((r) => ({
    name: r.name,
    count: r.total,
    p50Ms: LOAD_BUCKETS_MS[r.p50]!,
    p95Ms: LOAD_BUCKETS_MS[r.p95]!,
  }));
}
