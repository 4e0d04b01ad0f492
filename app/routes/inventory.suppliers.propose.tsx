import type { Route } from './+types/inventory.suppliers.propose';
import { guard, run } from '~/app/lib/guard.server';
import { proposeSupplierNumber } from '~/core/suppliers/supplier.service';
import { DEFAULT_NUMBER_LENGTH } from '~/core/suppliers/supplier.service';

/** The supplier form's propose button: the next free supplier number (GET ?length). */
export const middleware = guard({ permission: 'suppliers:edit' });

export async function loader({ request, context }: Route.LoaderArgs) {
  const length = Number(new URL(request.url).searchParams.get('length')) || DEFAULT_NUMBER_LENGTH;
  return run(context, (ctx) => proposeSupplierNumber(ctx, { length: Math.min(Math.max(length, 1), 12) }));
}
