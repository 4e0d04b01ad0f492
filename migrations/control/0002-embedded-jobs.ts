import type { Migration } from '~/core/db/migrate';

/** The job table of the embedded queue backend (used when REDIS_URL is not set). */
export default {
  name: '0002-embedded-jobs',
  async up(knex) {
    await knex.raw(`
      create table jobs (
        id bigserial primary key,
        job_id text not null,
        data jsonb not null default '{}'::jsonb,
        status text not null default 'waiting'
          check (status in ('waiting', 'active', 'completed', 'failed')),
        run_at timestamptz not null default now(),
        attempts integer not null default 0,
        max_attempts integer not null default 3,
        locked_until timestamptz,
        last_error text,
        -- a scheduled (repeating) job has one row per schedule key, re-armed after each run
        repeat_key text unique,
        repeat_every_ms integer,
        created_at timestamptz not null default now(),
        finished_at timestamptz
      );
      create index jobs_due_idx on jobs (run_at) where status = 'waiting';
      create index jobs_finished_idx on jobs (finished_at) where status in ('completed', 'failed');
    `);
  },
} satisfies Migration;
