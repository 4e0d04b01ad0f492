import type { Migration } from '~/core/db/migrate';
import { builtInServiceReports } from '~/core/service-reports/built-in-templates';

/**
 * Service reports (issue 32; spec sections 1, 2, 6; app module `servicereports`).
 *
 * A template's pages and their fields are one jsonb array `[{id, title, fields: [{id, kind, label,
 * required, unit, min, max, options}]}]`: always read and saved whole, filled values keyed by page
 * and field id (as checklists, 0014). A template applies to work types (link table, the order
 * screen asks "templates of this work type") or is on demand (any order may start it). A template
 * used by a report cannot be deleted (foreign key restricts): it is deactivated instead.
 *
 * A report is one template filled on one order, once per door automatic when the template is
 * filled per door (`door_automatic_id`, no foreign key: the door-automatics plugin's tables may be
 * migrated after core's). It copies the order's object and customer so the object's service log
 * and "same as last time" read it by index. Signing locks it (`signed_at`); reopening copies the
 * signed version into `service_report_versions` first, so both versions' history stays.
 *
 * The three built-in templates are inserted here, so every tenant, old and new, starts with them;
 * they are ordinary rows afterwards (edited, deactivated, deleted like any other).
 */
export default {
  name: '0046-service-reports',
  async up(knex) {
    await knex.raw(`
      create table service_report_templates (
        id uuid primary key default gen_random_uuid(),
        title text not null check (length(title) between 1 and 100),
        description text not null default '' check (length(description) <= 2000),
        -- filled once per door automatic on the order
        per_door boolean not null default false,
        -- offered on every order, whatever its work type
        on_demand boolean not null default false,
        active boolean not null default true,
        -- which built-in template this started as; null for the tenant's own
        built_in text unique,
        pages jsonb not null default '[]'::jsonb check (jsonb_typeof(pages) = 'array'),
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now()
      );
      create unique index service_report_templates_title_idx on service_report_templates (lower(title));

      create table service_report_template_work_types (
        template_id uuid not null references service_report_templates (id) on delete cascade,
        work_type_id uuid not null references work_types (id) on delete cascade,
        primary key (template_id, work_type_id)
      );
      create index service_report_template_work_types_type_idx
        on service_report_template_work_types (work_type_id, template_id);

      create table service_reports (
        id uuid primary key default gen_random_uuid(),
        work_order_id uuid not null references work_orders (id) on delete cascade,
        template_id uuid not null references service_report_templates (id) on delete restrict,
        door_automatic_id uuid,
        business_object_id uuid references business_objects (id) on delete set null,
        customer_id uuid references customers (id) on delete set null,
        -- {<pageId>: {<fieldId>: value}}
        data jsonb not null default '{}'::jsonb check (jsonb_typeof(data) = 'object'),
        version integer not null default 1 check (version >= 1),
        email_targets text[] not null default '{}',
        signed_at timestamptz,
        signed_name text check (length(signed_name) <= 200),
        -- a PNG data URL drawn on the pad
        signature text check (length(signature) <= 400000),
        technician_id uuid references users (id) on delete set null,
        technician_name text,
        file_id uuid references files (id) on delete set null,
        updated_by uuid references users (id) on delete set null,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now(),
        check ((signed_at is null) = (signed_name is null)),
        unique nulls not distinct (work_order_id, template_id, door_automatic_id)
      );
      create index service_reports_template_idx on service_reports (template_id);
      create index service_reports_object_idx on service_reports (business_object_id, template_id, signed_at desc)
        where business_object_id is not null;
      create index service_reports_customer_idx on service_reports (customer_id, template_id, signed_at desc)
        where customer_id is not null;

      create table service_report_versions (
        id uuid primary key default gen_random_uuid(),
        report_id uuid not null references service_reports (id) on delete cascade,
        version integer not null,
        data jsonb not null,
        signed_at timestamptz not null,
        signed_name text not null,
        signature text,
        technician_name text,
        file_id uuid references files (id) on delete set null,
        reopened_by uuid references users (id) on delete set null,
        reopened_at timestamptz not null default now(),
        unique (report_id, version)
      );
    `);
    for (const t of builtInServiceReports()) {
      await knex.raw(
        `insert into service_report_templates (title, description, per_door, on_demand, built_in, pages)
         values (?, ?, ?, true, ?, ?::jsonb) on conflict do nothing`,
        [t.title, t.description, t.perDoor, t.key, JSON.stringify(t.pages)],
      );
    }
  },
} satisfies Migration;
