/**
 * The pure rules of a compensation (issue 17; spec section 3 "Compensation types: distance,
 * travel, expense"; section 9 "Compensation codes: distance 821, 822, 831, 8310, 832, 8320;
 * travel 811, 8113, 8118; expense 892"). A distance tag is paid per kilometre, a travel tag per
 * day, both at the tag's unit price when it has one; an expense is the amount on the receipt.
 * Money is computed in whole öre (cents) so that totals stay exact.
 */

export const COMPENSATION_TYPES = ['distance', 'travel', 'expense'] as const;
export type CompensationType = (typeof COMPENSATION_TYPES)[number];

/** The highest quantity (kilometres or days) and amount one report may carry. */
export const MAX_QUANTITY = 99_999;
export const MAX_AMOUNT = 9_999_999;

const toCents = (amount: number): number => Math.round(amount * 100);
const fromCents = (cents: number): number => cents / 100;

/** At most two decimals (the columns are numeric(…, 2)). */
export const hasTwoDecimals = (n: number): boolean => Math.abs(n * 100 - Math.round(n * 100)) < 1e-6;

export interface CompensationTagRule {
  type: CompensationType;
  /** Per kilometre (distance) or per day (travel); null: the amount is entered. */
  unitPrice: number | null;
}

export type CompensationAmount =
  { ok: true; quantity: number; amount: number } | { ok: false; fields: Record<string, string[]> };

/**
 * What a report comes to. Distance and travel need a quantity above 0 (kilometres, days); with a
 * unit price the amount is quantity × price, rounded to öre, whatever was sent; without one the
 * amount entered (0 when none: the payroll system prices it). An expense needs an amount above 0;
 * its quantity is 1 unless told.
 */
export function compensationAmount(
  tag: CompensationTagRule,
  input: { quantity?: number | null; amount?: number | null },
): CompensationAmount {
  const quantity = input.quantity ?? null;
  const amount = input.amount ?? null;
  if (tag.type === 'expense') {
    if (amount === null || amount <= 0) return { ok: false, fields: { amount: ['ERROR_REQUIRED_FIELD'] } };
    return { ok: true, quantity: quantity ?? 1, amount: fromCents(toCents(amount)) };
  }
  if (quantity === null || quantity <= 0) return { ok: false, fields: { quantity: ['ERROR_REQUIRED_FIELD'] } };
  if (tag.unitPrice === null) return { ok: true, quantity, amount: fromCents(toCents(amount ?? 0)) };
  // quantity and price have two decimals each: their product in ten-thousandths is an exact integer
  const cents = Math.round((toCents(quantity) * toCents(tag.unitPrice)) / 100);
  return { ok: true, quantity, amount: fromCents(cents) };
}

/** The amounts of a week's reports, summed in öre. */
export function totalAmount(rows: readonly { amount: number }[]): number {
  return fromCents(rows.reduce((s, r) => s + toCents(r.amount), 0));
}
