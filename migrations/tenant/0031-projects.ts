import type { Migration } from '~/core/db/migrate';

/**
 * Projects (issue 18; spec sections 2–9 "Project", the PROJECTS module and projects:*).
 *
 * - project_settings: one row. The month day the ongoing cost resets on (spec section 9), the next
 *   project number, the hourly price and cost a project's work-order time is valued at unless the
 *   project sets its own, and how many days an extra-work approval link stays valid.
 * - projects: ongoing or closed; dates, responsible and sales user, a free-text region, estimates,
 *   the fixed contract sum (invoiced in parts), an external URL and `version` for "saved by someone
 *   else". Its customers, suppliers and business objects are link tables (restrict: a customer on a
 *   project is not deleted under it). The first customer is the one invoiced unless
 *   invoice_customer_id says otherwise.
 * - Work orders already carry project_id and the ATA status (0008); now project_id is a foreign key
 *   (restrict: a project with work orders is not deleted) and each project order has its invoicing
 *   status (open = backlog, included in the contract sum, invoiced) and the project invoice that
 *   carries it. Article rows on those orders have their own status; null follows the order's.
 * - invoices.project_id: a project invoice is an ordinary invoice (numbering, documents, ERP
 *   delivery) with its part of the contract sum and of the backlog kept beside it.
 * - project_cost_snapshots: the ongoing cost as it was when someone took a snapshot.
 * - project_activities: ordered steps, completed or not.
 * - project_resources: a person or a supplier planned on a project over a span of days.
 * - project_extra_work_links: the e-mailed approval links of extra work; only the SHA-256 of the
 *   token is kept, with its expiry and the answer.
 */
