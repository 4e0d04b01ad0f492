import { describe, expect, it } from 'vitest';
import type { ErpInvoice, ErpInvoiceRow } from '~/core/extension-points/erp-provider';
import { formatDecimal, toDecimal } from '~/core/pricing';
import { sampleInvoice } from '~/tests/erp-contract/erp-contract';
import {
  discountFraction,
  figuresDiffer,
  fitRow,
  planRows,
  RowNotSendable,
  rowsWithFee,
  vismaAmount,
} from './draft-rows';

/*
 * Ordo's rows in Visma eEkonomi's arithmetic (issue 31 items 3 and 4), worked out by hand: a
 * quantity of two decimals, a unit price of two, Visma's amount the row's total to the öre.
 */

const d = (v: string | number) => toDecimal(v);
const row = (over: Partial<ErpInvoiceRow>): ErpInvoiceRow => ({
  ...sampleInvoice('1').rows[1]!,
  discount: null,
  ...over,
});

describe('[erp] visma-e rows: fitting a row', () => {
  it.each([
    // amount, price, discount, target → quantity, price
    ['2', '650.00', '0', '1300.00', '2.00', '650.00'],
    ['1.125', '40.00', '0', '45.00', '1.13', '39.82'],
    // of the prices that reach the total, the one nearest the row's own
    ['0.125', '650.00', '0', '81.25', '0.13', '625.03'],
    ['0.333', '600.00', '0', '199.80', '0.33', '605.44'],
    ['3', '200.00', '0.1', '540.00', '3.00', '200.00'],
  ])('%s × %s less %s is %s: sent as %s × %s', (amount, price, discount, target, q, p) => {
    const fitted = fitRow(amount, price, d(discount), d(target));
    expect(fitted && [formatDecimal(fitted.quantity), formatDecimal(fitted.unitPrice)]).toEqual([q, p]);
    expect(formatDecimal(vismaAmount(fitted!))).toBe(target);
  });

  it('answers null when no two-decimal price reaches the total: 1.125 × 45.00 = 50.63', () => {
    expect(fitRow('1.125', '45.00', d(0), d('50.63'))).toBeNull();
  });

  it('turns discounts into Visma fractions: a percentage, and an amount per unit as the fraction of the row', () => {
    expect(formatDecimal(discountFraction(row({ discount: { type: 'PERCENTAGE', value: '12.5' } })), 4)).toBe('0.1250');
    const regular = row({ amount: '4', price: '100.00', discount: { type: 'REGULAR', value: '5' }, total: '380.00' });
    expect(formatDecimal(discountFraction(regular), 4)).toBe('0.0500');
    expect(formatDecimal(discountFraction(row({})), 4)).toBe('0.0000');
  });
});

describe('[erp] visma-e rows: a whole invoice', () => {
  const invoiceOf = (rows: ErpInvoiceRow[], over: Partial<ErpInvoice> = {}): ErpInvoice => ({
    ...sampleInvoice('2'),
    rows,
    fee: null,
    ...over,
  });

  it('puts the öre a row cannot reach on a row of the same rate that can', () => {
    // 1.125 × 45.00 = 50.63 reaches 50.62 or 50.64; the fee (a quantity of 1) takes the öre
    const rows = [
      row({ amount: '1.125', price: '45.00', total: '50.63' }),
      row({ kind: 'fee', amount: '1', price: '40.00', total: '40.00' }),
    ];
    const plan = planRows(invoiceOf(rows), rows, false);
    const amounts = plan.map((p) =>
      formatDecimal(
        vismaAmount({ quantity: d(p.Quantity), unitPrice: d(p.UnitPrice), discount: d(p.DiscountPercentage) }),
      ),
    );
    expect(amounts.reduce((s, a) => s + Number(a), 0).toFixed(2)).toBe('90.63');
    expect(plan[0]!.note).toBe('1.125 × 45.00');
    expect(plan[1]!.note).toBeNull();
  });

  it('refuses a row no price can send when no other row of its rate can take the difference', () => {
    const rows = [row({ amount: '1.125', price: '45.00', total: '50.63', vatPercent: '12' })];
    expect(() => planRows(invoiceOf(rows), rows, false)).toThrow(RowNotSendable);
  });

  it("with prices including VAT, makes each rate sum to Ordo's net plus Ordo's VAT of it", () => {
    // 3 × 99.99 = 299.97 and a fee of 40.00 at 25 %: VAT 84.99, so 424.96 with VAT
    const rows = [
      row({ amount: '3', price: '99.99', total: '299.97' }),
      row({ kind: 'fee', amount: '1', price: '40.00', total: '40.00' }),
    ];
    const plan = planRows(invoiceOf(rows), rows, true);
    const gross = plan
      .map((p) =>
        vismaAmount({ quantity: d(p.Quantity), unitPrice: d(p.UnitPrice), discount: d(p.DiscountPercentage) }),
      )
      .reduce((s, a) => s + Number(formatDecimal(a)), 0);
    expect(gross.toFixed(2)).toBe('424.96');
  });

  it('adds the fee as a row when the invoice gives it only as its figure, at the main rate', () => {
    const invoice = sampleInvoice('3');
    const rows = rowsWithFee(invoice);
    expect(rows).toHaveLength(3);
    expect(rows[2]).toMatchObject({ kind: 'fee', price: '40.00', total: '40.00', vatPercent: '25' });
    expect(rowsWithFee({ ...invoice, rows })).toBe(rows);
  });

  it('compares Visma’s figures with the invoice’s before the öre rounding', () => {
    const invoice = sampleInvoice('4');
    expect(figuresDiffer({ TotalAmount: 2350, TotalRoundings: 0, TotalVatAmount: 470 }, invoice)).toBeNull();
    // a company that rounds to kronor: 2349.60 + 0.40; Ordo's 2350.00 before rounding is not it
    expect(figuresDiffer({ TotalAmount: 2350, TotalRoundings: 0.4, TotalVatAmount: 470 }, invoice)).toMatch(
      /computed 2349\.60 with 470\.00 VAT.*the invoice is 2350\.00/,
    );
    expect(
      figuresDiffer({ TotalAmount: 2820, TotalRoundings: 0, TotalVatAmount: 564, IncludesVat: false }, invoice),
    ).toMatch(/computed 2820\.00 with 564\.00 VAT \(IncludesVat false\); the invoice is 2350\.00 with 470\.00 VAT/);
  });
});
