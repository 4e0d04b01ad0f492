/**
 * A proposal's (or a sales order's) rows as arithmetic (spec section 5; issue 13): each article
 * row's total with its discount, its monthly total with its own discount, summary rows' running
 * subtotals that reset after each, and the totals. Only rows with an article count. Pure: the
 * service stores what this answers, the page shows it while typing, and the tests check it
 * against hand-computed figures.
 */
import {
  compare,
  formatDecimal,
  isNegative,
  parseDecimal,
  totals,
  type Discount,
  type Money,
  type PriceRow,
} from '~/core/pricing';

export interface ProposalRowValues {
  articleId?: string | null;
  isSummaryRow?: boolean;
  comment?: string | null;
  amount?: string | null;
  price?: string | null;
  purchasePrice?: string | null;
  monthlyPrice?: string | null;
  discount?: Discount | null;
  monthlyDiscount?: Discount | null;
}

export interface ProposalRowFigures {
  totalPrice: Money;
  monthlyTotalPrice: Money;
  /** On a summary row: the subtotals of the article rows since the previous summary row. */
  summarySalesPrice?: Money;
  summaryPurchasePrice?: Money;
  summaryMonthlyPrice?: Money;
}

export interface ProposalFigures {
  rows: ProposalRowFigures[];
  totalPrice: Money;
  totalPurchasePrice: Money;
  totalMonthlyPrice: Money;
  /** Sales total − purchase cost, and as a percentage of the sales total (null when nothing is sold). */
  margin: { amount: Money; percent: string | null };
}

export function proposalFigures(rows: readonly ProposalRowValues[]): ProposalFigures {
  const sales = totals(rows.map((r): PriceRow => ({ ...r, discount: r.discount ?? null })));
  const monthly = totals(
    rows.map((r): PriceRow => ({
      articleId: r.articleId,
      isSummaryRow: r.isSummaryRow,
      amount: r.amount,
      price: r.monthlyPrice ?? 0,
      discount: r.monthlyDiscount ?? null,
    })),
  );
  const figures: ProposalRowFigures[] = rows.map((_, i) => ({
    totalPrice: sales.rowTotals[i]!,
    monthlyTotalPrice: monthly.rowTotals[i]!,
  }));
  sales.summaries.forEach((s, n) => {
    figures[s.index] = {
      ...figures[s.index]!,
      summarySalesPrice: s.summarySalesPrice,
      summaryPurchasePrice: s.summaryPurchasePrice,
      summaryMonthlyPrice: monthly.summaries[n]!.summarySalesPrice,
    };
  });
  return {
    rows: figures,
    totalPrice: sales.salesTotal,
    totalPurchasePrice: sales.purchaseTotal,
    totalMonthlyPrice: monthly.salesTotal,
    margin: sales.margin,
  };
}

/** The tenant's switches that decide what a row may hold (proposal settings). */
export interface RowRules {
  summaryRows: boolean;
  monthlyPrice: boolean;
  negativePrices: boolean;
}

/**
 * What is wrong with one row, by field (spec section 5): an amount or purchase price below zero is
 * AMOUNT_CANT_BE_NEGATIVE; a negative sales or monthly price only when negative prices are on
 * (ERROR_NEGATIVE_PRICE); a summary row or a monthly price only when their switch is on.
 */
export function rowProblems(row: ProposalRowValues, rules: RowRules): Record<string, string> {
  const problems: Record<string, string> = {};
  const negative = (v: string | null | undefined) => {
    if (v == null || v === '') return false;
    const d = parseDecimal(v);
    return d !== null && isNegative(d);
  };
  if (negative(row.amount)) problems.articleAmount = 'AMOUNT_CANT_BE_NEGATIVE';
  if (negative(row.purchasePrice)) problems.articlePurchasePrice = 'AMOUNT_CANT_BE_NEGATIVE';
  if (!rules.negativePrices && negative(row.price)) problems.articlePrice = 'ERROR_NEGATIVE_PRICE';
  if (!rules.negativePrices && negative(row.monthlyPrice)) problems.articleMonthlyPrice = 'ERROR_NEGATIVE_PRICE';
  if (row.isSummaryRow && !rules.summaryRows) problems.isSummaryRow = 'ERROR_INVALID_VALUE';
  const monthly =
    row.monthlyPrice != null && row.monthlyPrice !== '' && compare(parseDecimal(row.monthlyPrice) ?? 0, 0) !== 0;
  if (monthly && !rules.monthlyPrice) problems.articleMonthlyPrice = 'ERROR_INVALID_VALUE';
  return problems;
}

export { formatDecimal };
