import type { Migration } from '~/core/db/migrate';

/**
 * Issue 33 item 5 (decision 055): supplier order confirmations.
 *
 * - supplier_orders: one confirmation as it arrived (a Peppol Order Response or a wholesaler's CSV),
 *   the supplier it came from, the work-order reference it carried and what became of it: `added`
 *   (its rows are on the work order), `error` (the reference named no open order; listed to be
 *   re-handled or discarded) or `discarded`. `supplier_key` (the supplier's id once matched, else the
 *   seller's identity as stated, as for supplier invoices) with the order number is unique: a
 *   confirmation posted twice is refused, naming the first, and adds nothing twice.
 * - supplier_order_rows: the confirmed lines (quantity, purchase price); each points to the
 *   work-order row it became.
 * - Access levels that handle supplier invoices (supplier_invoices:edit) may now handle supplier
 *   orders too (supplier_orders:edit); new tenants' Administrator and Office levels have it from
 *   the seeding (tenants/seed.ts: every permission but a few).
 */
export default {
  name: '0050-supplier-orders',
  async up(knex) {
    await knex.raw(`
      create table supplier_orders (
        id uuid primary key default gen_random_uuid(),
        source text not null check (source in ('peppol', 'csv')),
        supplier_id uuid references suppliers (id) on delete restrict,
        supplier_key text not null,
        seller_name text,
        seller_org_number text,
        seller_peppol_id text,
        order_number text not null check (length(order_number) between 1 and 100),
        response_id text,
        response_code text,
        order_date date,
        currency text not null default 'SEK',
        work_order_reference text,
        other_reference text,
        status text not null check (status in ('added', 'error', 'discarded')),
        work_order_id uuid references work_orders (id) on delete set null,
        handled_title text,
        handled_at timestamptz,
        handled_by uuid references users (id) on delete set null,
        discarded_at timestamptz,
        discarded_by uuid references users (id) on delete set null,
        document text,
        create_user_id uuid references users (id) on delete set null,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now(),
        check ((status = 'discarded') = (discarded_at is not null))
      );
      create unique index supplier_orders_number_idx on supplier_orders (supplier_key, lower(order_number));
      -- the list of orders in error (the past two months, newest first) and the dashboard's count
      create index supplier_orders_error_idx on supplier_orders (created_at desc, id desc) where status = 'error';
      create index supplier_orders_wo_idx on supplier_orders (work_order_id) where work_order_id is not null;
      create index supplier_orders_supplier_idx on supplier_orders (supplier_id) where supplier_id is not null;

      create table supplier_order_rows (
        id uuid primary key default gen_random_uuid(),
        supplier_order_id uuid not null references supplier_orders (id) on delete cascade,
        sort_order integer not null default 0,
        line_id text,
        description text not null,
        article_number text,
        amount numeric(14, 4) not null,
        unit text,
        price numeric(14, 4) not null,
        total numeric(14, 2) not null,
        work_order_article_id uuid references work_order_articles (id) on delete set null
      );
      create index supplier_order_rows_order_idx on supplier_order_rows (supplier_order_id, sort_order);

      update access_levels set permissions = array_append(permissions, 'supplier_orders:edit')
        where 'supplier_invoices:edit' = any (permissions) and not ('supplier_orders:edit' = any (permissions));
    `);
  },
} satisfies Migration;
