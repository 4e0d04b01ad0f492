import type { Migration } from '~/core/db/migrate';

/**
 * Door automatics (spec section 3): the automatic door operators installed at an object. The
 * number is the door automatic ID people use, unique (spec section 5). Applied to every tenant
 * schema, whether or not the tenant has the module on.
 */
export default {
  name: '0001-door-automatics',
  async up(knex) {
    await knex.raw(`
      create table door_automatics (
        id uuid primary key default gen_random_uuid(),
        number text not null,
        title text not null,
        business_object_id uuid not null references business_objects (id) on delete restrict,
        serial_code text,
        brand text,
        model text,
        location text,
        warranty_until date,
        sensor text,
        notes text,
        -- a picture of the installation: an https URL
        image text,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now()
      );
      create unique index door_automatics_number_idx on door_automatics (lower(number));
      create index door_automatics_order_idx on door_automatics (lower(number), id);
      create index door_automatics_bo_idx on door_automatics (business_object_id, lower(number));
      alter table door_automatics add column search_text text generated always as (lower(
        number || ' ' || title || ' ' || coalesce(serial_code, '') || ' ' || coalesce(brand, '') || ' ' ||
        coalesce(model, '') || ' ' || coalesce(location, '')
      )) stored;
      create index door_automatics_search_idx on door_automatics using gin (search_text public.gin_trgm_ops);
    `);
  },
} satisfies Migration;
