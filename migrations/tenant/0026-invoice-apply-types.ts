import type { Migration } from '~/core/db/migrate';

/**
 * The apply types a tenant turned off in Settings → Invoicing (issue 15 item 5): the invoice screen
 * offers what the ERP plugin can do minus these. A list of what is off, so an apply type added later
 * (Peppol) is offered until the tenant says otherwise.
 */
export default {
  name: '0026-invoice-apply-types',
  async up(knex) {
    await knex.raw(`alter table invoice_settings add column apply_types_off text[] not null default '{}'`);
  },
} satisfies Migration;
