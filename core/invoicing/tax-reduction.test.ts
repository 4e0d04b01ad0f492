import { describe, expect, it } from 'vitest';
import { splitTaxReduction } from './tax-reduction';

/*
 * The reduction shared between the people asking for it (issue 31 item 1): each one's asked amount
 * is whole kronor, as Skatteverket pays and Fortnox takes an application, and the kronor left over
 * go to the first person.
 */
describe('[invoicing] splitTaxReduction', () => {
  it.each([
    ['1001.00', 2, ['501.00', '500.00']],
    ['1000.00', 2, ['500.00', '500.00']],
    ['1000.00', 3, ['334.00', '333.00', '333.00']],
    ['7.00', 4, ['4.00', '1.00', '1.00', '1.00']],
    ['609.00', 1, ['609.00']],
    ['0.00', 2, ['0.00', '0.00']],
    // a total with öre (never made by invoiceFigures): the öre stay with the first person
    ['1001.50', 2, ['501.50', '500.00']],
  ])('%s between %i people is %j', (total, persons, expected) => {
    const shares = splitTaxReduction(total, persons);
    expect(shares).toEqual(expected);
    // nothing lost or made up
    expect(shares.reduce((s, v) => s + Math.round(Number(v) * 100), 0)).toBe(Math.round(Number(total) * 100));
  });

  it('has no share without a person', () => {
    expect(splitTaxReduction('1001.00', 0)).toEqual([]);
  });
});
