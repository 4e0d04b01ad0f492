import type { Migration } from '~/core/db/migrate';

/**
 * Service agreements (issue 16; spec sections 2, 3, 5, 8 and 9; decision 028).
 *
 * - agreements: the agreement types (spec "Agreement"): a unique code, title, type, validity, when
 *   work orders and invoices are generated (day of month, 0 = the last day, and interval), what a
 *   period costs by default (fixed price on an article, or the included articles) and the included
 *   articles with their discounts (agreement_articles).
 * - object_agreements: one agreement on an installed object (spec "Agreement on object"):
 *   wo_scheduled_to / invoice_scheduled_to are the first day of the next period not yet generated;
 *   generating a period and moving them on happen in one transaction.
 * - object_agreement_rows: what each generated work order (kind wo) and invoice (kind invoice) carries.
 * - work_orders / invoices point at the object agreement and the period they were made for; a unique
 *   index on (object agreement, period start) is the last guard of "exactly once per period".
 * - agreement_runs: a bulk "invoice this period" run, its progress and what it skipped and why.
 * - agreement_price_adjustments: an index raise of chosen agreements from a date.
 */
export default {
  name: '0027-agreements',
  async up(knex) {
    await knex.raw(`
      create table agreements (
        id uuid primary key default gen_random_uuid(),
        code text not null check (length(code) between 1 and 50),
        title text not null check (length(title) between 1 and 200),
        description text,
        status text not null default 'active' check (status in ('active', 'inactive')),
        type text not null default 'service' check (type in ('service', 'maintenance', 'monitoring', 'rental', 'other')),
        valid_from date,
        valid_to date,
        check (valid_to is null or valid_from is null or valid_from <= valid_to),
        -- work orders: the day of the period's first month (0: its last day) and the interval
        wo_day integer not null default 1 check (wo_day between 0 and 31),
        wo_interval text check (wo_interval in ('month_1', 'month_2', 'month_3', 'month_4', 'month_5', 'month_6',
          'month_18', 'year_1', 'year_2', 'year_3', 'year_4', 'quarter', 'half_year')),
        work_type_id uuid references work_types (id) on delete set null,
        invoice_day integer not null default 1 check (invoice_day between 0 and 31),
        invoice_interval text check (invoice_interval in ('month_1', 'month_2', 'month_3', 'month_4', 'month_5',
          'month_6', 'month_18', 'year_1', 'year_2', 'year_3', 'year_4', 'quarter', 'half_year')),
        -- pricing: 'fixed' bills the object's total price on price_article_id, 'articles' its invoice rows
        price_model text not null default 'fixed' check (price_model in ('fixed', 'articles')),
        price numeric(14, 2) not null default 0 check (price >= 0),
        price_article_id uuid references articles (id) on delete set null,
        configuration jsonb not null default '{}',
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now()
      );
      create unique index agreements_code_idx on agreements (lower(code));
      create index agreements_title_idx on agreements (lower(title), id);
      alter table agreements add column search_text text generated always as (
        lower(code || ' ' || title || ' ' || coalesce(description, ''))) stored;
      create index agreements_search_idx on agreements using gin (search_text public.gin_trgm_ops);

      create table agreement_articles (
        agreement_id uuid not null references agreements (id) on delete cascade,
        article_id uuid not null references articles (id) on delete cascade,
        discount_type text not null default 'NONE' check (discount_type in ('PERCENTAGE', 'REGULAR', 'NONE')),
        discount_value numeric(14, 2) not null default 0 check (discount_value >= 0),
        primary key (agreement_id, article_id)
      );
      create index agreement_articles_article_idx on agreement_articles (article_id);

      create table object_agreements (
        id uuid primary key default gen_random_uuid(),
        business_object_id uuid not null references business_objects (id) on delete cascade,
        agreement_id uuid not null references agreements (id) on delete restrict,
        wo_scheduled_to date,
        invoice_scheduled_to date,
        invoice_period_from date,
        valid_from date not null,
        valid_to date,
        check (valid_to is null or valid_from <= valid_to),
        total_price numeric(14, 2) not null default 0 check (total_price >= 0),
        articles jsonb not null default '[]',
        field_text1 text,
        field_text2 text,
        field_text3 text,
        field_text_area1 text,
        field_text_area2 text,
        field_date1 date,
        invoice_address_id uuid references customer_addresses (id) on delete set null,
        invoice_customer_id uuid references customers (id) on delete set null,
        invoice_extra text,
        version integer not null default 1,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now()
      );
      create unique index object_agreements_object_idx on object_agreements (business_object_id);
      create index object_agreements_agreement_idx on object_agreements (agreement_id);
      -- the generation run and the upcoming list read agreements by their next date
      create index object_agreements_invoice_due_idx on object_agreements (invoice_scheduled_to, id) where invoice_scheduled_to is not null;
      create index object_agreements_wo_due_idx on object_agreements (wo_scheduled_to, id) where wo_scheduled_to is not null;

      create table object_agreement_rows (
        id uuid primary key default gen_random_uuid(),
        object_agreement_id uuid not null references object_agreements (id) on delete cascade,
        kind text not null check (kind in ('wo', 'invoice')),
        article_id uuid references articles (id) on delete set null,
        title text not null default '' check (length(title) <= 500),
        description text,
        amount numeric(14, 3) not null default 1,
        price numeric(14, 2) not null default 0 check (price >= 0),
        discount_type text not null default 'NONE' check (discount_type in ('PERCENTAGE', 'REGULAR', 'NONE')),
        discount_value numeric(14, 2) not null default 0 check (discount_value >= 0),
        sort_order integer not null default 0
      );
      create index object_agreement_rows_idx on object_agreement_rows (object_agreement_id, kind, sort_order);

      alter table work_orders
        add column object_agreement_id uuid references object_agreements (id) on delete set null,
        add column agreement_period_from date;
      create unique index work_orders_agreement_period_idx on work_orders (object_agreement_id, agreement_period_from)
        where object_agreement_id is not null;

      alter table invoices
        add column object_agreement_id uuid references object_agreements (id) on delete set null,
        add column period_from date,
        add column period_to date;
      create unique index invoices_agreement_period_idx on invoices (object_agreement_id, period_from)
        where object_agreement_id is not null and status <> 'void';
      create index invoices_agreement_history_idx on invoices (period_from, id) where object_agreement_id is not null;

      create table agreement_runs (
        id uuid primary key default gen_random_uuid(),
        -- invoices for periods whose invoice date is on or before this day
        until_date date not null,
        status text not null default 'queued' check (status in ('queued', 'running', 'done', 'failed')),
        total integer not null default 0,
        done integer not null default 0,
        created integer not null default 0,
        -- [{objectAgreementId, serialCode, reason}]
        skipped jsonb not null default '[]',
        error text,
        create_user_id uuid references users (id) on delete set null,
        created_at timestamptz not null default now(),
        finished_at timestamptz
      );
      create index agreement_runs_recent_idx on agreement_runs (created_at desc);

      create table agreement_price_adjustments (
        id uuid primary key default gen_random_uuid(),
        percent numeric(6, 2) not null check (percent > -100 and percent <= 100),
        effective_from date not null,
        applied_at timestamptz,
        -- [{objectAgreementId, oldTotal, newTotal}] as applied
        result jsonb not null default '[]',
        create_user_id uuid references users (id) on delete set null,
        created_at timestamptz not null default now()
      );
      create table agreement_price_adjustment_targets (
        adjustment_id uuid not null references agreement_price_adjustments (id) on delete cascade,
        object_agreement_id uuid not null references object_agreements (id) on delete cascade,
        primary key (adjustment_id, object_agreement_id)
      );
      create index agreement_price_adjustments_due_idx on agreement_price_adjustments (effective_from) where applied_at is null;
    `);
  },
} satisfies Migration;
