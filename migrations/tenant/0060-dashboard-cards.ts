import type { Migration } from '~/core/db/migrate';

/**
 * Issue 36, the dashboard's cards (decision 062):
 * - dashboard_settings: the price per hour and the debit factor that value the open work orders'
 *   reported time (spec section 6, `dashboard:open_workorders_kpi_edit`). One row; none means the
 *   defaults (0 a hour, factor 1), so the card counts hours until someone sets a price.
 * - indexes for the cards' month ranges that no list had needed: objects by when they were added
 *   and by when they were made inactive (supplier orders in error have theirs from 0050,
 *   reported time by day from 0030).
 */
export default {
  name: '0060-dashboard-cards',
  async up(knex) {
    await knex.raw(`
      create table dashboard_settings (
        id boolean primary key default true check (id),
        price_per_hour numeric(14, 2) not null default 0 check (price_per_hour >= 0),
        debit_factor numeric(6, 3) not null default 1 check (debit_factor >= 0 and debit_factor <= 10),
        updated_at timestamptz not null default now()
      );
      create index business_objects_created_idx on business_objects (created_at);
      create index business_objects_inactive_idx on business_objects (updated_at) where status = 'inactive';
    `);
  },
} satisfies Migration;
