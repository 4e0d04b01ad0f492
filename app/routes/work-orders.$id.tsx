import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { data, Form, useFetcher, useNavigate, useSearchParams } from 'react-router';
import type { Route } from './+types/work-orders.$id';
import { tenantContext } from '~/app/context';
import { actionError, type ActionError } from '~/app/lib/action-error.server';
import { guard, requireAuth, run } from '~/app/lib/guard.server';
import { Button, ConfirmDialog, DatePicker, dateValueOf, useToast } from '~/app/components/ui';
import { formatDateTime, tenantTimeZone } from '~/core/i18n/number-format';
import { dateIn } from '~/core/work-orders/time-rules';
import { workOrderFromForm } from '~/app/components/work-orders/order/form-data';
import { ArticlesPanel } from '~/app/components/work-orders/order/articles-panel';
import { ChecklistsPanel } from '~/app/components/work-orders/order/checklists-panel';
import { ServiceReportsPanel } from '~/app/components/service-reports/service-reports-panel';
import { SignaturePanel } from '~/app/components/work-orders/order/signature-panel';
import {
  CloseDialog,
  CopyDialog,
  ProjectExtraControl,
  ReopenButton,
} from '~/app/components/work-orders/order/close-dialog';
import { DocumentsMenu } from '~/app/components/work-orders/order/documents-menu';
import { orderInvoiceOf } from '~/app/components/invoices/invoice-loaders.server';
import { OrderInvoiceLink } from '~/app/components/invoices/order-invoice-link';
import { HistoryPanel } from '~/app/components/work-orders/order/history-panel';
import { RemindersPanel } from '~/app/components/work-orders/order/reminders-panel';
import { RecordFiles } from '~/app/components/files/record-files';
import { TimePanel } from '~/app/components/work-orders/order/time-panel';
import { PlansStrip } from '~/app/components/work-orders/order/plans-strip';
import { OrderSummary } from '~/app/components/work-orders/order/order-summary';
import { WorkOrderForm } from '~/app/components/work-orders/order/work-order-form';
import { useWorkOrderTabs } from '~/app/components/work-orders/tabs/tabs-context';
import { hasAccess } from '~/core/permissions/access';
import { listWorkOrderArticles } from '~/core/work-orders/articles.service';
import { getCloseDefaults } from '~/core/work-orders/close.service';
import { loadDocumentsPanel } from '~/core/work-orders/documents.service';
import { plansOfOrder } from '~/core/work-orders/schedule.service';
import {
  getWorkOrderSignatures,
  removeWorkOrderSignature,
  signWorkOrder,
  SIGNATURE_ACCESS,
} from '~/core/work-orders/signature.service';
import { listWorkOrderTime } from '~/core/work-orders/time.service';
import { getWorkOrderOptions } from '~/core/work-orders/work-order-options';
import {
  deleteWorkOrder,
  editWorkOrder,
  getWorkOrder,
  restoreWorkOrder,
  setWorkOrderLocked,
} from '~/core/work-orders/work-order.service';
import { pageTitle } from '~/app/lib/page-title';
import { OpenDeviations } from '~/app/components/deviations/open-deviations';

/**
 * One work order in its tab (spec sections 2–5): what to do and where, time and articles, closing,
 * documents, history, and the full form. Closed, locked or deleted orders are read-only here.
 */
export const middleware = guard({ permission: 'workorders:read' });

