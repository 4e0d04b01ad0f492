/**
 * An invoice's arithmetic (issue 14; spec sections 3 and 9): row totals through core/pricing, VAT
 * per rate (25, 12, 6, 0 %) on the sum of that rate's rows, reverse VAT (no VAT, the legal text
 * shown), the total rounded to whole kronor as Swedish invoices are with the öre rounding as its
 * own figure, and a ROT, RUT or green-technology reduction computed at the rate and within the
 * cap of the day the customer pays, shown as the amount to pay. Exact decimals throughout; every
 * figure is a string with two decimals.
 */
import {
  add,
  compare,
  formatDecimal,
  isZero,
  mul,
  round,
  rowTotal,
  sub,
  sum,
  toDecimal,
  type Decimal,
  type DecimalInput,
  type Discount,
  type Money,
} from '~/core/pricing';
import {
  greenPercent,
  reductionCaps,
  reductionPercent,
  type GreenTechnology,
  type TaxReductionKind,
} from './tax-reduction';

export const INVOICE_ROW_KINDS = [
  'article',
  'labour',
  'travel',
  'mileage',
  'fee',
  'part_payment',
  'agreement_fee',
  'text',
] as const;
export type InvoiceRowKind = (typeof INVOICE_ROW_KINDS)[number];

/** What a row is to accounts and ROT/RUT, shown on the invoice and carried to the ERP (issue 28 item 4). */
export type InvoiceRowType = 'labour' | 'material' | 'fee' | 'travel' | 'partPayment';

/**
 * A row's type from its kind and its labour/material split: the invoice fee and an agreement's fee
 * are fees, travel time and mileage are travel, a project's part of the contract sum is a part
 * payment; an article or time row is labour or material as its article says.
 */
export function invoiceRowType(kind: string, work: string): InvoiceRowType {
  if (kind === 'fee' || kind === 'agreement_fee') return 'fee';
  if (kind === 'travel' || kind === 'mileage') return 'travel';
  if (kind === 'part_payment') return 'partPayment';
  return work === 'labour' ? 'labour' : 'material';
}

export const VAT_RATES = ['25', '12', '6', '0'] as const;
export type VatRate = (typeof VAT_RATES)[number];

export interface InvoiceLineInput {
  amount: DecimalInput | null;
  price: DecimalInput | null;
  discount?: Discount | null;
  vatPercent: VatRate;
  /** A text row: no price, not in any sum. */
  isText?: boolean;
  /** Labour (ROT and RUT reduce it) or material (they do not). */
  work?: 'labour' | 'material';
  /** For a green-technology invoice: what the row installs (its rate); rows without it are not reduced. */
  green?: GreenTechnology | null;
}

export interface InvoiceInput {
  lines: InvoiceLineInput[];
  /** The customer pays the VAT (spec: customer setting, ignoreReverseVAT on close). */
  reverseVat: boolean;
  taxReduction: TaxReductionKind;
  /** The day the reduction's rate and cap are taken from (the payment due date), YYYY-MM-DD. */
  reductionDay: string;
  /** The people sharing the reduction (each has their own cap); 1 unless told. */
  persons?: number;
  /** What the persons have already used this year, together. */
  used?: { rot?: DecimalInput; rut?: DecimalInput; green?: DecimalInput };
}

export interface InvoiceLineFigures {
  /** Without VAT, the discount applied. */
  total: Money;
  /** The rate applied: 0 under reverse VAT. */
  vatPercent: VatRate;
}

export interface VatLine {
  percent: VatRate;
  /** The rows' total at this rate, without VAT. */
  base: Money;
  vat: Money;
}

export interface TaxReductionFigures {
  kind: Exclude<TaxReductionKind, 'none'>;
  /** What the reduction is computed on: the labour (ROT, RUT) or the green rows, including VAT. */
  base: Money;
  /** The reduction before the cap, rounded down to whole kronor. */
  computed: Money;
  /** What is taken off the invoice: within the cap that is left. */
  amount: Money;
  capped: boolean;
}

export interface InvoiceFigures {
  lines: InvoiceLineFigures[];
  /** Sum of the rows without VAT. */
  net: Money;
  /** One line per rate that has rows, highest rate first. */
  vat: VatLine[];
  vatTotal: Money;
  /** Net + VAT, before rounding. */
  gross: Money;
  /** Whole-krona rounding of the gross (from -0.49 to +0.50, the "öresavrundning"). */
  rounding: Money;
  /** The invoice total including VAT, whole kronor. */
  total: Money;
  reverseVat: boolean;
  taxReduction: TaxReductionFigures | null;
  /** What the customer pays: the total less the reduction. */
  toPay: Money;
}

