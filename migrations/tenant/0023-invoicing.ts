import type { Migration } from '~/core/db/migrate';

/**
 * Invoicing and ERP delivery (issue 14; spec sections 3, 4, 8 and 9; decision 025).
 *
 * - invoice_settings: the tenant's invoice rules (labour from time rows, travel, mileage, rounding of
 *   minutes), whether closing leaves a draft to review, and the gapless invoice numbering.
 * - invoice_labour_articles: the labour article per work type or per person (a person's wins).
 * - articles.vat_percent: an article's VAT rate when it is not the tenant's default (books 6 %…).
 * - invoices and invoice_rows: what Swedish invoices need (VAT per row, labour or material for ROT and
 *   RUT, the reduction, OCR, öre rounding, the ERP's state and number), and sales-order invoices.
 * - erp_connection: the tenant's one ERP (kind, sealed credentials, accounts); erp_mappings: the
 *   vendor's ids of our customers and articles; erp_deliveries: the outbox a job delivers from.
 */
export default {
  name: '0023-invoicing',
  async up(knex) {
    await knex.raw(`
      create table invoice_settings (
        id boolean primary key default true check (id),
        next_invoice_nr bigint not null default 1 check (next_invoice_nr > 0),
        -- closing leaves a draft someone checks and sends; off: the invoice is final and goes at once
        review_before_sending boolean not null default false,
        bill_time boolean not null default true,
        labour_article_id uuid references articles (id) on delete set null,
        bill_travel_time boolean not null default false,
        travel_article_id uuid references articles (id) on delete set null,
        -- each person's minutes are rounded up to this many (0: exact)
        time_rounding_minutes integer not null default 0 check (time_rounding_minutes in (0, 5, 10, 15, 30, 60)),
        mileage_article_id uuid references articles (id) on delete set null,
        -- the bank account printed beside the bankgiro (IBAN for foreign payers)
        bank_account text check (length(bank_account) <= 50),
        ocr boolean not null default true,
        updated_at timestamptz not null default now()
      );
      insert into invoice_settings default values;

      create table invoice_labour_articles (
        id uuid primary key default gen_random_uuid(),
        work_type_id uuid references work_types (id) on delete cascade,
        user_id uuid references users (id) on delete cascade,
        article_id uuid not null references articles (id) on delete cascade,
        check (num_nonnulls(work_type_id, user_id) = 1)
      );
      create unique index invoice_labour_articles_type_idx on invoice_labour_articles (work_type_id) where work_type_id is not null;
      create unique index invoice_labour_articles_user_idx on invoice_labour_articles (user_id) where user_id is not null;

      alter table articles add column vat_percent numeric(5, 2) check (vat_percent in (25, 12, 6, 0));

      alter table invoices drop constraint invoices_status_check;
      alter table invoices
        add constraint invoices_status_check check (status in ('draft', 'finalized', 'void')),
        add column sales_order_id uuid references sales_orders (id) on delete set null,
        add column invoice_sequence bigint,
        add column ocr text,
        add column bg_account text,
        add column bank_account text,
        add column payment_term_days integer not null default 30 check (payment_term_days between 0 and 365),
        add column our_reference text,
        add column your_reference text,
        add column customer_order_number text,
        add column footer_text text,
        add column tax_reduction text not null default 'none' check (tax_reduction in ('none', 'ROT', 'RUT', 'green')),
        add column property_designation text,
        add column housing_org_nr text,
        -- [{personId, used?}]: who shares the reduction
        add column tax_reduction_persons jsonb not null default '[]',
        add column vat_total numeric(14, 2) not null default 0,
        add column rounding numeric(14, 2) not null default 0,
        add column tax_reduction_amount numeric(14, 2) not null default 0,
        add column to_pay numeric(14, 2) not null default 0,
        add column currency text not null default 'SEK',
        add column version integer not null default 1,
        add column finalized_at timestamptz,
        add column finalized_user_id uuid references users (id) on delete set null,
        -- the ERP side: spec ERP invoice state and the ERP's own number
        add column erp_state text check (erp_state in ('unknown', 'success', 'not_sent.zero_price')),
        add column external_invoice_nr text,
        add column update_ts timestamptz not null default now();
      create unique index invoices_sequence_idx on invoices (invoice_sequence) where invoice_sequence is not null;
      create unique index invoices_sales_order_idx on invoices (sales_order_id) where sales_order_id is not null and unlinked_at is null;
      create index invoices_list_idx on invoices (invoice_date desc, id desc);
      create index invoices_status_date_idx on invoices (status, invoice_date desc, id desc);

      alter table invoice_rows drop constraint invoice_rows_kind_check;
      alter table invoice_rows
        add constraint invoice_rows_kind_check check (kind in ('article', 'labour', 'travel', 'mileage', 'fee', 'text')),
        add column article_number text,
        add column unit text,
        add column vat_percent numeric(5, 2) not null default 25 check (vat_percent in (25, 12, 6, 0)),
        add column work text not null default 'material' check (work in ('labour', 'material')),
        add column green text check (green in ('solar', 'storage', 'charger')),
        -- a labour row's person (time rows), for the invoice to say who worked
        add column user_id uuid references users (id) on delete set null;

      create table erp_connection (
        id boolean primary key default true check (id),
        kind text not null default 'none',
        -- sealed JSON (core/crypto): tokens or the API key
        credentials text,
        accounts jsonb not null default '{"sales": {}}',
        company_name text,
        connected_at timestamptz,
        -- an OAuth round trip in progress: the state we sent, until when it is good
        oauth_state text,
        oauth_state_expires_at timestamptz,
        last_test_at timestamptz,
        last_test_error text,
        updated_at timestamptz not null default now()
      );
      insert into erp_connection default values;

      create table erp_mappings (
        kind text not null,
        entity text not null check (entity in ('customer', 'article')),
        local_id uuid not null,
        external_id text not null,
        updated_at timestamptz not null default now(),
        primary key (kind, entity, local_id)
      );

      create table erp_deliveries (
        id uuid primary key default gen_random_uuid(),
        invoice_id uuid not null references invoices (id) on delete cascade,
        kind text not null,
        -- the same on every try of this delivery: the ERP's external reference
        idempotency_key text not null unique,
        status text not null default 'pending' check (status in ('pending', 'sending', 'delivered', 'failed', 'skipped')),
        attempts integer not null default 0,
        next_attempt_at timestamptz not null default now(),
        -- a worker holds a 'sending' row until then; after it, the row is due again (the worker died)
        lease_until timestamptz,
        error_code text,
        error_text text,
        external_id text,
        external_invoice_nr text,
        create_user_id uuid references users (id) on delete set null,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now(),
        delivered_at timestamptz
      );
      create index erp_deliveries_due_idx on erp_deliveries (next_attempt_at) where status in ('pending', 'sending');
      create unique index erp_deliveries_live_idx on erp_deliveries (invoice_id) where status in ('pending', 'sending', 'delivered');
      create index erp_deliveries_invoice_idx on erp_deliveries (invoice_id, created_at desc);
      create index erp_deliveries_recent_idx on erp_deliveries (updated_at desc);
    `);
  },
} satisfies Migration;
