import type { Migration } from '~/core/db/migrate';

/**
 * Spec section 4: "Time reports lock on a configured day of the next month". The day (1–28) is a
 * work-order setting; null (the default) locks nothing by date.
 */
export default {
  name: '0011-time-lock-day',
  async up(knex) {
    await knex.raw(`
      alter table work_order_settings
        add column time_lock_day integer check (time_lock_day between 1 and 28);
    `);
  },
} satisfies Migration;
