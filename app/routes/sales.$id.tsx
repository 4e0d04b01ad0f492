import { data, redirect } from 'react-router';
import type { Route } from './+types/sales.$id';
import { actionError } from '~/app/lib/action-error.server';
import { guard, run } from '~/app/lib/guard.server';
import { SalesOrderScreen, type SalesOrderActionResult } from '~/app/components/proposals/sales-order-screen';
import { orderInvoiceOf } from '~/app/components/invoices/invoice-loaders.server';
import { GROUPS_READ, listArticleGroups } from '~/core/articles/article-group.service';
import { isAppError } from '~/core/errors/app-error';
import { hasAccess } from '~/core/permissions/access';
import { refuseNul } from '~/core/http/edge';
import { proposalSettings } from '~/core/proposals/proposal.service';
import {
  closeSalesOrder,
  createSalesOrderWorkOrder,
  deleteSalesOrder,
  getSalesOrder,
  reopenSalesOrder,
  salesOrderAbilities,
  salesOrderOptions,
  saveSalesOrder,
  type SalesOrder,
} from '~/core/proposals/sales-order.service';
import { pageTitle } from '~/app/lib/page-title';

/**
 * One sales order (spec section 2: /sales/{salesOrderId}): title, customer, reference person,
 * department and the rows (the proposal's row editor), saved by itself 2.5 s after the last change;
 * close with the paid flag, reopen, delete; make the work order that bills it (decision 031). The action takes JSON (`intent` and what it needs).
 */
export const middleware = guard({ permission: 'salesorder:read', module: 'crm' });

export async function loader({ params, context }: Route.LoaderArgs) {
  return run(context, async (ctx) => {
    try {
      const salesOrder = await getSalesOrder(ctx, params.id);
      const settings = await proposalSettings(ctx);
      const options = await salesOrderOptions(ctx);
      const groups = hasAccess(ctx.auth, GROUPS_READ) ? await listArticleGroups(ctx) : [];
      return {
        salesOrder,
        settings,
        ...options,
        can: salesOrderAbilities(ctx),
        groups: groups.map((g) => ({ id: g.id, title: g.title })),
        // a closed order's invoice (with invoices:read); read last, it may find none
        invoice: salesOrder.status === 'closed' ? await orderInvoiceOf(ctx, 'salesOrder', salesOrder.id) : null,
      };
    } catch (e) {
      if (isAppError(e) && e.status === 404) throw data('not found', { status: 404 });
      throw e;
    }
  });
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const body = (await request.json().catch(() => ({}))) as {
    intent?: string;
    salesOrder?: SalesOrder;
    paid?: boolean;
    businessObjectId?: string | null;
  };
  try {
    refuseNul(body);
    switch (body.intent) {
      case 'save': {
        const salesOrder = await run(context, (ctx) => saveSalesOrder(ctx, { ...body.salesOrder, id: params.id }));
        return data<SalesOrderActionResult>({ ok: true, intent: 'save', salesOrder });
      }
      case 'close': {
        const salesOrder = await run(context, (ctx) => closeSalesOrder(ctx, params.id, { paid: body.paid === true }));
        return data<SalesOrderActionResult>({ ok: true, intent: 'close', salesOrder });
      }
      case 'workorder': {
        const made = await run(context, (ctx) =>
          createSalesOrderWorkOrder(ctx, params.id, { businessObjectId: body.businessObjectId ?? null }),
        );
        return redirect(`/work-orders/${made.workOrderId}`);
      }
      case 'reopen': {
        const salesOrder = await run(context, (ctx) => reopenSalesOrder(ctx, params.id));
        return data<SalesOrderActionResult>({ ok: true, intent: 'reopen', salesOrder });
      }
      case 'delete': {
        await run(context, (ctx) => deleteSalesOrder(ctx, params.id));
        return redirect('/sales');
      }
      default:
        return data<SalesOrderActionResult>({ code: 'BAD_REQUEST', intent: body.intent ?? '' }, { status: 400 });
    }
  } catch (e) {
    return actionError<SalesOrderActionResult>(e, { intent: body.intent ?? '' });
  }
}

/** The page's `<title>` (app/lib/page-title.ts). */
export const handle = pageTitle('title.salesOrder', (d: Route.ComponentProps['loaderData']) => d.salesOrder.number, {
  orElse: 'nav.sales',
});

export default function SalesOrderPage({ loaderData }: Route.ComponentProps) {
  return <SalesOrderScreen key={loaderData.salesOrder.id} {...loaderData} />;
}
