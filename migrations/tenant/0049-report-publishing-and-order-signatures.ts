import type { Migration } from '~/core/db/migrate';

/**
 * Issue 32, the two parts decision 053 left out:
 *
 * - service_report_settings: one row, the tenant's say on service reports. `publish_to_customer_zone`:
 *   a generated report's PDF is published to the order's customer in the customer zone (off by
 *   default, as publishing by hand is a choice too).
 * - work_order_signatures (app module `workorder_signature`): the customer's signature of a work
 *   order with the printed name, the drawing (optional), the technician and the time. One current
 *   signature per order (`cleared_at is null`); a signature removed by hand or cleared by reopening
 *   the order stays as a row with when, by whom and why, so the order keeps every signature it had.
 */
export default {
  name: '0049-report-publishing-and-order-signatures',
  async up(knex) {
    await knex.raw(`
      create table service_report_settings (
        id boolean primary key default true check (id),
        publish_to_customer_zone boolean not null default false,
        updated_at timestamptz not null default now()
      );
      insert into service_report_settings (id) values (true);

      create table work_order_signatures (
        id uuid primary key default gen_random_uuid(),
        work_order_id uuid not null references work_orders (id) on delete cascade,
        signed_name text not null check (length(signed_name) between 1 and 200),
        -- a PNG data URL drawn on the pad; null when the signer typed the name only
        signature text check (length(signature) <= 400000),
        signed_at timestamptz not null,
        technician_id uuid references users (id) on delete set null,
        technician_name text,
        cleared_at timestamptz,
        cleared_by uuid references users (id) on delete set null,
        cleared_reason text check (cleared_reason in ('reopened', 'removed')),
        check ((cleared_at is null) = (cleared_reason is null))
      );
      create unique index work_order_signatures_current_idx on work_order_signatures (work_order_id)
        where cleared_at is null;
      create index work_order_signatures_order_idx on work_order_signatures (work_order_id, signed_at desc);
    `);
  },
} satisfies Migration;
