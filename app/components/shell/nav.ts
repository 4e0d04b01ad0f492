import type { Auth } from '~/core/context';
import { hasAccess, type Access } from '~/core/permissions/access';

/** A count the top bar shows beside a link (app-layout's loader counts it; red, 99+ above 99). */
export type NavBadge = 'agreementInvoices' | 'supplierInvoices';

/**
 * The menus the top bar groups its links under (decision 038); a link without one stands alone in
 * the bar, one click away. Labels: `nav.group.<id>` (common namespace).
 */
export const NAV_GROUPS = ['sales', 'finance', 'registers'] as const;
export type NavGroup = (typeof NAV_GROUPS)[number];

export interface NavLink {
  to: string;
  /** i18n key (common namespace) of the label. */
  labelKey: string;
  access: Access;
  badge?: NavBadge;
  /** The menu that holds the link; none: the link stands alone in the bar. */
  group?: NavGroup;
}

/**
 * The top bar's links (spec section 2). Each capability adds its link here when it lands; app-module
 * plugins add theirs through the registry. The most used areas stand alone; the rest sit in the
 * menus of NAV_GROUPS, in this order.
 */
export const NAV_LINKS: NavLink[] = [
  { to: '/', labelKey: 'nav.workOrders', access: { permission: 'workorders:read' } },
  { to: '/projects', labelKey: 'nav.projects', access: { permission: 'projects:read', module: 'projects' } },
  { to: '/time', labelKey: 'nav.time', access: { permission: 'timereports:read_own' } },
  {
    to: '/proposals',
    labelKey: 'nav.proposals',
    access: { permission: 'proposal:read', module: 'crm' },
    group: 'sales',
  },
  { to: '/sales', labelKey: 'nav.sales', access: { permission: 'salesorder:read', module: 'crm' }, group: 'sales' },
  {
    to: '/agreements',
    labelKey: 'nav.agreements',
    access: { permission: 'agreements:read' },
    // agreement invoices due by today and not yet made
    badge: 'agreementInvoices',
    group: 'sales',
  },
  {
    to: '/contracts',
    labelKey: 'nav.contracts',
    access: { permission: 'contracts:read', module: 'contracts' },
    group: 'sales',
  },
  { to: '/invoices', labelKey: 'nav.invoices', access: { permission: 'invoices:read' }, group: 'finance' },
  {
    to: '/supplierinvoices',
    labelKey: 'nav.supplierInvoices',
    access: { permission: 'supplier_invoices:read', module: 'supplier_invoices' },
    // supplier invoices waiting for something this person can do (issue 33)
    badge: 'supplierInvoices',
    group: 'finance',
  },
  { to: '/reports', labelKey: 'nav.reports', access: { permission: 'reports:read' }, group: 'finance' },
  {
    to: '/dashboard',
    labelKey: 'nav.dashboard',
    access: { permission: 'dashboard:read', module: 'dashboard' },
    group: 'finance',
  },
  // statistics (issue 36 item 2): the statistics module and dashboard:read (spec section 2/6)
  {
    to: '/statistics',
    labelKey: 'nav.statistics',
    access: { permission: 'dashboard:read', module: 'statistics' },
    group: 'finance',
  },
  // The registers open the first tab the person may read (spec section 2: /inventory, gate not shown).
  { to: '/inventory', labelKey: 'nav.inventory', access: { permission: 'signed-in' }, group: 'registers' },
  { to: '/drive', labelKey: 'nav.drive', access: { permission: 'drive:read', module: 'drive' }, group: 'registers' },
  // deviations (issue 34): the dashboard, the list one tab away
  {
    to: '/deviations',
    labelKey: 'nav.deviations',
    access: { permission: 'deviations:read', module: 'deviations' },
    group: 'registers',
  },
];

/** A link as the browser gets it: what the person may open, nothing about why. */
export interface ShownNavLink {
  to: string;
  labelKey: string;
  badge?: NavBadge;
  group?: NavGroup;
}

/** The one place that decides which links a person sees: their permissions and the tenant's modules. */
export function visibleLinks(auth: Auth, links: NavLink[]): ShownNavLink[] {
  return links
    .filter((l) => hasAccess(auth, l.access))
    .map(({ to, labelKey, badge, group }) => ({
      to,
      labelKey,
      ...(badge ? { badge } : {}),
      ...(group ? { group } : {}),
    }));
}

export type NavEntry<L extends { group?: NavGroup }> =
  { kind: 'link'; link: L } | { kind: 'menu'; group: NavGroup; links: L[] };

/**
 * The bar's entries in order: the lone links, then one menu per group. A group the person sees only
 * one link of is that link, alone (a menu of one is a click for nothing).
 */
export function navEntries<L extends { group?: NavGroup }>(links: L[]): NavEntry<L>[] {
  const alone: NavEntry<L>[] = links.filter((l) => !l.group).map((link) => ({ kind: 'link', link }));
  const grouped = NAV_GROUPS.flatMap((group): NavEntry<L>[] => {
    const inGroup = links.filter((l) => l.group === group);
    if (inGroup.length === 0) return [];
    if (inGroup.length === 1) return [{ kind: 'link', link: inGroup[0]! }];
    return [{ kind: 'menu', group, links: inGroup }];
  });
  return [...alone, ...grouped];
}
