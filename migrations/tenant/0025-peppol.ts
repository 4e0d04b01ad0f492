import type { Migration } from '~/core/db/migrate';

/**
 * What a Peppol e-invoice needs of a customer that the register did not hold (issue 15 item 4):
 * the customer's country (ISO 3166-1 alpha-2; null means the tenant's own, or the prefix of its VAT
 * number) decides the scheme of its electronic address, and an explicit Peppol participant id
 * (`<EAS scheme>:<id>`, e.g. `0088:7300010000001`) for a buyer whose address is not its
 * organisation number (a GLN, another registry, a public body's own).
 */
export default {
  name: '0025-peppol',
  async up(knex) {
    await knex.raw(`
      alter table customers
        add column country text check (country ~ '^[A-Z]{2}$'),
        add column peppol_id text check (peppol_id ~ '^[0-9]{4}:[^\\s:]{1,80}$')
    `);
  },
} satisfies Migration;
