import { z } from 'zod';
import { compare, decimalPlaces, formatDecimal, isNegative, parseDecimal } from './decimal';
import { checkDiscount, DISCOUNT_TYPES, parseDiscount, type Discount } from './discount';

/** Largest value a numeric(14, 2) column holds. */
const MAX_MONEY = '999999999999.99';

function decimalText(v: unknown): string | undefined {
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : 'NaN';
  return typeof v === 'string' ? v : undefined;
}

/**
 * Money as forms and the API send it — a number, or text such as "1 250,50" — as canonical text
 * "1250.50". Digits only (ERROR_PRICE_PATTERN), at most 2 decimals, not negative unless allowed
 * (ERROR_NEGATIVE_AMOUNT).
 */
export const zMoney = ({ allowNegative = false }: { allowNegative?: boolean } = {}) =>
  z.union([z.string(), z.number()], { error: 'ERROR_PRICE_PATTERN' }).transform((raw, ctx) => {
    const d = parseDecimal(decimalText(raw) ?? '');
    if (!d || decimalPlaces(d) > 2 || compare(d, MAX_MONEY) > 0 || compare(d, `-${MAX_MONEY}`) < 0) {
      ctx.addIssue({ code: 'custom', message: 'ERROR_PRICE_PATTERN' });
      return z.NEVER;
    }
    if (!allowNegative && isNegative(d)) {
      ctx.addIssue({ code: 'custom', message: 'ERROR_NEGATIVE_AMOUNT' });
      return z.NEVER;
    }
    return formatDecimal(d);
  });

/** Like zMoney, but an empty field (or null) means "no value": null. */
export const zOptionalMoney = (opts?: { allowNegative?: boolean }) =>
  z.preprocess((v) => (v === '' || v === undefined ? null : v), zMoney(opts).nullable());

/** A percentage 0–100 with at most 2 decimals (ERROR_PERCENT_RANGE), as text "12.50". */
export const zPercent = ({ max = 100 }: { max?: number } = {}) =>
  z.union([z.string(), z.number()], { error: 'ERROR_PERCENT_RANGE' }).transform((raw, ctx) => {
    const d = parseDecimal(decimalText(raw) ?? '');
    if (!d || decimalPlaces(d) > 2) {
      ctx.addIssue({ code: 'custom', message: 'ERROR_INVALID_VALUE' });
      return z.NEVER;
    }
    if (isNegative(d) || compare(d, max) > 0) {
      ctx.addIssue({ code: 'custom', message: 'ERROR_PERCENT_RANGE' });
      return z.NEVER;
    }
    return formatDecimal(d);
  });

/** A quantity (stock, rows): positive, at most 3 decimals, as text "2.500". */
export const zQuantity = () =>
  z.union([z.string(), z.number()], { error: 'ERROR_INVALID_VALUE' }).transform((raw, ctx) => {
    const d = parseDecimal(decimalText(raw) ?? '');
    if (!d || decimalPlaces(d) > 3 || compare(d, '99999999999') > 0) {
      ctx.addIssue({ code: 'custom', message: 'ERROR_INVALID_VALUE' });
      return z.NEVER;
    }
    if (isNegative(d) || d.units === 0n) {
      ctx.addIssue({ code: 'custom', message: 'ERROR_NEGATIVE_AMOUNT' });
      return z.NEVER;
    }
    return formatDecimal(d, 3);
  });

/**
 * The discount field of a form (spec section 5): "10%", "150", "" or "%" → a Discount; otherwise
 * the spec's message key (ERROR_DISCOUNT_PATTERN, ERROR_PERCENT_RANGE, ERROR_NEGATIVE_AMOUNT).
 */
export const zDiscountText = () =>
  z
    .string({ error: 'ERROR_DISCOUNT_PATTERN' })
    .nullish()
    .transform((text, ctx): Discount => {
      const parsed = parseDiscount(text);
      if (parsed.ok) return parsed.discount;
      ctx.addIssue({ code: 'custom', message: parsed.error });
      return z.NEVER;
    });

/** A discount as the API sends it: `{discountType, discountValue}` with the same rules. */
export const zDiscount = () =>
  z
    .object({
      discountType: z.enum(DISCOUNT_TYPES, { error: 'ERROR_INVALID_VALUE' }),
      discountValue: z.union([z.string(), z.number()], { error: 'ERROR_DISCOUNT_PATTERN' }),
    })
    .transform((d, ctx): Discount => {
      if (d.discountType === 'NONE') return { type: 'NONE', value: '0.00' };
      const error = checkDiscount({ type: d.discountType, value: d.discountValue });
      if (error) {
        ctx.addIssue({ code: 'custom', message: error, path: ['discountValue'] });
        return z.NEVER;
      }
      return { type: d.discountType, value: formatDecimal(String(d.discountValue)) };
    });
