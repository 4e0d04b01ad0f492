import { luhnDigit } from '~/core/invoicing/ocr';

/**
 * The bankgiro account a customer carries (spec section 3: BG account); IBAN and BIC are checked by
 * the shared `core/suppliers/bank.ts`. Pure functions: the form and the API reject a mistyped
 * number before an invoice carries it.
 */

/**
 * A Swedish bankgiro number: 7 or 8 digits, usually written with a hyphen before the last four
 * ("5050-1055"), whose last digit is the Luhn (mod 10) check digit of the others.
 */
export function isValidBankgiro(value: string): boolean {
  const digits = value.replace(/[\s-]/g, '');
  if (!/^\d{7,8}$/.test(digits)) return false;
  return luhnDigit(digits.slice(0, -1)) === digits.slice(-1);
}

/** "50501055" → "5050-1055", "1234566" → "123-4566"; other text is returned as typed. */
export function formatBankgiro(value: string): string {
  const digits = value.replace(/[\s-]/g, '');
  return /^\d{7,8}$/.test(digits) ? `${digits.slice(0, -4)}-${digits.slice(-4)}` : value.trim();
}
