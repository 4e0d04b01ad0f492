import { data } from 'react-router';
import type { Route } from './+types/work-orders.$id.close';
import { actionError } from '~/app/lib/action-error.server';
import { guard, run } from '~/app/lib/guard.server';
import {
  broadcastWorkOrder,
  closeWorkOrder,
  COPY_OPTIONS,
  copyWorkOrder,
  getCloseDefaults,
  reopenWorkOrder,
  setProjectExtraStatus,
} from '~/core/work-orders/close.service';
import type { CloseActionResult } from '~/app/components/work-orders/order/close-dialog';

/**
 * The order screen's close, reopen, copy (revisit), order-finish broadcast and ATA controls post
 * here (app/components/work-orders/order/close-dialog.tsx), one intent each; the loader answers
 * what the close dialog proposes (ClosePanelData). The services check the permission and module
 * of each intent; the route needs workorders:read.
 */
export const middleware = guard({ permission: 'workorders:read' });

export async function loader({ context, params }: Route.LoaderArgs) {
  return run(context, (ctx) => getCloseDefaults(ctx, params.id));
}

const text = (form: FormData, name: string) => {
  const v = form.get(name);
  return typeof v === 'string' ? v : undefined;
};

export async function action({ request, context, params }: Route.ActionArgs) {
  const form = await request.formData();
  const intent = text(form, 'intent') ?? '';
  const workOrderId = params.id;
  try {
    switch (intent) {
      case 'close': {
        const r = await run(context, (ctx) =>
          closeWorkOrder(ctx, {
            workOrderId,
            statusId: text(form, 'statusId'),
            invoiceDate: text(form, 'invoiceDate'),
            deliveryDate: text(form, 'deliveryDate'),
            // the fee toggle off posts no fee: the fee is sent empty (spec)
            invoiceFee: text(form, 'feeOn') === 'true' ? (text(form, 'invoiceFee') ?? '') : '',
            ignoreReverseVAT: text(form, 'ignoreReverseVAT') === 'true',
            withoutInvoice: text(form, 'withoutInvoice') === 'true',
          }),
        );
        return data<CloseActionResult>({ ok: true, intent, invoice: r.invoice, warnings: r.warnings });
      }
      case 'reopen':
        await run(context, (ctx) => reopenWorkOrder(ctx, { workOrderId }));
        return data<CloseActionResult>({ ok: true, intent });
      case 'copy': {
        const chosen = new Set(form.getAll('options').map(String));
        const options = Object.fromEntries(COPY_OPTIONS.map((o) => [o, chosen.has(o)]));
        const r = await run(context, (ctx) => copyWorkOrder(ctx, { workOrderId, options }));
        return data<CloseActionResult>({ ok: true, intent, workOrderId: r.workOrder.id, message: r.message });
      }
      case 'broadcast': {
        const r = await run(context, (ctx) =>
          broadcastWorkOrder(ctx, { workOrder: { id: workOrderId }, event: 'finished', status: text(form, 'status') }),
        );
        return data<CloseActionResult>({
          ok: true,
          intent,
          recipient: 'recipient' in r ? r.recipient : undefined,
        });
      }
      case 'projectExtra': {
        const r = await run(context, (ctx) =>
          setProjectExtraStatus(ctx, { workOrderId, status: text(form, 'status') }),
        );
        return data<CloseActionResult>({ ok: true, intent, projectExtraStatus: r.projectExtraStatus });
      }
      default:
        return data<CloseActionResult>({ intent, code: 'ERROR_INVALID_VALUE' }, { status: 400 });
    }
  } catch (e) {
    return actionError<CloseActionResult>(e, { intent });
  }
}
