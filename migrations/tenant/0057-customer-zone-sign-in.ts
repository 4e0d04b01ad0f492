import type { Migration } from '~/core/db/migrate';

/**
 * Issue 35 (decision 061): the customer zone's own sign-in.
 *
 * - customer_zone_users gains what signing in needs: the password (argon2id, as staff), the
 *   person's language and when they last signed in (the office sees it on the customer page).
 * - zone_sessions: a zone user's sessions, a different kind from staff `sessions` (their own
 *   table and cookie), so a zone token can never be found by the staff session check nor a staff
 *   token by the zone one. Same columns as `sessions`; `user_id` names the zone user.
 * - zone_user_tokens: one-time password-recovery links of zone users (as `user_tokens` for staff;
 *   the invitation keeps its own hash on the zone user, migration 0004).
 * - zone_user_mfa, zone_mfa_recovery_codes, zone_mfa_challenges: the optional second factor, the
 *   same tables as staff's (0002) for the other kind of user (core/auth/principal.ts names them).
 */
export default {
  name: '0057-customer-zone-sign-in',
  async up(knex) {
    await knex.raw(`
      alter table customer_zone_users
        add column password_hash text,
        add column language text,
        add column last_sign_in_at timestamptz;

      create table zone_sessions (
        id uuid primary key default gen_random_uuid(),
        token_hash text not null unique,
        user_id uuid not null references customer_zone_users (id) on delete cascade,
        created_at timestamptz not null default now(),
        last_seen_at timestamptz not null default now(),
        idle_expires_at timestamptz not null,
        expires_at timestamptz not null,
        ip text,
        user_agent text,
        revoked_at timestamptz
      );
      create index zone_sessions_user_idx on zone_sessions (user_id);
      create index zone_sessions_expiry_idx on zone_sessions (expires_at);

      create table zone_user_tokens (
        id uuid primary key default gen_random_uuid(),
        user_id uuid not null references customer_zone_users (id) on delete cascade,
        purpose text not null check (purpose in ('recovery')),
        token_hash text not null unique,
        expires_at timestamptz not null,
        used_at timestamptz,
        created_at timestamptz not null default now()
      );
      create index zone_user_tokens_user_idx on zone_user_tokens (user_id);

      create table zone_user_mfa (
        user_id uuid primary key references customer_zone_users (id) on delete cascade,
        secret_sealed text not null,
        enabled_at timestamptz,
        last_used_step bigint
      );
      create table zone_mfa_recovery_codes (
        id uuid primary key default gen_random_uuid(),
        user_id uuid not null references customer_zone_users (id) on delete cascade,
        code_hash text not null,
        used_at timestamptz
      );
      create index zone_mfa_recovery_codes_user_idx on zone_mfa_recovery_codes (user_id);
      create table zone_mfa_challenges (
        id uuid primary key default gen_random_uuid(),
        token_hash text not null unique,
        user_id uuid not null references customer_zone_users (id) on delete cascade,
        expires_at timestamptz not null,
        attempts integer not null default 0,
        used_at timestamptz
      );

      -- the zone's lists: a customer's work orders by planned date, its open deviations by object
      create index work_orders_customer_planned_idx on work_orders (customer_id, planned_start desc nulls last, id)
        where deleted_at is null;
      create index work_orders_object_intake_idx on work_orders (business_object_id, intake_ts desc, id)
        where deleted_at is null;
    `);
  },
} satisfies Migration;
