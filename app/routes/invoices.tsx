import type { Route } from './+types/invoices';
import { guard, run } from '~/app/lib/guard.server';
import { InvoiceListPage } from '~/app/components/invoices/invoice-list';
import { invoiceListFilters, invoiceListPage } from '~/app/components/invoices/invoice-loaders.server';
import { currentSiePeriod } from '~/core/invoicing/sie-export.service';
import { pageTitle } from '~/app/lib/page-title';

/**
 * Invoices (issue 14 item 2; invoices:read): newest invoice date first, filtered by status, ERP
 * state, a search (number, customer, order number, ERP number) and a period, all in the address;
 * 50 at a time, "show more" loads the next page (`?offset=`) through this loader.
 */
export const middleware = guard({ permission: 'invoices:read' });

export async function loader({ request, context }: Route.LoaderArgs) {
  const { offset, ...filters } = invoiceListFilters(new URL(request.url).searchParams);
  const { page, siePeriod } = await run(context, async (ctx) => ({
    page: await invoiceListPage(ctx, { ...filters, offset }),
    // the SIE export offers this month, in the tenant's country
    siePeriod: currentSiePeriod(ctx),
  }));
  return { ...page, filters, offset, siePeriod };
}

/** The page's `<title>` (app/lib/page-title.ts). */
export const handle = pageTitle('nav.invoices');

export default function Invoices({ loaderData }: Route.ComponentProps) {
  return <InvoiceListPage data={loaderData} />;
}
