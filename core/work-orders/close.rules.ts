import { AppError } from '~/core/errors/app-error';
import type { Lang } from '~/core/i18n/languages';
import {
  add,
  compare,
  discountOf,
  formatDecimal,
  isNegative,
  markup,
  parseDecimal,
  rowTotal,
  sum,
  toDecimal,
  type Decimal,
  type DecimalInput,
  type Money,
} from '~/core/pricing';

/**
 * The rules of closing a work order (spec sections 4, 5 and 9), pure: no database, no clock, so
 * they are table-tested and the dialog and the server agree.
 */

/** Spec section 9: the invoice fee the close dialog proposes. */
export const DEFAULT_INVOICE_FEE = '40.00';
/** Spec section 9: VAT unless the tenant says otherwise. */
export const DEFAULT_VAT_PERCENTAGE = '25.00';
/** Payment term when the customer has none (days after the invoice date). */
export const DEFAULT_PAYMENT_TERM_DAYS = 30;

export interface FeeInput {
  /** The tenant offers an invoice fee at all (work_order_settings.invoice_fee_enabled). */
  feeToggle: boolean;
  /** The work-order invoice details app module is on. */
  feeModule: boolean;
  /** The order's article total (without VAT). */
  articleTotal: DecimalInput;
  /** The fee the dialog sent; empty (null, undefined or '') when its fee toggle was off. */
  fee: DecimalInput | null | undefined;
}

/**
 * The invoice fee that goes on the invoice (spec: "the invoice fee is cleared if the fee toggle is
 * off, the fee module is off, or the article total is not above 0"; "minimum fee is 0"): null for
 * no fee, else the fee as money text. A negative fee is refused (400, ERROR_NEGATIVE_AMOUNT on
 * invoiceFee) whatever the switches say; text that is not a number is ERROR_PRICE_PATTERN.
 */
export function effectiveInvoiceFee({ feeToggle, feeModule, articleTotal, fee }: FeeInput): Money | null {
  const empty = fee === null || fee === undefined || (typeof fee === 'string' && fee.trim() === '');
  const value = empty ? null : readDecimal(fee);
  if (!empty && value === null) throw feeError('ERROR_PRICE_PATTERN');
  if (value && isNegative(value)) throw feeError('ERROR_NEGATIVE_AMOUNT');
  if (!feeToggle || !feeModule || compare(articleTotal, 0) <= 0 || !value) return null;
  return formatDecimal(value);
}

function readDecimal(v: DecimalInput): Decimal | null {
  try {
    return typeof v === 'string' ? parseDecimal(v) : toDecimal(v);
  } catch {
    return null;
  }
}

const feeError = (key: string) => new AppError('VALIDATION_FAILED', 400, { fields: { invoiceFee: [key] } });

/** One row of a work order's articles, as read from work_order_articles. */
export interface OrderArticleRow {
  articleId: string | null;
  title: string;
  description: string | null;
  amount: string;
  price: string;
  discountType: string | null;
  discountValue: string | null;
}

/** Each row's total through core/pricing, and their sum: the order's article total. */
export function articleTotals(rows: readonly OrderArticleRow[]): { rowTotals: Money[]; total: Money } {
  const rowTotals = rows.map((r) =>
    rowTotal({ amount: r.amount, price: r.price, discount: discountOf(r.discountType, r.discountValue) }),
  );
  return { rowTotals, total: formatDecimal(sum(rowTotals)) };
}

export interface InvoiceTotals {
  vatPercentage: string;
  reverseVat: boolean;
  /** Without VAT. */
  totalPrice: Money;
  /** With VAT (equal to totalPrice under reverse VAT). */
  totalPriceVat: Money;
}

/**
 * The invoice's totals: the article rows plus the fee, VAT at the tenant's percentage, or none
 * when the customer has reverse VAT and the dialog did not say to ignore it.
 */
export function invoiceTotals(input: {
  articleTotal: DecimalInput;
  fee: DecimalInput | null;
  vatPercentage: DecimalInput;
  customerReverseVat: boolean;
  ignoreReverseVat: boolean;
}): InvoiceTotals {
  const reverseVat = input.customerReverseVat && !input.ignoreReverseVat;
  const vat = reverseVat ? '0.00' : formatDecimal(input.vatPercentage);
  const totalPrice = formatDecimal(add(input.articleTotal, input.fee ?? 0));
  return { vatPercentage: vat, reverseVat, totalPrice, totalPriceVat: markup(totalPrice, vat) };
}

/** The invoice fee row's title, in the invoice's language. */
export const FEE_ROW_TITLE: Record<Lang, string> = {
  sv: 'Fakturaavgift',
  en: 'Invoice fee',
  et: 'Arve koostamise tasu',
  lv: 'Rēķina izrakstīšanas maksa',
  ru: 'Плата за выставление счёта',
};
