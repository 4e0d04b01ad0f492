import { data } from 'react-router';
import type { Route } from './+types/invoices.$id';
import { actionError } from '~/app/lib/action-error.server';
import { guard, run } from '~/app/lib/guard.server';
import { InvoiceScreen, type InvoiceActionResult } from '~/app/components/invoices/invoice-screen';
import { isAppError } from '~/core/errors/app-error';
import { refuseNul } from '~/core/http/edge';
import { applyErp, finalizeDraft, getInvoice, settleErpCheck, updateInvoice } from '~/core/invoicing/invoice.service';
import { pageTitle } from '~/app/lib/page-title';

/**
 * One invoice (issue 14 item 2): read with invoices:read; the action takes JSON (`intent` and what
 * it needs) and answers what was done or the refusal (409 INVOICE_CHANGED, INVOICE_NOT_DRAFT, field
 * errors): `save` {version, invoice} changes a draft (PUT /invoice), `finalize` gives it its number,
 * `erp` queues its delivery to the ERP, or queues a failed one again (POST /invoice/apply, type erp);
 * `erpBooked` {externalInvoiceNr} and `erpSendAgain` answer a delivery stopped as needs checking
 * (POST /invoice/erp/check).
 * The services check the permission that edits the invoice.
 */
export const middleware = guard({ permission: 'invoices:read' });

export async function loader({ params, context }: Route.LoaderArgs) {
  return run(context, async (ctx) => {
    try {
      return { invoice: await getInvoice(ctx, params.id) };
    } catch (e) {
      if (isAppError(e) && e.status === 404) throw data('not found', { status: 404 });
      throw e;
    }
  });
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const body = (await request.json().catch(() => ({}))) as {
    intent?: string;
    version?: unknown;
    invoice?: Record<string, unknown>;
    externalInvoiceNr?: unknown;
  };
  const intent = typeof body.intent === 'string' ? body.intent : '';
  try {
    refuseNul(body);
    switch (intent) {
      case 'save': {
        const invoice = await run(context, (ctx) =>
          updateInvoice(ctx, { ...body.invoice, id: params.id, version: body.version }),
        );
        return data<InvoiceActionResult>({ ok: true, intent, invoiceNr: invoice.invoiceNr });
      }
      case 'finalize': {
        const invoice = await run(context, (ctx) => finalizeDraft(ctx, params.id));
        return data<InvoiceActionResult>({ ok: true, intent, invoiceNr: invoice.invoiceNr });
      }
      case 'erp': {
        const { invoice } = await run(context, (ctx) => applyErp(ctx, params.id));
        return data<InvoiceActionResult>({ ok: true, intent, invoiceNr: invoice.invoiceNr });
      }
      case 'erpBooked':
      case 'erpSendAgain': {
        const { invoice } = await run(context, (ctx) =>
          settleErpCheck(ctx, {
            invoiceId: params.id,
            answer: intent === 'erpBooked' ? 'booked' : 'sendAgain',
            externalInvoiceNr: intent === 'erpBooked' ? body.externalInvoiceNr : undefined,
          }),
        );
        return data<InvoiceActionResult>({ ok: true, intent, invoiceNr: invoice.invoiceNr });
      }
      default:
        return data<InvoiceActionResult>({ intent, code: 'BAD_REQUEST' }, { status: 400 });
    }
  } catch (e) {
    return actionError<InvoiceActionResult>(e, { intent });
  }
}

/** The page's `<title>` (app/lib/page-title.ts). */
export const handle = pageTitle('title.invoice', (d: Route.ComponentProps['loaderData']) => d.invoice.invoiceNr, {
  orElse: 'nav.invoices',
});

export default function InvoicePage({ loaderData }: Route.ComponentProps) {
  return <InvoiceScreen key={loaderData.invoice.id} invoice={loaderData.invoice} />;
}
