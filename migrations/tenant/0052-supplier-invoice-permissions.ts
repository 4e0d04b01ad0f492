import type { Migration } from '~/core/db/migrate';

/**
 * Issue 33: tenants made before supplier invoices (0048) have seeded access levels without their
 * permissions, so nobody but a `super` user could open `/supplierinvoices` and the responsible
 * technician could not approve an invoice's content. The seeded levels, while they keep their seeded
 * names, get what a new tenant's get (tenants/seed.ts): Administrator and Office read, edit and read
 * all, and handle supplier orders (0050 gave supplier_orders:edit only to levels that could already
 * edit supplier invoices, which these could not); Technician reads the invoices they are responsible for. A level an admin renamed or made is
 * theirs, and left as it is; a permission already there is not added twice.
 */
export default {
  name: '0052-supplier-invoice-permissions',
  async up(knex) {
    await knex.raw(`
      update access_levels
        set permissions = permissions || array(
          select p from unnest(array['supplier_invoices:read', 'supplier_invoices:edit', 'supplier_invoices:read_all',
                                     'supplier_orders:edit']) p
          where p <> all (permissions))
        where display_name in ('Administrator', 'Office');
      update access_levels
        set permissions = permissions || array['supplier_invoices:read']
        where display_name = 'Technician' and not ('supplier_invoices:read' = any (permissions));
    `);
  },
} satisfies Migration;
