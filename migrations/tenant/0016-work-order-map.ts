import type { Migration } from '~/core/db/migrate';

/**
 * The map tab (issue 6): its markers are the list's orders that have a position, newest first, at
 * most a few thousand. A partial index of located orders in intake order serves that walk without
 * visiting the orders the geocoder never placed.
 *
 * The tenant's tile server (a URL template and its attribution) is a work-order setting; null means
 * the instance's default (MAP_TILE_URL, else OpenStreetMap).
 */
export default {
  name: '0016-work-order-map',
  async up(knex) {
    await knex.raw(`
      create index work_orders_located_intake_idx on work_orders (intake_ts desc, id desc)
        where location_lat is not null;
      alter table work_order_settings
        add column map_tile_url text,
        add column map_tile_attribution text;
    `);
  },
} satisfies Migration;
