import { useTranslation } from 'react-i18next';
import { Form, Link, redirect, useActionData, useNavigation } from 'react-router';
import type { Route } from './+types/work-orders.new';
import { tenantContext } from '~/app/context';
import { actionError, type ActionError } from '~/app/lib/action-error.server';
import { guard, run } from '~/app/lib/guard.server';
import { Button } from '~/app/components/ui';
import { tenantTimeZone } from '~/core/i18n/number-format';
import { useActionToast } from '~/app/components/shell/use-action-toast';
import { workOrderFromForm } from '~/app/components/work-orders/order/form-data';
import { WorkOrderForm } from '~/app/components/work-orders/order/work-order-form';
import { dispatchTarget } from '~/core/work-orders/dispatch-rules.service';
import { workOrderPrefill } from '~/core/work-orders/object-work-orders';
import { createWorkOrder } from '~/core/work-orders/work-order.service';
import { getWorkOrderOptions } from '~/core/work-orders/work-order-options';
import { projectForNewOrder } from '~/core/projects/project.service';
import { pageTitle } from '~/app/lib/page-title';

/** A new work order (spec sections 3 and 5): defaults from the settings, required fields checked on the server. */
export const middleware = guard({ permission: 'workorders:create' });

/**
 * `?businessObjectId=…&customerId=…` (the object page's "new work order", e.g. after a QR scan)
 * starts the form with that object and its customer; a matching dispatch rule's person starts
 * checked as the assignee (spec section 3), which the person may change.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const tenant = context.get(tenantContext);
  const url = new URL(request.url);
  return {
    ...(await run(context, async (ctx) => {
      const options = await getWorkOrderOptions(ctx);
      const target = await dispatchTarget(ctx);
      const project = await projectForNewOrder(ctx, url.searchParams.get('projectId'));
      const prefill = await workOrderPrefill(ctx, {
        businessObjectId: url.searchParams.get('businessObjectId'),
        customerId: url.searchParams.get('customerId') ?? project?.customerId,
      });
      const extra = project !== null && url.searchParams.get('extra') === '1';
      const start = project ? { id: project.id, label: `${project.number} · ${project.title}` } : null;
      return { options, prefill: { ...prefill, assignees: target ? [target] : [], project: start }, project, extra };
    })),
    timeZone: tenantTimeZone(tenant.config.country),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const tenant = context.get(tenantContext);
  const form = await request.formData();
  try {
    const { workOrder } = await run(context, (ctx) =>
      createWorkOrder(ctx, { workOrder: workOrderFromForm(form, tenantTimeZone(tenant.config.country)) }),
    );
    const q = new URLSearchParams({ open: '1', created: '1', workOrderTitle: workOrder.title });
    if (workOrder.customerName) q.set('customerName', workOrder.customerName);
    return redirect(`/work-orders/${workOrder.id}?${q.toString()}`);
  } catch (e) {
    return actionError(e);
  }
}

/** The page's `<title>` (app/lib/page-title.ts). */
export const handle = pageTitle('title.newWorkOrder');

export default function NewWorkOrder({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('workorders');
  const result = useActionData<ActionError>();
  const busy = useNavigation().state === 'submitting';
  useActionToast(result);
  return (
    <section className="min-w-0 rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6">
      <Link to="/" className="text-sm text-blue-800 underline">
        ← {t('order.backToList')}
      </Link>
      <h2 className="mt-2 text-xl font-semibold">{t('new.title')}</h2>
      {loaderData.project ? (
        <p className="mt-3 rounded-md bg-blue-50 p-3 text-sm text-blue-950">
          {t(loaderData.extra ? 'new.inProjectExtra' : 'new.inProject', {
            project: `${loaderData.project.number} · ${loaderData.project.title}`,
          })}
        </p>
      ) : null}
      <Form method="post" noValidate className="mt-6 grid gap-6">
        {loaderData.project && !loaderData.options.canSetProject ? (
          <input type="hidden" name="projectId" value={loaderData.project.id} />
        ) : null}
        {loaderData.extra ? <input type="hidden" name="projectExtra" value="1" /> : null}
        <WorkOrderForm
          workOrder={null}
          options={loaderData.options}
          timeZone={loaderData.timeZone}
          errors={result?.fields}
          prefill={loaderData.prefill}
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
