import type { Route } from './+types/inventory.articles.supplier-options';
import { guard, run } from '~/app/lib/guard.server';
import { supplierOptions } from '~/core/articles/article-suppliers.service';

/** Suppliers to add to an article (`GET ?q=`): active ones, at most 200, with how many matched. */
export const middleware = guard({ permission: 'articles:edit' });

export async function loader({ request, context }: Route.LoaderArgs) {
  const q = new URL(request.url).searchParams.get('q')?.slice(0, 200) ?? '';
  return run(context, (ctx) => supplierOptions(ctx, { q }));
}
