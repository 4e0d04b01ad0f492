import { useTranslation } from 'react-i18next';
import { useEffect } from 'react';
import { Form, Link, redirect, useActionData, useNavigation, useRevalidator } from 'react-router';
import type { Route } from './+types/supplierinvoices';
import { actionError } from '~/app/lib/action-error.server';
import { guard, requireAuth, run } from '~/app/lib/guard.server';
import { pageTitle } from '~/app/lib/page-title';
import { Button, LinkButton } from '~/app/components/ui';
import { useResultToast } from '~/app/components/objects/shared';
import { DocumentFileField } from '~/app/components/supplier-invoices/document-file-field';
import { SupplierInvoiceTable } from '~/app/components/supplier-invoices/supplier-invoice-table';
import { hasAccess } from '~/core/permissions/access';
import { SUPPLIER_INVOICE_TABS } from '~/core/supplier-invoices/supplier-invoice.schema';
import { erpFetchStatus, requestErpFetch } from '~/core/supplier-invoices/supplier-invoice-erp-fetch';
import {
  listSupplierInvoices,
  rotateInboundSecret,
  saveSupplierInvoiceSettings,
  SUPPLIER_INVOICE_ACCESS,
  supplierInvoiceSettings,
  uploadPeppolInvoice,
} from '~/core/supplier-invoices/supplier-invoice.service';
import { SUPPLIER_ORDER_ACCESS } from '~/core/supplier-orders/supplier-order.service';

/**
 * Supplier invoices (spec section 2: /supplierinvoices; issue 33): the status tabs (to approve,
 * approved, declined, all) in the address, newest first, 50 at a time; with supplier_invoices:edit
 * an e-invoice (Peppol BIS 3) is uploaded here and opens matched. `?projectId=` narrows to a
 * project (its supplier-invoice tab loads this).
 */
export const middleware = guard(SUPPLIER_INVOICE_ACCESS.read);

const PAGE = 50;

export async function loader({ request, context }: Route.LoaderArgs) {
  const auth = requireAuth(context);
  const url = new URL(request.url);
  const tab = (SUPPLIER_INVOICE_TABS as readonly string[]).includes(url.searchParams.get('status') ?? '')
    ? (url.searchParams.get('status') as (typeof SUPPLIER_INVOICE_TABS)[number])
    : 'pending';
  const projectId = url.searchParams.get('projectId') || undefined;
  const limit = Math.min(200, Math.max(PAGE, Number(url.searchParams.get('limit')) || PAGE));
  const canSettings = hasAccess(auth, SUPPLIER_INVOICE_ACCESS.edit) && hasAccess(auth, { permission: 'settings:read' });
  const canUpload = hasAccess(auth, SUPPLIER_INVOICE_ACCESS.edit);
  const { page, settings, erpFetch } = await run(context, async (ctx) => ({
    page: await listSupplierInvoices(ctx, { status: tab, projectId, limit }),
    settings: canSettings ? await supplierInvoiceSettings(ctx) : null,
    erpFetch: canUpload ? await erpFetchStatus(ctx.trx) : null,
  }));
  return {
    ...page,
    tab,
    projectId: projectId ?? null,
    limit,
    canUpload,
    // the fetch from the ERP: offered only where the tenant's ERP reads supplier invoices
    erpFetch: erpFetch?.available ? erpFetch : null,
    canSupplierOrders: hasAccess(auth, SUPPLIER_ORDER_ACCESS.edit),
    settings,
    inboundUrl: `${new URL(request.url).origin}/api/supplierinvoices/inbound`,
  };
}

type ActionResult = {
  ok?: boolean;
  intent?: string;
  code?: string;
  fields?: Record<string, string[]>;
  message?: string;
  secret?: string;
};

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const intent = String(form.get('intent') ?? 'upload');
  if (intent === 'erpFetch') {
    try {
      const { queued } = await run(context, (ctx) => requestErpFetch(ctx));
      return { ok: true, intent, message: queued ? 'fetch.started' : 'fetch.already' } satisfies ActionResult;
    } catch (e) {
      return actionError<ActionResult>(e, { intent });
    }
  }
  if (intent === 'settings' || intent === 'secret') {
    try {
      if (intent === 'secret') {
        const { secret } = await run(context, (ctx) => rotateInboundSecret(ctx));
        return { ok: true, intent, secret } satisfies ActionResult;
      }
      await run(context, (ctx) =>
        saveSupplierInvoiceSettings(ctx, {
          rebill: form.get('rebill') === 'on',
          rebillMarkup: String(form.get('rebillMarkup') ?? '0').replace(',', '.'),
        }),
      );
      return { ok: true, intent, message: 'settings.saved' } satisfies ActionResult;
    } catch (e) {
      return actionError<ActionResult>(e, { intent });
    }
  }
  const file = form.get('document');
  const text = file instanceof File ? await file.text() : '';
  let id: string;
  try {
    ({ id } = await run(context, (ctx) => uploadPeppolInvoice(ctx, text)));
  } catch (e) {
    return actionError<ActionResult>(e);
  }
  throw redirect(`/supplierinvoices/${id}`);
}

export const handle = pageTitle('nav.supplierInvoices');

