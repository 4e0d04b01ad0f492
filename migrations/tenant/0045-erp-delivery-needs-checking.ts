import type { Migration } from '~/core/db/migrate';

/**
 * Issue 31 item 8: a delivery whose plugin cannot tell whether the vendor already holds the invoice
 * (no look-up it can trust, or the key found twice) stops as `needs_checking` with the vendor's
 * reference in external_id, instead of sending again and booking the invoice twice. It is not due
 * (the due index and the claim take pending and sending only); a retry by hand makes it pending.
 */
export default {
  name: '0045-erp-delivery-needs-checking',
  async up(knex) {
    await knex.raw(`
      alter table erp_deliveries drop constraint erp_deliveries_status_check;
      alter table erp_deliveries add constraint erp_deliveries_status_check
        check (status in ('pending', 'sending', 'delivered', 'failed', 'skipped', 'needs_checking'));
    `);
  },
} satisfies Migration;
