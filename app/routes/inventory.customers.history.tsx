import type { Route } from './+types/inventory.customers.history';
import { tenantContext } from '~/app/context';
import { guard, runResource } from '~/app/lib/guard.server';
import { historyView } from '~/app/components/customers/customer-history';
import { getCustomerHistory } from '~/core/customers/customer.service';

/** More of a customer's history (`GET ?from=`), for the page's "show more". */
export const middleware = guard({ permission: 'customers:read' });

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const from = new URL(request.url).searchParams.get('from') ?? '0';
  const tenant = context.get(tenantContext);
  const page = await runResource(context, (ctx) => getCustomerHistory(ctx, params.id, { from, size: 20 }));
  return historyView(page, tenant.config);
}
