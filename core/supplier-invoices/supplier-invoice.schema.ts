import { z } from 'zod';
import { UUID_PATTERN, zRequiredString } from '~/core/errors/validation';
import { zMoney, zOptionalMoney, zPercent } from '~/core/pricing';
import { zOptionalIdOrUnset, zOptionalText, zOptionalUuid } from '~/core/registers/fields';
import { ZListQuery } from '~/core/registers/list-query';

/** Spec section 4: the list's tabs. */
export const SUPPLIER_INVOICE_TABS = ['pending', 'approved', 'declined', 'all'] as const;

const zDate = (required: boolean) => {
  const d = z
    .string({ error: 'ERROR_REQUIRED_FIELD' })
    .trim()
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'ERROR_INVALID_DATE')
    .refine((v) => !Number.isNaN(new Date(`${v}T00:00:00Z`).getTime()), 'ERROR_INVALID_DATE');
  return required ? d : z.preprocess((v) => (v === '' ? null : v), d.nullish()).transform((v) => v ?? null);
};

/** A quantity on a supplier's row: may be negative (a credit), at most 4 decimals, not zero. */
const zRowAmount = () =>
  z
    .union([z.string(), z.number()], { error: 'ERROR_INVALID_VALUE' })
    .transform((v) => String(v).trim().replace(',', '.'))
    .refine((v) => /^-?\d{1,10}(\.\d{1,4})?$/.test(v) && Number(v) !== 0, 'ERROR_INVALID_VALUE');

export const ZSupplierInvoiceRow = z.object({
  description: zRequiredString().max(500, 'ERROR_MAX_LENGTH'),
  articleNumber: zOptionalText(100),
  amount: zRowAmount(),
  unit: zOptionalText(20),
  price: zMoney({ allowNegative: true }),
  vatPercent: z.enum(['25', '12', '6', '0'], { error: 'ERROR_INVALID_VALUE' }).default('25'),
  /** The cost account; empty books it on the supplier's default account. */
  account: zOptionalText(20).refine((v) => v === null || /^\d+$/.test(v), 'ERROR_DIGITS_ONLY'),
});
export type TSupplierInvoiceRow = z.infer<typeof ZSupplierInvoiceRow>;

/**
 * A PDF invoice typed by a person (issue 33 item 1): the figures the PDF shows. The totals are
 * computed from the rows, the fee and the rounding, so what is stored always adds up.
 */
export const ZManualSupplierInvoice = z.object({
  supplierId: z.string({ error: 'ERROR_REQUIRED_FIELD' }).regex(UUID_PATTERN, 'ERROR_REQUIRED_FIELD'),
  invoiceNumber: zRequiredString().max(100, 'ERROR_MAX_LENGTH'),
  invoiceDate: zDate(true),
  dueDate: zDate(false),
  currency: z
    .string()
    .trim()
    .regex(/^[A-Z]{3}$/, 'ERROR_INVALID_VALUE')
    .default('SEK'),
  orderReference: zOptionalText(100),
  ocr: zOptionalText(50),
  workOrderId: zOptionalUuid(),
  projectId: zOptionalUuid(),
  fee: zOptionalMoney(),
  rounding: zMoney({ allowNegative: true }).default('0.00'),
  /** The stored PDF (uploaded with the file calls). */
  fileId: zOptionalUuid(),
  rows: z.array(ZSupplierInvoiceRow, { error: 'ERROR_REQUIRED_FIELD' }).min(1, 'ERROR_REQUIRED_FIELD').max(500),
});
export type TManualSupplierInvoice = z.infer<typeof ZManualSupplierInvoice>;

export const ZSupplierInvoiceFilter = ZListQuery.extend({
  status: z.enum(SUPPLIER_INVOICE_TABS, { error: 'ERROR_INVALID_VALUE' }).default('pending'),
  projectId: zOptionalUuid(),
  workOrderId: zOptionalUuid(),
});
export type TSupplierInvoiceFilter = z.infer<typeof ZSupplierInvoiceFilter>;

/**
 * PATCH /supplierinvoices: what a person sets on an invoice waiting for its content approval — the
 * supplier, work order or project it belongs to (matching by hand, the suggestions' choice) and who
 * is responsible. Left out: unchanged; null: cleared.
 */
export const ZSupplierInvoicePatch = z.object({
  id: z.string({ error: 'ERROR_REQUIRED_FIELD' }),
  supplierId: zOptionalIdOrUnset(),
  workOrderId: zOptionalIdOrUnset(),
  projectId: zOptionalIdOrUnset(),
  responsibleUserId: zOptionalIdOrUnset(),
});
export type TSupplierInvoicePatch = z.infer<typeof ZSupplierInvoicePatch>;

export const ZSupplierInvoiceComment = z.object({
  id: z.string(),
  text: zRequiredString().max(4000, 'ERROR_MAX_LENGTH'),
});

export const ZSupplierInvoiceDecline = z.object({
  id: z.string(),
  comment: zRequiredString().max(4000, 'ERROR_MAX_LENGTH'),
});

/** Settings: the re-invoicing rule (issue 33 item 4). */
export const ZSupplierInvoiceSettings = z.object({
  rebill: z.boolean({ error: 'ERROR_INVALID_VALUE' }),
  rebillMarkup: zPercent({ max: 1000 }),
});
