import type { Migration } from '~/core/db/migrate';

export default {
  name: '0001-identity',
  async up(knex) {
    await knex.raw(`
      create table users (
        id uuid primary key default gen_random_uuid(),
        email text not null,
        name text not null,
        short_name text,
        phone text,
        language text,
        status text not null default 'active' check (status in ('active', 'inactive', 'registered')),
        user_type text not null default 'normal' check (user_type in ('normal', 'super')),
        password_hash text,
        configuration jsonb not null default '{}'::jsonb,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now()
      );
      create unique index users_email_idx on users (lower(email));

      create table access_levels (
        id uuid primary key default gen_random_uuid(),
        display_name text not null,
        description text,
        configuration jsonb not null default '{}'::jsonb,
        permissions text[] not null default '{}',
        -- the work-order limit: none (all), user (assigned), user.created (created by the user)
        work_order_limit text not null default 'none'
          check (work_order_limit in ('none', 'user', 'user.created'))
      );
      create unique index access_levels_name_idx on access_levels (lower(display_name));

      create table user_access_levels (
        user_id uuid not null references users (id) on delete cascade,
        access_level_id uuid not null references access_levels (id) on delete cascade,
        primary key (user_id, access_level_id)
      );
      create index user_access_levels_level_idx on user_access_levels (access_level_id);

      create table sessions (
        id uuid primary key default gen_random_uuid(),
        -- only the SHA-256 of the 256-bit token is stored
        token_hash text not null unique,
        user_id uuid not null references users (id) on delete cascade,
        created_at timestamptz not null default now(),
        last_seen_at timestamptz not null default now(),
        idle_expires_at timestamptz not null,
        expires_at timestamptz not null,
        ip text,
        user_agent text,
        revoked_at timestamptz
      );
      create index sessions_user_idx on sessions (user_id);
      create index sessions_expiry_idx on sessions (expires_at);

      -- one-time links: the admin's first sign-in now; registration and recovery later
      create table user_tokens (
        id uuid primary key default gen_random_uuid(),
        user_id uuid not null references users (id) on delete cascade,
        purpose text not null check (purpose in ('signin', 'registration', 'recovery')),
        token_hash text not null unique,
        expires_at timestamptz not null,
        used_at timestamptz,
        created_at timestamptz not null default now()
      );
      create index user_tokens_user_idx on user_tokens (user_id);

      create table login_throttle (
        key text primary key,
        failures integer not null default 0,
        window_started_at timestamptz not null default now(),
        blocked_until timestamptz
      );

      create table app_modules (
        id text primary key,
        enabled boolean not null default true,
        configuration jsonb not null default '{}'::jsonb
      );

      create table history (
        id bigserial primary key,
        entity text not null,
        entity_id text not null,
        action text not null,
        user_id uuid references users (id) on delete set null,
        at timestamptz not null default now(),
        data jsonb
      );
      create index history_entity_idx on history (entity, entity_id, at);
    `);
  },
} satisfies Migration;
