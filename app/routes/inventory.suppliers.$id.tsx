import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { data, Link, redirect, useActionData, useSearchParams, useSubmit } from 'react-router';
import type { Route } from './+types/inventory.suppliers.$id';
import { OpenDeviations } from '~/app/components/deviations/open-deviations';
import { actionError } from '~/app/lib/action-error.server';
import { guard, requireAuth, run } from '~/app/lib/guard.server';
import { Button, ConfirmDialog, pageFromUrl } from '~/app/components/ui';
import { contactsFromForm } from '~/app/components/suppliers/contacts-editor';
import { SupplierArticles } from '~/app/components/suppliers/supplier-articles';
import { SupplierForm, supplierFromForm } from '~/app/components/suppliers/supplier-form';
import { useResultToast } from '~/app/components/objects/shared';
import { isAppError } from '~/core/errors/app-error';
import { hasAccess } from '~/core/permissions/access';
import {
  deleteSupplier,
  getSupplier,
  listSupplierArticles,
  setSupplierContacts,
  updateSupplier,
} from '~/core/suppliers/supplier.service';
import { pageTitle } from '~/app/lib/page-title';
import { SupplierCatalogue } from '~/app/components/suppliers/supplier-catalogue';
import { CATALOGUE_ACCESS, catalogueState } from '~/core/supplier-catalogues/catalogue.service';

/**
 * One supplier (spec section 3): its fields and contacts, the articles bought from it, and its
 * price list (supplier inventory: the wholesaler's price and discount files, decision 056).
 */
export const middleware = guard({ permission: 'suppliers:read' });

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const auth = requireAuth(context);
  const url = new URL(request.url);
  const page = pageFromUrl(url.searchParams);
  const q = url.searchParams.get('q')?.trim().slice(0, 200) || undefined;
  try {
    return await run(context, async (ctx) => ({
      supplier: await getSupplier(ctx, params.id),
      ...(await listSupplierArticles(ctx, params.id, { q, ...page })),
      ...page,
      canEdit: hasAccess(auth, { permission: 'suppliers:edit' }),
      canDelete: hasAccess(auth, { permission: 'suppliers:delete' }),
      showTags: hasAccess(auth, { permission: 'suppliers:read', module: 'supplier_tags' }),
      // the price list (issue 33 item 6), with the supplier-inventory module
      catalogue: hasAccess(auth, CATALOGUE_ACCESS.read) ? await catalogueState(ctx, params.id) : null,
      canUploadCatalogue: hasAccess(auth, CATALOGUE_ACCESS.edit),
      canSearchCatalogue: hasAccess(auth, CATALOGUE_ACCESS.search),
    }));
  } catch (e) {
    // Another tenant's id, or none at all: the not-found page.
    if (isAppError(e) && e.status === 404) throw data('not found', { status: 404 });
    throw e;
  }
}

type ActionResult = {
  ok?: boolean;
  code?: string;
  fields?: Record<string, string[]>;
  usedBy?: Record<string, number>;
};

export async function action({ request, params, context }: Route.ActionArgs) {
  const form = await request.formData();
  try {
    if (form.get('intent') === 'delete') await run(context, (ctx) => deleteSupplier(ctx, params.id));
    else
      await run(context, async (ctx) => {
        // One transaction: the supplier and its contacts are saved together or not at all.
        await updateSupplier(ctx, { supplier: { id: params.id, ...supplierFromForm(form) } });
        await setSupplierContacts(ctx, { id: params.id, contacts: contactsFromForm(form) });
      });
  } catch (e) {
    // 409 IN_USE carries what still uses the supplier (usedBy)
    return actionError<ActionResult>(e);
  }
  if (form.get('intent') === 'delete') throw redirect('/inventory/suppliers?deleted=1');
  return data<ActionResult>({ ok: true });
}

/** The page's `<title>` (app/lib/page-title.ts). */
export const handle = pageTitle(
  'title.supplier',
  (d: Route.ComponentProps['loaderData']) => d.supplier.name ?? d.supplier.title,
);

export default function SupplierPage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('suppliers');
  const { t: tc } = useTranslation();
  const result = useActionData<ActionResult>();
  const submit = useSubmit();
  const [params] = useSearchParams();
  const [confirming, setConfirming] = useState(false);
  const { supplier } = loaderData;

  useResultToast(result, { ns: 'suppliers' });

  const errors = (field: string) => result?.fields?.[field]?.map((k) => tc(k));
  return (
    <div className="grid gap-6 xl:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
      <section className="min-w-0 rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6">
        <Link to="/inventory/suppliers" className="text-sm text-brand-700 underline">
          ← {t('back')}
        </Link>
        <h1 className="mt-2 text-2xl font-semibold break-words">
          {supplier.number} · {supplier.title}
        </h1>
        {supplier.status === 'inactive' ? <p className="mt-1 text-sm text-slate-600">{t('status.inactive')}</p> : null}
        {params.get('created') ? (
          <p role="status" className="mt-3 rounded-md bg-green-50 p-3 text-sm text-green-900">
            {t('created')}
          </p>
        ) : null}
        <div className="mt-6">
          <SupplierForm
            key={supplier.updatedAt}
            supplier={supplier}
            errors={errors}
            canEdit={loaderData.canEdit}
            showTags={loaderData.showTags}
            proposeUrl="/inventory/suppliers/propose"
            submitLabel={t('save')}
            savedAs={supplier.updatedAt}
          >
            {loaderData.canDelete ? (
              <Button variant="danger" onPress={() => setConfirming(true)}>
                {t('delete')}
              </Button>
            ) : null}
          </SupplierForm>
        </div>
      </section>
      <section className="min-w-0 rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6">
        <SupplierArticles
          articles={loaderData.articles}
          totalCount={loaderData.totalCount}
          offset={loaderData.offset}
          limit={loaderData.limit}
        />
      </section>
      {loaderData.catalogue ? (
        <section className="min-w-0 rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6 xl:col-span-2">
          <SupplierCatalogue
            key={supplier.id}
            supplierId={supplier.id}
            initial={loaderData.catalogue}
            canUpload={loaderData.canUploadCatalogue}
            canSearch={loaderData.canSearchCatalogue}
          />
        </section>
      ) : null}
      <div className="min-w-0 xl:col-span-2">
        <OpenDeviations kind="supplier" id={supplier.id} />
      </div>
      <ConfirmDialog
        isOpen={confirming}
        onOpenChange={setConfirming}
        title={t('delete')}
        message={t('delete.confirm', { name: supplier.title })}
        confirmLabel={t('delete')}
        variant="danger"
        onConfirm={() => {
          void submit({ intent: 'delete' }, { method: 'post' });
          setConfirming(false);
        }}
      />
    </div>
  );
}
