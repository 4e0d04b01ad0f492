import type { Auth } from '~/core/context';
import { hasAccess, type Access } from '~/core/permissions/access';

export interface NavLink {
  to: string;
  /** i18n key (common namespace) of the label. */
  labelKey: string;
  access: Access;
}

/**
 * The top bar's links (spec section 2), in the spec's order. Each capability adds its link
 * here when it lands; app-module plugins add theirs through the registry.
 */
export const NAV_LINKS: NavLink[] = [
  { to: '/drive', labelKey: 'nav.drive', access: { permission: 'drive:read', module: 'drive' } },
  { to: '/proposals', labelKey: 'nav.proposals', access: { permission: 'proposal:read', module: 'crm' } },
  { to: '/sales', labelKey: 'nav.sales', access: { permission: 'salesorder:read', module: 'crm' } },
  { to: '/invoices', labelKey: 'nav.invoices', access: { permission: 'invoices:read' } },
  { to: '/', labelKey: 'nav.workOrders', access: { permission: 'workorders:read' } },
  // The registers open the first tab the person may read (spec section 2: /inventory, gate not shown).
  { to: '/inventory', labelKey: 'nav.inventory', access: { permission: 'signed-in' } },
  { to: '/dashboard', labelKey: 'nav.dashboard', access: { permission: 'dashboard:read', module: 'dashboard' } },
];

export function visibleLinks(auth: Auth, links: NavLink[]): { to: string; labelKey: string }[] {
  return links.filter((l) => hasAccess(auth, l.access)).map(({ to, labelKey }) => ({ to, labelKey }));
}
