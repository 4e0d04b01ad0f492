import type { Migration } from '~/core/db/migrate';

/**
 * Models and installed objects: specification data, security-system forms, the service log,
 * access codes (values sealed with SECRET_KEY) and their append-only security log.
 */
export default {
  name: '0005-business-objects',
  async up(knex) {
    await knex.raw(`
      create table models (
        id uuid primary key default gen_random_uuid(),
        code text not null,
        name text not null,
        status text not null default 'active' check (status in ('active', 'inactive')),
        created_at timestamptz not null default now()
      );
      create unique index models_code_idx on models (lower(code));
      create index models_name_idx on models (lower(name), id);
      alter table models add column search_text text generated always as (lower(code || ' ' || name)) stored;
      create index models_search_idx on models using gin (search_text public.gin_trgm_ops);

      create table business_objects (
        id uuid primary key default gen_random_uuid(),
        serial_code text not null,
        model_id uuid references models (id) on delete restrict,
        customer_id uuid references customers (id) on delete restrict,
        price_list_id uuid references price_lists (id) on delete restrict,
        status text not null default 'active' check (status in ('active', 'inactive')),
        location text,
        location2 text,
        location3 text,
        description text,
        invoice_marking text,
        -- the reference printed on the object's QR label
        qr_ref text,
        specification jsonb not null default '{}',
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now()
      );
      create unique index business_objects_serial_idx on business_objects (lower(serial_code));
      create unique index business_objects_qr_idx on business_objects (qr_ref) where qr_ref is not null;
      create index business_objects_customer_idx on business_objects (customer_id, lower(serial_code));
      create index business_objects_model_idx on business_objects (model_id);
      create index business_objects_price_list_idx on business_objects (price_list_id);
      create index business_objects_serial_order_idx on business_objects (lower(serial_code), id);
      -- what search-as-you-type matches, stored: LIKE on it is far cheaper than on the expression
      alter table business_objects add column search_text text generated always as (
        lower(serial_code || ' ' || coalesce(location, '') || ' ' || coalesce(description, ''))) stored;
      create index business_objects_search_idx on business_objects using gin (search_text public.gin_trgm_ops);

      -- an object's own price for an article (GET /bo/{id}/articles, POST/PUT /bo/articles)
      create table business_object_articles (
        business_object_id uuid not null references business_objects (id) on delete cascade,
        article_id uuid not null references articles (id) on delete cascade,
        price numeric(14, 2) not null check (price >= 0),
        primary key (business_object_id, article_id)
      );
      create index business_object_articles_article_idx on business_object_articles (article_id);

      create table business_object_contacts (
        id uuid primary key default gen_random_uuid(),
        business_object_id uuid not null references business_objects (id) on delete cascade,
        name text not null,
        role text,
        phone text,
        email text,
        sort_order integer not null default 0
      );
      create index business_object_contacts_bo_idx on business_object_contacts (business_object_id, sort_order);

      -- security-system forms (burglary, passage, camera, firealarm, assault) and custom spec data
      create table business_object_forms (
        business_object_id uuid not null references business_objects (id) on delete cascade,
        type text not null,
        data jsonb not null default '{}',
        updated_at timestamptz not null default now(),
        updated_by uuid references users (id) on delete set null,
        primary key (business_object_id, type)
      );

      create table service_log (
        id uuid primary key default gen_random_uuid(),
        business_object_id uuid not null references business_objects (id) on delete cascade,
        entry text not null,
        user_id uuid references users (id) on delete set null,
        created_at timestamptz not null default now(),
        updated_at timestamptz,
        updated_by uuid references users (id) on delete set null
      );
      create index service_log_bo_idx on service_log (business_object_id, created_at desc);

      create table code_groups (
        id uuid primary key default gen_random_uuid(),
        business_object_id uuid not null references business_objects (id) on delete cascade,
        display_name text not null,
        sort_order integer not null default 0
      );
      create index code_groups_bo_idx on code_groups (business_object_id, sort_order);

      create table codes (
        id uuid primary key default gen_random_uuid(),
        group_id uuid not null references code_groups (id) on delete cascade,
        display_name text not null,
        -- the code value, sealed (core/crypto/secret-box); never stored or logged in clear
        value_sealed text,
        sort_order integer not null default 0
      );
      create index codes_group_idx on codes (group_id, sort_order);

      -- who saw or changed which access code; append-only (no foreign key, so it outlives the object)
      create table security_log (
        id bigserial primary key,
        type text not null,
        business_object_id uuid not null,
        business_object_serial_code text not null,
        from_value jsonb,
        to_value jsonb,
        user_id uuid,
        user_name text not null,
        at timestamptz not null default now()
      );
      create index security_log_bo_idx on security_log (business_object_id, at desc);
      create index security_log_user_idx on security_log (user_id, at desc);
      create index security_log_at_idx on security_log (at desc);
      create function security_log_append_only() returns trigger language plpgsql as $$
        begin raise exception 'security_log is append-only'; end $$;
      create trigger security_log_no_change before update or delete on security_log
        for each row execute function security_log_append_only();
    `);
  },
} satisfies Migration;
