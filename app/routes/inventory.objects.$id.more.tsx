import { data } from 'react-router';
import type { Route } from './+types/inventory.objects.$id.more';
import { guard, run } from '~/app/lib/guard.server';
import { listBusinessObjectHistory } from '~/core/business-objects/business-object.service';
import { listServiceLog } from '~/core/business-objects/service-log.service';

/** Resource route of the object page's "load more": ?list=servicelog|history&from=<offset>. */
export const middleware = guard({ permission: 'bo:read' });

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const q = new URL(request.url).searchParams;
  const from = q.get('from') ?? '0';
  if (q.get('list') === 'servicelog') return run(context, (ctx) => listServiceLog(ctx, params.id, { from }));
  if (q.get('list') === 'history')
    return run(context, (ctx) => listBusinessObjectHistory(ctx, params.id, { from, size: 20 }));
  throw data('not found', { status: 404 });
}
