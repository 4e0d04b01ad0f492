import { useTranslation } from 'react-i18next';
import { data, Form, Link, redirect, useActionData, useNavigation } from 'react-router';
import type { Route } from './+types/inventory.customers.new';
import { actionError } from '~/app/lib/action-error.server';
import { guard, requireAuth, run } from '~/app/lib/guard.server';
import { Button } from '~/app/components/ui';
import { useActionToast } from '~/app/components/shell/use-action-toast';
import { CustomerForm } from '~/app/components/customers/customer-form';
import { customerFromForm, rowErrorsToForm } from '~/app/components/customers/customer-form-data';
import { createCustomer } from '~/core/customers/customer.service';
import { hasAccess } from '~/core/permissions/access';
import { priceListOptions } from '~/core/registers/options';
import type { Auth } from '~/core/context';
import { pageTitle } from '~/app/lib/page-title';

/**
 * Inventory → customers → new. Needs customers:create, or customers:create_potential for a
 * potential customer (checked here and again by the service).
 */
export const middleware = guard({ permission: 'signed-in' });

function createRights(auth: Auth) {
  const full = hasAccess(auth, { permission: 'customers:create' });
  const potential = hasAccess(auth, { permission: 'customers:create_potential' });
  if (!full && !potential) throw data('permission denied', { status: 403 });
  return { onlyPotential: !full };
}

export async function loader({ context }: Route.LoaderArgs) {
  const rights = createRights(requireAuth(context));
  return { ...rights, priceLists: await run(context, (ctx) => priceListOptions(ctx)) };
}

type ActionResult = { code?: string; fields?: Record<string, string[]> };

export async function action({ request, context }: Route.ActionArgs) {
  createRights(requireAuth(context));
  const form = await request.formData();
  const { customer, fieldErrors } = customerFromForm(form);
  if (fieldErrors) return data<ActionResult>({ code: 'VALIDATION_FAILED', fields: fieldErrors }, { status: 400 });
  try {
    const created = await run(context, (ctx) => createCustomer(ctx, customer));
    return redirect(`/inventory/customers/${created.id}?created=1`);
  } catch (e) {
    const result = actionError(e);
    return data<ActionResult>(
      { ...result.data, fields: rowErrorsToForm(result.data.fields, form) },
      { status: result.init?.status ?? 400 },
    );
  }
}

/** The page's `<title>` (app/lib/page-title.ts). */
export const handle = pageTitle('title.newCustomer');

export default function NewCustomer({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('customers');
  const result = useActionData<ActionResult>();
  const busy = useNavigation().state === 'submitting';
  useActionToast(result);
  return (
    <section className="min-w-0 rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6">
      <Link to="/inventory/customers" className="text-sm text-blue-800 underline">
        ← {t('back')}
      </Link>
      <h1 className="mt-2 text-2xl font-semibold">{t('new.title')}</h1>
      <Form method="post" noValidate className="mt-6 grid gap-6">
        <CustomerForm
          customer={null}
          priceLists={loaderData.priceLists}
          errors={result?.fields}
          onlyPotential={loaderData.onlyPotential}
        />
        <div className="sticky bottom-0 -mx-4 flex gap-2 border-t border-slate-200 bg-white/95 px-4 py-3 sm:-mx-6 sm:px-6">
          <Button type="submit" variant="primary" isPending={busy}>
            {t('new.submit')}
          </Button>
        </div>
      </Form>
    </section>
  );
}
