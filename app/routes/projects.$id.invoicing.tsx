import { data } from 'react-router';
import type { Route } from './+types/projects.$id.invoicing';
import { actionError } from '~/app/lib/action-error.server';
import { guard, run } from '~/app/lib/guard.server';
import { AppError, isAppError } from '~/core/errors/app-error';
import { PROJECT_ACCESS } from '~/core/projects/project-access';
import {
  closeProjectInvoice,
  createProjectInvoice,
  deleteProjectInvoice,
  getProjectInvoicing,
  reopenProjectInvoice,
  setArticleStatus,
  setWorkOrderStatus,
  updateProjectInvoice,
  type ProjectInvoiceDelivery,
  type ProjectInvoicingView,
  requireProjectInvoice,
} from '~/core/projects/project-invoice.service';

/**
 * The project's invoicing tab (app/components/projects/invoicing-panel.tsx) loads here: totals,
 * rows and invoices. It posts `intent` status (`kind` workOrder or article, `id`, `status`,
 * `invoiceId`), create (`percent` or `rest`, `withBacklog`, `invoiceDate`, `marking`), update
 * (`invoiceId`, the same fields), close, reopen or delete (`invoiceId`). Every answer carries the
 * tab's data again. The services check projects:edit and the project's state.
 */
export const middleware = guard(PROJECT_ACCESS.read);

export type InvoicingLoaderResult = ProjectInvoicingView | { error: string };

export type InvoicingActionResult =
  | {
      ok: true;
      intent: string;
      data: ProjectInvoicingView;
      invoiceNr?: string | null;
      queued?: boolean;
      /** What closing did about the ERP, for the toast. */
      delivery?: ProjectInvoiceDelivery;
    }
  | { ok?: undefined; intent?: string; code: string; fields?: Record<string, string[]> };

export async function loader({ params, context }: Route.LoaderArgs) {
  try {
    return data<InvoicingLoaderResult>(await run(context, (ctx) => getProjectInvoicing(ctx, params.id)));
  } catch (e) {
    if (isAppError(e) && e.status < 500)
      return data<InvoicingLoaderResult>(
        { error: e.status === 404 ? 'NOT_FOUND' : 'FAILED_TO_FETCH' },
        { status: e.status },
      );
    throw e;
  }
}

const field = (form: FormData, name: string) => {
  const v = form.get(name);
  return typeof v === 'string' ? v : undefined;
};

/** The part the dialog chose: the rest, a percentage, or none. */
const partOf = (form: FormData) => (field(form, 'rest') === 'true' ? 'rest' : (field(form, 'percent') ?? ''));

export async function action({ request, params, context }: Route.ActionArgs) {
  const form = await request.formData();
  const intent = String(form.get('intent') ?? '');
  const invoiceId = field(form, 'invoiceId');
  try {
    const answer = await run(context, async (ctx) => {
      let invoiceNr: string | null | undefined;
      let queued: boolean | undefined;
      let delivery: ProjectInvoiceDelivery | undefined;
      if (intent === 'status') {
        const status = { status: field(form, 'status'), invoiceId: invoiceId || null };
        if (field(form, 'kind') === 'workOrder')
          await setWorkOrderStatus(ctx, params.id, { ...status, workOrderId: field(form, 'id') });
        else await setArticleStatus(ctx, params.id, { ...status, rowId: field(form, 'id') });
      } else if (intent === 'create') {
        const made = await createProjectInvoice(ctx, {
          projectId: params.id,
          percent: partOf(form),
          withBacklog: field(form, 'withBacklog') === 'true',
          invoiceDate: field(form, 'invoiceDate') || undefined,
          marking: field(form, 'marking'),
        });
        invoiceNr = made.invoice.invoiceNr;
      } else if (intent === 'update') {
        await updateProjectInvoice(ctx, {
          id: invoiceId,
          // what the form leaves out stays as it is
          percent: form.has('rest') || form.has('percent') ? partOf(form) : undefined,
          withBacklog: form.has('withBacklog') ? field(form, 'withBacklog') === 'true' : undefined,
          invoiceDate: field(form, 'invoiceDate') || undefined,
          marking: field(form, 'marking'),
        });
      } else if (intent === 'close' || intent === 'reopen' || intent === 'delete') {
        await requireProjectInvoice(ctx, params.id, invoiceId);
        if (intent === 'close') {
          const closed = await closeProjectInvoice(ctx, invoiceId);
          invoiceNr = closed.invoice.invoiceNr;
          queued = closed.queued;
          delivery = closed.delivery;
        } else if (intent === 'reopen') await reopenProjectInvoice(ctx, invoiceId);
        else await deleteProjectInvoice(ctx, invoiceId);
      } else throw new AppError('ERROR_INVALID_VALUE', 400);
      return { data: await getProjectInvoicing(ctx, params.id), invoiceNr, queued, delivery };
    });
    return data<InvoicingActionResult>({ ok: true, intent, ...answer });
  } catch (e) {
    return actionError<InvoicingActionResult>(e, { intent });
  }
}
