import type { Migration } from '~/core/db/migrate';

/**
 * Invoices (spec section 3, Invoice): the draft a work order's close creates, for the invoicing
 * capability and the ERP delivery to pick up later. One current invoice per work order: reopening
 * deletes a draft, and an invoice already in the ERP (erp_reference_id set) is kept but unlinked
 * from the order (unlinked_at), so closing again makes a fresh draft.
 *
 * The tenant's invoice options live with the other work-order options: whether the close dialog
 * offers an invoice fee, its default amount (spec section 9: 40) and the VAT percentage (25).
 */
export default {
  name: '0009-invoices',
  async up(knex) {
    await knex.raw(`
      alter table work_order_settings
        add column invoice_fee_enabled boolean not null default true,
        add column invoice_fee numeric(14, 2) not null default 40 check (invoice_fee >= 0),
        add column vat_percentage numeric(5, 2) not null default 25 check (vat_percentage between 0 and 100);

      create table invoices (
        id uuid primary key default gen_random_uuid(),
        status text not null default 'draft' check (status in ('draft', 'finalized')),
        invoice_nr text,
        work_order_id uuid references work_orders (id) on delete set null,
        customer_id uuid references customers (id) on delete restrict,
        invoice_date date not null,
        delivery_date date,
        payment_due_date date,
        marking text,
        description text,
        invoice_fee numeric(14, 2) check (invoice_fee >= 0),
        vat_percentage numeric(5, 2) not null default 25 check (vat_percentage between 0 and 100),
        reverse_vat boolean not null default false,
        -- without VAT, and with it
        total_price numeric(14, 2) not null default 0,
        total_price_vat numeric(14, 2) not null default 0,
        erp_reference_id text,
        -- the order was reopened after this invoice reached the ERP: kept, no longer the order's
        unlinked_at timestamptz,
        -- the spec's parts: instance, customer, workOrder, businessObject
        data jsonb not null default '{}',
        create_user_id uuid references users (id) on delete set null,
        create_ts timestamptz not null default now()
      );
      create unique index invoices_work_order_idx on invoices (work_order_id) where work_order_id is not null and unlinked_at is null;
      create index invoices_work_order_all_idx on invoices (work_order_id) where work_order_id is not null;
      create index invoices_customer_idx on invoices (customer_id, invoice_date desc);
      create index invoices_status_idx on invoices (status, create_ts desc);
      create index invoices_create_idx on invoices (create_ts desc, id desc);

      create table invoice_rows (
        id uuid primary key default gen_random_uuid(),
        invoice_id uuid not null references invoices (id) on delete cascade,
        article_id uuid references articles (id) on delete set null,
        title text not null,
        description text,
        amount numeric(14, 3) not null default 1,
        price numeric(14, 2) not null default 0,
        discount_type text check (discount_type in ('PERCENTAGE', 'REGULAR')),
        discount_value numeric(14, 2) check (discount_value >= 0),
        total numeric(14, 2) not null default 0,
        sort_order integer not null default 0,
        -- a text (comment) row: no price, not in the totals
        is_text boolean not null default false,
        -- what the row is: an article from the order, or the invoice fee
        kind text not null default 'article' check (kind in ('article', 'fee', 'text'))
      );
      create index invoice_rows_invoice_idx on invoice_rows (invoice_id, sort_order);
      create index invoice_rows_article_idx on invoice_rows (article_id) where article_id is not null;
    `);
  },
} satisfies Migration;
