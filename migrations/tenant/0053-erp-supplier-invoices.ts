import type { Migration } from '~/core/db/migrate';

/**
 * Issue 33 item 1, its last part (decision 054 "Fetched from the ERP"): supplier invoices typed in
 * the ERP are fetched into Ordo.
 *
 * - supplier_invoices.erp_kind / erp_external_id: the ERP the invoice came from and its id there
 *   (Fortnox: GivenNumber). Unique together, so a second fetch of the same invoice (or two fetches
 *   at once) cannot store it twice; payment approval approves it there by this id.
 * - supplier_invoice_settings.erp_fetch_*: where the fetch got to (the plugin's cursor, per ERP
 *   kind), whether one is queued or running, and how the last one ended (when, how many new, how many
 *   already here, its error) for the settings call and the screen.
 */
export default {
  name: '0053-erp-supplier-invoices',
  async up(knex) {
    await knex.raw(`
      alter table supplier_invoices
        add column erp_kind text,
        add column erp_external_id text,
        add constraint supplier_invoices_erp_source_check
          check ((erp_external_id is null) = (erp_kind is null) and (source <> 'erp' or erp_external_id is not null));
      create unique index supplier_invoices_erp_external_idx
        on supplier_invoices (erp_kind, erp_external_id) where erp_external_id is not null;

      alter table supplier_invoice_settings
        add column erp_fetch_kind text,
        add column erp_fetch_cursor text,
        add column erp_fetch_state text not null default 'idle' check (erp_fetch_state in ('idle', 'queued', 'running')),
        add column erp_fetch_requested_at timestamptz,
        add column erp_fetched_at timestamptz,
        add column erp_fetch_new integer,
        add column erp_fetch_existing integer,
        add column erp_fetch_error text;
    `);
  },
} satisfies Migration;
