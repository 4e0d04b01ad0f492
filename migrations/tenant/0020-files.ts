import type { Migration } from '~/core/db/migrate';

/**
 * Files, folders and links (spec section 3 "File and folder"; issue 12), on a record (customer,
 * object, model, article, door automatic, work order, proposal, project) or in the drive
 * (owner_type 'drive', no owner). The bytes live in the FileStore under `storage_key` (random, never
 * the name); a thumbnail of an image under `thumb_key`. Deleting a folder deletes what it holds
 * (the service collects their storage keys first and deletes the bytes after commit).
 *
 * Indexes: a record's or a drive folder's listing in its order; the drive's recent files; search
 * by name (trigram, as the registers).
 *
 * file_storage keeps the bytes stored, kept by triggers on insert and delete (a folder's cascade
 * included; a file's size never changes). The upload's quota check reads it after its insert, in
 * the same transaction: the row is then locked, so two uploads cannot both pass a quota only one fits.
 */
export default {
  name: '0020-files',
  async up(knex) {
    await knex.raw(`
      create table files (
        id uuid primary key default gen_random_uuid(),
        -- customer, bo, model, article, wo, proposal, project, drive, or a plugin's kind (core/files/owners.ts)
        owner_type text not null check (owner_type ~ '^[a-z_]{1,30}$'),
        owner_id uuid,
        folder_id uuid references files (id) on delete cascade,
        kind text not null check (kind in ('file', 'folder', 'link')),
        name text not null check (length(name) between 1 and 255),
        link text check (length(link) <= 2000),
        storage_key text unique,
        thumb_key text,
        content_type text,
        size bigint not null default 0 check (size >= 0),
        sort_order integer not null default 0,
        is_default boolean not null default false,
        -- published to this customer's customer zone
        published_customer_id uuid references customers (id) on delete set null,
        published_at timestamptz,
        published_by uuid references users (id) on delete set null,
        created_by uuid references users (id) on delete set null,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now(),
        check ((owner_type = 'drive') = (owner_id is null)),
        check ((kind = 'file') = (storage_key is not null)),
        check ((kind = 'link') = (link is not null))
      );
      create index files_owner_idx on files (owner_type, owner_id, folder_id, sort_order, id);
      create index files_folder_idx on files (folder_id) where folder_id is not null;
      create index files_recent_idx on files (owner_type, created_at desc, id) where kind = 'file';
      create index files_published_idx on files (published_customer_id, published_at desc) where published_at is not null;
      create index files_name_idx on files using gin (lower(name) public.gin_trgm_ops);

      create table file_storage (
        id integer primary key default 1 check (id = 1),
        bytes bigint not null default 0
      );
      insert into file_storage (bytes) values (0);
      create function file_storage_track() returns trigger language plpgsql as $$
      begin
        if tg_op = 'INSERT' then
          update file_storage set bytes = bytes + new.size;
        else
          update file_storage set bytes = bytes - old.size;
        end if;
        return null;
      end $$;
      create trigger files_storage_insert after insert on files
        for each row when (new.size <> 0) execute function file_storage_track();
      create trigger files_storage_delete after delete on files
        for each row when (old.size <> 0) execute function file_storage_track();

      create table file_favourites (
        user_id uuid not null references users (id) on delete cascade,
        file_id uuid not null references files (id) on delete cascade,
        created_at timestamptz not null default now(),
        primary key (user_id, file_id)
      );
      create index file_favourites_file_idx on file_favourites (file_id);
    `);
  },
} satisfies Migration;
