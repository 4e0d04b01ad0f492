import type { Migration } from '~/core/db/migrate';

/**
 * A bulk agreement run makes the period's service work orders as well as its invoices (issue 16):
 * how many work orders it made, beside `created` (invoices).
 */
export default {
  name: '0029-agreement-run-work-orders',
  async up(knex) {
    await knex.raw(`alter table agreement_runs add column work_orders integer not null default 0`);
  },
} satisfies Migration;
