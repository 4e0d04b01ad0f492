import type { Route } from './+types/invoices.$id.history';
import { tenantContext } from '~/app/context';
import { guard, runResource } from '~/app/lib/guard.server';
import { historyView } from '~/app/components/customers/customer-history';
import { getInvoiceHistory } from '~/core/invoicing/invoice.service';

/**
 * An invoice's history, newest first (GET /invoice/history/{id}: an entry of the same action within
 * 60 s of the one before is left out), for the invoice screen's History dialog.
 */
export const middleware = guard({ permission: 'invoices:read' });

export async function loader({ params, context }: Route.LoaderArgs) {
  const tenant = context.get(tenantContext);
  const rows = await runResource(context, (ctx) => getInvoiceHistory(ctx, params.id));
  return historyView({ rows, totalCount: rows.length }, tenant.config);
}
