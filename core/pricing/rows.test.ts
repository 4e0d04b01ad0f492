import { describe, expect, it } from 'vitest';
import { NO_DISCOUNT, type Discount } from './discount';
import { margin, markup, percentageDiscount, regularDiscount, rowPurchaseTotal, rowTotal, totals } from './rows';
import { zMoney, zOptionalMoney, zPercent, zQuantity } from './schemas';

const pct = (value: string): Discount => ({ type: 'PERCENTAGE', value });
const amt = (value: string): Discount => ({ type: 'REGULAR', value });

describe('[pricing] price calculation (spec section 5)', () => {
  it.each([
    // amount, percent, expected
    ['1000', '10', '900.00'],
    ['100', '0', '100.00'],
    ['100', '100', '0.00'],
    ['0.10', '50', '0.05'],
    ['0.01', '50', '0.01'], // 0.005 rounds half away from zero
    ['19.99', '12.5', '17.49'], // 17.49125
    ['33.33', '33.33', '22.22'], // 22.221…
  ])('percentage discount: %s × (1 − %s/100) = %s', (amount, percent, expected) => {
    expect(percentageDiscount(amount, percent)).toBe(expected);
  });

  it('regular discount subtracts the discount times the quantity', () => {
    expect(regularDiscount('1000', '50', '4')).toBe('800.00');
    expect(regularDiscount('10', '2.5', '1.5')).toBe('6.25');
  });

  it.each([
    ['100', '25', '125.00'],
    ['80', '0', '80.00'],
    ['19.99', '33.3', '26.65'], // 26.64667
    ['0.15', '50', '0.23'], // 0.225
    ['1000', '150', '2500.00'],
  ])('markup: %s × (1 + %s/100) = %s', (price, percent, expected) => {
    expect(markup(price, percent)).toBe(expected);
  });

  it.each<[string, { amount?: string | number | null; price?: string; discount?: Discount | null }, string]>([
    ['plain', { amount: 3, price: '99.90' }, '299.70'],
    ['fractional quantity', { amount: '2.5', price: '450' }, '1125.00'],
    ['quantity with 3 decimals rounds once', { amount: '0.333', price: '10' }, '3.33'],
    ['no quantity gives 0', { price: '100' }, '0.00'],
    ['zero quantity gives 0', { amount: 0, price: '100', discount: amt('5') }, '0.00'],
    ['null quantity gives 0', { amount: null, price: '100' }, '0.00'],
    ['no price gives 0', { amount: 2 }, '0.00'],
    ['percentage discount', { amount: 2, price: '1250', discount: pct('10') }, '2250.00'],
    ['regular discount per unit', { amount: 4, price: '1250', discount: amt('50') }, '4800.00'],
    ['no discount', { amount: 1, price: '10', discount: NO_DISCOUNT }, '10.00'],
    ['rounded once, not per step', { amount: 3, price: '0.335', discount: pct('10') }, '0.90'], // 0.9045
    ['negative prices stay negative', { amount: 1, price: '-100', discount: pct('10') }, '-90.00'],
  ])('row total: %s', (_name, row, expected) => {
    expect(rowTotal(row)).toBe(expected);
  });

  it('purchase total is purchase price × quantity', () => {
    expect(rowPurchaseTotal({ amount: 3, purchasePrice: '12.345' })).toBe('37.04'); // 37.035
    expect(rowPurchaseTotal({ purchasePrice: '10' })).toBe('0.00');
  });

  it('margin compares purchase cost with the sales total', () => {
    expect(margin('600', '1000')).toEqual({ amount: '400.00', percent: '40.00' });
    expect(margin('0', '0')).toEqual({ amount: '0.00', percent: null });
    expect(margin('1200', '1000')).toEqual({ amount: '-200.00', percent: '-20.00' });
    expect(margin('2', '3')).toEqual({ amount: '1.00', percent: '33.33' });
  });

  it('totals cover only rows with an article; summary rows give running subtotals that reset', () => {
    const result = totals([
      { articleId: 'a', amount: 2, price: '100', purchasePrice: '60' }, // 200 / 120
      { articleId: null, amount: 5, price: '1000' }, // a comment row: ignored
      { articleId: 'b', amount: 1, price: '50', purchasePrice: '20', discount: pct('10') }, // 45 / 20
      { isSummaryRow: true },
      { articleId: 'c', amount: 3, price: '10', purchasePrice: '4', discount: amt('1') }, // 27 / 12
      { isSummaryRow: true },
      { isSummaryRow: true },
      { articleId: 'd', amount: 0, price: '999', purchasePrice: '1' }, // no quantity: 0 / 0
    ]);
    expect(result.rowTotals).toEqual(['200.00', '0.00', '45.00', '0.00', '27.00', '0.00', '0.00', '0.00']);
    expect(result.summaries).toEqual([
      { index: 3, summarySalesPrice: '245.00', summaryPurchasePrice: '140.00' },
      { index: 5, summarySalesPrice: '27.00', summaryPurchasePrice: '12.00' },
      { index: 6, summarySalesPrice: '0.00', summaryPurchasePrice: '0.00' },
    ]);
    expect(result.salesTotal).toBe('272.00');
    expect(result.purchaseTotal).toBe('152.00');
    expect(result.margin).toEqual({ amount: '120.00', percent: '44.12' });
  });

  it('totals add the rounded row totals, so printed rows add up to the printed total', () => {
    const rows = [1, 2, 3].map((i) => ({ articleId: String(i), amount: 1, price: '0.005' }));
    const result = totals(rows);
    expect(result.rowTotals).toEqual(['0.01', '0.01', '0.01']);
    expect(result.salesTotal).toBe('0.03');
    expect(totals([])).toMatchObject({ salesTotal: '0.00', purchaseTotal: '0.00', margin: { percent: null } });
  });
});

