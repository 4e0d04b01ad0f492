import { describe, expect, it } from 'vitest';
import { invoiceFigures, type InvoiceInput, type InvoiceLineInput } from './invoice-math';
import { greenPercent, reductionCaps, reductionPercent } from './tax-reduction';

/**
 * Invoices worked out by hand (issue 14: VAT mixes, reverse VAT, ROT and RUT with caps, rounding).
 * Each case states the arithmetic in its comment; the code must arrive at the same öre.
 */
const line = (
  amount: string,
  price: string,
  vat: InvoiceLineInput['vatPercent'] = '25',
  extra: Partial<InvoiceLineInput> = {},
) => ({ amount, price, vatPercent: vat, ...extra }) satisfies InvoiceLineInput;
const invoice = (lines: InvoiceLineInput[], extra: Partial<InvoiceInput> = {}): InvoiceInput => ({
  lines,
  reverseVat: false,
  taxReduction: 'none',
  reductionDay: '2026-03-31',
  ...extra,
});

describe('[invoicing] VAT, discounts and rounding', () => {
  it.each([
    {
      name: 'four VAT rates and a text row',
      // 2500.00 @25 → 625.00; 299.70 @12 → 35.964 → 35.96; 45.50 @6 → 2.73; 100.00 @0
      // net 2945.20, VAT 663.69, gross 3608.89 → 3609.00 (+0.11)
      input: invoice([
        line('2', '1250'),
        line('3', '99.90', '12'),
        line('1', '45.50', '6'),
        line('1', '100', '0'),
        line('0', '0', '25', { isText: true }),
      ]),
      net: '2945.20',
      vat: [
        { percent: '25', base: '2500.00', vat: '625.00' },
        { percent: '12', base: '299.70', vat: '35.96' },
        { percent: '6', base: '45.50', vat: '2.73' },
        { percent: '0', base: '100.00', vat: '0.00' },
      ],
      vatTotal: '663.69',
      gross: '3608.89',
      rounding: '0.11',
      total: '3609.00',
    },
    {
      name: 'percentage and amount discounts',
      // 10 × 89.50 = 895.00 − 10 % = 805.50; 4 × 250 = 1000 − 4 × 25 = 900.00; net 1705.50
      // VAT 426.375 → 426.38 (half away from zero); gross 2131.88 → 2132.00 (+0.12)
      input: invoice([
        line('10', '89.50', '25', { discount: { type: 'PERCENTAGE', value: '10.00' } }),
        line('4', '250', '25', { discount: { type: 'REGULAR', value: '25.00' } }),
      ]),
      net: '1705.50',
      vat: [{ percent: '25', base: '1705.50', vat: '426.38' }],
      vatTotal: '426.38',
      gross: '2131.88',
      rounding: '0.12',
      total: '2132.00',
    },
    {
      name: 'rounding down to the krona',
      // 100.36 @25 → 25.09; gross 125.45 → 125.00 (−0.45)
      input: invoice([line('1', '100.36')]),
      net: '100.36',
      vat: [{ percent: '25', base: '100.36', vat: '25.09' }],
      vatTotal: '25.09',
      gross: '125.45',
      rounding: '-0.45',
      total: '125.00',
    },
    {
      name: 'half an öre-krona rounds up',
      // 100.40 @25 → 25.10; gross 125.50 → 126.00 (+0.50)
      input: invoice([line('1', '100.40')]),
      net: '100.40',
      vat: [{ percent: '25', base: '100.40', vat: '25.10' }],
      vatTotal: '25.10',
      gross: '125.50',
      rounding: '0.50',
      total: '126.00',
    },
    {
      name: 'reverse VAT: no VAT at any rate, and no ROT',
      // 2500.00 + 45.50 = 2545.50, VAT 0 → 2546.00 (+0.50)
      input: invoice([line('2', '1250', '25', { work: 'labour' }), line('1', '45.50', '6')], {
        reverseVat: true,
        taxReduction: 'ROT',
      }),
      net: '2545.50',
      vat: [{ percent: '0', base: '2545.50', vat: '0.00' }],
      vatTotal: '0.00',
      gross: '2545.50',
      rounding: '0.50',
      total: '2546.00',
    },
    {
      name: 'an empty invoice',
      input: invoice([]),
      net: '0.00',
      vat: [],
      vatTotal: '0.00',
      gross: '0.00',
      rounding: '0.00',
      total: '0.00',
    },
  ])('$name', ({ input, net, vat, vatTotal, gross, rounding, total }) => {
    const f = invoiceFigures(input);
    expect(f.net).toBe(net);
    expect(f.vat).toEqual(vat);
    expect(f.vatTotal).toBe(vatTotal);
    expect(f.gross).toBe(gross);
    expect(f.rounding).toBe(rounding);
    expect(f.total).toBe(total);
    expect(f.taxReduction).toBeNull();
    expect(f.toPay).toBe(total);
  });

  it('applies 0 % to every row under reverse VAT', () => {
    const f = invoiceFigures(invoice([line('1', '10'), line('1', '10', '12')], { reverseVat: true }));
    expect(f.lines.map((l) => l.vatPercent)).toEqual(['0', '0']);
    expect(f.reverseVat).toBe(true);
  });
});

