import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { Route } from './+types/settings.articles';
import { guard, requireAuth } from '~/app/lib/guard.server';
import { GROUPS_READ } from '~/core/articles/article-group.service';
import { hasAccess } from '~/core/permissions/access';
import { pageTitle } from '~/app/lib/page-title';

/** Settings → articles (spec section 2): article groups, price lists and supplier articles. */
export const middleware = guard({ permission: 'articles:read' });

export function loader({ context }: Route.LoaderArgs) {
  const auth = requireAuth(context);
  const links = [
    { to: '/settings/articles/groups', key: 'groups', access: GROUPS_READ },
    { to: '/settings/articles/pricelists', key: 'priceLists', access: { permission: 'articles:read' as const } },
    { to: '/settings/articles/suppliers', key: 'supplierArticles', access: { permission: 'suppliers:read' as const } },
  ];
  return { links: links.filter((l) => hasAccess(auth, l.access)).map(({ to, key }) => ({ to, key })) };
}

/** The page's `<title>` (app/lib/page-title.ts). */
export const handle = pageTitle('settings.articles', null, { within: 'settings.title' });

export default function ArticleSettings({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('articles');
  return (
    <section className="max-w-3xl">
      <Link to="/settings" className="text-sm text-brand-700 underline">
        ← {t('settings.back')}
      </Link>
      <h1 className="mt-2 text-2xl font-semibold">{t('settings.title')}</h1>
      <ul className="mt-4 grid gap-3 sm:grid-cols-2">
        {loaderData.links.map((l) => (
          <li key={l.to}>
            <Link
              to={l.to}
              className="block h-full rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 hover:ring-brand-600 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600"
            >
              <span className="block font-medium text-brand-700">{t(`settings.${l.key}`)}</span>
              <span className="mt-1 block text-sm text-slate-600">{t(`settings.${l.key}.help`)}</span>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
