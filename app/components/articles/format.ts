import { formatNumber } from '~/app/components/ui';
import { decimalPlaces, parseDecimal, toNumber } from '~/core/pricing/decimal';

/**
 * Money and quantities as the spec prints them ("1 250,50"). Values arrive as exact decimal text
 * from the server; they become a JS number only here, to be drawn.
 */
export function formatMoney(value: string | null | undefined): string {
  if (value == null || value === '') return '—';
  const d = parseDecimal(value);
  return d ? formatNumber(toNumber(d)) : value;
}

/** A quantity with as many decimals as it has (0–3): "7", "2,5", "0,125". */
export function formatQuantity(value: string | null | undefined): string {
  if (value == null || value === '') return '—';
  const d = parseDecimal(value);
  return d ? formatNumber(toNumber(d), { decimals: Math.min(decimalPlaces(d), 3) }) : value;
}

/**
 * A number in a field filled once (a form's default value): written as the spec writes numbers,
 * "480 000,00" (issue 29 item 4), "" for none. The server reads it back (zMoney and the hour
 * fields take spaces and a decimal comma). Not for a field re-formatted as it is typed.
 */
export function numberField(value: string | null | undefined): string {
  if (value == null || value === '') return '';
  const d = parseDecimal(value);
  return d ? formatNumber(toNumber(d)) : value;
}

/** A money value as it goes back into an input: "1250,50" (no thousands separator), "" for none. */
export function moneyInput(value: string | null | undefined): string {
  return value ? value.replace('.', ',') : '';
}