describe('[invoicing] ROT, RUT and green technology', () => {
  const labour = (hours: string, rate: string) => line(hours, rate, '25', { work: 'labour' });
  const material = (amount: string, price: string) => line(amount, price, '25', { work: 'material' });

  it.each([
    {
      name: 'ROT in 2026: 30 % of the labour with VAT',
      // labour 8 × 650 = 5200 → 6500 with VAT → 1950; material 4000 not reduced
      // total 9200 + 2300 = 11500; to pay 11500 − 1950 = 9550
      input: invoice([labour('8', '650'), material('1', '4000')], { taxReduction: 'ROT', reductionDay: '2026-02-27' }),
      reduction: { kind: 'ROT', base: '6500.00', computed: '1950.00', amount: '1950.00', capped: false },
      total: '11500.00',
      toPay: '9550.00',
    },
    {
      name: 'ROT paid in June 2025: the temporary 50 %',
      input: invoice([labour('8', '650'), material('1', '4000')], { taxReduction: 'ROT', reductionDay: '2025-06-01' }),
      reduction: { kind: 'ROT', base: '6500.00', computed: '3250.00', amount: '3250.00', capped: false },
      total: '11500.00',
      toPay: '8250.00',
    },
    {
      name: 'ROT rounded down to whole kronor',
      // 333.33 + 83.3325 VAT = 416.66 → 30 % = 124.998 → 124; total 416.66 → 417 (+0.34); to pay 293
      input: invoice([labour('1', '333.33')], { taxReduction: 'ROT' }),
      reduction: { kind: 'ROT', base: '416.66', computed: '124.00', amount: '124.00', capped: false },
      total: '417.00',
      toPay: '293.00',
    },
    {
      name: 'ROT capped at 50,000 for one person',
      // 200 h × 800 = 160,000 → 200,000 with VAT → 60,000 > 50,000
      input: invoice([labour('200', '800')], { taxReduction: 'ROT' }),
      reduction: { kind: 'ROT', base: '200000.00', computed: '60000.00', amount: '50000.00', capped: true },
      total: '200000.00',
      toPay: '150000.00',
    },
    {
      name: 'ROT for two persons: 100,000 of room',
      input: invoice([labour('200', '800')], { taxReduction: 'ROT', persons: 2 }),
      reduction: { kind: 'ROT', base: '200000.00', computed: '60000.00', amount: '60000.00', capped: false },
      total: '200000.00',
      toPay: '140000.00',
    },
    {
      name: 'ROT with 45,000 already used this year',
      input: invoice([labour('200', '800')], { taxReduction: 'ROT', used: { rot: '45000' } }),
      reduction: { kind: 'ROT', base: '200000.00', computed: '60000.00', amount: '5000.00', capped: true },
      total: '200000.00',
      toPay: '195000.00',
    },
    {
      name: 'RUT: 50 % of the labour',
      // 4 × 500 = 2000 → 2500 with VAT → 1250
      input: invoice([labour('4', '500')], { taxReduction: 'RUT' }),
      reduction: { kind: 'RUT', base: '2500.00', computed: '1250.00', amount: '1250.00', capped: false },
      total: '2500.00',
      toPay: '1250.00',
    },
    {
      name: 'RUT within what ROT left of the combined 75,000',
      // 100,000 computed; RUT cap 75,000 but 50,000 of ROT used → 25,000 left together
      input: invoice([labour('200', '800')], { taxReduction: 'RUT', used: { rot: '50000' } }),
      reduction: { kind: 'RUT', base: '200000.00', computed: '100000.00', amount: '25000.00', capped: true },
      total: '200000.00',
      toPay: '175000.00',
    },
    {
      name: 'green technology: solar 15 % of labour and material, a charger 50 %',
      // solar 80,000 + 20,000 → 125,000 with VAT → 18,750; charger 12,000 → 15,000 → 7,500; cable not green
      // total 112,500 + 28,125 = 140,625; to pay 140,625 − 26,250 = 114,375
      input: invoice(
        [
          material('1', '80000'),
          labour('1', '20000'),
          line('1', '12000', '25', { green: 'charger' }),
          material('1', '500'),
        ].map((l, i) => (i < 2 ? { ...l, green: 'solar' as const } : l)),
        { taxReduction: 'green', reductionDay: '2026-03-01' },
      ),
      reduction: { kind: 'green', base: '140000.00', computed: '26250.00', amount: '26250.00', capped: false },
      total: '140625.00',
      toPay: '114375.00',
    },
    {
      name: 'green technology in 2024: solar at 20 %, capped by what is used',
      // 125,000 × 20 % = 25,000 + 7,500 = 32,500; 40,000 of 50,000 used → 10,000
      input: invoice(
        [
          { ...material('1', '80000'), green: 'solar' as const },
          { ...labour('1', '20000'), green: 'solar' as const },
          line('1', '12000', '25', { green: 'charger' }),
        ],
        { taxReduction: 'green', reductionDay: '2024-06-01', used: { green: '40000' } },
      ),
      reduction: { kind: 'green', base: '140000.00', computed: '32500.00', amount: '10000.00', capped: true },
      total: '140000.00',
      toPay: '130000.00',
    },
    {
      name: 'ROT on an invoice without labour',
      input: invoice([material('1', '1000')], { taxReduction: 'ROT' }),
      reduction: { kind: 'ROT', base: '0.00', computed: '0.00', amount: '0.00', capped: false },
      total: '1250.00',
      toPay: '1250.00',
    },
  ])('$name', ({ input, reduction, total, toPay }) => {
    const f = invoiceFigures(input);
    expect(f.taxReduction).toEqual(reduction);
    expect(f.total).toBe(total);
    expect(f.toPay).toBe(toPay);
  });

  it('takes the rates and caps in force on the day', () => {
    expect(reductionPercent('ROT', '2025-05-11')).toBe('30');
    expect(reductionPercent('ROT', '2025-05-12')).toBe('50');
    expect(reductionPercent('ROT', '2025-12-31')).toBe('50');
    expect(reductionPercent('ROT', '2026-01-01')).toBe('30');
    expect(reductionPercent('RUT', '2026-06-01')).toBe('50');
    expect(greenPercent('solar', '2025-06-30')).toBe('20');
    expect(greenPercent('solar', '2025-07-01')).toBe('15');
    expect(greenPercent('storage', '2026-01-01')).toBe('50');
    expect(reductionCaps('2024-09-01').rot).toBe('75000');
    expect(reductionCaps('2026-01-01')).toEqual({ rot: '50000', rut: '75000', rotRut: '75000', green: '50000' });
  });
});