describe('[pricing] form fields', () => {
  const issue = (r: { success: boolean; error?: { issues: { message: string }[] } }) =>
    r.success ? null : r.error!.issues[0]!.message;

  it('zMoney reads numbers and Swedish text, refuses the rest', () => {
    expect(zMoney().parse('1 250,5')).toBe('1250.50');
    expect(zMoney().parse(99.9)).toBe('99.90');
    expect(issue(zMoney().safeParse('12kr'))).toBe('ERROR_PRICE_PATTERN');
    expect(issue(zMoney().safeParse('1.234'))).toBe('ERROR_PRICE_PATTERN');
    expect(issue(zMoney().safeParse('1e13'))).toBe('ERROR_PRICE_PATTERN');
    expect(issue(zMoney().safeParse(null))).toBe('ERROR_PRICE_PATTERN');
    expect(issue(zMoney().safeParse('-1'))).toBe('ERROR_NEGATIVE_AMOUNT');
    expect(zMoney({ allowNegative: true }).parse('-1')).toBe('-1.00');
    expect(zOptionalMoney().parse('')).toBeNull();
    expect(zOptionalMoney().parse(undefined)).toBeNull();
    expect(zOptionalMoney().parse('5')).toBe('5.00');
  });

  it('zPercent and zQuantity', () => {
    expect(zPercent().parse('12,5')).toBe('12.50');
    expect(issue(zPercent().safeParse('101'))).toBe('ERROR_PERCENT_RANGE');
    expect(issue(zPercent().safeParse(-1))).toBe('ERROR_PERCENT_RANGE');
    expect(zPercent({ max: 1000 }).parse(250)).toBe('250.00');
    expect(zQuantity().parse('2,5')).toBe('2.500');
    expect(issue(zQuantity().safeParse('0'))).toBe('ERROR_NEGATIVE_AMOUNT');
    expect(issue(zQuantity().safeParse('1.2345'))).toBe('ERROR_INVALID_VALUE');
  });
});
