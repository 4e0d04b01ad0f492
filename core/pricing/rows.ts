import { add, divide, formatDecimal, isZero, mul, sub, sum, toDecimal, type DecimalInput } from './decimal';
import type { Discount } from './discount';

/** Money as plain decimal text with 2 decimals ("1250.00"), as the database and the API carry it. */
export type Money = string;

/**
 * `amount × (1 − percent/100)`: a percentage discount (spec section 5). Rounded to öre/cents.
 */
export function percentageDiscount(amount: DecimalInput, percent: DecimalInput): Money {
  return formatDecimal(mul(amount, divideExact(sub(100, percent))));
}

/** `total − discount × quantity`: an amount off each unit (spec section 5, REGULAR). */
export function regularDiscount(total: DecimalInput, discount: DecimalInput, quantity: DecimalInput): Money {
  return formatDecimal(sub(total, mul(discount, quantity)));
}

/** `price × (1 + percent/100)`: a markup (spec section 5). Rounded to öre/cents. */
export function markup(price: DecimalInput, percent: DecimalInput): Money {
  return formatDecimal(mul(price, divideExact(add(100, percent))));
}

/** `x / 100` without rounding (a percentage as a factor). */
function divideExact(percent: DecimalInput) {
  const d = toDecimal(percent);
  return { units: d.units, scale: d.scale + 2 };
}

export interface RowPricing {
  /** Quantity; missing or 0 gives a row total of 0. */
  amount?: DecimalInput | null;
  /** Sales price per unit. */
  price?: DecimalInput | null;
  discount?: Discount | null;
}

/**
 * One row's total (spec section 5): price × quantity with the discount applied — a percentage of
 * it, or the amount off each unit. No quantity gives 0. Computed exactly, rounded once.
 */
export function rowTotal(row: RowPricing): Money {
  const amount = row.amount ?? 0;
  if (isZero(amount)) return formatDecimal(0);
  const gross = mul(row.price ?? 0, amount);
  const discount = row.discount;
  if (!discount || discount.type === 'NONE') return formatDecimal(gross);
  if (discount.type === 'PERCENTAGE') return percentageDiscount(gross, discount.value);
  return regularDiscount(gross, discount.value, amount);
}

/** What a row cost to buy: purchase price × quantity (no discount applies to the purchase side). */
export function rowPurchaseTotal(row: { amount?: DecimalInput | null; purchasePrice?: DecimalInput | null }): Money {
  return formatDecimal(mul(row.purchasePrice ?? 0, row.amount ?? 0));
}

export interface Margin {
  /** Sales total − purchase cost. */
  amount: Money;
  /** The margin as a percentage of the sales total, 2 decimals; null when nothing is sold. */
  percent: string | null;
}

/** Margin of a sale (spec section 5): purchase cost against the sales total. */
export function margin(purchaseCost: DecimalInput, salesTotal: DecimalInput): Margin {
  const amount = sub(salesTotal, purchaseCost);
  return {
    amount: formatDecimal(amount),
    percent: isZero(salesTotal) ? null : formatDecimal(divide(mul(amount, 100), salesTotal, 2)),
  };
}

/** A row of a proposal, work order or invoice as far as pricing cares. */
export interface PriceRow extends RowPricing {
  /** Rows without an article (comments, empty new rows) are left out of every total. */
  articleId?: string | null;
  purchasePrice?: DecimalInput | null;
  /** A summary row shows the subtotal of the article rows since the previous summary row. */
  isSummaryRow?: boolean;
}

export interface RowsTotals {
  /** Each row's total, in input order; "0.00" for rows that do not count. */
  rowTotals: Money[];
  /** Sum of the article rows' totals. */
  salesTotal: Money;
  /** Sum of the article rows' purchase cost. */
  purchaseTotal: Money;
  margin: Margin;
  /**
   * One entry per summary row (by its index in the input): the sales and purchase subtotal of the
   * article rows since the previous summary row (or the start). The running sums reset after each.
   */
  summaries: { index: number; summarySalesPrice: Money; summaryPurchasePrice: Money }[];
}

/**
 * Totals over rows (spec section 5): only rows with an article count; summary rows give running
 * subtotals that reset after each summary row. Row totals are rounded to 2 decimals first and the
 * totals are sums of those, so the printed rows always add up to the printed total.
 */
export function totals(rows: readonly PriceRow[]): RowsTotals {
  const rowTotals: Money[] = [];
  const sales: Money[] = [];
  const purchase: Money[] = [];
  const summaries: RowsTotals['summaries'] = [];
  let runningSales: Money[] = [];
  let runningPurchase: Money[] = [];
  rows.forEach((row, index) => {
    if (row.isSummaryRow) {
      rowTotals.push(formatDecimal(0));
      summaries.push({
        index,
        summarySalesPrice: formatDecimal(sum(runningSales)),
        summaryPurchasePrice: formatDecimal(sum(runningPurchase)),
      });
      runningSales = [];
      runningPurchase = [];
      return;
    }
    if (!row.articleId) {
      rowTotals.push(formatDecimal(0));
      return;
    }
    const total = rowTotal(row);
    const cost = rowPurchaseTotal(row);
    rowTotals.push(total);
    sales.push(total);
    purchase.push(cost);
    runningSales.push(total);
    runningPurchase.push(cost);
  });
  const salesTotal = formatDecimal(sum(sales));
  const purchaseTotal = formatDecimal(sum(purchase));
  return { rowTotals, salesTotal, purchaseTotal, margin: margin(purchaseTotal, salesTotal), summaries };
}
