import { describe, expect, it } from 'vitest';
import { projectPeriodRange, shiftProjectPeriod } from './project-period';

describe('[projects] the list period holding a date', () => {
  it.each([
    ['month', '2026-02-14', '2026-02-01', '2026-02-28'],
    ['month', '2028-02-29', '2028-02-01', '2028-02-29'],
    ['month', '2100-02-10', '2100-02-01', '2100-02-28'],
    ['month', '2000-02-10', '2000-02-01', '2000-02-29'],
    ['quarter', '2026-01-01', '2026-01-01', '2026-03-31'],
    ['quarter', '2026-06-30', '2026-04-01', '2026-06-30'],
    ['quarter', '2026-11-26', '2026-10-01', '2026-12-31'],
    ['half_year', '2026-06-30', '2026-01-01', '2026-06-30'],
    ['half_year', '2026-07-01', '2026-07-01', '2026-12-31'],
    ['year', '2027-05-05', '2027-01-01', '2027-12-31'],
  ] as const)('%s of %s is %s – %s', (period, date, from, to) => {
    expect(projectPeriodRange(period, date)).toEqual({ from, to });
  });

  it('all has no bounds', () => {
    expect(projectPeriodRange('all', '2026-11-26')).toBeNull();
  });

  it.each([
    ['quarter', '2026-11-26', 1, '2027-02-01'],
    ['quarter', '2026-02-10', -1, '2025-11-01'],
    ['month', '2026-01-31', -1, '2025-12-01'],
    ['half_year', '2026-03-01', 1, '2026-09-01'],
    ['year', '2028-02-29', -1, '2027-02-01'],
  ] as const)('%s from %s, %i step(s): a date in the next period, %s', (period, date, step, expected) => {
    const shifted = shiftProjectPeriod(period, date, step);
    expect(shifted).toBe(expected);
    // the shifted date lies in the neighbouring period
    const here = projectPeriodRange(period, date)!;
    const there = projectPeriodRange(period, shifted)!;
    expect(step > 0 ? there.from > here.to : there.to < here.from).toBe(true);
  });
});
