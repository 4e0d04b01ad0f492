import type { Migration } from '~/core/db/migrate';

/** Suppliers, their contacts, and what each supplier calls and charges for an article. */
export default {
  name: '0006-suppliers',
  async up(knex) {
    await knex.raw(`
      create table suppliers (
        id uuid primary key default gen_random_uuid(),
        number text not null,
        title text not null,
        name text,
        iban text,
        bic text,
        erp_account text,
        tags text[] not null default '{}',
        status text not null default 'active' check (status in ('active', 'inactive')),
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now()
      );
      create unique index suppliers_number_idx on suppliers (lower(number));
      create index suppliers_title_idx on suppliers (lower(title), id);
      -- what search-as-you-type matches, stored: LIKE on it is far cheaper than on the expression
      alter table suppliers add column search_text text generated always as (
        lower(number || ' ' || title || ' ' || coalesce(name, ''))) stored;
      create index suppliers_search_idx on suppliers using gin (search_text public.gin_trgm_ops);

      create table supplier_contacts (
        id uuid primary key default gen_random_uuid(),
        supplier_id uuid not null references suppliers (id) on delete cascade,
        name text not null,
        role text,
        phone text,
        email text,
        sort_order integer not null default 0
      );
      create index supplier_contacts_supplier_idx on supplier_contacts (supplier_id, sort_order);

      create table article_suppliers (
        article_id uuid not null references articles (id) on delete cascade,
        supplier_id uuid not null references suppliers (id) on delete restrict,
        supplier_article_number text,
        purchase_price numeric(14, 2),
        is_primary boolean not null default false,
        primary key (article_id, supplier_id)
      );
      create index article_suppliers_supplier_idx on article_suppliers (supplier_id);
    `);
  },
} satisfies Migration;
