import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { Route } from './+types/settings.articles.suppliers';
import { guard, requireAuth, run } from '~/app/lib/guard.server';
import { pageFromUrl } from '~/app/components/ui';
import { SupplierList } from '~/app/components/suppliers/supplier-list';
import { hasAccess } from '~/core/permissions/access';
import { listSuppliers } from '~/core/suppliers/supplier.service';
import { pageTitle } from '~/app/lib/page-title';

/**
 * Settings → articles → suppliers (spec section 2, /settings/articles/suppliers): the same supplier
 * register as /inventory/suppliers, reached from the settings; a supplier opens on its one page.
 */
export const middleware = [...guard({ permission: 'settings:read' }), ...guard({ permission: 'suppliers:read' })];

export async function loader({ request, context }: Route.LoaderArgs) {
  const auth = requireAuth(context);
  const url = new URL(request.url);
  const page = pageFromUrl(url.searchParams);
  const status = url.searchParams.get('status');
  const result = await run(context, (ctx) =>
    listSuppliers(ctx, {
      q: url.searchParams.get('q')?.slice(0, 200) || undefined,
      status: status === 'inactive' || status === 'all' ? status : 'active',
      sort: url.searchParams.get('sort') === 'number' ? 'number' : 'title',
      desc: url.searchParams.get('desc') === 'true',
      ...page,
    }),
  );
  return { ...result, ...page, canEdit: hasAccess(auth, { permission: 'suppliers:edit' }) };
}

/** The page's `<title>` (app/lib/page-title.ts). */
export const handle = pageTitle('title.suppliers', null, { within: 'settings.title' });

export default function SettingsSuppliers({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('suppliers');
  return (
    <div className="grid gap-4">
      <nav aria-label={t('settings.breadcrumb')} className="text-sm">
        <Link to="/settings" className="text-brand-700 underline">
          {t('settings.settings')}
        </Link>{' '}
        / {t('settings.articles')} / {t('title')}
      </nav>
      <SupplierList
        {...loaderData}
        title={t('settings.title')}
        detailHref={(id) => `/inventory/suppliers/${id}`}
        newHref="/inventory/suppliers/new"
      />
    </div>
  );
}
