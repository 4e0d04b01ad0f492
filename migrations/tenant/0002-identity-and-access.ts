import type { Migration } from '~/core/db/migrate';

/** Users' departments and details, the sign-in audit log, MFA, and identity settings. */
export default {
  name: '0002-identity-and-access',
  async up(knex) {
    await knex.raw(`
      create table departments (
        id uuid primary key default gen_random_uuid(),
        name text not null,
        created_at timestamptz not null default now()
      );
      create unique index departments_name_idx on departments (lower(name));

      alter table users
        add column department_id uuid references departments (id) on delete restrict,
        add column tracker_id text,
        add column erp_employee_id text,
        add column personal_identity_number text;
      create index users_department_idx on users (department_id);
      create index users_status_name_idx on users (status, lower(name));

      -- every sign-in event: success, failure, MFA, password change, lockout, recovery
      create table auth_events (
        id bigserial primary key,
        at timestamptz not null default now(),
        event text not null,
        user_id uuid references users (id) on delete set null,
        email text,
        ip text,
        user_agent text,
        data jsonb
      );
      create index auth_events_at_idx on auth_events (at desc);
      create index auth_events_user_idx on auth_events (user_id, at desc);

      create table user_mfa (
        user_id uuid primary key references users (id) on delete cascade,
        -- TOTP secret sealed with SECRET_KEY (core/crypto)
        secret_sealed text not null,
        enabled_at timestamptz,
        -- the last accepted time step: a code works once
        last_used_step bigint
      );
      create table mfa_recovery_codes (
        id uuid primary key default gen_random_uuid(),
        user_id uuid not null references users (id) on delete cascade,
        code_hash text not null,
        used_at timestamptz
      );
      create index mfa_recovery_codes_user_idx on mfa_recovery_codes (user_id);
      -- a sign-in waiting for its second factor
      create table mfa_challenges (
        id uuid primary key default gen_random_uuid(),
        token_hash text not null unique,
        user_id uuid not null references users (id) on delete cascade,
        expires_at timestamptz not null,
        attempts integer not null default 0,
        used_at timestamptz
      );

      -- one row: how this tenant signs people in
      create table auth_settings (
        id boolean primary key default true check (id),
        mfa_required text not null default 'off' check (mfa_required in ('off', 'all', 'levels')),
        mfa_access_level_ids uuid[] not null default '{}',
        password_login_disabled boolean not null default false
      );
      insert into auth_settings default values;

      -- Microsoft and Google sign-in, per tenant; the client secret sealed with SECRET_KEY
      create table oidc_clients (
        provider text primary key check (provider in ('microsoft', 'google')),
        enabled boolean not null default false,
        issuer text not null,
        client_id text not null,
        client_secret_sealed text not null,
        allowed_domains text[] not null default '{}'
      );
    `);
  },
} satisfies Migration;
