/**
 * Numbers and dates the way the spec writes them (section 9): space as thousands separator, comma
 * as decimal separator, 2 decimals; dates as YYYY-MM-DD, DD.MM.YYYY or MM/DD/YYYY.
 * Pure functions, so server and browser render the same text (no hydration mismatch from Intl).
 */
import { dateInZone, daysInMonth, formatPlainDate, tenantTimeZone } from '~/core/calendar/dates';
import { dateTimeFormat } from './intl-cache';

export interface FormatNumberOptions {
  /** Digits after the comma; 2 unless told. */
  decimals?: number;
}

/**
 * `1234567.891` → `"1 234 567,89"`, `-1234.5` → `"-1 234,50"`. Halves round away from zero on the
 * decimal value as written (1.005 → "1,01"), not on its binary approximation. A thin or
 * non-breaking space is deliberately not used: the spec's exports and inputs expect U+0020.
 * NaN and ±Infinity give an empty string.
 */
export function formatNumber(value: number, { decimals = 2 }: FormatNumberOptions = {}): string {
  if (!Number.isFinite(value)) return '';
  const places = Math.max(0, Math.min(20, Math.trunc(decimals)));
  const fixed = toFixedAbs(value, places);
  const [whole = '0', fraction] = fixed.split('.');
  const isZero = /^[0.]+$/.test(fixed);
  const sign = value < 0 && !isZero ? '-' : '';
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ' ');
  return fraction ? `${sign}${grouped},${fraction}` : `${sign}${grouped}`;
}

/** |value| rounded half away from zero to `places` decimals, as plain digits ("1234.50"). */
function toFixedAbs(value: number, places: number): string {
  const abs = Math.abs(value);
  // From 1e21 up every double is an integer and toFixed switches to exponent notation.
  if (abs >= 1e21) return `${BigInt(abs)}${places ? `.${'0'.repeat(places)}` : ''}`;
  const text = String(abs);
  // Tiny numbers print in exponent notation and cannot be shifted by editing the string.
  if (text.includes('e')) return abs.toFixed(places);
  // Shift in decimal notation so 1.005 rounds as written, not as its binary 1.00499…
  const shifted = Math.round(Number(`${text}e${places}`));
  // Past 2^53 there are no exact decimals left to round.
  if (!Number.isSafeInteger(shifted)) return abs.toFixed(places);
  return Number(`${shifted}e-${places}`).toFixed(places);
}

export type DateFormat = 'YYYY-MM-DD' | 'DD.MM.YYYY' | 'MM/DD/YYYY';

export interface FormatDateOptions {
  /**
   * IANA zone used to find the calendar day of an instant (a `Date` or a timestamp string with a
   * time). The runtime's zone unless given; pass the user's zone on the server so server and
   * browser agree. Plain dates ("2024-03-05") are never shifted.
   */
  timeZone?: string;
}

const PLAIN_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * `"2024-03-05"` → `"05.03.2024"` for `DD.MM.YYYY`. Accepts a plain ISO date, an ISO timestamp or
 * a `Date`; anything unparseable gives an empty string.
 */
export function formatDate(isoDate: string | Date, format: DateFormat, { timeZone }: FormatDateOptions = {}): string {
  const parts = toDateParts(isoDate, timeZone);
  if (!parts) return '';
  const { year, month, day } = parts;
  switch (format) {
    case 'YYYY-MM-DD':
      return `${year}-${month}-${day}`;
    case 'DD.MM.YYYY':
      return `${day}.${month}.${year}`;
    case 'MM/DD/YYYY':
      return `${month}/${day}/${year}`;
  }
}

/** The tenant's time zone lives with the calendar arithmetic; re-exported for the callers that format here. */
export { tenantTimeZone };

/**
 * A moment as the tenant writes it: "2026-03-05 14:07" in its date format and its country's zone.
 * Make it in the loader, so the server and the browser show the same text.
 */
export function formatDateTime(iso: string | Date, config: { dateFormat: DateFormat; country: string }): string {
  const timeZone = tenantTimeZone(config.country);
  const clock = dateTimeFormat('sv-SE', { hour: '2-digit', minute: '2-digit', timeZone });
  return `${formatDate(iso, config.dateFormat, { timeZone })} ${clock.format(typeof iso === 'string' ? new Date(iso) : iso)}`;
}

function toDateParts(
  input: string | Date,
  timeZone: string | undefined,
): { year: string; month: string; day: string } | null {
  if (typeof input === 'string') {
    const plain = PLAIN_DATE.exec(input.trim());
    if (plain) {
      const [, year = '', month = '', day = ''] = plain;
      return isRealDate(Number(year), Number(month), Number(day)) ? { year, month, day } : null;
    }
  }
  const date = typeof input === 'string' ? new Date(input) : input;
  if (Number.isNaN(date.getTime())) return null;
  // without a zone, the runtime's own (what Intl would use)
  const [year = '', month = '', day = ''] = (
    timeZone
      ? dateInZone(date, timeZone)
      : formatPlainDate({ year: date.getFullYear(), month: date.getMonth() + 1, day: date.getDate() })
  ).split('-');
  return { year, month, day };
}

function isRealDate(year: number, month: number, day: number): boolean {
  return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);
}
