import { z } from 'zod';
import { zQueryFlag } from '~/core/registers/list-query';

/** An article picker's option for a catalogue article: this and the article's id (ours are uuids). */
export const SUPPLIER_OPTION_PREFIX = 'si:';

/** What a price file's columns can be: the supplier inventory article of the spec, and its group. */
export const PRICE_FIELDS = [
  'articleNumber',
  'title',
  'description',
  'unit',
  'purchasePrice',
  'recommendedPrice',
  'discountGroup',
] as const;
/** What a discount file's columns are: a discount group and its percent off the purchase price. */
export const DISCOUNT_FIELDS = ['discountGroup', 'percent'] as const;

export type CatalogueKind = 'prices' | 'discounts';
export type PriceField = (typeof PRICE_FIELDS)[number];
export type DiscountField = (typeof DISCOUNT_FIELDS)[number];

export const FIELDS: Record<CatalogueKind, readonly string[]> = { prices: PRICE_FIELDS, discounts: DISCOUNT_FIELDS };
/** The columns an import cannot go without. */
export const REQUIRED_FIELDS: Record<CatalogueKind, readonly string[]> = {
  prices: ['articleNumber', 'title'],
  discounts: ['discountGroup', 'percent'],
};

/** The widest row a mapping may name (a column past it is a mistake, not a price list). */
export const MAX_COLUMNS = 200;

/** A mapping as kept per supplier and per import: whether the first row is headings, and field → column (0-based). */
export interface ColumnMapping {
  header: boolean;
  columns: Partial<Record<string, number>>;
}

/** A column index from JSON (a number) or a form (text; empty is "not in the file"). */
const zColumn = z.preprocess(
  (v) => (v === '' || v === null ? undefined : typeof v === 'string' ? Number(v) : v),
  z
    .number({ error: 'ERROR_INVALID_VALUE' })
    .int('ERROR_INVALID_VALUE')
    .min(0, 'ERROR_INVALID_VALUE')
    .max(MAX_COLUMNS - 1, 'ERROR_INVALID_VALUE')
    .optional(),
);

const zColumns = (fields: readonly string[]) =>
  z.object(Object.fromEntries(fields.map((f) => [f, zColumn])) as Record<string, typeof zColumn>);

/**
 * POST /supplierinventory/upload/{id}/confirm and …/discount/confirm: which upload, whether its
 * first row is headings, and the column of each field (`columns.articleNumber: 0`, …).
 */
export const ZConfirmUpload = (kind: CatalogueKind) =>
  z.object({
    id: z.string(),
    uploadId: z.string({ error: 'ERROR_REQUIRED_FIELD' }).min(1, 'ERROR_REQUIRED_FIELD'),
    header: zQueryFlag(true),
    columns: zColumns(FIELDS[kind]).default({}),
  });

/** GET /supplierinventory/query/articles ?supplierId&q&page (from 1)&pageSize (at most 200). */
export const ZCatalogueQuery = z.object({
  supplierId: z.string({ error: 'ERROR_REQUIRED_FIELD' }).min(1, 'ERROR_REQUIRED_FIELD'),
  q: z.string().trim().max(200, 'ERROR_MAX_LENGTH').optional(),
  page: z.coerce
    .number({ error: 'ERROR_INVALID_VALUE' })
    .int('ERROR_INVALID_VALUE')
    .min(1, 'ERROR_INVALID_VALUE')
    .default(1),
  pageSize: z.coerce
    .number({ error: 'ERROR_INVALID_VALUE' })
    .int('ERROR_INVALID_VALUE')
    .min(1, 'ERROR_INVALID_VALUE')
    .max(200, 'ERROR_INVALID_VALUE')
    .default(20),
});

/** GET /sbsc/products ?q&limit: every supplier's catalogue at once (the article pickers). */
export const ZProductsQuery = z.object({
  q: z.string().trim().max(200, 'ERROR_MAX_LENGTH').default(''),
  limit: z.coerce
    .number({ error: 'ERROR_INVALID_VALUE' })
    .int('ERROR_INVALID_VALUE')
    .min(1, 'ERROR_INVALID_VALUE')
    .max(50, 'ERROR_INVALID_VALUE')
    .default(10),
});
