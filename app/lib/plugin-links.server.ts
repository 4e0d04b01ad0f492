import { data, type MiddlewareFunction } from 'react-router';
import { authContext } from '~/app/context';
import type { InventoryLink } from '~/app/components/inventory/inventory-links';
import type { NavLink } from '~/app/components/shell/nav';
import { guard, type GuardMiddleware } from '~/app/lib/guard.server';
import { getRegistry } from '~/core/extension-points/registry';
import type { AppModuleId } from '~/core/modules/app-modules';
import { hasAccess, type Access } from '~/core/permissions/access';
import { isPermission } from '~/core/permissions/permissions';

/**
 * What app-module plugins add to the app: their inventory tabs, their top-bar links, and the guard
 * of their pages. A plugin's link carries its app module, so it shows only where the tenant has the
 * module on (and the person has the permission).
 */
export function pluginInventoryLinks(): InventoryLink[] {
  return [...getRegistry().appModules.values()].flatMap(({ instance }) =>
    (instance.inventoryLinks ?? []).map((l) => ({
      ...l,
      access: { ...l.access, module: l.access.module ?? instance.moduleId },
    })),
  );
}

export function pluginNavLinks(): NavLink[] {
  return [...getRegistry().appModules.values()].flatMap(({ instance }) =>
    (instance.navLinks ?? []).map((l) => ({
      to: l.to,
      labelKey: l.labelKey,
      group: l.group ?? 'registers',
      access: {
        permission: l.permission && isPermission(l.permission) ? l.permission : ('signed-in' as const),
        module: instance.moduleId,
      },
    })),
  );
}

/**
 * The guard of a plugin's page. While the tenant has the plugin's app module off, the page answers
 * 404 (the not-found page), as if it did not exist; user type super bypasses module gating, as
 * everywhere (spec section 6). Otherwise it is `guard(access)`: sign-in, then the permission.
 */
export function pluginGuard(moduleId: AppModuleId, access: Access): GuardMiddleware[] {
  const hidden: MiddlewareFunction<Response> = async ({ context }, next) => {
    const auth = context.get(authContext);
    if (auth && !hasAccess(auth, { permission: 'signed-in', module: moduleId }))
      throw data('not found', { status: 404 });
    return next();
  };
  return [hidden as GuardMiddleware, ...guard({ ...access, module: moduleId })];
}
