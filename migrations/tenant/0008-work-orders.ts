import type { Migration } from '~/core/db/migrate';

/**
 * Work orders (spec sections 3 and 4): the order with its customer, object, status, work type,
 * contacts, address and planning; assignees and tags; and the article and time rows reported on
 * it. Every list filter and sort has an index; the search is trigram-indexed.
 */
export default {
  name: '0008-work-orders',
  async up(knex) {
    await knex.raw(`
      create table work_orders (
        id uuid primary key default gen_random_uuid(),
        number text not null,
        title text not null,
        description text,
        internal_info text,
        summary text,
        customer_id uuid references customers (id) on delete restrict,
        business_object_id uuid references business_objects (id) on delete restrict,
        status_id uuid not null references work_order_statuses (id) on delete restrict,
        work_type_id uuid not null references work_types (id) on delete restrict,
        priority text not null default 'medium' check (priority in ('high', 'medium', 'low')),
        contact_name text,
        contact_email text,
        contact_phone text,
        on_site_contact_name text,
        on_site_contact_phone text,
        street text,
        post_index text,
        city text,
        customer_address_id uuid references customer_addresses (id) on delete set null,
        planned_start timestamptz,
        planned_end timestamptz,
        customer_order_number text,
        invoice_marking text,
        id06_code text,
        intake_ts timestamptz not null default now(),
        update_ts timestamptz not null default now(),
        closed_at timestamptz,
        is_locked boolean not null default false,
        -- set when deleted to the recycle bin; restore clears it
        deleted_at timestamptz,
        -- the project the order belongs to (projects arrive with their own capability)
        project_id uuid,
        -- ATA extra work on a project: pending, accepted, declined
        project_extra_status text check (project_extra_status in ('pending', 'accepted', 'declined')),
        location_lat numeric(9, 6),
        location_lng numeric(9, 6),
        create_user_id uuid references users (id) on delete set null,
        check (planned_end is null or planned_start is null or planned_end >= planned_start)
      );
      create unique index work_orders_number_idx on work_orders (number);
      -- numbers share the tenant's prefix, so shorter is smaller: "WO-9" before "WO-10"
      create index work_orders_number_sort_idx on work_orders (length(number), number);
      -- the lists: open/closed/recycle bin split first, then the sort
      create index work_orders_open_intake_idx on work_orders (intake_ts desc, id desc) where closed_at is null and deleted_at is null;
      create index work_orders_intake_idx on work_orders (intake_ts desc, id desc);
      create index work_orders_update_idx on work_orders (update_ts desc, id desc);
      create index work_orders_closed_idx on work_orders (closed_at desc, id desc) where closed_at is not null;
      create index work_orders_deleted_idx on work_orders (deleted_at desc) where deleted_at is not null;
      create index work_orders_planned_idx on work_orders (planned_start, id);
      create index work_orders_title_idx on work_orders (lower(title), id);
      create index work_orders_status_idx on work_orders (status_id);
      create index work_orders_work_type_idx on work_orders (work_type_id);
      create index work_orders_customer_idx on work_orders (customer_id);
      create index work_orders_bo_idx on work_orders (business_object_id);
      create index work_orders_create_user_idx on work_orders (create_user_id, intake_ts desc);
      create index work_orders_project_idx on work_orders (project_id) where project_id is not null;
      -- what search matches, stored (as in the registers: LIKE on it is far cheaper than on the expression)
      alter table work_orders add column search_text text generated always as (
        lower(number || ' ' || title || ' ' || coalesce(street, '') || ' ' || coalesce(post_index, '') || ' ' || coalesce(city, ''))) stored;
      create index work_orders_search_idx on work_orders using gin (search_text public.gin_trgm_ops);

      create table work_order_assignees (
        work_order_id uuid not null references work_orders (id) on delete cascade,
        user_id uuid not null references users (id) on delete restrict,
        primary key (work_order_id, user_id)
      );
      create index work_order_assignees_user_idx on work_order_assignees (user_id, work_order_id);

      create table work_order_tags (
        work_order_id uuid not null references work_orders (id) on delete cascade,
        tag_id uuid not null references tags (id) on delete restrict,
        primary key (work_order_id, tag_id)
      );
      create index work_order_tags_tag_idx on work_order_tags (tag_id, work_order_id);

      -- articles reported on the order, priced by core/pricing (money as numeric)
      create table work_order_articles (
        id uuid primary key default gen_random_uuid(),
        work_order_id uuid not null references work_orders (id) on delete cascade,
        article_id uuid not null references articles (id) on delete restrict,
        title text not null,
        description text,
        amount numeric(14, 3) not null default 1,
        price numeric(14, 2) not null default 0,
        purchase_price numeric(14, 2),
        discount_type text check (discount_type in ('PERCENTAGE', 'REGULAR')),
        discount_value numeric(14, 2) check (discount_value >= 0),
        total numeric(14, 2) not null default 0,
        sort_order integer not null default 0,
        user_id uuid references users (id) on delete set null,
        created_at timestamptz not null default now()
      );
      create index work_order_articles_wo_idx on work_order_articles (work_order_id, sort_order);
      create index work_order_articles_article_idx on work_order_articles (article_id);

      -- each person's time on the order; a locked row lies in a locked period and cannot change
      create table work_order_time (
        id uuid primary key default gen_random_uuid(),
        work_order_id uuid not null references work_orders (id) on delete cascade,
        user_id uuid not null references users (id) on delete restrict,
        date date not null,
        start_ts timestamptz,
        end_ts timestamptz,
        work_minutes integer not null default 0 check (work_minutes >= 0),
        travel_minutes integer not null default 0 check (travel_minutes >= 0),
        distance_km numeric(8, 1) not null default 0 check (distance_km >= 0),
        comment text,
        locked boolean not null default false,
        created_at timestamptz not null default now(),
        check (end_ts is null or start_ts is null or end_ts >= start_ts)
      );
      create index work_order_time_wo_idx on work_order_time (work_order_id, date);
      create index work_order_time_user_idx on work_order_time (user_id, date);
      create index work_order_time_locked_idx on work_order_time (work_order_id) where locked;
    `);
  },
} satisfies Migration;
