import { data } from 'react-router';
import type { Route } from './+types/work-orders.$id.history';
import { guard, run } from '~/app/lib/guard.server';
import { isAppError } from '~/core/errors/app-error';
import { listWorkOrderHistory } from '~/core/work-orders/work-order.service';

/**
 * The order's history panel loads its rows here (newest first, 50 at a time). A refusal answers
 * `{error}` so the panel can close and say so (spec section 4) instead of replacing the page.
 */
export const middleware = guard({ permission: 'workorders:read' });

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const from = new URL(request.url).searchParams.get('from') ?? '0';
  try {
    return await run(context, (ctx) => listWorkOrderHistory(ctx, params.id, { from, size: '50' }));
  } catch (e) {
    if (isAppError(e) && e.status < 500) return data({ error: 'FAILED_TO_FETCH' }, { status: e.status });
    throw e;
  }
}