export default function SupplierInvoices({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation('supplierinvoices');
  const { t: tc } = useTranslation();
  const result = useActionData<ActionResult>();
  const busy = useNavigation().state === 'submitting';
  const { tab, invoices, totalCount, paymentPendingCount, limit } = loaderData;
  useResultToast(result?.intent === 'secret' ? undefined : result, { ns: 'supplierinvoices' });
  const documentError = result?.fields?.document?.map((k) => tc(k)).join(' ');
  const settings = loaderData.settings;
  const erpFetch = loaderData.erpFetch;
  const fetching = erpFetch !== null && erpFetch.state !== 'idle';
  const revalidator = useRevalidator();
  // while a fetch is queued or running, the page looks again every few seconds for its result
  useEffect(() => {
    if (!fetching) return;
    const timer = setInterval(() => {
      if (revalidator.state === 'idle') void revalidator.revalidate();
    }, 3000);
    return () => clearInterval(timer);
  }, [fetching, revalidator]);
  return (
    <section className="min-w-0 rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div className="grid gap-1">
          <h1 className="text-2xl font-semibold">{t('title')}</h1>
          {loaderData.canSupplierOrders ? (
            <Link to="/supplierorders" className="text-sm text-brand-700 underline">
              {tc('nav.supplierOrders')}
            </Link>
          ) : null}
        </div>
        {loaderData.canUpload ? (
          <Form method="post" encType="multipart/form-data" className="flex flex-wrap items-end gap-2">
            <DocumentFileField
              label={t('upload.file')}
              name="document"
              accept=".xml,application/xml,text/xml"
              error={documentError}
            />
            <Button type="submit" isPending={busy}>
              {t('upload.submit')}
            </Button>
            <LinkButton href="/supplierinvoices/new" variant="secondary">
              {t('typed.open')}
            </LinkButton>
          </Form>
        ) : null}
      </div>
      {erpFetch ? (
        <div className="mt-4 flex flex-wrap items-center gap-3 rounded-lg bg-slate-50 p-3" data-testid="erp-fetch">
          <Form method="post">
            <input type="hidden" name="intent" value="erpFetch" />
            <Button type="submit" variant="secondary" isPending={fetching || (busy && result === undefined)}>
              {t('fetch.button')}
            </Button>
          </Form>
          <p role="status" className="text-sm text-slate-700">
            {fetching
              ? t('fetch.running')
              : erpFetch.fetchedAt
                ? t('fetch.result', {
                    when: new Date(erpFetch.fetchedAt).toLocaleString(i18n.language),
                    added: erpFetch.added ?? 0,
                    existing: erpFetch.existing ?? 0,
                  })
                : t('fetch.never')}
          </p>
          {!fetching && erpFetch.error ? (
            <p className="w-full text-sm break-words text-red-700">{t('fetch.error', { error: erpFetch.error })}</p>
          ) : null}
        </div>
      ) : null}
      <nav aria-label={t('tabs.label')} className="mt-4 flex overflow-x-auto border-b border-slate-200">
        {SUPPLIER_INVOICE_TABS.map((id) => (
          <Link
            key={id}
            to={`?status=${id}${loaderData.projectId ? `&projectId=${loaderData.projectId}` : ''}`}
            aria-current={tab === id ? 'page' : undefined}
            className={`shrink-0 border-b-2 px-4 py-3 text-sm font-medium no-underline ${
              tab === id ? 'border-blue-700 text-blue-800' : 'border-transparent text-slate-600'
            }`}
          >
            {t(`tab.${id}`)}
          </Link>
        ))}
      </nav>
      {paymentPendingCount ? (
        <p className="mt-3 text-sm text-slate-700">{t('paymentPending', { count: paymentPendingCount })}</p>
      ) : null}
      <div className="mt-4">
        <SupplierInvoiceTable invoices={invoices} />
      </div>
      {totalCount > invoices.length ? (
        <Link
          to={`?status=${tab}${loaderData.projectId ? `&projectId=${loaderData.projectId}` : ''}&limit=${limit + PAGE}`}
          className="mt-4 inline-block text-sm text-brand-700 underline"
          preventScrollReset
        >
          {t('showMore')}
        </Link>
      ) : null}
      {settings ? (
        <details className="mt-8 rounded-lg p-4 ring-1 ring-slate-200">
          <summary className="cursor-pointer font-medium">{t('settings.title')}</summary>
          <Form method="post" className="mt-4 grid max-w-md gap-3">
            <input type="hidden" name="intent" value="settings" />
            <label className="flex items-center gap-2 text-sm">
              <input type="checkbox" name="rebill" defaultChecked={settings.rebill} className="size-5" />
              {t('settings.rebill')}
            </label>
            <div className="grid gap-1">
              <label htmlFor="si-markup" className="text-sm font-medium">
                {t('settings.rebillMarkup')}
              </label>
              <input
                id="si-markup"
                name="rebillMarkup"
                inputMode="decimal"
                defaultValue={settings.rebillMarkup}
                className="min-h-11 rounded-md border border-slate-300 px-3 text-sm"
              />
              {result?.intent === 'settings' && result.fields?.rebillMarkup ? (
                <p className="text-sm text-red-700">{result.fields.rebillMarkup.map((k) => tc(k)).join(' ')}</p>
              ) : null}
            </div>
            <div>
              <Button type="submit" variant="secondary">
                {t('settings.save')}
              </Button>
            </div>
          </Form>
          <h2 className="mt-6 font-medium">{t('inbound.title')}</h2>
          <p className="mt-1 text-sm break-words text-slate-700">{t('inbound.help', { url: loaderData.inboundUrl })}</p>
          {settings.inboundConfigured ? <p className="mt-1 text-sm text-slate-700">{t('inbound.configured')}</p> : null}
          {result?.intent === 'secret' && result.secret ? (
            <p role="status" className="mt-2 rounded-md bg-amber-50 p-3 text-sm break-all text-amber-950">
              {t('inbound.secret')} <code>{result.secret}</code>
            </p>
          ) : null}
          <Form method="post" className="mt-2">
            <input type="hidden" name="intent" value="secret" />
            <Button type="submit" variant="secondary">
              {t('inbound.rotate')}
            </Button>
          </Form>
        </details>
      ) : null}
    </section>
  );
}
