import type { Migration } from '~/core/db/migrate';

/**
 * Dispatch (spec section 3, scheduleReports; section 5, "a date cannot be planned twice"): who works
 * on an order when. One row plans one person on one order for a span; `date` is the local day the
 * span starts on (the tenant's time zone), unique per order and person. `version` counts the row's
 * changes so a dispatcher moving a plan someone else just moved is refused instead of overwriting.
 *
 * `schedule_board` is one row per tenant whose version rises with every planning change: the
 * calendar tells its open boards the new version, and a board that missed it catches up.
 *
 * Company holidays (spec section 5, unique date) are shown on the board.
 */
export default {
  name: '0012-schedule-reports',
  async up(knex) {
    await knex.raw(`
      create table work_order_schedules (
        id uuid primary key default gen_random_uuid(),
        work_order_id uuid not null references work_orders (id) on delete cascade,
        user_id uuid not null references users (id) on delete restrict,
        date date not null,
        start_ts timestamptz not null,
        end_ts timestamptz not null,
        version integer not null default 1,
        created_by uuid references users (id) on delete set null,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now(),
        check (end_ts > start_ts)
      );
      create unique index work_order_schedules_day_idx on work_order_schedules (work_order_id, user_id, date);
      -- the board: a period's plans, all people or one
      create index work_order_schedules_start_idx on work_order_schedules (start_ts);
      create index work_order_schedules_user_idx on work_order_schedules (user_id, start_ts);

      create table schedule_board (
        id boolean primary key default true check (id),
        version bigint not null default 0
      );
      insert into schedule_board (id, version) values (true, 0);

      create table company_holidays (
        id uuid primary key default gen_random_uuid(),
        date date not null unique,
        name text not null
      );
    `);
  },
} satisfies Migration;
