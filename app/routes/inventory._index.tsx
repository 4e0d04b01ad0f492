import { redirect } from 'react-router';
import type { Route } from './+types/inventory._index';
import { guard, requireAuth } from '~/app/lib/guard.server';
import { INVENTORY_LINKS, visibleInventoryLinks } from '~/app/components/inventory/inventory-links';
import { pluginInventoryLinks } from '~/app/lib/plugin-links.server';
import { SIGNED_IN } from '~/core/permissions/access';
import { pageTitle } from '~/app/lib/page-title';

/** /inventory opens the first register the person may read (the layout says so when there is none). */
export const middleware = guard(SIGNED_IN);

export function loader({ context }: Route.LoaderArgs) {
  const first = visibleInventoryLinks(requireAuth(context), [...INVENTORY_LINKS, ...pluginInventoryLinks()])[0];
  if (first) throw redirect(first.to);
  return null;
}

/** The page's `<title>` (app/lib/page-title.ts). */
export const handle = pageTitle('nav.inventory');

export default function InventoryIndex() {
  return null;
}
