import type { Migration } from '~/core/db/migrate';

/**
 * Issue 34 (decision 058): deviations — findings that get an owner, a fix and a trend.
 *
 * - deviation_categories: the tenant's list (name 2–50, unique regardless of case) and who is
 *   notified when a deviation of that category is raised (`notify_user_ids`).
 * - deviations: one finding. `status` open/closed; `change_state` is null unless a change is needed
 *   (started → defined → needs_work → approved; approved names who and when). `overdue_mailed_at`
 *   marks the one overdue mail, so a duplicated job sends nothing twice.
 * - deviation_relations: what it is about (work order, object, customer, project, supplier, supplier
 *   invoice or order, a failed service-report field as report id + "pageId.fieldId"). The target is
 *   checked to exist when set; `(kind, target_id)` serves the record pages' open deviations.
 * - The seeded Technician level (while it keeps its name) may raise and read deviations, as a new
 *   tenant's does (tenants/seed.ts); Administrator and Office have every deviation permission already.
 */
export default {
  name: '0054-deviations',
  async up(knex) {
    await knex.raw(`
      create table deviation_categories (
        id uuid primary key default gen_random_uuid(),
        name text not null check (length(name) between 2 and 50),
        notify_user_ids uuid[] not null default '{}',
        created_at timestamptz not null default now()
      );
      create unique index deviation_categories_name_idx on deviation_categories (lower(name));

      create table deviations (
        id uuid primary key default gen_random_uuid(),
        number integer generated always as identity unique,
        title text not null check (length(title) between 1 and 200),
        description text,
        category_id uuid references deviation_categories (id) on delete restrict,
        occurred_on date not null,
        status text not null default 'open' check (status in ('open', 'closed')),
        responsible_user_id uuid references users (id) on delete set null,
        due_date date,
        short_term_solution text,
        long_term_solution text,
        change_needed boolean not null default false,
        change_state text check (change_state in ('started', 'defined', 'needs_work', 'approved')),
        approved_by uuid references users (id) on delete set null,
        approved_at timestamptz,
        close_comment text,
        closed_at timestamptz,
        closed_by uuid references users (id) on delete set null,
        overdue_mailed_at timestamptz,
        search_text text not null default '',
        created_by uuid references users (id) on delete set null,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now(),
        check ((status = 'closed') = (closed_at is not null)),
        check (change_needed or change_state is null),
        check ((change_state = 'approved') = (approved_at is not null))
      );
      -- the list: newest first, by status; the dashboard's counts and trend
      create index deviations_status_created_idx on deviations (status, created_at desc, id desc);
      create index deviations_category_idx on deviations (category_id, status);
      create index deviations_responsible_idx on deviations (responsible_user_id, status);
      create index deviations_overdue_idx on deviations (due_date) where status = 'open' and due_date is not null;
      create index deviations_created_idx on deviations (created_at);
      create index deviations_closed_at_idx on deviations (closed_at) where closed_at is not null;
      create index deviations_search_idx on deviations using gin (search_text public.gin_trgm_ops);

      create table deviation_relations (
        id uuid primary key default gen_random_uuid(),
        deviation_id uuid not null references deviations (id) on delete cascade,
        kind text not null check (kind in
          ('work_order', 'object', 'customer', 'project', 'supplier', 'supplier_invoice', 'supplier_order', 'service_report')),
        target_id uuid not null,
        field text check (field is null or length(field) <= 200)
      );
      create unique index deviation_relations_unique_idx
        on deviation_relations (deviation_id, kind, target_id, coalesce(field, ''));
      create index deviation_relations_target_idx on deviation_relations (kind, target_id);

      update access_levels
        set permissions = permissions || array(
          select p from unnest(array['deviations:create', 'deviations:read']) p where p <> all (permissions))
        where display_name = 'Technician';
    `);
  },
} satisfies Migration;
