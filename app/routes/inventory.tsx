import { useTranslation } from 'react-i18next';
import { NavLink, Outlet } from 'react-router';
import type { Route } from './+types/inventory';
import { guard, requireAuth } from '~/app/lib/guard.server';
import { INVENTORY_LINKS, visibleInventoryLinks } from '~/app/components/inventory/inventory-links';
import { cx, FOCUS_RING, TOUCH_HEIGHT } from '~/app/components/ui/class-names';
import { pluginInventoryLinks } from '~/app/lib/plugin-links.server';
import { namespacesOfKeys } from '~/app/locales/key-namespaces';
import { SIGNED_IN } from '~/core/permissions/access';
import { pageTitle } from '~/app/lib/page-title';

/** The registers (spec section 2, /inventory): one tab per register the person may read. */
export const middleware = guard(SIGNED_IN);

export function loader({ context }: Route.LoaderArgs) {
  const auth = requireAuth(context);
  return { links: visibleInventoryLinks(auth, [...INVENTORY_LINKS, ...pluginInventoryLinks()]) };
}

/** The page's `<title>` (app/lib/page-title.ts). */
export const handle = pageTitle('nav.inventory');

export default function Inventory({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('inventory');
  // a plugin's register names its own namespace in its label key: ask for it, so the browser has it too
  const { t: linkLabel } = useTranslation(['inventory', ...namespacesOfKeys(loaderData.links.map((l) => l.labelKey))]);
  const link = ({ isActive }: { isActive: boolean }) =>
    cx(
      'inline-flex shrink-0 items-center rounded-md px-3 text-sm font-medium',
      TOUCH_HEIGHT.sm,
      FOCUS_RING,
      'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600',
      isActive ? 'bg-blue-50 text-blue-800' : 'text-gray-700 hover:bg-gray-100',
    );
  return (
    <div className="grid gap-4">
      <nav aria-label={t('nav.label')} className="-mx-1 flex gap-1 overflow-x-auto px-1 pb-1">
        {loaderData.links.map((l) => (
          <NavLink key={l.to} to={l.to} className={link}>
            {linkLabel(l.labelKey)}
          </NavLink>
        ))}
      </nav>
      {loaderData.links.length === 0 ? (
        <p className="rounded-xl bg-white p-6 text-sm text-slate-600 shadow-sm ring-1 ring-slate-200">
          {t('nav.none')}
        </p>
      ) : null}
      <Outlet />
    </div>
  );
}
