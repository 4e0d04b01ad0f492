import { describe, expect, it } from 'vitest';
import { isValidBic, isValidIban } from '~/core/suppliers/bank';
import { TAG_PATTERN } from '~/core/suppliers/supplier.schema';
import { DEMO_SUPPLIERS } from './suppliers';

describe('[suppliers] demo data', () => {
  it('passes the same checks as a supplier typed in the app', () => {
    for (const s of DEMO_SUPPLIERS) {
      expect(isValidIban(s.iban), `${s.title} IBAN`).toBe(true);
      expect(isValidBic(s.bic), `${s.title} BIC`).toBe(true);
      for (const tag of s.tags) expect(tag).toMatch(TAG_PATTERN);
    }
  });
});
