import type { Migration } from '~/core/db/migrate';

/**
 * Issue 35 items 3 and 4 (decision 064): what a customer does in its zone.
 *
 * - work_orders.zone_requested_by / zone_requested_name: an order a zone user asked for ("ask for
 *   service"). The name is kept beside the id so the order still says who asked after the office
 *   removes that zone user (the id is then cleared). The zone lists its customer's requests by
 *   the partial index, newest first.
 * - customers.zone_self_service: whether the office lets this customer's zone users edit the
 *   company's contact details and manage its zone users (off until the office turns it on).
 */
export default {
  name: '0064-zone-service-requests',
  async up(knex) {
    await knex.raw(`
      alter table work_orders
        add column zone_requested_by uuid references customer_zone_users (id) on delete set null,
        add column zone_requested_name text;
      create index work_orders_zone_request_idx on work_orders (customer_id, intake_ts desc, id)
        where zone_requested_name is not null;

      alter table customers add column zone_self_service boolean not null default false;
    `);
  },
} satisfies Migration;
