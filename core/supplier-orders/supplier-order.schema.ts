import { z } from 'zod';
import { zRequiredString } from '~/core/errors/validation';
import { zOptionalUuid } from '~/core/registers/fields';
import { ZListQuery } from '~/core/registers/list-query';

/** Spec: "Supplier order view covers the past 2 months" (api-calls.md section 9). */
export const SUPPLIER_ORDER_MONTHS = 2;

/**
 * POST /suppliers/order as JSON: the confirmation's text and, for a CSV (which names no supplier),
 * the supplier it came from. `format` is found from the text when left out (XML starts with "<").
 */
export const ZSupplierOrderUpload = z.object({
  document: zRequiredString().max(20 * 1024 * 1024, 'ERROR_MAX_LENGTH'),
  format: z.enum(['peppol', 'csv'], { error: 'ERROR_INVALID_VALUE' }).optional(),
  supplierId: zOptionalUuid(),
});
export type TSupplierOrderUpload = z.infer<typeof ZSupplierOrderUpload>;

export const ZSupplierOrderFilter = ZListQuery;

/** POST /suppliers/order/{id}/handle {workOrderTitle}: the work order's number, or its exact title. */
export const ZSupplierOrderHandle = z.object({
  id: z.string(),
  workOrderTitle: zRequiredString().max(200, 'ERROR_MAX_LENGTH'),
});
