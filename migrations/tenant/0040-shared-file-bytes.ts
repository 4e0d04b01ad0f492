import type { Migration } from '~/core/db/migrate';

/**
 * A copied file shares its original's bytes (issue 30 item 1: no file-store call inside a unit of
 * work, so a revisit's copies are rows, not byte copies). The stored object goes when no file row
 * names it any more (core/files/files.service.ts `releaseStored`), which these indexes answer.
 */
export default {
  name: '0040-shared-file-bytes',
  async up(knex) {
    await knex.raw(`
      alter table files drop constraint if exists files_storage_key_key;
      create index files_storage_key_idx on files (storage_key) where storage_key is not null;
      create index files_thumb_key_idx on files (thumb_key) where thumb_key is not null;
    `);
  },
} satisfies Migration;