export async function loader({ params, context }: Route.LoaderArgs) {
  const auth = requireAuth(context);
  const tenant = context.get(tenantContext);
  const loaded = await run(context, async (ctx) => {
    const { workOrder } = await getWorkOrder(ctx, params.id);
    return {
      workOrder,
      options: await getWorkOrderOptions(ctx),
      articles: await listWorkOrderArticles(ctx, workOrder.id),
      time: await listWorkOrderTime(ctx, workOrder.id),
      close: await getCloseDefaults(ctx, workOrder.id),
      documents: await loadDocumentsPanel(ctx),
      plans: await plansOfOrder(ctx, workOrder.id),
      // the customer's signature (module workorder_signature)
      signature: hasAccess(ctx.auth, SIGNATURE_ACCESS.read) ? await getWorkOrderSignatures(ctx, workOrder.id) : null,
      // a closed order's invoice (with invoices:read); read last, it may find none
      invoice: workOrder.isClosed ? await orderInvoiceOf(ctx, 'workOrder', workOrder.id) : null,
    };
  });
  const can = (permission: string) => hasAccess(auth, { permission } as Parameters<typeof hasAccess>[1]);
  return {
    ...loaded,
    userId: auth.user.id,
    timeZone: tenantTimeZone(tenant.config.country),
    config: { dateFormat: tenant.config.dateFormat, country: tenant.config.country },
    can: {
      edit: can('workorders:edit'),
      lock: can('workorders:lock'),
      delete: can('workorders:delete'),
      id06: hasAccess(auth, { permission: 'workorders:id06', module: 'id06' }),
    },
    panels: Object.entries(ORDER_PANELS)
      .filter(([, m]) => hasAccess(auth, m.access))
      .map(([key]) => key),
    today: dateIn(new Date(), tenantTimeZone(tenant.config.country)),
  };
}

/** The site's ID06 attendance register for a day, as a file (the order carries the site's code). */
function Id06Register({ code, today }: { code: string; today: string }) {
  const { t } = useTranslation('workorders');
  return (
    <details className="relative">
      <summary className="flex min-h-8 cursor-pointer items-center rounded-md border border-gray-300 bg-white px-3 text-sm">
        {t('id06.title')}
      </summary>
      <Form
        method="post"
        action="/work-orders/id06"
        reloadDocument
        className="absolute right-0 z-20 mt-1 grid w-64 gap-2 rounded-md border border-gray-200 bg-white p-3 shadow-lg"
      >
        <input type="hidden" name="id06Code" value={code} />
        <p className="text-xs text-slate-600">{t('id06.help', { code })}</p>
        <DatePicker label={t('id06.day')} name="timestamp" defaultValue={dateValueOf(today)} isRequired />
        <Button type="submit" size="sm" variant="secondary">
          {t('id06.download')}
        </Button>
      </Form>
    </details>
  );
}

/**
 * Panels app-module plugins add to the order page (`plugins/<name>/order-panel.tsx`): a default
 * component taking the order's id, and the `access` that shows it. Known at build time.
 */
const ORDER_PANELS = import.meta.glob<{
  default: (props: { workOrderId: string }) => React.ReactNode;
  access: Parameters<typeof hasAccess>[1];
}>('../../plugins/*/order-panel.tsx', { eager: true });

type Result = Partial<ActionError> & { ok?: boolean; intent?: string; title?: string; customerName?: string | null };

export async function action({ request, params, context }: Route.ActionArgs) {
  const tenant = context.get(tenantContext);
  const form = await request.formData();
  const intent = String(form.get('intent') ?? 'save');
  try {
    switch (intent) {
      case 'lock':
      case 'unlock':
        await run(context, (ctx) => setWorkOrderLocked(ctx, { workOrderId: params.id }, intent === 'lock'));
        return data<Result>({ ok: true, intent });
      case 'delete':
        await run(context, (ctx) => deleteWorkOrder(ctx, params.id));
        return data<Result>({ ok: true, intent });
      case 'restore':
        await run(context, (ctx) => restoreWorkOrder(ctx, { workOrderId: params.id }));
        return data<Result>({ ok: true, intent });
      case 'sign':
        await run(context, (ctx) =>
          signWorkOrder(ctx, { id: params.id, name: form.get('name') ?? '', image: form.get('image') || null }),
        );
        return data<Result>({ ok: true, intent });
      case 'unsign':
        await run(context, (ctx) => removeWorkOrderSignature(ctx, params.id));
        return data<Result>({ ok: true, intent });
      default: {
        const wo = workOrderFromForm(form, tenantTimeZone(tenant.config.country));
        const { workOrder } = await run(context, (ctx) => editWorkOrder(ctx, { workOrder: { ...wo, id: params.id } }));
        return data<Result>({ ok: true, intent: 'save', title: workOrder.title, customerName: workOrder.customerName });
      }
    }
  } catch (e) {
    return actionError<Result>(e, { intent });
  }
}

/** The page's `<title>` (app/lib/page-title.ts). */
export const handle = pageTitle('title.workOrder', (d: Route.ComponentProps['loaderData']) => d.workOrder.number);

