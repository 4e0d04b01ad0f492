import { describe, expect, it } from 'vitest';
import { checkDiscount, discountOf, formatDiscount, NO_DISCOUNT, parseDiscount, printDiscount } from './discount';
import { zDiscount, zDiscountText } from './schemas';

describe('[pricing] discount text (spec section 5)', () => {
  it.each([
    ['10%', { type: 'PERCENTAGE', value: '10.00' }],
    ['12,5 %', { type: 'PERCENTAGE', value: '12.50' }],
    ['0%', { type: 'PERCENTAGE', value: '0.00' }],
    ['100%', { type: 'PERCENTAGE', value: '100.00' }],
    ['150', { type: 'REGULAR', value: '150.00' }],
    ['99.95', { type: 'REGULAR', value: '99.95' }],
    ['1 500', { type: 'REGULAR', value: '1500.00' }],
    ['0', { type: 'REGULAR', value: '0.00' }],
    ['', NO_DISCOUNT],
    ['  ', NO_DISCOUNT],
    ['%', NO_DISCOUNT],
  ])('%j parses', (text, discount) => {
    expect(parseDiscount(text)).toEqual({ ok: true, discount });
  });

  it('null and undefined clear it too', () => {
    expect(parseDiscount(null)).toEqual({ ok: true, discount: NO_DISCOUNT });
    expect(parseDiscount(undefined)).toEqual({ ok: true, discount: NO_DISCOUNT });
  });

  it.each([
    ['abc', 'ERROR_DISCOUNT_PATTERN'],
    ['10%%', 'ERROR_DISCOUNT_PATTERN'],
    ['%10', 'ERROR_DISCOUNT_PATTERN'],
    ['10.123', 'ERROR_DISCOUNT_PATTERN'],
    ['1e3', 'ERROR_DISCOUNT_PATTERN'],
    ['10 kr', 'ERROR_DISCOUNT_PATTERN'],
    ['100.01%', 'ERROR_PERCENT_RANGE'],
    ['150%', 'ERROR_PERCENT_RANGE'],
    ['-5%', 'ERROR_PERCENT_RANGE'],
    ['-5', 'ERROR_NEGATIVE_AMOUNT'],
  ])('%j is refused with %s', (text, error) => {
    expect(parseDiscount(text)).toEqual({ ok: false, error });
  });

  it('formats back to what parses to the same discount', () => {
    for (const text of ['10%', '12.5%', '150', '99.95', '']) {
      const parsed = parseDiscount(text);
      if (!parsed.ok) throw new Error(text);
      expect(formatDiscount(parsed.discount)).toBe(text);
      expect(parseDiscount(formatDiscount(parsed.discount))).toEqual(parsed);
    }
    expect(formatDiscount(null)).toBe('');
  });

  it('prints one form everywhere: the percent sign or the currency per unit is always there', () => {
    const kr = { currency: 'kr' };
    expect(printDiscount({ type: 'PERCENTAGE', value: '10.00' }, kr)).toBe('10 %');
    expect(printDiscount({ type: 'PERCENTAGE', value: '12.50' }, kr)).toBe('12,5 %');
    expect(printDiscount({ type: 'REGULAR', value: '10' }, kr)).toBe('10,00 kr');
    expect(printDiscount({ type: 'REGULAR', value: '1500.5' }, { currency: 'kr', unit: 'st' })).toBe('1 500,50 kr/st');
    expect(printDiscount({ type: 'REGULAR', value: '50' }, { currency: '€', unit: ' ' })).toBe('50,00 €');
    expect(printDiscount(NO_DISCOUNT, kr)).toBe('');
    expect(printDiscount(null, kr)).toBe('');
  });

  it('checks a type and value pair, and reads stored columns', () => {
    expect(checkDiscount({ type: 'PERCENTAGE', value: 101 })).toBe('ERROR_PERCENT_RANGE');
    expect(checkDiscount({ type: 'REGULAR', value: '-1' })).toBe('ERROR_NEGATIVE_AMOUNT');
    expect(checkDiscount({ type: 'REGULAR', value: '1.234' })).toBe('ERROR_DISCOUNT_PATTERN');
    expect(checkDiscount({ type: 'REGULAR', value: 'x' })).toBe('ERROR_DISCOUNT_PATTERN');
    expect(checkDiscount({ type: 'PERCENTAGE', value: '50' })).toBeNull();
    expect(discountOf('PERCENTAGE', '10.00')).toEqual({ type: 'PERCENTAGE', value: '10.00' });
    expect(discountOf('REGULAR', 5)).toEqual({ type: 'REGULAR', value: '5.00' });
    expect(discountOf('PERCENTAGE', '0')).toEqual(NO_DISCOUNT);
    expect(discountOf(null, '10')).toEqual(NO_DISCOUNT);
    expect(discountOf('PERCENTAGE', null)).toEqual(NO_DISCOUNT);
  });

  it('zDiscountText gives the discount or the spec message key', () => {
    expect(zDiscountText().parse('25%')).toEqual({ type: 'PERCENTAGE', value: '25.00' });
    expect(zDiscountText().parse(undefined)).toEqual(NO_DISCOUNT);
    const bad = zDiscountText().safeParse('x');
    expect(bad.success ? null : bad.error.issues[0]!.message).toBe('ERROR_DISCOUNT_PATTERN');
    const range = zDiscountText().safeParse('120%');
    expect(range.success ? null : range.error.issues[0]!.message).toBe('ERROR_PERCENT_RANGE');
  });

  it('zDiscount checks API pairs', () => {
    expect(zDiscount().parse({ discountType: 'REGULAR', discountValue: 20 })).toEqual({
      type: 'REGULAR',
      value: '20.00',
    });
    expect(zDiscount().parse({ discountType: 'NONE', discountValue: 'whatever' })).toEqual(NO_DISCOUNT);
    const bad = zDiscount().safeParse({ discountType: 'PERCENTAGE', discountValue: 200 });
    expect(bad.success ? null : bad.error.issues[0]).toMatchObject({
      message: 'ERROR_PERCENT_RANGE',
      path: ['discountValue'],
    });
  });
});
