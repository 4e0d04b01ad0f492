import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { RecordFiles } from '~/app/components/files/record-files';
import { data, Link, redirect, useActionData, useNavigation, useSearchParams, useSubmit } from 'react-router';
import type { Route } from './+types/inventory.articles.$id';
import { tenantContext } from '~/app/context';
import { actionError } from '~/app/lib/action-error.server';
import { guard, requireAuth, run } from '~/app/lib/guard.server';
import { Button, ConfirmDialog, Dialog, useToast } from '~/app/components/ui';
import { ArticleForm, articleFromForm, EMPTY_ARTICLE } from '~/app/components/articles/article-form';
import { ArticleHistory } from '~/app/components/articles/article-history';
import { PriceListPrices } from '~/app/components/articles/price-list-prices';
import { StockPanel } from '~/app/components/articles/stock-panel';
import { SuppliersPanel } from '~/app/components/articles/suppliers-panel';
import { formatDateTime } from '~/app/components/ui';
import { GROUPS_READ } from '~/core/articles/article-group.service';
import { listArticleSuppliers, saveArticleSuppliers } from '~/core/articles/article-suppliers.service';
import {
  articleHistory,
  createArticle,
  deleteArticle,
  getArticle,
  updateArticle,
} from '~/core/articles/article.service';
import { articlePriceListPrices } from '~/core/articles/price-lookup.service';
import { moveStock, stockHistory } from '~/core/articles/stock.service';
import { isAppError } from '~/core/errors/app-error';
import { hasAccess } from '~/core/permissions/access';
import { CATALOGUE_ACCESS } from '~/core/supplier-catalogues/catalogue.service';
import { articleGroupOptions } from '~/core/registers/options';
import { pageTitle } from '~/app/lib/page-title';

/**
 * One article (spec section 3): its fields, stock, suppliers, prices per price list and history.
 * The id `new` opens an empty form that creates one.
 */
export const middleware = guard({ permission: 'articles:read' });

/** How many stock movements and history rows the page shows. */
const RECENT = 20;

export async function loader({ params, context }: Route.LoaderArgs) {
  const auth = requireAuth(context);
  const config = context.get(tenantContext).config;
  const rights = {
    canEdit: hasAccess(auth, { permission: 'articles:edit' }),
    canCreate: hasAccess(auth, { permission: 'articles:create' }),
    canDelete: hasAccess(auth, { permission: 'articles:delete' }),
    canSeePurchasePrice: hasAccess(auth, { permission: 'articles:price' }),
    // the suppliers' price lists fill the form in (issue 33 item 6)
    catalogueSearch: hasAccess(auth, CATALOGUE_ACCESS.search),
  };
  const withGroups = hasAccess(auth, GROUPS_READ);
  if (params.id === 'new') {
    if (!rights.canCreate) throw data('permission denied', { status: 403 });
    const groups = withGroups ? await run(context, (ctx) => articleGroupOptions(ctx)) : null;
    return { isNew: true as const, article: EMPTY_ARTICLE, groups, ...rights };
  }
  try {
    return await run(context, async (ctx) => {
      const article = await getArticle(ctx, params.id);
      const [suppliers, stock, history, prices, groups] = [
        await listArticleSuppliers(ctx, article.id),
        await stockHistory(ctx, article.id, { limit: RECENT }),
        await articleHistory(ctx, article.id, { limit: RECENT }),
        await articlePriceListPrices(ctx, article.id),
        withGroups ? await articleGroupOptions(ctx) : null,
      ];
      return {
        isNew: false as const,
        article,
        groups,
        suppliers: suppliers.suppliers,
        stock: {
          totalCount: stock.totalCount,
          movements: stock.movements.map(({ at, ...m }) => ({ ...m, when: formatDateTime(at, config) })),
        },
        history: {
          totalCount: history.totalCount,
          entries: history.history.map(({ at, ...h }) => ({ ...h, when: formatDateTime(at, config) })),
        },
        prices,
        ...rights,
      };
    });
  } catch (e) {
    if (isAppError(e) && e.status === 404) throw data('not found', { status: 404 });
    throw e;
  }
}