export default {
  name: '0031-projects',
  async up(knex) {
    await knex.raw(`
      create table project_settings (
        id boolean primary key default true check (id),
        cost_reset_day integer not null default 1 check (cost_reset_day between 1 and 31),
        next_number integer not null default 1001 check (next_number > 0),
        hourly_price numeric(14, 2) not null default 0 check (hourly_price >= 0),
        hourly_cost numeric(14, 2) not null default 0 check (hourly_cost >= 0),
        extra_work_link_days integer not null default 14 check (extra_work_link_days between 1 and 90)
      );
      insert into project_settings default values;

      create table projects (
        id uuid primary key default gen_random_uuid(),
        number integer not null,
        title text not null check (length(title) between 1 and 200),
        name text check (length(name) <= 100),
        description text,
        status text not null default 'ongoing' check (status in ('ongoing', 'closed')),
        closed_at timestamptz,
        close_user_id uuid references users (id) on delete set null,
        start_date date,
        end_date date,
        check (end_date is null or start_date is null or start_date <= end_date),
        responsible_user_id uuid references users (id) on delete set null,
        sales_user_id uuid references users (id) on delete set null,
        region text check (length(region) <= 100),
        estimated_hours numeric(10, 2) check (estimated_hours >= 0),
        estimated_cost numeric(14, 2) check (estimated_cost >= 0),
        contract_sum numeric(14, 2) not null default 0 check (contract_sum >= 0),
        external_url text check (length(external_url) <= 500),
        hourly_price numeric(14, 2) check (hourly_price >= 0),
        hourly_cost numeric(14, 2) check (hourly_cost >= 0),
        invoice_customer_id uuid references customers (id) on delete set null,
        conf jsonb not null default '{}',
        version integer not null default 1,
        create_user_id uuid references users (id) on delete set null,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now()
      );
      create unique index projects_number_idx on projects (number);
      alter table projects add column search_text text generated always as (
        lower(number::text || ' ' || title || ' ' || coalesce(name, '') || ' ' || coalesce(region, ''))) stored;
      create index projects_search_idx on projects using gin (search_text public.gin_trgm_ops);
      create index projects_status_idx on projects (status, number);
      create index projects_status_start_idx on projects (status, start_date, id);
      create index projects_responsible_idx on projects (responsible_user_id, status);
      create index projects_region_idx on projects (lower(region), status) where region is not null;

      create table project_customers (
        project_id uuid not null references projects (id) on delete cascade,
        customer_id uuid not null references customers (id) on delete restrict,
        sort_order integer not null default 0,
        primary key (project_id, customer_id)
      );
      create index project_customers_customer_idx on project_customers (customer_id);
      create table project_suppliers (
        project_id uuid not null references projects (id) on delete cascade,
        supplier_id uuid not null references suppliers (id) on delete restrict,
        primary key (project_id, supplier_id)
      );
      create index project_suppliers_supplier_idx on project_suppliers (supplier_id);
      create table project_business_objects (
        project_id uuid not null references projects (id) on delete cascade,
        business_object_id uuid not null references business_objects (id) on delete restrict,
        primary key (project_id, business_object_id)
      );
      create index project_business_objects_bo_idx on project_business_objects (business_object_id);

      alter table invoices
        add column project_id uuid references projects (id) on delete restrict,
        add column project_percent numeric(5, 2),
        add column project_contract_amount numeric(14, 2),
        add column project_backlog_amount numeric(14, 2);
      create index invoices_project_idx on invoices (project_id, create_ts) where project_id is not null;

      update work_orders set project_id = null where project_id is not null;
      alter table work_orders
        add constraint work_orders_project_fk foreign key (project_id) references projects (id) on delete restrict,
        add column project_invoice_status text check (project_invoice_status in ('open', 'included', 'invoiced')),
        add column project_invoice_id uuid references invoices (id) on delete set null;
      create index work_orders_project_invoice_idx on work_orders (project_invoice_id) where project_invoice_id is not null;
      alter table work_order_articles
        add column project_status text check (project_status in ('open', 'included', 'invoiced')),
        add column project_invoice_id uuid references invoices (id) on delete set null;
      create index work_order_articles_project_invoice_idx on work_order_articles (project_invoice_id)
        where project_invoice_id is not null;

      create table project_cost_snapshots (
        id uuid primary key default gen_random_uuid(),
        project_id uuid not null references projects (id) on delete cascade,
        ongoing_cost numeric(14, 2) not null,
        total_cost numeric(14, 2) not null,
        period_start date not null,
        create_user_id uuid references users (id) on delete set null,
        created_at timestamptz not null default now()
      );
      create index project_cost_snapshots_project_idx on project_cost_snapshots (project_id, created_at desc);

      create table project_activities (
        id uuid primary key default gen_random_uuid(),
        project_id uuid not null references projects (id) on delete cascade,
        title text not null check (length(title) between 1 and 200),
        description text,
        due_date date,
        responsible_user_id uuid references users (id) on delete set null,
        sort_order integer not null default 0,
        completed_at timestamptz,
        completed_user_id uuid references users (id) on delete set null,
        created_at timestamptz not null default now()
      );
      create index project_activities_project_idx on project_activities (project_id, sort_order);

      create table project_resources (
        id uuid primary key default gen_random_uuid(),
        project_id uuid not null references projects (id) on delete cascade,
        user_id uuid references users (id) on delete cascade,
        supplier_id uuid references suppliers (id) on delete cascade,
        check ((user_id is null) <> (supplier_id is null)),
        start_date date not null,
        end_date date not null,
        check (start_date <= end_date),
        -- planned hours per working day over the span (null: the whole day)
        hours_per_day numeric(5, 2) check (hours_per_day > 0 and hours_per_day <= 24),
        comment text,
        create_user_id uuid references users (id) on delete set null,
        created_at timestamptz not null default now()
      );
      create index project_resources_user_idx on project_resources (user_id, start_date) where user_id is not null;
      create index project_resources_supplier_idx on project_resources (supplier_id, start_date) where supplier_id is not null;
      create index project_resources_span_idx on project_resources (start_date, end_date);
      create index project_resources_project_idx on project_resources (project_id);

      create table project_extra_work_links (
        id uuid primary key default gen_random_uuid(),
        work_order_id uuid not null references work_orders (id) on delete cascade,
        token_hash text not null unique,
        email text not null,
        expires_at timestamptz not null,
        sent_user_id uuid references users (id) on delete set null,
        sent_at timestamptz not null default now(),
        -- a newer link for the same order was sent: this one no longer works
        superseded_at timestamptz,
        answer text check (answer in ('accepted', 'declined')),
        answered_at timestamptz,
        answered_name text,
        answered_ip text
      );
      create index project_extra_work_links_wo_idx on project_extra_work_links (work_order_id, sent_at desc);
    `);
  },
} satisfies Migration;