const percentOf = (value: DecimalInput, percent: DecimalInput): Decimal => {
  const p = toDecimal(percent);
  return mul(value, { units: p.units, scale: p.scale + 2 });
};

/** Rounds down (towards zero) to whole kronor: the state never pays out more than the exact share. */
const floorKronor = (value: Decimal): Decimal => {
  const whole = round(value, 0);
  return compare(whole, value) > 0 ? sub(whole, 1) : whole;
};

const min = (a: Decimal, b: Decimal) => (compare(a, b) <= 0 ? a : b);
const nonNegative = (a: Decimal) => (compare(a, 0) < 0 ? toDecimal(0) : a);

export function invoiceFigures(input: InvoiceInput): InvoiceFigures {
  const lines: InvoiceLineFigures[] = input.lines.map((l) => ({
    total: l.isText ? formatDecimal(0) : rowTotal({ amount: l.amount, price: l.price, discount: l.discount }),
    vatPercent: input.reverseVat ? '0' : l.vatPercent,
  }));
  const counted = lines.filter((_, i) => !input.lines[i]!.isText);
  const net = sum(counted.map((l) => l.total));
  const vat: VatLine[] = VAT_RATES.flatMap((percent) => {
    const at = counted.filter((l) => l.vatPercent === percent);
    if (!at.length) return [];
    const base = sum(at.map((l) => l.total));
    return [{ percent, base: formatDecimal(base), vat: formatDecimal(round(percentOf(base, percent), 2)) }];
  });
  const vatTotal = sum(vat.map((v) => v.vat));
  const gross = add(net, vatTotal);
  const total = round(gross, 0);
  const taxReduction = input.reverseVat ? null : reduction(input, lines);
  return {
    lines,
    net: formatDecimal(net),
    vat,
    vatTotal: formatDecimal(vatTotal),
    gross: formatDecimal(gross),
    rounding: formatDecimal(sub(total, gross)),
    total: formatDecimal(total),
    reverseVat: input.reverseVat,
    taxReduction,
    toPay: formatDecimal(sub(total, taxReduction?.amount ?? 0)),
  };
}

/** A row's total including its VAT, to the öre. */
const withVat = (line: InvoiceLineFigures) => round(add(line.total, percentOf(line.total, line.vatPercent)), 2);

function reduction(input: InvoiceInput, lines: InvoiceLineFigures[]): TaxReductionFigures | null {
  const kind = input.taxReduction;
  if (kind === 'none') return null;
  const day = input.reductionDay;
  const persons = Math.max(1, Math.trunc(input.persons ?? 1));
  const caps = reductionCaps(day);
  const used = {
    rot: toDecimal(input.used?.rot ?? 0),
    rut: toDecimal(input.used?.rut ?? 0),
    green: toDecimal(input.used?.green ?? 0),
  };
  let base = toDecimal(0);
  let computed = toDecimal(0);
  input.lines.forEach((l, i) => {
    if (l.isText) return;
    if (kind === 'green') {
      if (!l.green) return;
      const line = withVat(lines[i]!);
      base = add(base, line);
      computed = add(computed, percentOf(line, greenPercent(l.green, day)));
    } else if (l.work === 'labour') base = add(base, withVat(lines[i]!));
  });
  if (kind !== 'green') computed = percentOf(base, reductionPercent(kind, day));
  computed = nonNegative(floorKronor(computed));
  const each = (cap: string) => mul(cap, persons);
  const left =
    kind === 'green'
      ? sub(each(caps.green), used.green)
      : min(
          sub(each(kind === 'ROT' ? caps.rot : caps.rut), kind === 'ROT' ? used.rot : used.rut),
          sub(each(caps.rotRut), add(used.rot, used.rut)),
        );
  const amount = min(computed, nonNegative(left));
  if (isZero(base))
    return { kind, base: formatDecimal(0), computed: formatDecimal(0), amount: formatDecimal(0), capped: false };
  return {
    kind,
    base: formatDecimal(base),
    computed: formatDecimal(computed),
    amount: formatDecimal(amount),
    capped: compare(amount, computed) < 0,
  };
}
