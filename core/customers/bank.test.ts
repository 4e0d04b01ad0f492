import { describe, expect, it } from 'vitest';
import { formatBankgiro, isValidBankgiro } from './bank';

describe('[customers] bankgiro', () => {
  it.each([
    ['5050-1055', true],
    ['50501055', true],
    ['991-2346', true],
    ['5050-1056', false],
    ['123-456', false],
    ['abcd-efgh', false],
  ])('bankgiro %s → %s', (bg, ok) => {
    expect(isValidBankgiro(bg)).toBe(ok);
  });

  it('writes a bankgiro number with the hyphen before the last four digits', () => {
    expect(formatBankgiro('50501055')).toBe('5050-1055');
    expect(formatBankgiro(' 991 2346 ')).toBe('991-2346');
    expect(formatBankgiro('x')).toBe('x');
  });
});
