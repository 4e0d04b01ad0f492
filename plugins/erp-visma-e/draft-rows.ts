import type { ErpInvoice, ErpInvoiceRow } from '~/core/extension-points/erp-provider';
import {
  add,
  compare,
  decimalPlaces,
  divide,
  formatDecimal,
  formatTrimmed,
  isZero,
  mul,
  round,
  sub,
  sum,
  toDecimal,
  toNumber,
  type Decimal,
  type DecimalInput,
} from '~/core/pricing';

/*
 * Ordo's rows in Visma eEkonomi's arithmetic (issue 31 items 3 and 4). What Visma's OpenAPI says of
 * a draft row (CustomerInvoiceDraftRowApi; tests/fakes/visma-eaccounting.ts has the source):
 *
 * - Quantity: "Format: 2 decimals", pattern [-]?\d+(.\d{1,2})?. Ordo keeps three decimals.
 * - UnitPrice: "2 decimals allowed if the customer is domestic or 4 decimals if foreign". Ordo sends
 *   two, which both take.
 * - DiscountPercentage: a fraction, "4 decimals allowed", at most 1.
 * - Amount: "a total amount of row. Format: 2 decimals": quantity × price less the discount.
 * - IncludesVat: true when the company shows private persons prices excluding VAT ("the checkbox
 *   ShowPricesExclVatPC is checked") and the customer is private; then the rows' unit prices are
 *   prices with VAT and Visma takes the VAT out of each rate's sum.
 *
 * So each row is sent as a quantity to two decimals and a unit price chosen so that Visma's amount
 * is exactly the row's total on Ordo's invoice: the row's own price when that already gives it,
 * else the nearest price at two decimals that does (a quantity rounded from three decimals names
 * Ordo's quantity and price in the row's text). With prices with VAT, the targets are each rate's
 * sum with Ordo's VAT of that rate, spread over its rows to the öre, so Visma's net, VAT and total
 * come out as Ordo's. A row no price can fit is refused before anything is sent.
 */

export interface VismaRowFigures {
  /** Two decimals. */
  quantity: Decimal;
  /** Two decimals; with VAT when the draft includes VAT. */
  unitPrice: Decimal;
  /** A fraction with four decimals. */
  discount: Decimal;
}

export interface PlannedRow {
  Quantity: number;
  UnitPrice: number;
  DiscountPercentage: number;
  /** Ordo's own quantity and price when the quantity had to be rounded, for the row's text. */
  note: string | null;
}

const ONE = toDecimal(1);

/** Visma's amount of a row: quantity × price less the discount, rounded once to the öre. */
export function vismaAmount(row: VismaRowFigures): Decimal {
  return round(mul(mul(row.quantity, row.unitPrice), sub(ONE, row.discount)), 2);
}

/** A discount as Visma's DiscountPercentage: the fraction, to four decimals. */
export function discountFraction(row: ErpInvoiceRow): Decimal {
  if (!row.discount || isZero(row.discount.value)) return toDecimal(0);
  if (row.discount.type === 'PERCENTAGE') return round(divide(row.discount.value, 100, 6), 4);
  // Visma takes no fixed-amount discount on a row (DiscountFixedAmount is read-only), so the amount
  // becomes the fraction that gives Ordo's total; the unit price then makes it exact.
  const gross = mul(row.price, row.amount);
  return isZero(gross) ? toDecimal(0) : round(sub(ONE, divide(row.total, gross, 6)), 4);
}

/** The two-decimal prices to try for a row: its own, then around the one that gives `target`. */
function candidates(quantity: Decimal, listed: Decimal, discount: Decimal, target: Decimal): Decimal[] {
  const keep = sub(ONE, discount);
  const out = [listed];
  if (!isZero(quantity) && !isZero(keep)) {
    const exact = divide(target, mul(quantity, keep), 2);
    for (const k of [0n, -1n, 1n, -2n, 2n, -3n, 3n]) out.push(add(exact, { units: k, scale: 2 }));
  }
  return out;
}