type ActionResult = {
  ok?: boolean;
  intent?: string;
  code?: string;
  fields?: Record<string, string[]>;
  usedBy?: Record<string, number>;
};

export async function action({ request, params, context }: Route.ActionArgs) {
  const auth = requireAuth(context);
  const form = await request.formData();
  const intent = String(form.get('intent') ?? 'save');
  const opts = {
    withPurchasePrice: hasAccess(auth, { permission: 'articles:price' }),
    withGroup: hasAccess(auth, GROUPS_READ),
  };
  try {
    if (params.id === 'new') {
      const created = await run(context, (ctx) => createArticle(ctx, articleFromForm(form, opts)));
      return redirect(`/inventory/articles/${created.id}?created=1`);
    }
    switch (intent) {
      case 'delete':
        await run(context, (ctx) => deleteArticle(ctx, params.id));
        return redirect('/inventory/articles?deleted=1');
      case 'activate':
      case 'deactivate':
        await run(context, (ctx) =>
          updateArticle(ctx, { id: params.id, status: intent === 'activate' ? 'active' : 'inactive' }),
        );
        break;
      case 'stock':
        await run(context, (ctx) =>
          moveStock(ctx, params.id, {
            amount: form.get('amount') ?? '',
            price: form.get('price') ?? '',
            type: form.get('type') ?? '',
          }),
        );
        break;
      case 'suppliers': {
        let suppliers: unknown;
        try {
          suppliers = JSON.parse(String(form.get('suppliers') ?? '[]'));
        } catch {
          suppliers = null;
        }
        await run(context, (ctx) => saveArticleSuppliers(ctx, params.id, { suppliers }));
        break;
      }
      default:
        await run(context, (ctx) => updateArticle(ctx, { id: params.id, ...articleFromForm(form, opts) }));
    }
    return data<ActionResult>({ ok: true, intent });
  } catch (e) {
    // 409 DELETE_NOT_POSSIBLE_SET_INACTIVE carries what still uses the article (usedBy)
    return actionError<ActionResult>(e, { intent });
  }
}

/** The page's `<title>` (app/lib/page-title.ts). */
export const handle = pageTitle(
  'title.article',
  (d: Route.ComponentProps['loaderData']) => (d.isNew ? null : d.article.articleId),
  { orElse: 'title.newArticle' },
);

