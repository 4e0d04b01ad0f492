import type { Trx } from '~/core/db/with-tenant';
import { DEFAULT_APP_MODULES } from '~/core/modules/app-modules';
import { PERMISSIONS, type Permission, type WorkOrderLimit } from '~/core/permissions/permissions';
import { SYSTEM_ACCESS_LEVELS } from '~/core/access-levels/system-levels';

const [ADMINISTRATOR, OFFICE, TECHNICIAN] = SYSTEM_ACCESS_LEVELS;

const OFFICE_EXCLUDED = new Set<Permission>([
  'accesslevels:edit',
  'users:edit',
  'instance:edit',
  'settings:import_export',
]);

/**
 * The access levels every new tenant starts with; admins edit them later. Stored in English and
 * shown in the reader's language while unchanged (core/access-levels/system-levels.ts).
 */
export const DEFAULT_ACCESS_LEVELS: {
  displayName: string;
  description: string;
  permissions: readonly Permission[];
  limit: WorkOrderLimit;
}[] = [
  { ...ADMINISTRATOR, permissions: PERMISSIONS, limit: 'none' },
  {
    ...OFFICE,
    permissions: PERMISSIONS.filter((p) => !OFFICE_EXCLUDED.has(p)),
    limit: 'none',
  },
  {
    ...TECHNICIAN,
    permissions: [
      'workorders:read',
      'workorders:edit',
      'workorders:report',
      'workorders:close',
      'workorders:report_articles',
      'workorders:files',
      'customers:read',
      'bo:read',
      'bo:files:read',
      'customers:files:read',
      'articles:read',
      // their own week, mileage and expenses; timereports:edit (anyone's time, unlocking months) is the office's
      'timereports:read_own',
      'drive:read',
      // the supplier invoices they are responsible for: their content is theirs to approve (issue 33)
      'supplier_invoices:read',
      // what they find on site is raised where they stand, and they see the deviations (issue 34)
      'deviations:create',
      'deviations:read',
    ],
    limit: 'user',
  },
];

/** Seeds what a tenant needs to be usable; every statement is idempotent. */
export async function seedTenant(trx: Trx): Promise<void> {
  for (const level of DEFAULT_ACCESS_LEVELS) {
    await trx.raw(
      `insert into access_levels (display_name, description, permissions, work_order_limit)
       values (?, ?, ?, ?) on conflict (lower(display_name)) do nothing`,
      [level.displayName, level.description, [...level.permissions], level.limit],
    );
  }
  await trx.raw(`insert into app_modules (id, enabled) select unnest(?::text[]), true on conflict (id) do nothing`, [
    [...DEFAULT_APP_MODULES],
  ]);
}
