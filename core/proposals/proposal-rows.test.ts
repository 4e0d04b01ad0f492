import { describe, expect, it } from 'vitest';
import { proposalFigures, rowProblems, type ProposalRowValues } from './proposal-rows';

const art = (over: Partial<ProposalRowValues>): ProposalRowValues => ({
  articleId: 'a',
  amount: '1',
  price: '0',
  ...over,
});
const pct = (value: string) => ({ type: 'PERCENTAGE' as const, value });
const off = (value: string) => ({ type: 'REGULAR' as const, value });

describe('[proposals] row arithmetic against hand-computed figures', () => {
  it.each([
    // amount, price, discount → total
    ['2', '1250.50', null, '2501.00'],
    ['3', '100.00', pct('10.00'), '270.00'], // 300 × 0.9
    ['3', '100.00', off('15.00'), '255.00'], // 300 − 15 × 3
    ['0', '999.00', pct('50.00'), '0.00'], // no quantity gives 0
    ['1.5', '33.33', null, '50.00'], // 49.995 rounds half up
    ['4', '19.99', pct('12.50'), '69.97'], // 79.96 × 0.875 = 69.965
  ])('amount %s × price %s with %o is %s', (amount, price, discount, total) => {
    expect(proposalFigures([art({ amount, price, discount })]).rows[0]!.totalPrice).toBe(total);
  });

  it('monthly prices have their own discount and total', () => {
    const f = proposalFigures([
      art({ amount: '2', price: '1000.00', monthlyPrice: '199.00', monthlyDiscount: pct('10.00') }), // 398 × 0.9 = 358.20
      art({ amount: '1', price: '500.00', monthlyPrice: '99.00', monthlyDiscount: off('9.00') }), // 99 − 9 = 90
    ]);
    expect(f.rows.map((r) => r.monthlyTotalPrice)).toEqual(['358.20', '90.00']);
    expect(f.totalMonthlyPrice).toBe('448.20');
    expect(f.totalPrice).toBe('2500.00');
  });

  it('summary rows give running subtotals that reset after each; comments and summaries count for nothing', () => {
    const f = proposalFigures([
      art({ amount: '1', price: '100.00', purchasePrice: '60.00', monthlyPrice: '10.00' }),
      { comment: 'Montage ingår' },
      art({ amount: '2', price: '50.00', purchasePrice: '20.00' }),
      { isSummaryRow: true },
      art({ amount: '1', price: '300.00', purchasePrice: '100.00', discount: pct('10.00') }),
      { isSummaryRow: true },
      { isSummaryRow: true },
    ]);
    expect(f.rows[3]).toMatchObject({
      summarySalesPrice: '200.00',
      summaryPurchasePrice: '100.00',
      summaryMonthlyPrice: '10.00',
    });
    expect(f.rows[5]).toMatchObject({
      summarySalesPrice: '270.00',
      summaryPurchasePrice: '100.00',
      summaryMonthlyPrice: '0.00',
    });
    expect(f.rows[6]).toMatchObject({ summarySalesPrice: '0.00' });
    expect(f.rows[1]!.totalPrice).toBe('0.00');
    expect(f.totalPrice).toBe('470.00');
    expect(f.totalPurchasePrice).toBe('200.00');
    expect(f.margin).toEqual({ amount: '270.00', percent: '57.45' }); // 270 / 470
  });

  it('a row without an article counts for nothing, whatever its price', () => {
    expect(proposalFigures([{ amount: '5', price: '100.00' }]).totalPrice).toBe('0.00');
  });

  it('negative prices count when they are allowed', () => {
    expect(
      proposalFigures([art({ amount: '1', price: '1000.00' }), art({ amount: '1', price: '-250.00' })]).totalPrice,
    ).toBe('750.00');
  });
});

describe('[proposals] row rules', () => {
  const rules = { summaryRows: true, monthlyPrice: true, negativePrices: false };
  it('refuses negative amounts and purchase prices always, negative prices unless enabled', () => {
    expect(rowProblems(art({ amount: '-1', purchasePrice: '-2' }), rules)).toEqual({
      articleAmount: 'AMOUNT_CANT_BE_NEGATIVE',
      articlePurchasePrice: 'AMOUNT_CANT_BE_NEGATIVE',
    });
    expect(rowProblems(art({ price: '-5', monthlyPrice: '-1' }), rules)).toEqual({
      articlePrice: 'ERROR_NEGATIVE_PRICE',
      articleMonthlyPrice: 'ERROR_NEGATIVE_PRICE',
    });
    expect(rowProblems(art({ price: '-5' }), { ...rules, negativePrices: true })).toEqual({});
  });
  it('takes summary rows and monthly prices only when their switches are on', () => {
    expect(rowProblems({ isSummaryRow: true }, { ...rules, summaryRows: false })).toEqual({
      isSummaryRow: 'ERROR_INVALID_VALUE',
    });
    expect(rowProblems(art({ monthlyPrice: '10' }), { ...rules, monthlyPrice: false })).toEqual({
      articleMonthlyPrice: 'ERROR_INVALID_VALUE',
    });
    expect(rowProblems(art({ monthlyPrice: '0' }), { ...rules, monthlyPrice: false })).toEqual({});
  });
});
