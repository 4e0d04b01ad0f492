/**
 * Exact decimal arithmetic for money, percentages and quantities.
 *
 * A `Decimal` is an integer number of units at a scale: `{units: 12345n, scale: 2}` is 123.45.
 * Adding and multiplying are exact (bigint); the only place a value loses digits is an explicit
 * `round` (or `divide`, which rounds its quotient), and rounding is half away from zero — 0.005 →
 * 0.01, −0.005 → −0.01 — the way Swedish invoices and the spec's number format round. JavaScript
 * numbers are accepted as input only through their decimal text (`String(1.1)` is "1.1"), never
 * used for arithmetic.
 */

export interface Decimal {
  readonly units: bigint;
  readonly scale: number;
}

/** What the functions take: a Decimal, decimal text ("12.5", "-3", "12,50"), an integer or a JS number. */
export type DecimalInput = Decimal | string | number | bigint;

const DECIMAL_TEXT = /^([+-]?)(\d*)(?:[.,](\d*))?(?:e([+-]?\d+))?$/i;

const pow10 = (n: number): bigint => 10n ** BigInt(n);
const abs = (n: bigint): bigint => (n < 0n ? -n : n);

export const ZERO: Decimal = { units: 0n, scale: 0 };

/**
 * Reads decimal text: an optional sign, digits, an optional `.` or `,` with decimals, an optional
 * exponent. Spaces (thousands separators as the spec prints them) are ignored. Null when it is not
 * a number.
 */
export function parseDecimal(text: string): Decimal | null {
  const m = DECIMAL_TEXT.exec(text.replace(/[\s\u00a0\u202f]/g, ''));
  if (!m) return null;
  const [, sign = '', whole = '', fraction = '', exponent] = m;
  if (whole === '' && fraction === '') return null;
  let units = BigInt(`${whole}${fraction}` || '0');
  let scale = fraction.length;
  if (exponent !== undefined) {
    const e = Number(exponent);
    if (Math.abs(e) > 100) return null;
    if (e >= scale) {
      units *= pow10(e - scale);
      scale = 0;
    } else scale -= e;
  }
  return { units: sign === '-' ? -units : units, scale };
}

/** Any input as a Decimal; throws a RangeError on text that is not a number (a programming error). */
export function toDecimal(value: DecimalInput): Decimal {
  if (typeof value === 'object') return value;
  if (typeof value === 'bigint') return { units: value, scale: 0 };
  if (typeof value === 'number' && !Number.isFinite(value)) throw new RangeError(`not a finite number: ${value}`);
  const parsed = parseDecimal(String(value));
  if (!parsed) throw new RangeError(`not a decimal number: ${String(value)}`);
  return parsed;
}

/** The same value at a larger scale (no rounding). */
function widen(d: Decimal, scale: number): bigint {
  return d.units * pow10(scale - d.scale);
}

function align(a: DecimalInput, b: DecimalInput): [bigint, bigint, number] {
  const x = toDecimal(a);
  const y = toDecimal(b);
  const scale = Math.max(x.scale, y.scale);
  return [widen(x, scale), widen(y, scale), scale];
}

export function add(a: DecimalInput, b: DecimalInput): Decimal {
  const [x, y, scale] = align(a, b);
  return { units: x + y, scale };
}

export function sub(a: DecimalInput, b: DecimalInput): Decimal {
  const [x, y, scale] = align(a, b);
  return { units: x - y, scale };
}

export function mul(a: DecimalInput, b: DecimalInput): Decimal {
  const x = toDecimal(a);
  const y = toDecimal(b);
  return { units: x.units * y.units, scale: x.scale + y.scale };
}

export function sum(values: readonly DecimalInput[]): Decimal {
  return values.reduce<Decimal>((acc, v) => add(acc, v), ZERO);
}

/** `n / d`, both bigints, rounded half away from zero to an integer. */
function divideRounded(n: bigint, d: bigint): bigint {
  const q = n / d;
  const r = n % d;
  if (r === 0n || abs(r) * 2n < abs(d)) return q;
  return n < 0n !== d < 0n ? q - 1n : q + 1n;
}

/** Rounds half away from zero to `scale` decimals (2 unless told). */
export function round(value: DecimalInput, scale = 2): Decimal {
  const d = toDecimal(value);
  if (d.scale <= scale) return { units: widen(d, scale), scale };
  return { units: divideRounded(d.units, pow10(d.scale - scale)), scale };
}

/** `a / b` rounded half away from zero to `scale` decimals; throws on division by zero. */
export function divide(a: DecimalInput, b: DecimalInput, scale = 2): Decimal {
  const x = toDecimal(a);
  const y = toDecimal(b);
  if (y.units === 0n) throw new RangeError('division by zero');
  // x/y = (x.units / 10^xs) / (y.units / 10^ys); in units of 10^-scale:
  const n = x.units * pow10(y.scale + scale);
  const d = y.units * pow10(x.scale);
  return { units: divideRounded(n, d), scale };
}

export function negate(value: DecimalInput): Decimal {
  const d = toDecimal(value);
  return { units: -d.units, scale: d.scale };
}

export function compare(a: DecimalInput, b: DecimalInput): -1 | 0 | 1 {
  const [x, y] = align(a, b);
  return x < y ? -1 : x > y ? 1 : 0;
}

export const isZero = (value: DecimalInput): boolean => toDecimal(value).units === 0n;
export const isNegative = (value: DecimalInput): boolean => toDecimal(value).units < 0n;

/** Digits after the point, ignoring trailing zeros ("12.50" → 1). */
export function decimalPlaces(value: DecimalInput): number {
  const d = toDecimal(value);
  let { units, scale } = d;
  while (scale > 0 && units % 10n === 0n) {
    units /= 10n;
    scale--;
  }
  return scale;
}

/**
 * Plain decimal text rounded to `scale` decimals: `formatDecimal('1234.5')` → "1234.50". This is the form
 * money takes in the database and the API; the UI's `formatNumber` adds the spec's separators.
 */
export function formatDecimal(value: DecimalInput, scale = 2): string {
  const { units } = round(value, scale);
  const digits = abs(units)
    .toString()
    .padStart(scale + 1, '0');
  const whole = scale ? digits.slice(0, -scale) : digits;
  const text = scale ? `${whole}.${digits.slice(-scale)}` : whole;
  return units < 0n ? `-${text}` : text;
}

/** Like `formatDecimal` but without trailing zeros: "10.00" → "10", "12.50" → "12.5". */
export function formatTrimmed(value: DecimalInput, maxScale = 2): string {
  const text = formatDecimal(value, maxScale);
  return text.includes('.') ? text.replace(/\.?0+$/, '') : text;
}

/**
 * Plain decimal text written as the spec writes numbers (section 9), exactly, without a float:
 * "1250.5" → "1 250,5", "-1234.50" → "-1 234,50". Documents and printed discounts use it.
 */
export function spellDecimal(text: string): string {
  const negative = text.startsWith('-');
  const [whole = '0', fraction] = (negative ? text.slice(1) : text).split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ' ');
  return `${negative ? '-' : ''}${grouped}${fraction ? `,${fraction}` : ''}`;
}

/** For display only (e.g. `formatNumber` in the UI): the nearest JS number. Never compute with it. */
export function toNumber(value: DecimalInput): number {
  return Number(formatDecimal(value, toDecimal(value).scale));
}
