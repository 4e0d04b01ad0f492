import type { Migration } from '~/core/db/migrate';

/**
 * Articles and how they are priced: groups, price lists with a pricing type per group, stock
 * movements. Money is numeric (never binary floating point); text search uses trigram indexes.
 */
export default {
  name: '0003-articles',
  async up(knex) {
    await knex.raw(`
      create table article_groups (
        id uuid primary key default gen_random_uuid(),
        -- the group's ID as people type it; unique (409 'Article group with same ID already exists!')
        title text not null,
        display_name text not null,
        created_at timestamptz not null default now()
      );
      create unique index article_groups_title_idx on article_groups (lower(title));

      create table price_lists (
        id uuid primary key default gen_random_uuid(),
        title text not null,
        description text,
        created_at timestamptz not null default now()
      );
      create unique index price_lists_title_idx on price_lists (lower(title));

      -- a price list prices each enabled article group one way, by a percentage
      create table price_list_groups (
        price_list_id uuid not null references price_lists (id) on delete cascade,
        article_group_id uuid not null references article_groups (id) on delete restrict,
        pricing_type text not null check (pricing_type in ('discount', 'markup_purchase', 'markup_sales')),
        value numeric(9, 2) not null default 0,
        primary key (price_list_id, article_group_id)
      );
      create index price_list_groups_group_idx on price_list_groups (article_group_id);

      create table articles (
        id uuid primary key default gen_random_uuid(),
        -- the article's number (spec: article ID), unique
        article_id text not null,
        title text not null,
        description text,
        status text not null default 'active' check (status in ('active', 'inactive')),
        unit text,
        e_number text,
        article_group_id uuid references article_groups (id) on delete restrict,
        price numeric(14, 2) not null default 0,
        purchase_price numeric(14, 2) not null default 0,
        recommended_price numeric(14, 2),
        product_type text not null default 'non_stock' check (product_type in ('service', 'stock', 'non_stock')),
        line_type text not null default 'regular' check (line_type in ('regular', 'freetext')),
        house_work boolean not null default false,
        security boolean not null default false,
        stock_amount numeric(14, 3) not null default 0,
        stock_location text,
        ref text,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now()
      );
      create unique index articles_article_id_idx on articles (lower(article_id));
      create unique index articles_e_number_idx on articles (lower(e_number)) where e_number is not null;
      create index articles_group_idx on articles (article_group_id);
      create index articles_status_title_idx on articles (status, lower(title), id);
      -- what search-as-you-type matches, stored: LIKE on it is far cheaper than on the expression
      alter table articles add column search_text text generated always as (
        lower(article_id || ' ' || title || ' ' || coalesce(e_number, ''))) stored;
      create index articles_search_idx on articles using gin (search_text public.gin_trgm_ops);

      create table stock_movements (
        id bigserial primary key,
        article_id uuid not null references articles (id) on delete cascade,
        type text not null check (type in ('add', 'remove')),
        amount numeric(14, 3) not null check (amount > 0),
        price numeric(14, 2),
        balance numeric(14, 3) not null,
        user_id uuid references users (id) on delete set null,
        at timestamptz not null default now()
      );
      create index stock_movements_article_idx on stock_movements (article_id, at desc);
    `);
  },
} satisfies Migration;