export default function WorkOrderPage({ loaderData: d }: Route.ComponentProps) {
  const { t } = useTranslation('workorders');
  const { t: tc } = useTranslation();
  const wo = d.workOrder;
  const tabs = useWorkOrderTabs();
  const toast = useToast();
  const navigate = useNavigate();
  const [search, setSearch] = useSearchParams();
  const fetcher = useFetcher<Result>();
  const [confirmDelete, setConfirmDelete] = useState(false);
  const format = (iso: string) => formatDateTime(iso, d.config);
  const readOnly = !d.can.edit || wo.isClosed || wo.isLocked || Boolean(wo.deletedAt);

  // The order has a tab while it is shown (opened from the list, a deep link or a reload).
  useEffect(() => {
    tabs.open({ id: wo.id, number: wo.number, title: wo.title, customerName: wo.customerName });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [wo.id, tabs.ready]);
  // "created" and "open" are one-time signals; drop them so a reload does not repeat them
  useEffect(() => {
    if (search.get('created')) toast.show({ kind: 'success', message: tc('SUCCESSFULLY_SAVED') });
    if (search.size) setSearch({}, { replace: true, preventScrollReset: true });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const result = fetcher.data;
  useEffect(() => {
    if (!result || fetcher.state !== 'idle') return;
    if (result.ok && result.intent === 'delete') {
      // spec section 4: delete removes the order and its tab and returns to the list
      tabs.deleted(wo.id);
      toast.show({ kind: 'success', message: tc('SUCCESSFULLY_DELETED') });
      void navigate('/');
    } else if (result.ok) {
      if (result.intent === 'save') tabs.saved(wo.id, result.title, result.customerName);
      toast.show({ kind: 'success', message: tc('SUCCESSFULLY_SAVED') });
    } else if (result.code)
      toast.show({
        kind: 'error',
        message: tc(
          result.intent === 'delete' && result.code !== 'WORK_ORDER_HAS_LOCKED_TIME_REPORTS'
            ? 'FAILED_TO_DELETE_WORKORDER'
            : result.code,
        ),
      });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [result, fetcher.state]);
  const post = (intent: string) => fetcher.submit({ intent }, { method: 'post' });
  const busy = fetcher.state !== 'idle';

  return (
    <article className="space-y-4" aria-labelledby="wo-title">
      <header className="flex flex-wrap items-start justify-between gap-3 rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
        <div className="min-w-0">
          <p className="text-sm text-slate-500">{t('order.number', { number: wo.number })}</p>
          <h2 id="wo-title" className="text-xl font-semibold break-words">
            {wo.title}
          </h2>
          <p className="mt-1 flex flex-wrap gap-2 text-sm">
            <span className="rounded bg-slate-100 px-2 py-0.5">{wo.statusName}</span>
            <span className="rounded bg-slate-100 px-2 py-0.5">{wo.workTypeName}</span>
            {wo.isClosed ? (
              <span className="rounded bg-green-100 px-2 py-0.5 text-green-900">{t('order.closed')}</span>
            ) : null}
            {wo.isLocked ? (
              <span className="rounded bg-amber-100 px-2 py-0.5 text-amber-900">{t('order.locked')}</span>
            ) : null}
            {wo.deletedAt ? (
              <span className="rounded bg-red-100 px-2 py-0.5 text-red-900">{t('order.inRecycleBin')}</span>
            ) : null}
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          {!wo.deletedAt ? (
            <>
              {/* stays mounted after closing: its second step offers the order-finish e-mail */}
              <CloseDialog workOrderId={wo.id} data={d.close} />
              {wo.isClosed ? <ReopenButton workOrderId={wo.id} data={d.close} /> : null}
              <CopyDialog workOrderId={wo.id} data={d.close} />
              {d.can.id06 && wo.id06Code ? <Id06Register code={wo.id06Code} today={d.today} /> : null}
              <DocumentsMenu
                workOrderId={wo.id}
                number={wo.number}
                data={d.documents}
                defaultEmail={wo.contactEmail ?? d.close.broadcastEmail ?? null}
              />
            </>
          ) : null}
          {d.can.lock && !wo.deletedAt ? (
            <Button
              size="sm"
              variant="secondary"
              onPress={() => post(wo.isLocked ? 'unlock' : 'lock')}
              isDisabled={busy}
            >
              {wo.isLocked ? t('order.unlock') : t('order.lock')}
            </Button>
          ) : null}
          {d.can.delete && !wo.deletedAt ? (
            <Button size="sm" variant="danger" onPress={() => setConfirmDelete(true)} isDisabled={busy}>
              {t('order.delete')}
            </Button>
          ) : null}
          {wo.deletedAt && d.can.delete ? (
            <Button size="sm" variant="primary" onPress={() => post('restore')} isDisabled={busy}>
              {t('order.restore')}
            </Button>
          ) : null}
        </div>
        {wo.isClosed && d.invoice ? (
          <div className="basis-full">
            <OrderInvoiceLink invoice={d.invoice} />
          </div>
        ) : null}
      </header>

      <OrderSummary workOrder={wo} format={format} />
      <PlansStrip plans={d.plans} dateFormat={d.config.dateFormat} />
      {!wo.deletedAt ? <ProjectExtraControl workOrderId={wo.id} data={d.close} /> : null}
      <TimePanel
        workOrderId={wo.id}
        data={d.time}
        editable={!wo.isClosed && !wo.isLocked && !wo.deletedAt}
        currentUserId={d.userId}
        timeZone={d.timeZone}
      />
      <ArticlesPanel
        workOrderId={wo.id}
        customerId={wo.customerId}
        businessObjectId={wo.businessObjectId}
        data={d.articles}
        editable={!wo.isClosed && !wo.isLocked && !wo.deletedAt}
      />
      <RemindersPanel workOrderId={wo.id} />
      <ChecklistsPanel workOrderId={wo.id} format={format} />
      {wo.deletedAt ? null : <ServiceReportsPanel workOrderId={wo.id} format={format} />}
      {d.signature && !wo.deletedAt ? (
        <SignaturePanel data={d.signature} isClosed={wo.isClosed} format={format} />
      ) : null}
      {wo.deletedAt ? null : <RecordFiles kind="wo" ownerId={wo.id} />}
      {wo.deletedAt ? null : <OpenDeviations kind="work_order" id={wo.id} />}
      {d.panels.map((key) => {
        const panel = ORDER_PANELS[key];
        if (!panel || wo.deletedAt) return null;
        const Panel = panel.default;
        return <Panel key={key} workOrderId={wo.id} />;
      })}

      <section aria-labelledby="wo-details" className="rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6">
        <h3 id="wo-details" className="text-base font-semibold">
          {t('order.details')}
        </h3>
        {readOnly && d.can.edit && !wo.deletedAt ? (
          <p className="mt-2 text-sm text-slate-600">{wo.isClosed ? t('order.closedHint') : t('order.lockedHint')}</p>
        ) : null}
        <fetcher.Form method="post" noValidate className="mt-4 grid gap-6" key={wo.updateTs}>
          <input type="hidden" name="intent" value="save" />
          <WorkOrderForm
            workOrder={wo}
            options={d.options}
            timeZone={d.timeZone}
            errors={result?.intent === 'save' ? result.fields : undefined}
            isDisabled={readOnly}
            onEdit={(field) => tabs.edited(wo.id, field)}
          />
          {readOnly ? null : (
            <div className="sticky bottom-0 -mx-4 flex gap-2 border-t border-slate-200 bg-white/95 px-4 py-3 sm:-mx-6 sm:px-6">
              <Button type="submit" variant="primary" isPending={busy && fetcher.formData?.get('intent') === 'save'}>
                {t('order.save')}
              </Button>
              <Button variant="ghost" onPress={() => void navigate('/')}>
                {t('order.backToList')}
              </Button>
            </div>
          )}
        </fetcher.Form>
      </section>

      <HistoryPanel workOrderId={wo.id} format={format} />
      <ConfirmDialog
        isOpen={confirmDelete}
        onOpenChange={setConfirmDelete}
        title={t('order.deleteTitle')}
        message={t('order.deleteConfirm', { title: wo.title })}
        confirmLabel={t('order.delete')}
        variant="danger"
        onConfirm={() => void fetcher.submit({ intent: 'delete' }, { method: 'post' })}
      />
    </article>
  );
}
