import { formatDecimal, formatTrimmed, parseDecimal, spellDecimal } from '~/core/pricing';

/**
 * How documents write numbers (spec section 9): space as thousands separator, comma as decimal
 * separator. Money is exact decimal text ("1250.5") and is formatted as text, never through a
 * JavaScript float (decision 007).
 */
const group = spellDecimal;

const decimalOf = (value: unknown) =>
  value === null || value === undefined || value === '' ? null : parseDecimal(String(value));

/** "1234.5" → "1 234,50"; empty for nothing or what is not a number. */
export function formatMoney(value: unknown): string {
  const d = decimalOf(value);
  return d ? group(formatDecimal(d, 2)) : '';
}

/** A quantity with up to 3 decimals and no trailing zeros: "1.500" → "1,5". */
export function formatQuantity(value: unknown): string {
  const d = decimalOf(value);
  return d ? group(formatTrimmed(d, 3)) : '';
}

/** Minutes as hours with 2 decimals: 90 → "1,50". */
export function formatHours(minutes: unknown): string {
  const m = Number(minutes);
  if (!Number.isFinite(m)) return '';
  return formatMoney(hoursText(Math.round(m)));
}

/** Exact minutes / 60, rounded half away from zero to 2 decimals, as decimal text. */
function hoursText(minutes: number): string {
  const hundredths = (BigInt(Math.abs(minutes)) * 100n * 2n + 60n) / 120n;
  const text = `${hundredths / 100n}.${String(hundredths % 100n).padStart(2, '0')}`;
  return minutes < 0 ? `-${text}` : text;
}
