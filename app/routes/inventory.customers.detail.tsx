import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { RecordFiles } from '~/app/components/files/record-files';
import { PublishedFiles } from '~/app/components/files/published-files';
import { data, Form, Link, redirect, useActionData, useNavigation, useSearchParams, useSubmit } from 'react-router';
import type { Route } from './+types/inventory.customers.detail';
import { tenantContext } from '~/app/context';
import { actionError } from '~/app/lib/action-error.server';
import { guard, requireAuth, run } from '~/app/lib/guard.server';
import { Button, ConfirmDialog, useToast } from '~/app/components/ui';
import { CustomerForm, type CustomerFormValues } from '~/app/components/customers/customer-form';
import { customerFromForm, rowErrorsToForm } from '~/app/components/customers/customer-form-data';
import { CustomerHistory, historyView } from '~/app/components/customers/customer-history';
import { CustomerPrices, GroupDiscounts, type SectionResult } from '~/app/components/customers/customer-pricing';
import { ZoneUsers } from '~/app/components/customers/zone-users';
import { ZoneSelfService } from '~/app/components/customers/zone-self-service';
import type { Ctx } from '~/core/context';
import { isAppError } from '~/core/errors/app-error';
import { hasAccess } from '~/core/permissions/access';
import { articleGroupOptions, priceListOptions } from '~/core/registers/options';
import { deleteCustomer, getCustomer, getCustomerHistory, updateCustomer } from '~/core/customers/customer.service';
import {
  deleteCustomerArticlePrice,
  deleteGroupDiscount,
  listCustomerArticles,
  listGroupDiscounts,
  setCustomerArticlePrice,
  setGroupDiscount,
} from '~/core/customers/customer-prices.service';
import {
  createZoneUser,
  deleteZoneUser,
  getZoneSelfService,
  listZoneUsers,
  setZoneSelfService,
  resendZoneInvitation,
  updateZoneUser,
  ZONE_USERS_ACCESS,
} from '~/core/customers/zone-user.service';
import { pageTitle } from '~/app/lib/page-title';
import { OpenDeviations } from '~/app/components/deviations/open-deviations';

/**
 * Inventory → customers → one customer: every field with contacts and addresses, the group
 * discounts and own prices, the customer-zone users and the history.
 */
export const middleware = guard({ permission: 'customers:read' });

/** The configuration as the form edits it: without the two flags that have their own checkboxes. */
function editableConfiguration(configuration: Record<string, unknown>) {
  const { ignoreErpInvoices: _erp, invoice, ...rest } = configuration;
  const { reverseVat: _vat, ...invoiceRest } = (invoice ?? {}) as Record<string, unknown>;
  return Object.keys(invoiceRest).length ? { ...rest, invoice: invoiceRest } : rest;
}

export async function loader({ params, context }: Route.LoaderArgs) {
  const auth = requireAuth(context);
  const tenant = context.get(tenantContext);
  const canZone = hasAccess(auth, ZONE_USERS_ACCESS);
  try {
    return await run(context, async (ctx) => {
      const customer = await getCustomer(ctx, params.id);
      return {
        customer: { ...customer, configuration: editableConfiguration(customer.configuration) },
        priceLists: await priceListOptions(ctx),
        groups: await articleGroupOptions(ctx),
        discounts: (await listGroupDiscounts(ctx, { customerId: customer.id })).discounts,
        prices: (await listCustomerArticles(ctx, customer.id)).articles,
        zoneUsers: canZone ? (await listZoneUsers(ctx, customer.id)).users : [],
        zoneSelfService: canZone ? (await getZoneSelfService(ctx, customer.id)).selfService : false,
        history: historyView(await getCustomerHistory(ctx, customer.id, { size: 20 }), tenant.config),
        canEdit: hasAccess(auth, { permission: 'customers:edit' }),
        canDelete: hasAccess(auth, { permission: 'customers:delete' }),
        canZone,
      };
    });
  } catch (e) {
    if (isAppError(e) && e.status === 404) throw data('not found', { status: 404 });
    throw e;
  }
}

type ActionResult = SectionResult & { usedBy?: Record<string, number> };