/**
 * The figures that make Visma's amount `target` for a row of `amount` at `price` less `discount`:
 * the quantity to two decimals and the price itself when it gives the target, else the nearest
 * two-decimal price that does (first with the row's discount, then with the discount in the price).
 * Null when no price does.
 */
export function fitRow(
  amount: DecimalInput,
  price: DecimalInput,
  discount: Decimal,
  target: Decimal,
): VismaRowFigures | null {
  const best = nearestRow(amount, price, discount, target);
  return compare(vismaAmount(best), target) === 0 ? best : null;
}

/** Like fitRow, but when no price reaches `target`, the figures whose amount comes nearest to it. */
export function nearestRow(
  amount: DecimalInput,
  price: DecimalInput,
  discount: Decimal,
  target: Decimal,
): VismaRowFigures {
  const quantity = round(amount, 2);
  const listed = round(price, 2);
  const options = (isZero(discount) ? [discount] : [discount, toDecimal(0)]).flatMap((d) =>
    candidates(quantity, listed, d, target).map((p) => ({ quantity, unitPrice: round(p, 2), discount: round(d, 4) })),
  );
  // the nearest amount; of those the row's own discount (listed first) and the price nearest its own
  return options.reduce((best, o) => {
    const by = compare(distance(sub(vismaAmount(o), target)), distance(sub(vismaAmount(best), target)));
    if (by !== 0) return by < 0 ? o : best;
    if (compare(o.discount, best.discount) !== 0) return best;
    return compare(distance(sub(o.unitPrice, listed)), distance(sub(best.unitPrice, listed))) < 0 ? o : best;
  });
}

/** |d| */
const distance = (d: Decimal): Decimal => (d.units < 0n ? { units: -d.units, scale: d.scale } : d);

/**
 * The invoice's rows with its fee as a row: the core hands the fee over as a row of kind "fee" too,
 * but an invoice that gives it only as its `fee` figure gets one, at the rate most of the invoice
 * has (Swedish VAT follows the main supply; 25 % on an invoice of text rows only).
 */
export function rowsWithFee(invoice: ErpInvoice): ErpInvoiceRow[] {
  const fee = invoice.fee === null ? null : toDecimal(invoice.fee);
  if (!fee || isZero(fee) || invoice.rows.some((r) => r.kind === 'fee')) return invoice.rows;
  const baseAt = (rate: string) =>
    sum(invoice.rows.filter((r) => r.kind !== 'text' && r.vatPercent === rate).map((r) => r.total));
  const main = (['25', '12', '6'] as const).reduce((best, r) => (compare(baseAt(r), baseAt(best)) > 0 ? r : best));
  const price = formatDecimal(fee);
  return [
    ...invoice.rows,
    {
      kind: 'fee',
      articleId: null,
      articleNumber: null,
      externalArticleId: null,
      description: 'Fakturaavgift',
      amount: '1',
      unit: null,
      price,
      discount: null,
      total: price,
      vatPercent: invoice.reverseVat ? '0' : main,
      houseWork: false,
      account: null,
    },
  ];
}

/** Thrown when a row cannot be sent with its total kept; the message names it for the person. */
export class RowNotSendable extends Error {}

/**
 * Each priced row of the invoice as Visma's Quantity, UnitPrice and DiscountPercentage, so that
 * Visma's net, VAT and total are Ordo's: each rate's rows add up to Ordo's sum of that rate (with
 * Ordo's VAT of it when the prices include VAT), which is what Visma's VAT is computed on. A row's
 * amount is Ordo's row total whenever a two-decimal price reaches it; a row none reaches comes as
 * near as it can, and the öre left over go on a row that can take them (the smaller its quantity,
 * the finer its amount follows its price). `rows` are the invoice's rows other than text rows, in
 * order; `pricesWithVat` is the draft's IncludesVat.
 */
