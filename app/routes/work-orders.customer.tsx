import type { Route } from './+types/work-orders.customer';
import { guard, run } from '~/app/lib/guard.server';
import { getCustomerForWorkOrder } from '~/core/work-orders/work-order-options';

/** The order form's customer lookup: the customer's addresses, primary first. */
export const middleware = guard({ permission: 'workorders:read' });

export async function loader({ request, context }: Route.LoaderArgs) {
  const customerId = new URL(request.url).searchParams.get('customerId');
  return run(context, (ctx) => getCustomerForWorkOrder(ctx, customerId));
}
