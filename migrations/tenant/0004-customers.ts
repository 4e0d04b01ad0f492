import type { Migration } from '~/core/db/migrate';

/** Customers with their contacts, addresses (exactly one primary), group discounts and zone users. */
export default {
  name: '0004-customers',
  async up(knex) {
    await knex.raw(`
      create table customers (
        id uuid primary key default gen_random_uuid(),
        -- the customer number (spec: customerId); potential customers may not have one yet
        customer_id text,
        name text not null,
        type text not null default 'company' check (type in ('private', 'company')),
        status text not null default 'active' check (status in ('active', 'inactive')),
        potential boolean not null default false,
        organizational_number text,
        vat_number text,
        person_id text,
        phone text,
        email text,
        payment_term_days integer check (payment_term_days between 0 and 365),
        reverse_vat boolean not null default false,
        bg_account text,
        iban text,
        bic text,
        default_discount numeric(5, 2) check (default_discount between 0 and 100),
        price_list_id uuid references price_lists (id) on delete restrict,
        invoice_language text,
        invoice_email text,
        broadcast_email text,
        send_to_erp boolean not null default true,
        notes text,
        configuration jsonb not null default '{}',
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now()
      );
      create unique index customers_customer_id_idx on customers (lower(customer_id)) where customer_id is not null;
      create index customers_name_idx on customers (lower(name), id);
      create index customers_price_list_idx on customers (price_list_id);
      -- what search-as-you-type matches, stored: LIKE on it is far cheaper than on the expression
      alter table customers add column search_text text generated always as (
        lower(coalesce(customer_id, '') || ' ' || name || ' ' || coalesce(organizational_number, ''))) stored;
      create index customers_search_idx on customers using gin (search_text public.gin_trgm_ops);

      create table customer_contacts (
        id uuid primary key default gen_random_uuid(),
        customer_id uuid not null references customers (id) on delete cascade,
        name text not null,
        role text,
        phone text,
        email text,
        sort_order integer not null default 0
      );
      create index customer_contacts_customer_idx on customer_contacts (customer_id, sort_order);

      create table customer_addresses (
        id uuid primary key default gen_random_uuid(),
        customer_id uuid not null references customers (id) on delete cascade,
        street text,
        city text,
        post_index text,
        notes text,
        cost_center text,
        contact_name text,
        contact_email text,
        contact_phone text,
        is_primary boolean not null default false,
        sort_order integer not null default 0
      );
      create index customer_addresses_customer_idx on customer_addresses (customer_id, sort_order);
      -- at most one primary per customer; the service keeps it at exactly one
      create unique index customer_addresses_primary_idx on customer_addresses (customer_id) where is_primary;

      create table customer_article_group_discounts (
        customer_id uuid not null references customers (id) on delete cascade,
        article_group_id uuid not null references article_groups (id) on delete cascade,
        discount_type text not null check (discount_type in ('PERCENTAGE', 'REGULAR')),
        discount_value numeric(14, 2) not null check (discount_value >= 0),
        primary key (customer_id, article_group_id)
      );

      -- a customer's own price for an article (GET/PUT /customers/{id}/articles)
      create table customer_articles (
        customer_id uuid not null references customers (id) on delete cascade,
        article_id uuid not null references articles (id) on delete cascade,
        price numeric(14, 2) not null check (price >= 0),
        primary key (customer_id, article_id)
      );
      create index customer_articles_article_idx on customer_articles (article_id);

      -- people of the customer who sign in to the customer zone (the zone itself comes later)
      create table customer_zone_users (
        id uuid primary key default gen_random_uuid(),
        customer_id uuid not null references customers (id) on delete cascade,
        email text not null,
        name text not null,
        status text not null default 'STATUS_REGISTERED',
        -- the pending invitation: only the hash of its token is kept
        invite_token_hash text,
        invite_expires_at timestamptz,
        invited_at timestamptz,
        created_at timestamptz not null default now()
      );
      create unique index customer_zone_users_email_idx on customer_zone_users (lower(email));
      create index customer_zone_users_customer_idx on customer_zone_users (customer_id);
    `);
  },
} satisfies Migration;
