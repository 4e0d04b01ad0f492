/*
 * Agreement constants shared by the server and the pages (no server imports here).
 * Spec section 9: intervals 1–6 months, 18 months, 1–4 years, quarter, half year; a generation day of
 * 0 means the last day of the month.
 */

export const AGREEMENT_INTERVALS = [
  'month_1',
  'month_2',
  'month_3',
  'month_4',
  'month_5',
  'month_6',
  'month_18',
  'year_1',
  'year_2',
  'year_3',
  'year_4',
  'quarter',
  'half_year',
] as const;
export type AgreementInterval = (typeof AGREEMENT_INTERVALS)[number];

/** The generation day that means "the last day of the month" (spec section 9). */
export const LAST_DAY_OF_MONTH = 0;

export const AGREEMENT_TYPES = ['service', 'maintenance', 'monitoring', 'rental', 'other'] as const;
export type AgreementType = (typeof AGREEMENT_TYPES)[number];

export const AGREEMENT_STATUSES = ['active', 'inactive'] as const;
export type AgreementStatus = (typeof AGREEMENT_STATUSES)[number];

/** fixed: the object's total price on the type's price article; articles: the object's invoice rows. */
export const PRICE_MODELS = ['fixed', 'articles'] as const;
export type PriceModel = (typeof PRICE_MODELS)[number];

export const DISCOUNT_TYPES = ['PERCENTAGE', 'REGULAR', 'NONE'] as const;
export type DiscountType = (typeof DISCOUNT_TYPES)[number];
