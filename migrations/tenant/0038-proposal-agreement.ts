import type { Migration } from '~/core/db/migrate';

/**
 * A proposal's monthly rows are billed by the object agreement made from it (issue 28 item 3): the
 * proposal remembers that agreement, so the screen links to it and does not offer it twice.
 */
export default {
  name: '0038-proposal-agreement',
  async up(knex) {
    await knex.raw(`
      alter table proposals add column object_agreement_id uuid references object_agreements (id) on delete set null;
    `);
  },
} satisfies Migration;
