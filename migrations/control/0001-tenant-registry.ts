import type { Migration } from '~/core/db/migrate';

export default {
  name: '0001-tenant-registry',
  async up(knex) {
    await knex.raw(`
      create table tenants (
        id uuid primary key default gen_random_uuid(),
        slug text not null unique,
        schema_name text not null unique,
        display_name text not null,
        status text not null default 'provisioning'
          check (status in ('provisioning', 'active', 'disabled')),
        -- how far provisioning got: a re-run resumes after the last finished step
        provision_step text not null default 'registered',
        cluster text not null default 'default',
        -- instance configuration (spec section 3): country, languageKey, dateFormat, currency, logoUrl
        config jsonb not null default '{}'::jsonb,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now()
      );
      create table tenant_hosts (
        hostname text primary key check (hostname = lower(hostname)),
        tenant_id uuid not null references tenants (id) on delete cascade
      );
      create index tenant_hosts_tenant_idx on tenant_hosts (tenant_id);
      -- which plugins a tenant uses, with its options (secrets encrypted by core/crypto)
      create table tenant_plugins (
        tenant_id uuid not null references tenants (id) on delete cascade,
        plugin_id text not null,
        enabled boolean not null default true,
        options text,
        updated_at timestamptz not null default now(),
        primary key (tenant_id, plugin_id)
      );
      -- mail kept for operators when no SMTP_URL is configured
      create table mail_outbox (
        id bigserial primary key,
        tenant_id uuid references tenants (id) on delete set null,
        sender text not null,
        recipients text[] not null,
        subject text not null,
        text_body text,
        html_body text,
        created_at timestamptz not null default now()
      );
      create index mail_outbox_created_idx on mail_outbox (created_at desc);
    `);
  },
} satisfies Migration;
