import type { Migration } from '~/core/db/migrate';

/**
 * Issue 33 item 6, supplier catalogues (decision 056): a wholesaler's price file, loaded as a whole
 * and searched from the article pickers.
 *
 * - supplier_catalogues: one row per supplier with a catalogue: the column mappings last used for
 *   its price and discount files (offered the next time), and `current_import_id`, the import whose
 *   rows are the catalogue. A new file is loaded beside the old one and this pointer moves in one
 *   statement, so searches see the old catalogue or the new one, never half of one.
 * - supplier_catalogue_imports: an uploaded file (price list or discount list) and its loading:
 *   the stored file, the first rows shown for the mapping, the mapping, progress and the first rows
 *   refused with their reason.
 * - supplier_catalogue_articles: the rows of every import (the current one and, briefly, the one
 *   being loaded or the one being cleared). Search: the trigram index on `search_text` for text
 *   anywhere, (import_id, article_number) for browsing in order and for prefix.
 * - supplier_catalogue_discounts: the supplier's discount per discount group (percent off the
 *   purchase price), applied when the catalogue is read, so either file may come first.
 * - work_order_articles.ref, proposal_rows.ref: where a row picked from a catalogue came from
 *   (spec: ref {type: supplier-inventory, supplierId, …}).
 */
export default {
  name: '0051-supplier-catalogues',
  async up(knex) {
    await knex.raw(`
      create table supplier_catalogue_imports (
        id uuid primary key default gen_random_uuid(),
        supplier_id uuid not null references suppliers (id) on delete cascade,
        kind text not null check (kind in ('prices', 'discounts')),
        status text not null default 'uploaded'
          check (status in ('uploaded', 'queued', 'running', 'done', 'failed', 'replaced')),
        storage_key text not null,
        file_name text not null,
        file_size bigint not null,
        file_format text not null check (file_format in ('csv', 'xlsx')),
        preview jsonb not null,
        mapping jsonb,
        rows_done integer not null default 0,
        rows_failed integer not null default 0,
        bytes_done bigint not null default 0,
        errors jsonb not null default '[]',
        error text,
        create_user_id uuid references users (id) on delete set null,
        created_at timestamptz not null default now(),
        started_at timestamptz,
        -- the last batch written: a load that stops moving (its process died) is shown as failed
        progressed_at timestamptz,
        finished_at timestamptz
      );
      create index supplier_catalogue_imports_supplier_idx
        on supplier_catalogue_imports (supplier_id, kind, created_at desc);

      create table supplier_catalogues (
        supplier_id uuid primary key references suppliers (id) on delete cascade,
        price_mapping jsonb,
        discount_mapping jsonb,
        current_import_id uuid references supplier_catalogue_imports (id) on delete set null,
        article_count integer not null default 0,
        imported_at timestamptz,
        discounts_imported_at timestamptz
      );
      create index supplier_catalogues_current_idx on supplier_catalogues (current_import_id);

      create table supplier_catalogue_articles (
        id bigint generated always as identity primary key,
        import_id uuid not null references supplier_catalogue_imports (id) on delete cascade,
        supplier_id uuid not null,
        article_number text not null check (length(article_number) between 1 and 100),
        title text not null check (length(title) <= 500),
        description text check (length(description) <= 2000),
        unit text check (length(unit) <= 20),
        purchase_price numeric(14, 4) check (purchase_price >= 0),
        recommended_price numeric(14, 2) check (recommended_price >= 0),
        discount_group text check (length(discount_group) <= 50),
        search_text text generated always as (lower(article_number || ' ' || title)) stored
      );
      create index supplier_catalogue_articles_number_idx
        on supplier_catalogue_articles (import_id, article_number);
      create index supplier_catalogue_articles_search_idx
        on supplier_catalogue_articles using gin (search_text public.gin_trgm_ops);

      create table supplier_catalogue_discounts (
        supplier_id uuid not null references suppliers (id) on delete cascade,
        discount_group text not null check (length(discount_group) between 1 and 50),
        percent numeric(7, 3) not null check (percent between 0 and 100),
        primary key (supplier_id, discount_group)
      );

      alter table work_order_articles add column ref jsonb;
      alter table proposal_rows add column ref jsonb;
    `);
  },
} satisfies Migration;
