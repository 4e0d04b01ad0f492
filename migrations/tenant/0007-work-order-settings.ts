import type { Migration } from '~/core/db/migrate';

/**
 * Work-order settings (spec sections 3 and 5): statuses (exactly one default, at least one
 * closing, closing and default differ), work types (one default), tags with a colour, and the
 * tenant's work-order options (required fields, mode, numbering) as one row.
 */
export default {
  name: '0007-work-order-settings',
  async up(knex) {
    await knex.raw(`
      create table work_order_statuses (
        id uuid primary key default gen_random_uuid(),
        name text not null,
        is_default boolean not null default false,
        is_closing boolean not null default false,
        sort_order integer not null default 0,
        created_at timestamptz not null default now(),
        check (not (is_default and is_closing))
      );
      create unique index work_order_statuses_name_idx on work_order_statuses (lower(name));
      create unique index work_order_statuses_default_idx on work_order_statuses (is_default) where is_default;

      create table work_types (
        id uuid primary key default gen_random_uuid(),
        name text not null,
        is_default boolean not null default false,
        sort_order integer not null default 0,
        created_at timestamptz not null default now()
      );
      create unique index work_types_name_idx on work_types (lower(name));
      create unique index work_types_default_idx on work_types (is_default) where is_default;

      create table tags (
        id uuid primary key default gen_random_uuid(),
        name text not null,
        color text not null default '#64748b',
        sort_order integer not null default 0,
        created_at timestamptz not null default now()
      );
      create unique index tags_name_idx on tags (lower(name));

      -- one row: which fields a work order requires, its mode and numbering
      create table work_order_settings (
        id boolean primary key default true check (id),
        required_fields text[] not null default '{}',
        mode text not null default 'default' check (mode in ('default', 'advanced')),
        number_prefix text not null default '',
        next_number bigint not null default 1 check (next_number > 0),
        updated_at timestamptz not null default now()
      );
      insert into work_order_settings default values;
      insert into work_order_statuses (name, is_default, is_closing, sort_order)
        values ('Ny', true, false, 1), ('Pågående', false, false, 2), ('Klar', false, true, 3);
      insert into work_types (name, is_default, sort_order) values ('Service', true, 1), ('Installation', false, 2);
    `);
  },
} satisfies Migration;