/** One intent per form of the page; each is one transaction through the customer services. */
async function perform(ctx: Ctx, id: string, intent: string, form: FormData, hostname: string) {
  const get = (k: string) => form.get(k) ?? undefined;
  switch (intent) {
    case 'discount.set':
      return setGroupDiscount(ctx, {
        customerId: id,
        articleGroupId: get('articleGroupId') || undefined,
        discountValue: get('discountValue') ?? '',
      });
    case 'discount.delete':
      return deleteGroupDiscount(ctx, { customerId: id, articleGroupId: get('articleGroupId') });
    case 'price.set':
      return setCustomerArticlePrice(ctx, {
        customerId: id,
        articleId: get('articleId') || undefined,
        price: get('price'),
      });
    case 'price.delete':
      return deleteCustomerArticlePrice(ctx, id, { articleId: get('articleId') });
    case 'zone.invite':
      return createZoneUser(ctx, id, { name: get('name'), email: get('email'), hostname });
    case 'zone.resend':
      return resendZoneInvitation(ctx, id, { id: get('userId'), hostname });
    case 'zone.edit':
      return updateZoneUser(ctx, id, get('userId'), { name: get('name'), email: get('email') });
    case 'zone.delete':
      return deleteZoneUser(ctx, id, get('userId'));
    case 'zone.selfService':
      return setZoneSelfService(ctx, id, { selfService: get('selfService') });
    default:
      throw new Error(`unknown intent ${intent}`);
  }
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const form = await request.formData();
  const intent = String(form.get('intent') ?? 'save');
  try {
    if (intent === 'delete') {
      await run(context, (ctx) => deleteCustomer(ctx, params.id));
      return redirect('/inventory/customers?deleted=1');
    }
    if (intent === 'save') {
      const { customer, fieldErrors } = customerFromForm(form);
      if (fieldErrors) return data<ActionResult>({ code: 'VALIDATION_FAILED', fields: fieldErrors }, { status: 400 });
      await run(context, (ctx) => updateCustomer(ctx, { ...customer, id: params.id }));
      return data<ActionResult>({ ok: true });
    }
    const hostname = new URL(request.url).hostname;
    const result = await run(context, (ctx) => perform(ctx, params.id, intent, form, hostname));
    const email = (result as { user?: { email?: string } } | undefined)?.user?.email;
    const toast =
      intent === 'zone.invite' || intent === 'zone.resend'
        ? { toast: { key: 'EMAIL_SENT_TO', values: { recipient: email ?? '' } } }
        : intent.endsWith('.delete')
          ? { toast: { key: 'SUCCESSFULLY_DELETED' } }
          : {};
    return data<ActionResult>({ ok: true, ...toast });
  } catch (e) {
    // 409 IN_USE carries what still uses the customer (usedBy)
    const result = actionError(e);
    return data<ActionResult>(
      { ...result.data, fields: rowErrorsToForm(result.data.fields, form) },
      { status: result.init?.status ?? 400 },
    );
  }
}

/** The page's `<title>` (app/lib/page-title.ts). */
export const handle = pageTitle('title.customer', (d: Route.ComponentProps['loaderData']) => d.customer.name);

