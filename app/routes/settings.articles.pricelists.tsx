import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Form, Link, redirect, useActionData, useNavigation } from 'react-router';
import type { Route } from './+types/settings.articles.pricelists';
import { actionError } from '~/app/lib/action-error.server';
import { guard, requireAuth, run } from '~/app/lib/guard.server';
import { Button, SortableTable, TextField, useToast } from '~/app/components/ui';
import { createPriceList, listPriceLists, type TPriceList } from '~/core/articles/price-list.service';
import { hasAccess } from '~/core/permissions/access';
import { pageTitle } from '~/app/lib/page-title';

/**
 * Settings → price lists (spec section 3): every list with how many groups it prices and who
 * uses it; a new list opens on its own page to set its groups.
 */
export const middleware = guard({ permission: 'articles:read' });

export async function loader({ context }: Route.LoaderArgs) {
  const auth = requireAuth(context);
  const priceLists = await run(context, (ctx) => listPriceLists(ctx));
  return { priceLists, canEdit: hasAccess(auth, { permission: 'articles:settings' }) };
}

type ActionResult = { ok?: boolean; code?: string; fields?: Record<string, string[]> };

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  try {
    const list = await run(context, (ctx) =>
      createPriceList(ctx, { title: form.get('title'), description: form.get('description') }),
    );
    return redirect(`/settings/articles/pricelists/${list.id}?created=1`);
  } catch (e) {
    return actionError(e);
  }
}

/** The page's `<title>` (app/lib/page-title.ts). */
export const handle = pageTitle('title.priceLists', null, { within: 'settings.title' });

export default function PriceLists({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('articles');
  const { t: tc } = useTranslation();
  const toast = useToast();
  const result = useActionData<ActionResult>();
  const busy = useNavigation().state === 'submitting';
  useEffect(() => {
    if (result?.code && !result.fields) toast.show({ kind: 'error', message: tc(result.code) });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [result]);
  const err = (name: string) => result?.fields?.[name]?.map((k) => tc(k));
  const columns = [
    { id: 'title', header: t('priceLists.col.title'), isRowHeader: true, render: (p: TPriceList) => p.title },
    { id: 'description', header: t('priceLists.col.description'), render: (p: TPriceList) => p.description ?? '—' },
    {
      id: 'groups',
      header: t('priceLists.col.groups'),
      align: 'end' as const,
      render: (p: TPriceList) => p.groupCount,
    },
    {
      id: 'usedBy',
      header: t('priceLists.col.usedBy'),
      render: (p: TPriceList) =>
        p.customerCount || p.objectCount
          ? [
              p.customerCount ? t('usedBy.customers', { count: p.customerCount }) : null,
              p.objectCount ? t('usedBy.objects', { count: p.objectCount }) : null,
            ]
              .filter(Boolean)
              .join(', ')
          : '—',
    },
  ];
  return (
    <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]">
      <section className="min-w-0 rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6">
        <Link to="/settings/articles" className="text-sm text-brand-700 underline">
          ← {t('settings.title')}
        </Link>
        <h1 className="mt-2 text-2xl font-semibold">{t('priceLists.title')}</h1>
        <p className="mt-1 text-sm text-slate-600">{t('priceLists.intro')}</p>
        <SortableTable
          aria-label={t('priceLists.title')}
          className="mt-4"
          columns={columns}
          rows={loaderData.priceLists}
          getRowHref={(p) => `/settings/articles/pricelists/${p.id}`}
          emptyState={t('priceLists.empty')}
        />
      </section>
      {loaderData.canEdit ? (
        <aside className="h-fit rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6">
          <h2 className="text-lg font-medium">{t('priceLists.new')}</h2>
          <Form method="post" className="mt-3 grid gap-3" noValidate>
            <TextField name="title" label={t('priceLists.field.title')} isRequired errorMessage={err('title')} />
            <TextField name="description" label={t('priceLists.field.description')} errorMessage={err('description')} />
            <div>
              <Button type="submit" variant="primary" isPending={busy}>
                {t('priceLists.create')}
              </Button>
            </div>
          </Form>
        </aside>
      ) : null}
    </div>
  );
}
