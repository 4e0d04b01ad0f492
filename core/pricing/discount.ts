import {
  compare,
  formatDecimal,
  formatTrimmed,
  isNegative,
  parseDecimal,
  decimalPlaces,
  spellDecimal,
} from './decimal';

/** Spec section 9: discount types (the UI says percent or amount). */
export const DISCOUNT_TYPES = ['PERCENTAGE', 'REGULAR', 'NONE'] as const;
export type DiscountType = (typeof DISCOUNT_TYPES)[number];

/**
 * A discount on a row: a percentage of it, or an amount off each unit (REGULAR), or none. `value`
 * is decimal text with 2 decimals ("10.00"); "0.00" when the type is NONE.
 */
export interface Discount {
  type: DiscountType;
  value: string;
}

export const NO_DISCOUNT: Discount = Object.freeze({ type: 'NONE', value: '0.00' });

/** The message keys a discount can be refused with (spec section 5). */
export type DiscountError = 'ERROR_DISCOUNT_PATTERN' | 'ERROR_PERCENT_RANGE' | 'ERROR_NEGATIVE_AMOUNT';

export type DiscountParse = { ok: true; discount: Discount } | { ok: false; error: DiscountError };

/** A number (sign, digits, at most 2 decimals after `.` or `,`) with an optional trailing `%`. */
const DISCOUNT_TEXT = /^(-?\d+(?:[.,]\d{1,2})?)(%?)$/;

/**
 * The discount field as people type it (spec section 5): `10%` is 10 percent, `150` is 150 off
 * each unit, an empty field or `%` alone clears it. Anything else is ERROR_DISCOUNT_PATTERN; a
 * percentage must be 0–100 (ERROR_PERCENT_RANGE) and an amount not negative (ERROR_NEGATIVE_AMOUNT).
 * Spaces are ignored ("10 %", "1 500").
 */
export function parseDiscount(text: string | null | undefined): DiscountParse {
  const compact = (text ?? '').replace(/[\s\u00a0\u202f]/g, '');
  if (compact === '' || compact === '%') return { ok: true, discount: NO_DISCOUNT };
  const m = DISCOUNT_TEXT.exec(compact);
  if (!m) return { ok: false, error: 'ERROR_DISCOUNT_PATTERN' };
  const discount: Discount = {
    type: m[2] ? 'PERCENTAGE' : 'REGULAR',
    value: formatDecimal(parseDecimal(m[1]!)!),
  };
  const error = checkDiscount(discount);
  return error ? { ok: false, error } : { ok: true, discount };
}

/**
 * The rule for a discount given as type and value (API rows, the database): a percentage 0–100,
 * an amount not negative, at most 2 decimals. Null when it is fine.
 */
export function checkDiscount(discount: { type: DiscountType; value: string | number }): DiscountError | null {
  const value = parseDecimal(String(discount.value));
  if (!value || decimalPlaces(value) > 2) return 'ERROR_DISCOUNT_PATTERN';
  if (discount.type === 'PERCENTAGE' && (isNegative(value) || compare(value, 100) > 0)) return 'ERROR_PERCENT_RANGE';
  if (discount.type === 'REGULAR' && isNegative(value)) return 'ERROR_NEGATIVE_AMOUNT';
  return null;
}

/** A discount as it is typed back into the field: "10%", "150", "99.5" or "" for none. */
export function formatDiscount(discount: Discount | null | undefined): string {
  if (!discount || discount.type === 'NONE') return '';
  const value = formatTrimmed(discount.value);
  return discount.type === 'PERCENTAGE' ? `${value}%` : value;
}

/**
 * The one printed form of a discount (issue 28 item 8), on screens, documents and mails alike:
 * a percentage as "10 %" (decimals only when it has them: "12,5 %"), an amount off each unit as
 * "50,00 kr/st" — the tenant's currency symbol and, when known, the row's unit — so "10" can never
 * be read as ten percent. Empty for no discount.
 */
export function printDiscount(
  discount: Discount | null | undefined,
  { currency, unit }: { currency: string; unit?: string | null },
): string {
  if (!discount || discount.type === 'NONE') return '';
  const value = parseDecimal(String(discount.value));
  if (!value) return '';
  if (discount.type === 'PERCENTAGE') return `${spellDecimal(formatTrimmed(value))} %`;
  const per = unit?.trim() ? `/${unit.trim()}` : '';
  return `${spellDecimal(formatDecimal(value))} ${currency}${per}`;
}

/** A discount from stored columns; a zero or missing value is no discount. */
export function discountOf(type: string | null | undefined, value: string | number | null | undefined): Discount {
  if ((type !== 'PERCENTAGE' && type !== 'REGULAR') || value == null) return NO_DISCOUNT;
  const parsed = parseDecimal(String(value));
  if (!parsed || parsed.units === 0n) return NO_DISCOUNT;
  return { type, value: formatDecimal(parsed) };
}
