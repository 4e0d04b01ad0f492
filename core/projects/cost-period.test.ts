import { describe, expect, it } from 'vitest';
import { costPeriodStart, lastMonths } from './cost-period';

describe('costPeriodStart', () => {
  it.each([
    // [today, reset day, period start]
    ['2026-05-20', 1, '2026-05-01'],
    ['2026-05-01', 1, '2026-05-01'],
    ['2026-05-20', 20, '2026-05-20'],
    ['2026-05-19', 20, '2026-04-20'],
    ['2026-05-21', 20, '2026-05-20'],
    // January before the reset day: December of the year before
    ['2026-01-05', 10, '2025-12-10'],
    ['2026-01-31', 31, '2026-01-31'],
    ['2026-01-30', 31, '2025-12-31'],
    // day 31 in months of 30 days: their last day
    ['2026-04-30', 31, '2026-04-30'],
    ['2026-04-29', 31, '2026-03-31'],
    ['2026-05-01', 31, '2026-04-30'],
    ['2026-07-15', 31, '2026-06-30'],
    // February: 28 days in common years, 29 in leap years (2028, 2000), not in 2100
    ['2027-02-28', 31, '2027-02-28'],
    ['2027-02-27', 31, '2027-01-31'],
    ['2027-03-01', 30, '2027-02-28'],
    ['2027-03-01', 29, '2027-02-28'],
    ['2028-02-28', 29, '2028-01-29'],
    ['2028-02-29', 29, '2028-02-29'],
    ['2028-02-29', 31, '2028-02-29'],
    ['2028-03-15', 30, '2028-02-29'],
    ['2100-02-28', 29, '2100-02-28'],
    ['2100-02-27', 29, '2100-01-29'],
    ['2100-03-10', 31, '2100-02-28'],
    ['2000-02-29', 30, '2000-02-29'],
    ['2000-02-28', 30, '2000-01-30'],
    ['2000-03-01', 31, '2000-02-29'],
    // a March before its reset day goes back to February's (clamped) day
    ['2027-03-30', 31, '2027-02-28'],
    ['2027-03-31', 31, '2027-03-31'],
    // out-of-range days are clamped to 1–31
    ['2026-05-20', 0, '2026-05-01'],
    ['2026-05-20', 40, '2026-04-30'],
  ])('today %s, reset day %i → %s', (today, resetDay, expected) => {
    expect(costPeriodStart(today, resetDay)).toBe(expected);
  });

  it('never starts after today nor more than a month before it', () => {
    for (let day = 1; day <= 31; day++)
      for (const today of ['2028-02-29', '2027-02-28', '2026-12-31', '2026-01-01', '2026-03-01']) {
        const start = costPeriodStart(today, day);
        expect(start <= today).toBe(true);
        const days = (Date.parse(`${today}T00:00:00Z`) - Date.parse(`${start}T00:00:00Z`)) / 86_400_000;
        expect(days).toBeLessThan(31);
      }
  });
});

describe('lastMonths', () => {
  it.each([
    ['2026-05-20', 3, ['2026-03', '2026-04', '2026-05']],
    ['2026-02-01', 3, ['2025-12', '2026-01', '2026-02']],
    ['2026-12-31', 1, ['2026-12']],
  ])('%s, %i months', (today, count, expected) => {
    expect(lastMonths(today, count)).toEqual(expected);
  });

  it('12 months end with the current one', () => {
    const months = lastMonths('2026-01-15', 12);
    expect(months).toHaveLength(12);
    expect(months[0]).toBe('2025-02');
    expect(months[11]).toBe('2026-01');
  });
});
