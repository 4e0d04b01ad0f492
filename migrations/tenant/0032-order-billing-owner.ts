import type { Migration } from '~/core/db/migrate';

/**
 * A proposal's rows have one billing owner (issue 28 item 1, decision 031): the work order a sales
 * order made is linked to it, so the sales order is billed through that work order and never both.
 */
export default {
  name: '0032-order-billing-owner',
  async up(knex) {
    await knex.raw(`
      alter table work_orders add column sales_order_id uuid references sales_orders (id) on delete set null;
      create index work_orders_sales_order_idx on work_orders (sales_order_id) where sales_order_id is not null;
    `);
  },
} satisfies Migration;
