import type { Route } from './+types/inventory.articles.propose';
import { guard, run } from '~/app/lib/guard.server';
import { proposeArticleId } from '~/core/articles/article.service';

/** The article form's propose button: the next free all-digit article ID (`GET ?length=`, 5 by default). */
export const middleware = guard({ permission: 'articles:create' });

export async function loader({ request, context }: Route.LoaderArgs) {
  const length = Number(new URL(request.url).searchParams.get('length')) || 5;
  return run(context, (ctx) => proposeArticleId(ctx, { length: Math.min(Math.max(length, 1), 12) }));
}
