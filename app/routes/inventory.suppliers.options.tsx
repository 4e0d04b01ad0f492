import type { Route } from './+types/inventory.suppliers.options';
import { guard, run } from '~/app/lib/guard.server';
import { MAX_PAGE_SIZE } from '~/core/registers/list-query';
import { searchSuppliers } from '~/core/suppliers/supplier.service';

/**
 * Supplier options for an EntityPicker (GET ?q): at most 200, searched with the register's index,
 * active ones first; `total` lets the picker say when the list is cut (spec section 9).
 */
export const middleware = guard({ permission: 'suppliers:read' });

export async function loader({ request, context }: Route.LoaderArgs) {
  const q = new URL(request.url).searchParams.get('q')?.trim().slice(0, 200) || undefined;
  const { suppliers, total } = await run(context, (ctx) => searchSuppliers(ctx, { q, limit: MAX_PAGE_SIZE }));
  return {
    total,
    options: suppliers.map((s) => ({ id: s.id, label: `${s.number} – ${s.title}`, description: s.name ?? undefined })),
  };
}
