import type { Migration } from '~/core/db/migrate';

/**
 * What a bulk agreement run made (issue 28 item 16): the ids of its invoices and service work
 * orders, in the order made, so the run's report links to each instead of only counting them.
 */
export default {
  name: '0037-agreement-run-made',
  async up(knex) {
    await knex.raw(`alter table agreement_runs add column made jsonb not null default '[]'`);
  },
} satisfies Migration;
