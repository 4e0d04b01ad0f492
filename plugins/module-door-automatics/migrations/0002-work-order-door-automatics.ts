import type { Migration } from '~/core/db/migrate';

/**
 * The door automatics a work order is about (GET/PUT /wo/doorautomatics/{id}): the ones at the
 * order's object that the technician services, in the order the office listed them. A door
 * automatic taken out of the register leaves the orders with it (the order's history keeps its
 * number); a deleted order takes its links along.
 */
export default {
  name: '0002-work-order-door-automatics',
  async up(knex) {
    await knex.raw(`
      create table work_order_door_automatics (
        work_order_id uuid not null references work_orders (id) on delete cascade,
        door_automatic_id uuid not null references door_automatics (id) on delete cascade,
        sort_order integer not null default 0,
        primary key (work_order_id, door_automatic_id)
      );
      create index work_order_door_automatics_da_idx on work_order_door_automatics (door_automatic_id);
    `);
  },
} satisfies Migration;
