import type { Route } from './+types/sales.$id.history';
import { tenantContext } from '~/app/context';
import { guard, runResource } from '~/app/lib/guard.server';
import { historyView } from '~/app/components/customers/customer-history';
import { getSalesOrderHistory } from '~/core/proposals/proposal-list.service';

/** A page of a sales order's history (`GET ?from=`), for the sales-order screen's history section. */
export const middleware = guard({ permission: 'salesorder:read', module: 'crm' });

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const from = new URL(request.url).searchParams.get('from') ?? '0';
  const tenant = context.get(tenantContext);
  const page = await runResource(context, (ctx) => getSalesOrderHistory(ctx, params.id, { from, size: 20 }));
  return historyView(page, tenant.config);
}
