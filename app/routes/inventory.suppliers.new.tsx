import { useTranslation } from 'react-i18next';
import { Link, redirect, useActionData } from 'react-router';
import type { Route } from './+types/inventory.suppliers.new';
import { actionError } from '~/app/lib/action-error.server';
import { guard, requireAuth, run } from '~/app/lib/guard.server';
import { useActionToast } from '~/app/components/shell/use-action-toast';
import { contactsFromForm } from '~/app/components/suppliers/contacts-editor';
import { EMPTY_SUPPLIER, SupplierForm, supplierFromForm } from '~/app/components/suppliers/supplier-form';
import { hasAccess } from '~/core/permissions/access';
import { createSupplier, setSupplierContacts } from '~/core/suppliers/supplier.service';
import { pageTitle } from '~/app/lib/page-title';

/** A new supplier: its fields and contacts; the number is proposed when left empty. */
export const middleware = guard({ permission: 'suppliers:edit' });

export function loader({ context }: Route.LoaderArgs) {
  const auth = requireAuth(context);
  return { showTags: hasAccess(auth, { permission: 'suppliers:read', module: 'supplier_tags' }) };
}

type ActionResult = { code?: string; fields?: Record<string, string[]> };

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  let id: string;
  try {
    id = await run(context, async (ctx) => {
      const supplier = await createSupplier(ctx, { supplier: supplierFromForm(form) });
      await setSupplierContacts(ctx, { id: supplier.id, contacts: contactsFromForm(form) });
      return supplier.id;
    });
  } catch (e) {
    return actionError(e);
  }
  throw redirect(`/inventory/suppliers/${id}?created=1`);
}

/** The page's `<title>` (app/lib/page-title.ts). */
export const handle = pageTitle('title.newSupplier');

export default function NewSupplier({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('suppliers');
  const { t: tc } = useTranslation();
  const result = useActionData<ActionResult>();
  useActionToast(result);
  return (
    <section className="max-w-3xl rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6">
      <Link to="/inventory/suppliers" className="text-sm text-brand-700 underline">
        ← {t('back')}
      </Link>
      <h1 className="mt-2 text-2xl font-semibold">{t('new.title')}</h1>
      <div className="mt-6">
        <SupplierForm
          supplier={EMPTY_SUPPLIER}
          errors={(field) => result?.fields?.[field]?.map((k) => tc(k))}
          canEdit
          showTags={loaderData.showTags}
          proposeUrl="/inventory/suppliers/propose"
          submitLabel={t('create')}
        />
      </div>
    </section>
  );
}
