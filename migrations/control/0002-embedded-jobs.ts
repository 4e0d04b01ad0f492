import type { Migration } from '~/core/db/migrate';

/** The job table of the embedded queue backend (used when REDIS_URL is not set). */
export default {
  name: '0002-embedded-jobs',
  async up(knex) {
    await knex.raw(`
      create table jobs (
        id bigserial primary key,
        -- the job definition's id (e.g. 'mail.send'), not unique: one row per queued run
        job_id text not null,
        data jsonb not null default '{}'::jsonb,
        status text not null default 'waiting'
          check (status in ('waiting', 'active', 'completed', 'failed')),
        run_at timestamptz not null default now(),
        -- attempts started so far; a claim increments it, so a crash mid-run still counts
        attempts integer not null default 0,
        max_attempts integer not null default 3 check (max_attempts >= 1),
        -- an 'active' row whose lock has expired belongs to a worker that died: it is claimed again
        locked_until timestamptz,
        -- which claim owns the row: a worker whose lock was taken over cannot record a result
        locked_by text,
        last_error text,
        -- a scheduled (repeating) job has one row per schedule key, re-armed after each run
        repeat_key text unique,
        repeat_every_ms bigint check (repeat_every_ms is null or repeat_every_ms > 0),
        created_at timestamptz not null default now(),
        finished_at timestamptz
      );
      create index jobs_due_idx on jobs (run_at) where status = 'waiting';
      create index jobs_stale_idx on jobs (locked_until) where status = 'active';
      create index jobs_finished_idx on jobs (finished_at) where status in ('completed', 'failed');
    `);
  },
} satisfies Migration;
