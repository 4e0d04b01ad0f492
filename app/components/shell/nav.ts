import type { Auth } from '~/core/context';
import { hasAccess, type Access } from '~/core/permissions/access';

/** A count the top bar shows beside a link (app-layout's loader counts it; red, 99+ above 99). */
export type NavBadge = 'agreementInvoices';

export interface NavLink {
  to: string;
  /** i18n key (common namespace) of the label. */
  labelKey: string;
  access: Access;
  badge?: NavBadge;
}

/**
 * The top bar's links (spec section 2), in the spec's order. Each capability adds its link
 * here when it lands; app-module plugins add theirs through the registry.
 */
export const NAV_LINKS: NavLink[] = [
  { to: '/drive', labelKey: 'nav.drive', access: { permission: 'drive:read', module: 'drive' } },
  { to: '/contracts', labelKey: 'nav.contracts', access: { permission: 'contracts:read', module: 'contracts' } },
  { to: '/projects', labelKey: 'nav.projects', access: { permission: 'projects:read', module: 'projects' } },
  {
    to: '/agreements',
    labelKey: 'nav.agreements',
    access: { permission: 'agreements:read' },
    // agreement invoices due by today and not yet made
    badge: 'agreementInvoices',
  },
  { to: '/proposals', labelKey: 'nav.proposals', access: { permission: 'proposal:read', module: 'crm' } },
  { to: '/sales', labelKey: 'nav.sales', access: { permission: 'salesorder:read', module: 'crm' } },
  { to: '/invoices', labelKey: 'nav.invoices', access: { permission: 'invoices:read' } },
  { to: '/time', labelKey: 'nav.time', access: { permission: 'timereports:read_own' } },
  { to: '/', labelKey: 'nav.workOrders', access: { permission: 'workorders:read' } },
  // The registers open the first tab the person may read (spec section 2: /inventory, gate not shown).
  { to: '/inventory', labelKey: 'nav.inventory', access: { permission: 'signed-in' } },
  { to: '/dashboard', labelKey: 'nav.dashboard', access: { permission: 'dashboard:read', module: 'dashboard' } },
  { to: '/reports', labelKey: 'nav.reports', access: { permission: 'reports:read' } },
];

export function visibleLinks(auth: Auth, links: NavLink[]): { to: string; labelKey: string; badge?: NavBadge }[] {
  return links
    .filter((l) => hasAccess(auth, l.access))
    .map(({ to, labelKey, badge }) => (badge ? { to, labelKey, badge } : { to, labelKey }));
}
