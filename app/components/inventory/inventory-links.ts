import type { Auth } from '~/core/context';
import { hasAccess, type Access } from '~/core/permissions/access';

export interface InventoryLink {
  to: string;
  /** i18n key in the `inventory` namespace (plugins: in their own namespace, `ns:key`). */
  labelKey: string;
  access: Access;
}

/**
 * The registers under /inventory (spec section 2), in order. App-module plugins add theirs
 * through the registry (AppModule.inventoryLinks).
 */
export const INVENTORY_LINKS: InventoryLink[] = [
  { to: '/inventory/customers', labelKey: 'nav.customers', access: { permission: 'customers:read' } },
  { to: '/inventory/objects', labelKey: 'nav.objects', access: { permission: 'bo:read' } },
  { to: '/inventory/models', labelKey: 'nav.models', access: { permission: 'models:read' } },
  { to: '/inventory/articles', labelKey: 'nav.articles', access: { permission: 'articles:read' } },
  { to: '/inventory/suppliers', labelKey: 'nav.suppliers', access: { permission: 'suppliers:read' } },
];

export function visibleInventoryLinks(auth: Auth, links: InventoryLink[]) {
  return links.filter((l) => hasAccess(auth, l.access)).map(({ to, labelKey }) => ({ to, labelKey }));
}
