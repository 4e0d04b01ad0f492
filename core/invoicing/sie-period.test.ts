import { describe, expect, it } from 'vitest';
import { isIsoDay, lastDayOfPeriod, monthOf, siePeriodError } from './sie-period';

/** The SIE export's period (issue 15 item 3): at most 12 months, never reversed, this month by default. */
describe('[invoicing] SIE export period', () => {
  it.each([
    ['2026-01-01', '2026-12-31', null],
    ['2026-01-01', '2027-01-01', 'SIE_PERIOD_TOO_LONG'],
    ['2026-01-15', '2027-01-14', null],
    ['2026-01-15', '2027-01-15', 'SIE_PERIOD_TOO_LONG'],
    ['2024-02-29', '2025-02-28', null],
    ['2026-11-30', '2026-11-01', 'SIE_PERIOD_REVERSED'],
    ['2026-11-01', '2026-11-01', null],
  ])('%s – %s: %s', (from, to, error) => {
    expect(siePeriodError(from, to)).toBe(error);
  });

  it('knows a real day, the last day of a period and the month of a day', () => {
    expect([isIsoDay('2026-02-28'), isIsoDay('2026-02-29'), isIsoDay('2028-02-29'), isIsoDay('2026-1-01')]).toEqual([
      true,
      false,
      true,
      false,
    ]);
    expect(lastDayOfPeriod('2026-03-01')).toBe('2027-02-28');
    expect(monthOf('2026-02-14')).toEqual({ from: '2026-02-01', to: '2026-02-28' });
    expect(monthOf('2028-02-29')).toEqual({ from: '2028-02-01', to: '2028-02-29' });
    expect(monthOf('2026-12-31')).toEqual({ from: '2026-12-01', to: '2026-12-31' });
  });
});
