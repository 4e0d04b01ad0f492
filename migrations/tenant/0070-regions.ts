import type { Migration } from '~/core/db/migrate';

/**
 * Issue 36 item 4, the regions module (decision 067): a register of regions that users, business
 * objects and projects belong to. A region is keyed by its name, which the three tables hold as a
 * foreign key that follows a rename (on update cascade) and keeps a region in use from being
 * deleted (on delete restrict): projects kept a free-text region (0031), whose text and search
 * column stay as they were, now limited to the register's names. The names projects already use
 * become the register's first rows.
 */
export default {
  name: '0070-regions',
  async up(knex) {
    await knex.raw(`
      create table regions (
        name text primary key check (length(name) between 1 and 100) check (name = btrim(name)),
        active boolean not null default true,
        created_at timestamptz not null default now()
      );
      create unique index regions_lower_name_idx on regions (lower(name));

      update projects set region = nullif(btrim(region), '') where region is distinct from nullif(btrim(region), '');
      -- one spelling per name ignoring case (the first in sort order), as the register is case-blind
      update projects p set region = f.first
        from (select lower(region) as key, min(region) as first from projects where region is not null group by 1) f
       where lower(p.region) = f.key and p.region <> f.first;
      insert into regions (name) select distinct region from projects where region is not null;

      alter table projects add constraint projects_region_fk
        foreign key (region) references regions (name) on update cascade on delete restrict;
      alter table users add column region text
        references regions (name) on update cascade on delete restrict;
      alter table business_objects add column region text
        references regions (name) on update cascade on delete restrict;
      create index users_region_idx on users (region) where region is not null;
      create index business_objects_region_idx on business_objects (region, id) where region is not null;
    `);
  },
} satisfies Migration;
