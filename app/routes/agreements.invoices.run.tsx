import type { Route } from './+types/agreements.invoices.run';
import { guard, runResource } from '~/app/lib/guard.server';
import { invoiceRunView } from '~/app/components/agreements/invoice-run-view';
import { getInvoiceRun, latestInvoiceRun } from '~/core/agreements/agreement-runs';

/**
 * How an agreement invoicing run goes (`GET ?id=`, or the latest run without one): what the
 * invoice page's bar polls every second while a run is queued or running.
 */
export const middleware = guard({ permission: 'agreements:read' });

export async function loader({ request, context }: Route.LoaderArgs) {
  const id = new URL(request.url).searchParams.get('id');
  const { run } = await runResource(context, (ctx) => (id ? getInvoiceRun(ctx, id) : latestInvoiceRun(ctx)));
  return { run: invoiceRunView(run) };
}
