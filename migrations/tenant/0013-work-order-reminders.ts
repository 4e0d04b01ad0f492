import type { Migration } from '~/core/db/migrate';

/**
 * Reminders on a work order (spec section 3, app module `reminders`): whom to remind, when and
 * about what. A sweep job mails each one once at its due time; `sent_at` records that it was
 * claimed for sending, so a second sweep, a second worker or a restart never mails it again.
 * The partial index serves the sweep ("due and not sent yet") and stays as small as the pending
 * reminders; the order's panel reads by `work_order_id`.
 */
export default {
  name: '0013-work-order-reminders',
  async up(knex) {
    await knex.raw(`
      create table work_order_reminders (
        id uuid primary key default gen_random_uuid(),
        work_order_id uuid not null references work_orders (id) on delete cascade,
        -- who is reminded
        user_id uuid not null references users (id) on delete cascade,
        due_at timestamptz not null,
        message text not null default '' check (length(message) <= 1000),
        created_by uuid references users (id) on delete set null,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now(),
        sent_at timestamptz
      );
      create index work_order_reminders_wo_idx on work_order_reminders (work_order_id, due_at);
      create index work_order_reminders_due_idx on work_order_reminders (due_at) where sent_at is null;
      create index work_order_reminders_user_idx on work_order_reminders (user_id);
    `);
  },
} satisfies Migration;
