import type { Route } from './+types/inventory.models.options';
import { guard, run } from '~/app/lib/guard.server';
import { modelOptions } from '~/core/models/model.service';

/**
 * Resource route of the model picker: active models matching ?q (code or name), at most 200, with
 * how many matched (spec section 9: long lists are cut until 2 characters are typed).
 */
export const middleware = guard({ permission: 'models:read' });

export async function loader({ request, context }: Route.LoaderArgs) {
  const q = new URL(request.url).searchParams.get('q')?.trim() ?? '';
  return run(context, (ctx) => modelOptions(ctx, { q: q || undefined, limit: 200 }));
}
