import type { Migration } from '~/core/db/migrate';

/**
 * POST /wo/id06 finds the work orders of one ID06 code (a construction site's) to write its
 * attendance register: an index on the code, case-insensitive, over the orders that have one.
 */
export default {
  name: '0018-work-order-id06-index',
  async up(knex) {
    await knex.raw(`create index work_orders_id06_idx on work_orders (lower(id06_code)) where id06_code is not null`);
  },
} satisfies Migration;
