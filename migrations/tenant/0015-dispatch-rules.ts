import type { Migration } from '~/core/db/migrate';

/**
 * Dispatch rules (spec section 3: day, start time, end time, dispatch to; app module
 * `dispatch_rules`): a new work order created in a rule's window goes to the rule's user. Day is
 * the ISO weekday (1 Monday … 7 Sunday) the window starts on; an end before the start runs past
 * midnight into the next day. The set's rules across rows (section 5) are checked in
 * core/work-orders/dispatch-rules.rules.ts; the table only keeps each row's own shape.
 */
export default {
  name: '0015-dispatch-rules',
  async up(knex) {
    await knex.raw(`
      create table dispatch_rules (
        id uuid primary key default gen_random_uuid(),
        day smallint not null check (day between 1 and 7),
        start_time time not null,
        end_time time not null,
        user_id uuid not null references users (id) on delete cascade,
        sort_order integer not null default 0,
        created_at timestamptz not null default now(),
        check (start_time <> end_time)
      );
      create index dispatch_rules_user_idx on dispatch_rules (user_id);
    `);
  },
} satisfies Migration;
