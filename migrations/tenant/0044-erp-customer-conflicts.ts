import type { Migration } from '~/core/db/migrate';

/**
 * A customer's first delivery that met the ERP's own customers and could not tell which is Ordo's
 * (issue 31 item 10): Ordo's number held by another party there, several cards with its
 * organisation number, or one under another name. The office resolves it in Settings → ERP —
 * link to one of the candidates, or have a new customer made — and the deliveries it stopped go
 * again. One row per ERP kind and customer; `resolution` is {"createNew": true} while a chosen
 * "new customer" waits for its delivery (a chosen link is written straight to erp_mappings).
 */
export default {
  name: '0044-erp-customer-conflicts',
  async up(knex) {
    await knex.raw(`
      create table erp_customer_conflicts (
        kind text not null,
        customer_id uuid not null references customers (id) on delete cascade,
        reason text not null,
        -- the ERP's customers the office may link to: [{externalId, number, name, organizationalNumber, vatNumber}]
        candidates jsonb not null,
        vendor_message text,
        resolution jsonb,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now(),
        primary key (kind, customer_id)
      );
    `);
  },
} satisfies Migration;
