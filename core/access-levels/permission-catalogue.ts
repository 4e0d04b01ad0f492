import { resources } from '~/core/i18n/locales';
import type { Ctx } from '~/core/context';
import type { Lang } from '~/core/i18n/languages';
import { requireAccess } from '~/core/permissions/access';
import { PERMISSIONS, permissionGroup, type Permission } from '~/core/permissions/permissions';
import { permissionKey, type PermissionGroup } from './permission-keys';

/** Spec section 3 Permission: id, name, description; plus the editor group. */
export interface TPermissionInfo {
  id: Permission;
  name: string;
  description: string;
  group: PermissionGroup;
}

/**
 * The permission catalogue in one language. The words live with the UI's (`core/i18n/locales/<lang>/access.json`)
 * so the API and the editor never disagree; a missing text falls back to the id.
 */
export function permissionCatalogue(lang: Lang): TPermissionInfo[] {
  const words = resources[lang].access as Record<string, string>;
  return PERMISSIONS.map((id) => {
    const key = permissionKey(id);
    return {
      id,
      name: words[`${key}.name`] ?? id,
      description: words[`${key}.description`] ?? '',
      group: permissionGroup(id),
    };
  });
}

/** GET /acls/permissions: what an access level can grant, in the asking user's language. */
export function listPermissions(ctx: Ctx): TPermissionInfo[] {
  requireAccess(ctx.auth, { permission: 'accesslevels:read' });
  return permissionCatalogue(ctx.lang);
}
