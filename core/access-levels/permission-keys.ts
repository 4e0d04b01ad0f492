import type { AppModuleId } from '~/core/modules/app-modules';
import type { Permission, WorkOrderLimit } from '~/core/permissions/permissions';

/**
 * Translation keys of the `access` namespace, shared by the API's permission catalogue and the
 * editor. Pure, so the browser bundle can use it without the server's word tables.
 */

/** The permission groups of spec section 6, in the order the editor shows them. */
export const PERMISSION_GROUPS = ['workorder', 'inventory', 'other'] as const;
export type PermissionGroup = (typeof PERMISSION_GROUPS)[number];

/**
 * Key stem of a permission. i18next reads ':' as its namespace separator, so `workorders:close`
 * becomes `perm.workorders.close` (+ `.name` and `.description`).
 */
export function permissionKey(p: Permission): string {
  return `perm.${p.replaceAll(':', '.')}`;
}

export const permissionGroupKey = (g: PermissionGroup) => `group.${g}`;
export const workOrderLimitKey = (l: WorkOrderLimit) => `limit.${l}`;
export const appModuleKey = (m: AppModuleId) => `module.${m}`;
