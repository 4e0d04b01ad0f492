import type { Migration } from '~/core/db/migrate';

/**
 * Proposals and sales orders (issue 13; spec sections 3 and 4). A proposal is active until it is
 * accepted (into a sales order, `accepted`, or a work order, `accepted-wo`) or declined; reopening
 * makes it active again and keeps what it created. Its rows are articles (priced and discounted as
 * core/pricing says, with an optional monthly price and its own discount), comments and summary
 * rows; the totals are kept on the proposal so the list needs no rows. `version` guards the
 * autosave: a save names the version it edited, and a save of an older one is refused, so two
 * people never silently overwrite each other.
 *
 * Settings are one row: the spec's switches (summary rows, monthly price, files, purchase-price
 * editing, stock point, cost center, project scope), valid-to and negative prices, the numbering,
 * and the default terms.
 */
export default {
  name: '0021-proposals',
  async up(knex) {
    await knex.raw(`
      create table proposal_settings (
        id boolean primary key default true check (id),
        summary_rows boolean not null default true,
        monthly_price boolean not null default false,
        files boolean not null default true,
        purchase_price_edit boolean not null default false,
        stock_point boolean not null default false,
        cost_center boolean not null default false,
        project_scope boolean not null default false,
        valid_to boolean not null default true,
        negative_prices boolean not null default false,
        next_sequence integer not null default 1 check (next_sequence > 0),
        general_terms text not null default '' check (length(general_terms) <= 10000),
        payment_terms text not null default '' check (length(payment_terms) <= 2000),
        updated_at timestamptz not null default now()
      );
      insert into proposal_settings default values;

      create table sales_order_settings (
        id boolean primary key default true check (id),
        next_number integer not null default 1 check (next_number > 0),
        updated_at timestamptz not null default now()
      );
      insert into sales_order_settings default values;

      create table sales_orders (
        id uuid primary key default gen_random_uuid(),
        number integer not null unique,
        title text not null default '' check (length(title) <= 200),
        customer_id uuid references customers (id) on delete restrict,
        status text not null default 'open' check (status in ('open', 'closed')),
        paid boolean not null default false,
        reference_user_id uuid references users (id) on delete set null,
        department_id uuid,
        proposal_id uuid,
        total_price numeric(14, 2) not null default 0,
        total_purchase_price numeric(14, 2) not null default 0,
        version integer not null default 1,
        create_ts timestamptz not null default now(),
        create_user_id uuid references users (id) on delete set null,
        update_ts timestamptz not null default now(),
        close_ts timestamptz,
        close_user_id uuid references users (id) on delete set null
      );
      create index sales_orders_status_idx on sales_orders (status, create_ts desc, id);
      create index sales_orders_customer_idx on sales_orders (customer_id, create_ts desc);
      create index sales_orders_proposal_idx on sales_orders (proposal_id);

      create table proposals (
        id uuid primary key default gen_random_uuid(),
        sequence_number integer not null unique,
        title text not null default '' check (length(title) <= 200),
        sort_order integer not null default 0,
        status text not null default 'active' check (status in ('active', 'accepted', 'accepted-wo', 'declined')),
        -- the list's own grouping (PATCH {state, sortOrder}), free text
        state text check (length(state) <= 50),
        customer_id uuid references customers (id) on delete restrict,
        contact_name text check (length(contact_name) <= 200),
        contact_email text check (length(contact_email) <= 200),
        contact_phone text check (length(contact_phone) <= 50),
        delivery_location_description text check (length(delivery_location_description) <= 200),
        delivery_location_text2 text check (length(delivery_location_text2) <= 200),
        delivery_location_text3 text check (length(delivery_location_text3) <= 200),
        business_object_id uuid references business_objects (id) on delete set null,
        description_intro text check (length(description_intro) <= 10000),
        description text check (length(description) <= 20000),
        description2 text check (length(description2) <= 10000),
        description_of_exceptions text check (length(description_of_exceptions) <= 10000),
        general_terms text check (length(general_terms) <= 10000),
        payment_terms text check (length(payment_terms) <= 2000),
        valid_to date,
        next_action_date date,
        custom_data jsonb not null default '{}',
        total_price numeric(14, 2) not null default 0,
        total_purchase_price numeric(14, 2) not null default 0,
        total_monthly_price numeric(14, 2) not null default 0,
        work_order_id uuid references work_orders (id) on delete set null,
        sales_order_id uuid references sales_orders (id) on delete set null,
        version integer not null default 1,
        create_ts timestamptz not null default now(),
        create_user_id uuid references users (id) on delete set null,
        update_ts timestamptz not null default now(),
        close_ts timestamptz,
        close_user_id uuid references users (id) on delete set null
      );
      create index proposals_status_idx on proposals (status, create_ts desc, id);
      create index proposals_list_idx on proposals (status, sort_order, sequence_number desc);
      create index proposals_creator_idx on proposals (create_user_id, create_ts desc);
      create index proposals_customer_idx on proposals (customer_id);
      alter table sales_orders add foreign key (proposal_id) references proposals (id) on delete set null;

      create table proposal_tags (
        proposal_id uuid not null references proposals (id) on delete cascade,
        tag_id uuid not null references tags (id) on delete restrict,
        primary key (proposal_id, tag_id)
      );
      create index proposal_tags_tag_idx on proposal_tags (tag_id, proposal_id);

      -- a proposal's or a sales order's rows: articles, comments and summary rows
      create table proposal_rows (
        id uuid primary key default gen_random_uuid(),
        proposal_id uuid references proposals (id) on delete cascade,
        sales_order_id uuid references sales_orders (id) on delete cascade,
        sort_order integer not null default 0,
        comment text check (length(comment) <= 2000),
        is_summary_row boolean not null default false,
        article_id uuid references articles (id) on delete restrict,
        article_title text check (length(article_title) <= 200),
        article_description text check (length(article_description) <= 2000),
        article_unit text check (length(article_unit) <= 20),
        amount numeric(14, 3) check (amount >= 0),
        price numeric(14, 2),
        purchase_price numeric(14, 2) check (purchase_price >= 0),
        monthly_price numeric(14, 2),
        discount_type text check (discount_type in ('PERCENTAGE', 'REGULAR')),
        discount_value numeric(14, 2) check (discount_value >= 0),
        monthly_discount_type text check (monthly_discount_type in ('PERCENTAGE', 'REGULAR')),
        monthly_discount_value numeric(14, 2) check (monthly_discount_value >= 0),
        price_tag text check (length(price_tag) <= 50),
        total_price numeric(14, 2) not null default 0,
        monthly_total_price numeric(14, 2) not null default 0,
        is_in_project_scope boolean,
        cost_center text check (length(cost_center) <= 50),
        stock_point text check (length(stock_point) <= 50),
        check ((proposal_id is null) <> (sales_order_id is null))
      );
      create index proposal_rows_proposal_idx on proposal_rows (proposal_id, sort_order) where proposal_id is not null;
      create index proposal_rows_sales_order_idx on proposal_rows (sales_order_id, sort_order) where sales_order_id is not null;
      create index proposal_rows_article_idx on proposal_rows (article_id);
    `);
  },
} satisfies Migration;
