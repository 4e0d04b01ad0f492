import type { ErpCapabilities } from '~/core/extension-points/erp-provider';
import { AppError } from '~/core/errors/app-error';
import type { Ctx } from '~/core/context';

/**
 * What can be done with an invoice (spec section 4 "apply types": pdf, visma-xml, email, erp; issue
 * 15 adds peppol). Which of them an invoice offers is decided here, once: the screen shows these
 * buttons and POST /invoice/apply accepts these types, nothing else.
 */
export const APPLY_TYPES = ['pdf', 'visma-xml', 'email', 'erp', 'peppol'] as const;
export type ApplyType = (typeof APPLY_TYPES)[number];

export interface ApplyTypeFacts {
  /** What the tenant's ERP plugin can do. */
  capabilities: Pick<ErpCapabilities, 'invoiceFile' | 'sendInvoices'>;
  /** The tenant's ERP is connected (or has nothing to connect): sending is offered only then. */
  erpConnected: boolean;
  /** False when the customer is set not to send to the ERP (spec section 8's warning). */
  customerSends: boolean;
  status: 'draft' | 'finalized' | 'void';
  /** The types the tenant turned off in Settings → Invoicing. */
  off: readonly string[];
}

/**
 * The apply types an invoice offers: the PDF and e-mail always; the ERP's file when its plugin can,
 * sending when it can and is connected; the Peppol e-invoice once the invoice is final (a draft has no number to carry);
 * minus what the tenant turned off. Nothing but the PDF for a voided invoice.
 */
export function offeredApplyTypes(f: ApplyTypeFacts): ApplyType[] {
  if (f.status === 'void') return f.off.includes('pdf') ? [] : ['pdf'];
  const all: ApplyType[] = ['pdf', 'email'];
  if (f.capabilities.invoiceFile) all.push('visma-xml');
  if (f.capabilities.sendInvoices && f.erpConnected && f.customerSends) all.push('erp');
  if (f.status === 'finalized') all.push('peppol');
  return all.filter((t) => !f.off.includes(t));
}

/** The tenant's turned-off apply types (Settings → Invoicing); none when never saved. */
export async function applyTypesOff(ctx: Ctx): Promise<string[]> {
  const row = (await ctx.trx('invoice_settings').first('apply_types_off')) as
    { apply_types_off: string[] | null } | undefined;
  return row?.apply_types_off ?? [];
}

/**
 * Refuses an apply the tenant turned off (409 INVOICE_APPLY_TYPE_OFF), whichever way it comes:
 * the screen hides the button, and the API and a stale page meet this.
 */
export async function requireApplyTypeOn(ctx: Ctx, type: ApplyType): Promise<void> {
  if ((await applyTypesOff(ctx)).includes(type)) throw new AppError('INVOICE_APPLY_TYPE_OFF', 409, { type });
}
