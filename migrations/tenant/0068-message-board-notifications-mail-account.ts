import type { Migration } from '~/core/db/migrate';

/**
 * Issue 36 items 3, 5 and 6 (decision 066).
 *
 * - message_board_posts: the dashboard's message board (broadcast module). `kind` 'post' is written
 *   by a person with message_board_post:edit; 'order_finish' is the close dialog's order-finish
 *   broadcast, naming its work order (its words are the reader's language, rendered at read time).
 *   `expires_on` (a date in the tenant's calendar) is the last day it shows; null keeps it.
 * - notification_defaults: the tenant's default per spec notification type (admins); a type
 *   without a row takes the built-in default (core/notifications/notification-types.ts).
 * - user_notifications: a person's own choice per type; none means the tenant's default.
 * - mail_account: the tenant's own sending account (one row at most). The password is sealed
 *   (decision 040, purpose `mail_account.password_sealed`); `verified_at` is the last successful
 *   test send, and mail goes out through the account only while it is set.
 */
export default {
  name: '0068-message-board-notifications-mail-account',
  async up(knex) {
    await knex.raw(`
      create table message_board_posts (
        id uuid primary key default gen_random_uuid(),
        kind text not null default 'post' check (kind in ('post', 'order_finish')),
        title text not null check (length(title) between 1 and 200),
        body text not null default '' check (length(body) <= 5000),
        work_order_id uuid references work_orders (id) on delete cascade,
        expires_on date,
        created_by uuid references users (id) on delete set null,
        created_at timestamptz not null default now(),
        updated_by uuid references users (id) on delete set null,
        updated_at timestamptz not null default now()
      );
      create index message_board_posts_created_idx on message_board_posts (created_at desc);

      create table notification_defaults (
        type text primary key,
        mail boolean not null
      );

      create table user_notifications (
        user_id uuid not null references users (id) on delete cascade,
        type text not null,
        mail boolean not null,
        primary key (user_id, type)
      );

      create table mail_account (
        id boolean primary key default true check (id),
        host text not null check (length(host) between 1 and 253),
        port integer not null check (port between 1 and 65535),
        security text not null check (security in ('tls', 'starttls', 'none')),
        username text not null check (length(username) between 1 and 320),
        password_sealed text not null,
        from_address text not null check (length(from_address) between 3 and 320),
        verified_at timestamptz,
        updated_by uuid references users (id) on delete set null,
        updated_at timestamptz not null default now()
      );
    `);
  },
} satisfies Migration;