export default function ArticlePage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('articles');
  const { t: tc } = useTranslation();
  const toast = useToast();
  const result = useActionData<ActionResult>();
  const submit = useSubmit();
  const navigation = useNavigation();
  const [params] = useSearchParams();
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [offerInactive, setOfferInactive] = useState(false);
  const { article, isNew } = loaderData;
  const busyIntent = navigation.state === 'submitting' ? navigation.formData?.get('intent') : null;

  useEffect(() => {
    if (!result) return;
    if (result.code === 'DELETE_NOT_POSSIBLE_SET_INACTIVE') setOfferInactive(true);
    else if (result.ok)
      toast.show({
        kind: 'success',
        message:
          result.intent === 'deactivate'
            ? t('deactivated')
            : result.intent === 'activate'
              ? t('activated')
              : tc('SUCCESSFULLY_SAVED'),
      });
    else if (result.code) toast.show({ kind: 'error', message: tc(result.code) });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [result]);

  const errors = (field: string) => result?.fields?.[field]?.map((k) => tc(k));
  const canEdit = isNew ? loaderData.canCreate : loaderData.canEdit;
  return (
    <div className="grid gap-6 xl:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
      <section className="min-w-0 rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6">
        <Link to="/inventory/articles" className="text-sm text-brand-700 underline">
          ← {t('back')}
        </Link>
        <h1 className="mt-2 text-2xl font-semibold break-words">
          {isNew ? t('newTitle') : `${article.articleId} · ${article.title}`}
        </h1>
        {!isNew && article.status === 'inactive' ? (
          <p className="mt-2 inline-block rounded-full bg-amber-100 px-3 py-1 text-sm text-amber-900">
            {t('status.inactive')}
          </p>
        ) : null}
        {params.get('created') ? (
          <p role="status" className="mt-3 rounded-md bg-green-50 p-3 text-sm text-green-900">
            {t('created')}
          </p>
        ) : null}
        <div className="mt-6">
          <ArticleForm
            key={isNew ? 'new' : article.updatedAt}
            article={article}
            groups={loaderData.groups}
            errors={errors}
            canEdit={canEdit}
            canSeePurchasePrice={loaderData.canSeePurchasePrice}
            isNew={isNew}
            submitLabel={isNew ? t('create') : t('save')}
            catalogueSearch={loaderData.catalogueSearch}
          >
            {!isNew && loaderData.canEdit ? (
              <Button
                variant="secondary"
                isPending={busyIntent === 'activate' || busyIntent === 'deactivate'}
                onPress={() =>
                  void submit({ intent: article.status === 'active' ? 'deactivate' : 'activate' }, { method: 'post' })
                }
              >
                {article.status === 'active' ? t('deactivate') : t('activate')}
              </Button>
            ) : null}
            {!isNew && loaderData.canDelete ? (
              <Button variant="danger" onPress={() => setConfirmDelete(true)} isPending={busyIntent === 'delete'}>
                {t('delete')}
              </Button>
            ) : null}
          </ArticleForm>
        </div>
        {isNew ? null : (
          <div className="mt-6">
            <RecordFiles kind="article" ownerId={article.id} />
          </div>
        )}
      </section>
      {loaderData.isNew ? null : (
        <div className="grid min-w-0 content-start gap-6">
          {article.productType === 'service' ? null : (
            <div className="rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6">
              <StockPanel
                stockAmount={article.stockAmount}
                stockLocation={article.stockLocation}
                unit={article.unit}
                movements={loaderData.stock.movements}
                totalCount={loaderData.stock.totalCount}
                canEdit={loaderData.canEdit}
                canSeePurchasePrice={loaderData.canSeePurchasePrice}
              />
            </div>
          )}
          <div className="rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6">
            <PriceListPrices prices={loaderData.prices} />
          </div>
          <div className="rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6">
            <SuppliersPanel
              suppliers={loaderData.suppliers}
              canEdit={loaderData.canEdit}
              canSeePurchasePrice={loaderData.canSeePurchasePrice}
            />
          </div>
          <div className="rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6">
            <ArticleHistory entries={loaderData.history.entries} totalCount={loaderData.history.totalCount} />
          </div>
        </div>
      )}
      <ConfirmDialog
        isOpen={confirmDelete}
        onOpenChange={setConfirmDelete}
        title={t('delete')}
        message={t('delete.confirm', { name: `${article.articleId} · ${article.title}` })}
        confirmLabel={t('delete')}
        variant="danger"
        onConfirm={() => {
          void submit({ intent: 'delete' }, { method: 'post' });
          setConfirmDelete(false);
        }}
      />
      <Dialog
        title={t('inUse.title')}
        role="alertdialog"
        size="sm"
        isOpen={offerInactive}
        onOpenChange={setOfferInactive}
        footer={({ close }) => (
          <>
            <Button variant="secondary" onPress={close} autoFocus>
              {t('inUse.keep')}
            </Button>
            {loaderData.canEdit && article.status === 'active' ? (
              <Button
                variant="primary"
                onPress={() => {
                  void submit({ intent: 'deactivate' }, { method: 'post' });
                  close();
                }}
              >
                {t('deactivate')}
              </Button>
            ) : null}
          </>
        )}
      >
        <p>{tc('DELETE_NOT_POSSIBLE_SET_INACTIVE')}</p>
        {result?.usedBy && Object.keys(result.usedBy).length ? (
          <p className="mt-2 text-sm text-slate-600">
            {Object.entries(result.usedBy)
              .map(([kind, count]) => t(`usedBy.${kind}`, { count }))
              .join(', ')}
          </p>
        ) : null}
      </Dialog>
    </div>
  );
}
