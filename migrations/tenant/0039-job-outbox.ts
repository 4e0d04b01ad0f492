import type { Migration } from '~/core/db/migrate';

/**
 * Jobs a commit promises (issue 30 item 2): written in the promising transaction, moved to the queue
 * after commit or by the worker's sweep, so a crash between commit and queue loses none. A row is
 * leased while it is handed over and deleted once the queue holds the job.
 */
export default {
  name: '0039-job-outbox',
  async up(knex) {
    await knex.raw(`
      create table job_outbox (
        id uuid primary key default gen_random_uuid(),
        job text not null,
        data jsonb not null,
        attempts integer not null default 0,
        lease_until timestamptz,
        created_at timestamptz not null default now()
      );
      create index job_outbox_created_idx on job_outbox (created_at);
    `);
  },
} satisfies Migration;
