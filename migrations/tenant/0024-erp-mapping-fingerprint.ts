import type { Migration } from '~/core/db/migrate';

/**
 * What the ERP last received of a mapped customer or article (a hash of the fields sent), so a
 * delivery asks the vendor about a customer or article only when it is new or has changed since:
 * under Fortnox's 25 requests per 5 seconds that is one request per invoice instead of five.
 */
export default {
  name: '0024-erp-mapping-fingerprint',
  async up(knex) {
    await knex.raw(`alter table erp_mappings add column fingerprint text`);
  },
} satisfies Migration;
