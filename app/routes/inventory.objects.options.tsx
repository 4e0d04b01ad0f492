import type { Route } from './+types/inventory.objects.options';
import { guard, run } from '~/app/lib/guard.server';
import { businessObjectOptions } from '~/core/business-objects/business-object.service';
import { isUuid } from '~/core/errors/validation';

/**
 * Resource route of the object picker: objects matching ?q (serial code, location, model,
 * customer), optionally of ?customerId, at most 200, labelled "serial – model – location".
 */
export const middleware = guard({ permission: 'bo:read' });

export async function loader({ request, context }: Route.LoaderArgs) {
  const params = new URL(request.url).searchParams;
  const q = params.get('q')?.trim() ?? '';
  const customerId = params.get('customerId');
  return run(context, (ctx) =>
    businessObjectOptions(ctx, { q: q || undefined, customerId: isUuid(customerId) ? customerId : undefined }),
  );
}