export default function CustomerPage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('customers');
  const { t: tc } = useTranslation();
  const toast = useToast();
  const result = useActionData<ActionResult>();
  const navigation = useNavigation();
  const submit = useSubmit();
  const [params] = useSearchParams();
  const [confirmDelete, setConfirmDelete] = useState(false);
  const busy = navigation.state === 'submitting' && navigation.formData?.get('intent') === null;
  const deleting = navigation.state !== 'idle' && navigation.formData?.get('intent') === 'delete';
  const { customer, canEdit, canDelete, canZone } = loaderData;

  useEffect(() => {
    if (!result) return;
    if (result.ok) toast.show({ kind: 'success', message: tc('SUCCESSFULLY_SAVED') });
    else if (result.code === 'IN_USE') {
      const usedBy = Object.entries(result.usedBy ?? {})
        .map(([kind, n]) => t(`usedBy.${kind}`, { n, defaultValue: `${kind}: ${n}` }))
        .join(', ');
      toast.show({ kind: 'error', message: tc('IN_USE', { usedBy }) });
      setConfirmDelete(false);
    } else if (result.code) {
      toast.show({ kind: 'error', message: tc(result.code) });
      setConfirmDelete(false);
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [result]);

  const values: CustomerFormValues = customer;
  const sectionCard = 'rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-5';
  return (
    <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_22rem] xl:grid-cols-[minmax(0,1fr)_26rem]">
      <section className="min-w-0 rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6">
        <Link to="/inventory/customers" className="text-sm text-blue-800 underline">
          ← {t('back')}
        </Link>
        <h1 className="mt-2 text-2xl font-semibold break-words">{customer.name}</h1>
        <p className="mt-1 flex flex-wrap items-center gap-2 text-sm text-slate-600">
          <span>
            {customer.customerId ? t('header.number', { number: customer.customerId }) : t('header.noNumber')}
          </span>
          <span>· {t(`type.${customer.type}`)}</span>
          {customer.status === 'inactive' ? (
            <span className="rounded bg-slate-200 px-1.5 text-xs text-slate-700">{t('status.inactive')}</span>
          ) : null}
          {customer.potential ? (
            <span className="rounded bg-amber-100 px-1.5 text-xs text-amber-900">{t('badge.potential')}</span>
          ) : null}
        </p>
        {params.get('created') ? (
          <p role="status" className="mt-3 rounded-md bg-green-50 p-3 text-sm text-green-900">
            {t('created')}
          </p>
        ) : null}
        {!canEdit ? <p className="mt-3 rounded-md bg-slate-50 p-3 text-sm text-slate-700">{t('readOnly')}</p> : null}
        <Form method="post" noValidate className="mt-6 grid gap-6" key={customer.updatedAt}>
          <CustomerForm
            customer={values}
            priceLists={loaderData.priceLists}
            errors={result && !result.ok ? result.fields : undefined}
            isDisabled={!canEdit}
          />
          {canEdit || canDelete ? (
            <div className="sticky bottom-0 -mx-4 flex flex-wrap justify-between gap-2 border-t border-slate-200 bg-white/95 px-4 py-3 sm:-mx-6 sm:px-6">
              {canEdit ? (
                <Button type="submit" variant="primary" isPending={busy}>
                  {t('save')}
                </Button>
              ) : (
                <span />
              )}
              {canDelete ? (
                <Button variant="danger" onPress={() => setConfirmDelete(true)}>
                  {t('delete')}
                </Button>
              ) : null}
            </div>
          ) : null}
        </Form>
        <ConfirmDialog
          isOpen={confirmDelete}
          onOpenChange={setConfirmDelete}
          title={t('delete.title')}
          message={t('delete.confirm', { name: customer.name })}
          confirmLabel={t('delete')}
          variant="danger"
          isPending={deleting}
          onConfirm={() => submit({ intent: 'delete' }, { method: 'post' })}
        />
      </section>
      <div className="grid content-start gap-6">
        <OpenDeviations kind="customer" id={customer.id} />
        <section aria-labelledby="discounts" className={sectionCard}>
          <h2 id="discounts" className="mb-3 text-lg font-medium">
            {t('discounts.title')}
          </h2>
          <GroupDiscounts discounts={loaderData.discounts} groups={loaderData.groups} canEdit={canEdit} />
        </section>
        <section aria-labelledby="prices" className={sectionCard}>
          <h2 id="prices" className="mb-3 text-lg font-medium">
            {t('prices.title')}
          </h2>
          <CustomerPrices prices={loaderData.prices} canEdit={canEdit} />
        </section>
        {canZone ? (
          <section aria-labelledby="zone" className={sectionCard}>
            <h2 id="zone" className="mb-1 text-lg font-medium">
              {t('zone.title')}
            </h2>
            <p className="mb-3 text-sm text-slate-600">{t('zone.intro')}</p>
            <ZoneUsers users={loaderData.zoneUsers} />
            <ZoneSelfService selfService={loaderData.zoneSelfService} />
          </section>
        ) : null}
        <RecordFiles kind="customer" ownerId={customer.id} />
        <PublishedFiles customerId={customer.id} />
        <section aria-labelledby="history" className={sectionCard}>
          <h2 id="history" className="mb-3 text-lg font-medium">
            {t('history.title')}
          </h2>
          <CustomerHistory customerId={customer.id} initial={loaderData.history} />
        </section>
      </div>
    </div>
  );
}
