import { describe, expect, it } from 'vitest';
import {
  add,
  compare,
  decimalPlaces,
  divide,
  formatDecimal,
  formatTrimmed,
  mul,
  parseDecimal,
  round,
  sub,
  sum,
  toDecimal,
  toNumber,
} from './decimal';

describe('[pricing] decimal', () => {
  it.each([
    ['12', 12n, 0],
    ['12.50', 1250n, 2],
    ['12,5', 125n, 1],
    ['-0.05', -5n, 2],
    ['.5', 5n, 1],
    ['1 250,50', 125050n, 2],
    ['1e3', 1000n, 0],
    ['1.5e-2', 15n, 3],
  ])('parses %j', (text, units, scale) => {
    expect(parseDecimal(text)).toEqual({ units, scale });
  });

  it.each(['', '-', '.', 'abc', '1.2.3', '12%', '1e', '--1', '1e999'])('refuses %j', (text) => {
    expect(parseDecimal(text)).toBeNull();
  });

  it('takes JS numbers through their decimal text and refuses NaN', () => {
    expect(formatDecimal(0.1)).toBe('0.10');
    expect(formatDecimal(add(0.1, 0.2))).toBe('0.30'); // 0.1 + 0.2 is exactly 0.3 here
    expect(toDecimal(1e-7)).toEqual({ units: 1n, scale: 7 });
    expect(() => toDecimal(Number.NaN)).toThrow(RangeError);
    expect(() => toDecimal('x')).toThrow(RangeError);
  });

  it.each([
    ['0.005', '0.01'],
    ['0.004999', '0.00'],
    ['-0.005', '-0.01'],
    ['-0.004', '0.00'],
    ['1.005', '1.01'], // the binary double 1.005 would round down
    ['2.675', '2.68'],
    ['1234.5', '1234.50'],
    ['-1234.565', '-1234.57'],
    ['99999999999.995', '100000000000.00'],
  ])('rounds %s half away from zero to %s', (value, expected) => {
    expect(formatDecimal(value)).toBe(expected);
  });

  it('adds, subtracts and multiplies exactly, sums, compares', () => {
    expect(formatDecimal(add('1.1', '2.25'))).toBe('3.35');
    expect(formatDecimal(sub('1', '0.01'))).toBe('0.99');
    expect(mul('1.5', '1.5')).toEqual({ units: 225n, scale: 2 });
    expect(formatDecimal(sum(['0.1', '0.2', '0.3']))).toBe('0.60');
    expect(formatDecimal(sum([]))).toBe('0.00');
    expect(compare('1.10', '1.1')).toBe(0);
    expect(compare('-1', '0')).toBe(-1);
    expect(compare('10', '9.99')).toBe(1);
  });

  it('divides with rounding and refuses zero', () => {
    expect(formatDecimal(divide('10', '3'))).toBe('3.33');
    expect(formatDecimal(divide('20', '3'))).toBe('6.67');
    expect(formatDecimal(divide('-20', '3'))).toBe('-6.67');
    expect(formatDecimal(divide('1', '8', 2))).toBe('0.13'); // 0.125 → 0.13
    expect(formatDecimal(divide('1', '-8', 2))).toBe('-0.13');
    expect(() => divide('1', '0')).toThrow(RangeError);
  });

  it('rounds to other scales, formats trimmed, counts decimals', () => {
    expect(formatDecimal(round('2.5', 0), 0)).toBe('3');
    expect(formatDecimal('1.2345', 3)).toBe('1.235');
    expect(formatTrimmed('10.00')).toBe('10');
    expect(formatTrimmed('12.50')).toBe('12.5');
    expect(formatTrimmed('-0.10')).toBe('-0.1');
    expect(decimalPlaces('12.50')).toBe(1);
    expect(decimalPlaces('12')).toBe(0);
    expect(toNumber('1250.50')).toBe(1250.5);
  });
});
