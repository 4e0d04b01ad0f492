import { describe, expect, it } from 'vitest';
import { AppError } from '~/core/errors/app-error';
import {
  articleTotals,
  DEFAULT_INVOICE_FEE,
  DEFAULT_VAT_PERCENTAGE,
  effectiveInvoiceFee,
  invoiceTotals,
} from './close.rules';

const on = { feeToggle: true, feeModule: true, articleTotal: '100.00' };

function fieldError(fn: () => unknown): string[] | undefined {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(AppError);
    expect((e as AppError).status).toBe(400);
    return (e as AppError).details?.fields?.invoiceFee;
  }
  throw new Error('expected a validation error');
}

describe('[work orders] close: effectiveInvoiceFee', () => {
  it('keeps the fee when the toggle and the module are on and the article total is above 0', () => {
    expect(effectiveInvoiceFee({ ...on, fee: '40' })).toBe('40.00');
    expect(effectiveInvoiceFee({ ...on, fee: 12.5 })).toBe('12.50');
    expect(effectiveInvoiceFee({ ...on, fee: '0' })).toBe('0.00');
    expect(effectiveInvoiceFee({ ...on, articleTotal: '0.01', fee: '40' })).toBe('40.00');
  });

  it.each([
    ['the fee toggle is off', { ...on, feeToggle: false }],
    ['the fee module is off', { ...on, feeModule: false }],
    ['the article total is 0', { ...on, articleTotal: '0.00' }],
    ['the article total is negative', { ...on, articleTotal: '-10' }],
  ])('clears the fee when %s', (_, input) => {
    expect(effectiveInvoiceFee({ ...input, fee: '40' })).toBeNull();
  });

  it.each([null, undefined, '', '  '])('an empty fee (%j) is no fee', (fee) => {
    expect(effectiveInvoiceFee({ ...on, fee })).toBeNull();
  });

  it('refuses a negative fee, whatever the switches say', () => {
    expect(fieldError(() => effectiveInvoiceFee({ ...on, fee: '-1' }))).toEqual(['ERROR_NEGATIVE_AMOUNT']);
    expect(fieldError(() => effectiveInvoiceFee({ ...on, feeToggle: false, fee: -0.01 }))).toEqual([
      'ERROR_NEGATIVE_AMOUNT',
    ]);
  });

  it('refuses a fee that is not a number', () => {
    expect(fieldError(() => effectiveInvoiceFee({ ...on, fee: 'forty' }))).toEqual(['ERROR_PRICE_PATTERN']);
    expect(fieldError(() => effectiveInvoiceFee({ ...on, fee: Number.NaN }))).toEqual(['ERROR_PRICE_PATTERN']);
  });

  it('has the spec defaults: fee 40, VAT 25 %', () => {
    expect(DEFAULT_INVOICE_FEE).toBe('40.00');
    expect(DEFAULT_VAT_PERCENTAGE).toBe('25.00');
  });
});

describe('[work orders] close: invoice totals', () => {
  it('sums the article rows through the pricing rules (discounts included)', () => {
    const row = { articleId: 'a', title: 'x', description: null, discountType: null, discountValue: null };
    const { rowTotals, total } = articleTotals([
      { ...row, amount: '2', price: '100.00' },
      { ...row, amount: '1', price: '50.00', discountType: 'PERCENTAGE', discountValue: '10' },
      { ...row, amount: '3', price: '10.00', discountType: 'REGULAR', discountValue: '1' },
    ]);
    expect(rowTotals).toEqual(['200.00', '45.00', '27.00']);
    expect(total).toBe('272.00');
    expect(articleTotals([]).total).toBe('0.00');
  });

  it('adds the fee and VAT exactly', () => {
    expect(
      invoiceTotals({
        articleTotal: '100.10',
        fee: '40.00',
        vatPercentage: '25',
        customerReverseVat: false,
        ignoreReverseVat: false,
      }),
    ).toEqual({ vatPercentage: '25.00', reverseVat: false, totalPrice: '140.10', totalPriceVat: '175.13' });
  });

  it('reverse VAT: no VAT unless the dialog ignores it', () => {
    const base = { articleTotal: '200', fee: null, vatPercentage: '25' };
    expect(invoiceTotals({ ...base, customerReverseVat: true, ignoreReverseVat: false })).toEqual({
      vatPercentage: '0.00',
      reverseVat: true,
      totalPrice: '200.00',
      totalPriceVat: '200.00',
    });
    expect(invoiceTotals({ ...base, customerReverseVat: true, ignoreReverseVat: true })).toMatchObject({
      vatPercentage: '25.00',
      reverseVat: false,
      totalPriceVat: '250.00',
    });
  });
});
