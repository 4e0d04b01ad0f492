import type { z } from 'zod';
import type { PluginBase } from './plugin';

/** An invoice as handed to an ERP: what every provider needs, in the spec's words. */
export interface ErpInvoice {
  id: string;
  invoiceNr: string | null;
  invoiceDate: string;
  customer: { customerId: string; displayName: string };
  articles: { articleTitle: string; amount: number; price: number; totalPrice: number; unit?: string }[];
  totalPrice: number;
  totalPriceVat: number;
}

export interface ErpDeliveryResult {
  /** The ERP's own id for the invoice (erpReference.externalId). */
  externalId: string | null;
  /** Spec ERP invoice states. */
  state: 'success' | 'not_sent.zero_price' | 'unknown';
}

/**
 * The contract every ERP integration implements. Calls carry an idempotency key: the outbox may
 * deliver the same invoice twice after a crash, and the provider must not create it twice.
 */
export interface ErpProvider {
  /** Checks credentials and reachability; throws AppError with a spec key when they fail. */
  testConnection(tenantOptions: unknown): Promise<void>;
  sendInvoice(invoice: ErpInvoice, tenantOptions: unknown, idempotencyKey: string): Promise<ErpDeliveryResult>;
}

export type ErpProviderDefinition<O = unknown> = PluginBase<'erp', O, ErpProvider> & { displayName: string };

export function defineErpProvider<O>(def: {
  id: string;
  displayName: string;
  options: z.ZodType<O>;
  tenantOptions?: z.ZodType<unknown>;
  create(options: O): ErpProvider;
}): ErpProviderDefinition<O> {
  return { kind: 'erp', ...def };
}
