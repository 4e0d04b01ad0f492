import type { Route } from './+types/inventory.customers.options';
import { guard, run } from '~/app/lib/guard.server';
import { customerOptions } from '~/core/customers/customer.service';

/**
 * The customer picker's options (`GET ?q=`): active customers matching number, name or
 * organisation number, at most 200, with how many matched.
 */
export const middleware = guard({ permission: 'customers:read' });

export async function loader({ request, context }: Route.LoaderArgs) {
  const q = new URL(request.url).searchParams.get('q') ?? '';
  return run(context, (ctx) => customerOptions(ctx, { q }));
}
