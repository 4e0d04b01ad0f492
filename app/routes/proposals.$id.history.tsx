import type { Route } from './+types/proposals.$id.history';
import { tenantContext } from '~/app/context';
import { guard, runResource } from '~/app/lib/guard.server';
import { historyView } from '~/app/components/customers/customer-history';
import { getProposalHistory } from '~/core/proposals/proposal-list.service';

/** A page of a proposal's history (`GET ?from=`), for the proposal screen's history section. */
export const middleware = guard({ permission: 'proposal:read', module: 'crm' });

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const from = new URL(request.url).searchParams.get('from') ?? '0';
  const tenant = context.get(tenantContext);
  const page = await runResource(context, (ctx) => getProposalHistory(ctx, params.id, { from, size: 20 }));
  return historyView(page, tenant.config);
}
