import type { Migration } from '~/core/db/migrate';

/**
 * Issue 36 item 6, POST /instance/m (decision 062): the pages' load times as the browser measured
 * them, kept as a histogram a day and page — one counter per time bucket, never one row per
 * report — so the table stays small whatever the traffic (at most 100 pages × 21 buckets a day,
 * 30 days kept) and p50/p95 are read from it in SQL.
 */
export default {
  name: '0061-page-load-metrics',
  async up(knex) {
    await knex.raw(`
      create table page_load_metrics (
        day date not null,
        name text not null check (length(name) between 1 and 100),
        bucket smallint not null check (bucket >= 0),
        count integer not null default 0,
        primary key (day, name, bucket)
      );
    `);
  },
} satisfies Migration;
