import { describe, expect, it } from 'vitest';
import { compensationAmount, hasTwoDecimals, totalAmount, type CompensationTagRule } from './compensation.rules';

const tag = (type: CompensationTagRule['type'], unitPrice: number | null = null): CompensationTagRule => ({
  type,
  unitPrice,
});

describe('[time reports] what a compensation comes to (spec sections 3 and 9)', () => {
  it.each<[string, ReturnType<typeof compensationAmount>, ReturnType<typeof compensationAmount>]>([
    [
      'distance at 2.50 per km (821): km × price',
      compensationAmount(tag('distance', 2.5), { quantity: 123.4 }),
      { ok: true, quantity: 123.4, amount: 308.5 },
    ],
    [
      'the amount sent does not count when the tag has a price',
      compensationAmount(tag('distance', 1.2), { quantity: 10, amount: 999 }),
      { ok: true, quantity: 10, amount: 12 },
    ],
    [
      'rounded to öre, half up',
      compensationAmount(tag('distance', 2.25), { quantity: 0.3 }),
      { ok: true, quantity: 0.3, amount: 0.68 },
    ],
    [
      'travel at 290 per day (811): days × price',
      compensationAmount(tag('travel', 290), { quantity: 3 }),
      { ok: true, quantity: 3, amount: 870 },
    ],
    [
      'half days (8113 at 145)',
      compensationAmount(tag('travel', 145), { quantity: 1.5 }),
      { ok: true, quantity: 1.5, amount: 217.5 },
    ],
    [
      'a tag without a price keeps the amount entered',
      compensationAmount(tag('travel'), { quantity: 2, amount: 412.5 }),
      { ok: true, quantity: 2, amount: 412.5 },
    ],
    [
      'a tag without a price and no amount: 0, priced by payroll',
      compensationAmount(tag('distance'), { quantity: 40 }),
      { ok: true, quantity: 40, amount: 0 },
    ],
    [
      'distance needs kilometres',
      compensationAmount(tag('distance', 2.5), {}),
      { ok: false, fields: { quantity: ['ERROR_REQUIRED_FIELD'] } },
    ],
    [
      'travel needs more than 0 days',
      compensationAmount(tag('travel', 290), { quantity: 0 }),
      { ok: false, fields: { quantity: ['ERROR_REQUIRED_FIELD'] } },
    ],
    [
      'an expense is its amount, quantity 1',
      compensationAmount(tag('expense'), { amount: 249.9 }),
      { ok: true, quantity: 1, amount: 249.9 },
    ],
    [
      'an expense needs an amount',
      compensationAmount(tag('expense'), { quantity: 2 }),
      { ok: false, fields: { amount: ['ERROR_REQUIRED_FIELD'] } },
    ],
    [
      'an expense of 0 is refused',
      compensationAmount(tag('expense'), { amount: 0 }),
      { ok: false, fields: { amount: ['ERROR_REQUIRED_FIELD'] } },
    ],
  ])('%s', (_name, got, want) => {
    expect(got).toEqual(want);
  });

  it('sums in öre and knows two decimals', () => {
    expect(totalAmount([{ amount: 0.1 }, { amount: 0.2 }, { amount: 100 }])).toBe(100.3);
    expect(hasTwoDecimals(1.25)).toBe(true);
    expect(hasTwoDecimals(1.255)).toBe(false);
  });
});
