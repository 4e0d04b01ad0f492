/**
 * The OCR reference a Swedish payer types (Bankgirot's "OCR with length and check digit"): the
 * invoice number's digits, then the length digit (the reference's length, check digit included,
 * modulo 10), then a Luhn (modulus 10) check digit over everything before it. A bank refuses a
 * payment whose reference fails the check, so a typo never reaches the wrong invoice.
 */
export function ocrReference(invoiceNr: string | number): string {
  const digits = String(invoiceNr).replace(/\D/g, '');
  if (!digits) throw new Error('An OCR reference needs a number');
  const withLength = digits + String((digits.length + 2) % 10);
  return withLength + luhnDigit(withLength);
}

/** The Luhn check digit for a string of digits. */
export function luhnDigit(digits: string): string {
  let total = 0;
  for (let i = 0; i < digits.length; i++) {
    // from the right, every other digit (starting with the last) is doubled
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 0) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    total += d;
  }
  return String((10 - (total % 10)) % 10);
}

/** True when the reference's own check and length digits hold. */
export function isValidOcr(reference: string): boolean {
  if (!/^\d{3,25}$/.test(reference)) return false;
  const body = reference.slice(0, -1);
  return luhnDigit(body) === reference.slice(-1) && Number(body.slice(-1)) === reference.length % 10;
}

/**
 * A Swedish personal identity number (personnummer or samordningsnummer), 10 or 12 digits with or
 * without the separator; the last digit is the Luhn digit of the ten-digit form. The tax agency
 * refuses a ROT or RUT claim for a number that fails it.
 */
export function isValidPersonId(value: string): boolean {
  const digits = value.replace(/[\s+-]/g, '');
  if (!/^(\d{10}|\d{12})$/.test(digits)) return false;
  const ten = digits.slice(-10);
  return luhnDigit(ten.slice(0, 9)) === ten.slice(9);
}
