import { describe, expect, it } from 'vitest';
import { parsePeriod, periodRange } from './dashboard-period';

describe('[dashboard] periods', () => {
  it.each([
    ['12m', '2026-11-20', '2025-12-01', 12, '2025-12-01'],
    ['year', '2026-11-20', '2026-01-01', 11, '2026-01-01'],
    ['2m', '2026-11-20', '2026-10-01', 2, '2026-10-01'],
    // early January: the year is 3 days old, the lead time still looks back 10 days
    ['year', '2027-01-03', '2027-01-01', 1, '2026-12-24'],
    // 12 months from the 1st reach back more than a year on the 31st: held to 365 days
    ['12m', '2026-12-31', '2026-01-01', 12, '2026-01-01'],
    ['12m', '2028-12-31', '2028-01-01', 12, '2028-01-01'],
    ['2m', '2026-03-01', '2026-02-01', 2, '2026-02-01'],
  ] as const)('%s on %s starts %s with %i months, lead time from %s', (period, today, from, months, leadFrom) => {
    const r = periodRange(period, today);
    expect(r.from).toBe(from);
    expect(r.months).toHaveLength(months);
    expect(r.leadFrom).toBe(leadFrom);
    expect(r.to).toBe(today);
  });

  it('reads the period from the address, the last 12 months unless it is one of the three', () => {
    expect(parsePeriod('year')).toBe('year');
    expect(parsePeriod('2m')).toBe('2m');
    expect(parsePeriod(null)).toBe('12m');
    expect(parsePeriod('all')).toBe('12m');
  });
});
