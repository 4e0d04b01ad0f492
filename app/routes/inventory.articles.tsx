import type { Route } from './+types/inventory.articles';
import { guard, requireAuth, run } from '~/app/lib/guard.server';
import { ArticleList } from '~/app/components/articles/article-list';
import { pageFromUrl } from '~/app/components/ui';
import { listArticles } from '~/core/articles/article.service';
import { GROUPS_READ } from '~/core/articles/article-group.service';
import { hasAccess } from '~/core/permissions/access';
import { articleGroupOptions } from '~/core/registers/options';
import { pageTitle } from '~/app/lib/page-title';

/** Inventory → articles (spec section 2, /inventory/articles): the article register. */
export const middleware = guard({ permission: 'articles:read' });

export async function loader({ request, context }: Route.LoaderArgs) {
  const auth = requireAuth(context);
  const params = new URL(request.url).searchParams;
  const page = pageFromUrl(params);
  const status = params.get('status');
  const withGroups = hasAccess(auth, GROUPS_READ);
  return run(context, async (ctx) => ({
    ...(await listArticles(ctx, {
      q: params.get('q')?.slice(0, 200) || undefined,
      groupId: (withGroups && params.get('groupId')) || undefined,
      status: status === 'inactive' || status === 'all' ? status : 'active',
      sort: params.get('sort') === 'articleId' ? 'articleId' : 'title',
      dir: params.get('dir') === 'desc' ? 'desc' : 'asc',
      ...page,
    })),
    ...page,
    groups: withGroups ? await articleGroupOptions(ctx) : null,
    canCreate: hasAccess(auth, { permission: 'articles:create' }),
  }));
}

/** The page's `<title>` (app/lib/page-title.ts). */
export const handle = pageTitle('title.articles');

export default function Articles({ loaderData }: Route.ComponentProps) {
  return <ArticleList {...loaderData} />;
}