export function planRows(invoice: ErpInvoice, rows: ErpInvoiceRow[], pricesWithVat: boolean): PlannedRow[] {
  const rateOf = (row: ErpInvoiceRow) => (invoice.reverseVat ? '0' : row.vatPercent);
  const withVat = (value: DecimalInput, rate: string) => mul(value, add(ONE, { units: BigInt(rate), scale: 2 }));
  const targets = rows.map((row) => (pricesWithVat ? round(withVat(row.total, rateOf(row)), 2) : round(row.total, 2)));
  const bases = rows.map((row) => (pricesWithVat ? withVat(row.price, rateOf(row)) : toDecimal(row.price)));
  const discounts = rows.map(discountFraction);
  const plan = rows.map((row, i) => nearestRow(row.amount, bases[i]!, discounts[i]!, targets[i]!));

  for (const rate of new Set(rows.map(rateOf))) {
    const at = rows.map((_, i) => i).filter((i) => rateOf(rows[i]!) === rate);
    const net = sum(at.map((i) => rows[i]!.total));
    // invoice-math: the VAT of a rate is on the sum of its rows
    const wanted = pricesWithVat ? add(net, round(mul(net, { units: BigInt(rate), scale: 2 }), 2)) : round(net, 2);
    const diff = sub(wanted, sum(at.map((i) => vismaAmount(plan[i]!))));
    if (isZero(diff)) continue;
    const byQuantity = [...at].sort((a, b) => compare(distance(plan[a]!.quantity), distance(plan[b]!.quantity)));
    const taker = byQuantity.find((i) => {
      const fitted = fitRow(rows[i]!.amount, bases[i]!, discounts[i]!, add(vismaAmount(plan[i]!), diff));
      if (fitted) plan[i] = fitted;
      return fitted !== null;
    });
    if (taker === undefined) {
      const far = at.find((i) => compare(vismaAmount(plan[i]!), targets[i]!) !== 0) ?? at[0]!;
      const row = rows[far]!;
      throw new RowNotSendable(
        `row "${row.description}": ${formatTrimmed(row.amount, 3)} × ${formatDecimal(row.price)} = ` +
          `${formatDecimal(row.total)} cannot be sent with a quantity and a price of two decimals ` +
          `without changing the total at ${rate} % VAT`,
      );
    }
  }

  return rows.map((row, i) => ({
    Quantity: toNumber(plan[i]!.quantity),
    UnitPrice: toNumber(plan[i]!.unitPrice),
    DiscountPercentage: toNumber(plan[i]!.discount),
    note: decimalPlaces(row.amount) > 2 ? `${formatTrimmed(row.amount, 3)} × ${formatDecimal(row.price)}` : null,
  }));
}

/**
 * Whether Visma's draft has Ordo's figures: the total with VAT before the öre rounding (a company
 * may round to kronor or not) and the VAT. Null when they agree, else what differs, for the person.
 */
export function figuresDiffer(draft: Record<string, unknown>, invoice: ErpInvoice): string | null {
  const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? toDecimal(v) : null);
  const total = num(draft.TotalAmount);
  const roundings = num(draft.TotalRoundings) ?? toDecimal(0);
  const vat = num(draft.TotalVatAmount);
  const ordoGross = add(invoice.totalPrice, invoice.totalVat);
  const vismaGross = total ? round(sub(total, roundings), 2) : null;
  if (vismaGross && vat && compare(vismaGross, ordoGross) === 0 && compare(vat, invoice.totalVat) === 0) return null;
  return (
    `Visma eEkonomi computed ${vismaGross ? formatDecimal(vismaGross) : '?'} with ${vat ? formatDecimal(vat) : '?'} VAT` +
    ` (IncludesVat ${String(draft.IncludesVat)}); the invoice is ${formatDecimal(ordoGross)} with ` +
    `${formatDecimal(invoice.totalVat)} VAT`
  );
}
