import type { Migration } from '~/core/db/migrate';

/**
 * Issue 36 item 2, the statistics page (decision 065): on 100,000 orders the work-order tables read
 * every order of the year from the table itself (a parallel scan of its wide rows, most of them
 * from disk), and the revenue tables every invoice of the year. Two covering indexes let them read
 * the index alone: the orders by intake with what the tables group and filter by, and the finalized
 * invoices by date with their amount and what they bill.
 */
export default {
  name: '0066-statistics-indexes',
  async up(knex) {
    await knex.raw(`
      create index work_orders_statistics_idx on work_orders (intake_ts)
        include (id, work_type_id, status_id, customer_id, closed_at, assignee_departments)
        where deleted_at is null;
      create index invoices_statistics_idx on invoices (invoice_date)
        include (total_price, work_order_id, object_agreement_id, project_id, sales_order_id)
        where status = 'finalized';
    `);
  },
} satisfies Migration;
