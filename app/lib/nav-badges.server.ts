import type { RouterContextProvider } from 'react-router';
import type { NavBadge } from '~/app/components/shell/nav';
import { dueAgreementInvoiceCount } from '~/core/agreements/agreement-invoices.service';
import type { Auth } from '~/core/context';
import { logger } from '~/core/log/logger';
import { supplierInvoiceBadge } from '~/core/supplier-invoices/supplier-invoice.service';
import { hasAccess } from '~/core/permissions/access';
import { run } from './guard.server';

/**
 * The counts the top bar shows beside its links, each only for those who may open what it counts:
 * one indexed count per badge. A count that fails is 0 (spec: "returns count (0 on failure)") —
 * a badge never takes a page down.
 */
export async function navBadgeCounts(
  context: Readonly<RouterContextProvider>,
  auth: Auth,
): Promise<Record<NavBadge, number>> {
  const counts: Record<NavBadge, number> = { agreementInvoices: 0, supplierInvoices: 0 };
  if (hasAccess(auth, { permission: 'agreements:read' }))
    try {
      counts.agreementInvoices = (await run(context, (ctx) => dueAgreementInvoiceCount(ctx))).count;
    } catch (err) {
      logger.warn({ err }, 'the agreement invoice badge could not be counted');
    }
  if (hasAccess(auth, { permission: 'supplier_invoices:read', module: 'supplier_invoices' }))
    try {
      counts.supplierInvoices = (await run(context, (ctx) => supplierInvoiceBadge(ctx)))?.count ?? 0;
    } catch (err) {
      logger.warn({ err }, 'the supplier invoice badge could not be counted');
    }
  return counts;
}
