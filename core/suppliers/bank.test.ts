import { describe, expect, it } from 'vitest';
import { formatIban, isValidBic, isValidIban, normalizeBic, normalizeIban } from './bank';

describe('[suppliers] IBAN', () => {
  it.each([
    ['SE4550000000058398257466', 'Sweden, 24'],
    ['SE45 5000 0000 0583 9825 7466', 'grouped with spaces'],
    ['se45 5000 0000 0583 9825 7466', 'lower case'],
    ['DE89370400440532013000', 'Germany, 22'],
    ['GB82WEST12345698765432', 'letters in the bank code'],
    ['NO9386011117947', 'Norway, the shortest (15)'],
    ['EE382200221020145685', 'Estonia, 20'],
    ['LV80BANK0000435195001', 'Latvia, 21'],
    ['MT84MALT011000012345MTLCAST001S', 'Malta, 31, letters at the end'],
  ])('accepts %s (%s)', (iban) => {
    expect(isValidIban(iban)).toBe(true);
  });

  it.each([
    ['SE4550000000058398257467', 'a wrong check digit in the account'],
    ['SE4650000000058398257466', 'wrong check digits'],
    ['SE455000000005839825746', 'one character short for Sweden'],
    ['DE8937040044053201300000', 'too long for Germany'],
    ['XX4550000000058398257466', 'not a country with IBANs'],
    ['US64SVBKUS6S3300958879', 'a country without IBANs'],
    ['SE45500000000583982574!6', 'a character that is neither letter nor digit'],
    ['4550000000058398257466SE', 'country code not first'],
    ['', 'empty'],
  ])('refuses %s (%s)', (iban) => {
    expect(isValidIban(iban)).toBe(false);
  });

  it('normalises and formats in groups of four', () => {
    expect(normalizeIban(' se45 5000-0000 0583 9825 7466 ')).toBe('SE4550000000058398257466');
    expect(formatIban('SE4550000000058398257466')).toBe('SE45 5000 0000 0583 9825 7466');
    expect(formatIban('NO9386011117947')).toBe('NO93 8601 1117 947');
  });
});

describe('[suppliers] BIC', () => {
  it.each(['ESSESESS', 'NDEASESS', 'HANDSESS', 'SWEDSESS', 'DEUTDEFF500', 'deutdeff', 'HABA LV22'])(
    'accepts %s',
    (bic) => {
      expect(isValidBic(bic)).toBe(true);
    },
  );

  it.each([
    ['ESSEXXSS', 'XX is not a country'],
    ['ESSESE', 'too short'],
    ['ESSESESS5', '9 characters'],
    ['ESSESESS50', '10 characters'],
    ['1SSESESS', 'a digit in the bank code'],
    ['ESSE5ESS', 'a digit in the country'],
    ['ESSESES!', 'punctuation'],
  ])('refuses %s (%s)', (bic) => {
    expect(isValidBic(bic)).toBe(false);
  });

  it('normalises spaces and case', () => {
    expect(normalizeBic(' essE SE ss ')).toBe('ESSESESS');
  });
});
