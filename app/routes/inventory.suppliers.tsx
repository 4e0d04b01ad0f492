import { useTranslation } from 'react-i18next';
import type { Route } from './+types/inventory.suppliers';
import { guard, requireAuth, run } from '~/app/lib/guard.server';
import { pageFromUrl } from '~/app/components/ui';
import { SupplierList } from '~/app/components/suppliers/supplier-list';
import { hasAccess } from '~/core/permissions/access';
import { listSuppliers } from '~/core/suppliers/supplier.service';
import { pageTitle } from '~/app/lib/page-title';

/** Inventory → suppliers (spec section 2, /inventory/suppliers): the supplier register. */
export const middleware = guard({ permission: 'suppliers:read' });

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
export const handle = pageTitle('title.suppliers');

export default function Suppliers({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('suppliers');
  return (
    <SupplierList
      {...loaderData}
      title={t('title')}
      detailHref={(id) => `/inventory/suppliers/${id}`}
      newHref="/inventory/suppliers/new"
    />
  );
}
