import type { Migration } from '~/core/db/migrate';

/**
 * Invoice rows typed right (issue 28 item 4): a project's part of the contract sum and an
 * agreement's fee get kinds of their own, so the invoice and the ERP say "part payment" and "fee"
 * rather than "material" (core/invoicing/invoice-lines.ts invoiceRowType).
 */
export default {
  name: '0033-invoice-row-types',
  async up(knex) {
    await knex.raw(`
      alter table invoice_rows drop constraint invoice_rows_kind_check;
      alter table invoice_rows
        add constraint invoice_rows_kind_check
        check (kind in ('article', 'labour', 'travel', 'mileage', 'fee', 'part_payment', 'agreement_fee', 'text'));
    `);
  },
} satisfies Migration;
