import type { z } from 'zod';
import type { ErpInvoice } from './erp-provider';
import type { PluginBase } from './plugin';

/** Renders an invoice to HTML (documents/ turns it into PDF). */
export interface InvoiceTemplate {
  render(invoice: ErpInvoice, lang: string): Promise<string> | string;
}

export type InvoiceTemplateDefinition<O = unknown> = PluginBase<'invoice-template', O, InvoiceTemplate>;

export function defineInvoiceTemplate<O>(def: {
  id: string;
  options: z.ZodType<O>;
  create(options: O): InvoiceTemplate;
}): InvoiceTemplateDefinition<O> {
  return { kind: 'invoice-template', ...def };
}
