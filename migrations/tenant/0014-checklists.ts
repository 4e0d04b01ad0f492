import type { Migration } from '~/core/db/migrate';

/**
 * Checklists (spec sections 2 and 3, app module `checklists`): templates made in the settings, each
 * for one or more work types, and the values filled in on a work order.
 *
 * A template's items are one jsonb array `[{id, label, type: check|text|number, required}]` in
 * order: they are always read and saved whole with their template and never queried one by one,
 * and filled values are keyed by the item's id, so renaming or reordering items keeps them. The
 * work types a template applies to are a link table (the order screen asks "templates for this work
 * type", served by its index). A template with filled checklists cannot be deleted (the foreign key
 * restricts; the service answers 409 CHECKLIST_IN_USE).
 */
export default {
  name: '0014-checklists',
  async up(knex) {
    await knex.raw(`
      create table checklists (
        id uuid primary key default gen_random_uuid(),
        title text not null,
        items jsonb not null default '[]'::jsonb check (jsonb_typeof(items) = 'array'),
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now()
      );
      create unique index checklists_title_idx on checklists (lower(title));

      create table checklist_work_types (
        checklist_id uuid not null references checklists (id) on delete cascade,
        work_type_id uuid not null references work_types (id) on delete cascade,
        primary key (checklist_id, work_type_id)
      );
      create index checklist_work_types_type_idx on checklist_work_types (work_type_id, checklist_id);

      create table work_order_checklists (
        id uuid primary key default gen_random_uuid(),
        work_order_id uuid not null references work_orders (id) on delete cascade,
        checklist_id uuid not null references checklists (id) on delete restrict,
        item_values jsonb not null default '{}'::jsonb check (jsonb_typeof(item_values) = 'object'),
        updated_by uuid references users (id) on delete set null,
        updated_at timestamptz not null default now(),
        unique (work_order_id, checklist_id)
      );
      create index work_order_checklists_checklist_idx on work_order_checklists (checklist_id);
    `);
  },
} satisfies Migration;
