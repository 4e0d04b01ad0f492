import type { Migration } from '~/core/db/migrate';

/**
 * Issue 33 items 1–4 (decision 054): supplier invoices with two approvals.
 *
 * - suppliers gain the two identities an e-invoice names its seller by: the organisation number
 *   (PartyLegalEntity/CompanyID) and the Peppol participant id (EndpointID, "scheme:value").
 * - supplier_invoices: one invoice as it arrived (a Peppol BIS 3 / UBL 2.1 document, or a PDF with
 *   its fields typed by a person), what it matched (supplier, work order or project, the responsible
 *   person) and its two approvals. `supplier_key` is the supplier's id once matched, else the
 *   seller's identity as the invoice states it: with the invoice number it is unique, so one invoice
 *   arriving twice (an access point that retries) is refused, naming the first.
 * - supplier_invoice_rows: amount, price, VAT as invoiced; once the invoice is approved a row may be
 *   re-invoiced as an article row of the order (work_order_article_id).
 * - supplier_invoice_comments: the thread; a decline is a comment of kind 'decline'.
 * - supplier_invoice_deliveries: the ERP outbox of approved invoices (as erp_deliveries for sales
 *   invoices, decision 025): one live row per invoice, the same idempotency key on every try.
 * - supplier_invoice_settings: the inbound address's secret (only its SHA-256 is kept) and the
 *   tenant's re-invoicing rule (on or off, the markup in percent).
 * - erp_mappings may hold suppliers (the vendor's supplier number for ours).
 */
export default {
  name: '0048-supplier-invoices',
  async up(knex) {
    await knex.raw(`
      alter table suppliers add column organization_number text, add column peppol_id text;
      create index suppliers_org_number_idx on suppliers (regexp_replace(organization_number, '[^0-9A-Za-z]', '', 'g'))
        where organization_number is not null;
      create index suppliers_peppol_id_idx on suppliers (lower(peppol_id)) where peppol_id is not null;

      alter table erp_mappings drop constraint erp_mappings_entity_check;
      alter table erp_mappings add constraint erp_mappings_entity_check
        check (entity in ('customer', 'article', 'supplier'));

      create table supplier_invoice_settings (
        id boolean primary key default true check (id),
        inbound_secret_hash text,
        rebill boolean not null default false,
        rebill_markup numeric(7, 2) not null default 0 check (rebill_markup >= 0)
      );
      insert into supplier_invoice_settings (id) values (true);

      create table supplier_invoices (
        id uuid primary key default gen_random_uuid(),
        source text not null check (source in ('peppol', 'pdf', 'erp')),
        supplier_id uuid references suppliers (id) on delete restrict,
        supplier_key text not null,
        seller_name text,
        seller_org_number text,
        seller_peppol_id text,
        seller_vat_number text,
        invoice_number text not null check (length(invoice_number) between 1 and 100),
        invoice_type text not null default 'invoice' check (invoice_type in ('invoice', 'credit')),
        invoice_date date not null,
        due_date date,
        currency text not null default 'SEK',
        order_reference text,
        buyer_reference text,
        ocr text,
        work_order_id uuid references work_orders (id) on delete set null,
        project_id uuid references projects (id) on delete set null,
        responsible_user_id uuid references users (id) on delete set null,
        total_price numeric(14, 2) not null,
        total_vat numeric(14, 2) not null,
        fee numeric(14, 2),
        rounding numeric(14, 2) not null default 0,
        total numeric(14, 2) not null,
        status text not null default 'pending' check (status in ('pending', 'approved', 'declined')),
        content_approved_at timestamptz,
        content_approved_by uuid references users (id) on delete set null,
        payment_approved_at timestamptz,
        payment_approved_by uuid references users (id) on delete set null,
        declined_at timestamptz,
        declined_by uuid references users (id) on delete set null,
        document_xml text,
        file_id uuid references files (id) on delete set null,
        create_user_id uuid references users (id) on delete set null,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now(),
        check ((status = 'approved') = (payment_approved_at is not null)),
        check (payment_approved_at is null or content_approved_at is not null)
      );
      create unique index supplier_invoices_number_idx on supplier_invoices (supplier_key, lower(invoice_number));
      -- the duplicate check also finds the seller's earlier arrivals before they were matched
      create index supplier_invoices_invoice_number_idx on supplier_invoices (lower(invoice_number));
      create index supplier_invoices_status_idx on supplier_invoices (status, created_at desc, id desc);
      create index supplier_invoices_created_idx on supplier_invoices (created_at desc, id desc);
      create index supplier_invoices_responsible_idx on supplier_invoices (responsible_user_id, status, created_at desc);
      create index supplier_invoices_project_idx on supplier_invoices (project_id, created_at desc) where project_id is not null;
      create index supplier_invoices_wo_idx on supplier_invoices (work_order_id) where work_order_id is not null;
      create index supplier_invoices_supplier_idx on supplier_invoices (supplier_id) where supplier_id is not null;

      create table supplier_invoice_rows (
        id uuid primary key default gen_random_uuid(),
        supplier_invoice_id uuid not null references supplier_invoices (id) on delete cascade,
        sort_order integer not null default 0,
        description text not null,
        article_number text,
        amount numeric(14, 4) not null,
        unit text,
        price numeric(14, 4) not null,
        total numeric(14, 2) not null,
        vat_percent numeric(5, 2) not null,
        account text,
        work_order_article_id uuid references work_order_articles (id) on delete set null
      );
      create index supplier_invoice_rows_invoice_idx on supplier_invoice_rows (supplier_invoice_id, sort_order);

      create table supplier_invoice_comments (
        id uuid primary key default gen_random_uuid(),
        supplier_invoice_id uuid not null references supplier_invoices (id) on delete cascade,
        kind text not null default 'comment' check (kind in ('comment', 'decline')),
        text text not null check (length(text) between 1 and 4000),
        user_id uuid references users (id) on delete set null,
        created_at timestamptz not null default now()
      );
      create index supplier_invoice_comments_invoice_idx on supplier_invoice_comments (supplier_invoice_id, created_at);

      create table supplier_invoice_deliveries (
        id uuid primary key default gen_random_uuid(),
        supplier_invoice_id uuid not null references supplier_invoices (id) on delete cascade,
        kind text not null,
        idempotency_key text not null unique,
        status text not null default 'pending'
          check (status in ('pending', 'sending', 'delivered', 'failed')),
        attempts integer not null default 0,
        next_attempt_at timestamptz not null default now(),
        lease_until timestamptz,
        error_code text,
        error_text text,
        external_id text,
        external_nr text,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now(),
        delivered_at timestamptz
      );
      create index supplier_invoice_deliveries_due_idx on supplier_invoice_deliveries (next_attempt_at)
        where status in ('pending', 'sending');
      create unique index supplier_invoice_deliveries_invoice_idx on supplier_invoice_deliveries (supplier_invoice_id);
    `);
  },
} satisfies Migration;
