import type { Route } from './+types/inventory.articles.options';
import { guard, run } from '~/app/lib/guard.server';
import { articleOptions } from '~/core/articles/article-options';

/**
 * The article picker's options (`GET ?q=&groupId=`): active articles only, "articleId – title",
 * at most 200, with how many matched (spec section 5 and 9); with `supplierInventory=1` (the rows'
 * pickers) up to 10 supplier-catalogue articles after them, their ids prefixed `si:`.
 */
export const middleware = guard({ permission: 'articles:read' });

export async function loader({ request, context }: Route.LoaderArgs) {
  const params = new URL(request.url).searchParams;
  return run(context, (ctx) =>
    articleOptions(ctx, {
      q: params.get('q')?.slice(0, 200) ?? '',
      groupId: params.get('groupId') ?? undefined,
      supplierInventory: params.get('supplierInventory') === '1',
    }),
  );
}
