import { describe, expect, it } from 'vitest';
import { isAppError } from '~/core/errors/app-error';
import { monthOf, monthsOf, periodDays, periodError, reportPeriod, weekOf } from './report-period';

describe('[reports] report period', () => {
  it.each([
    ['2026-01-01', '2026-01-01', 1],
    ['2026-01-01', '2026-12-31', 365],
    ['2024-01-01', '2024-12-31', 366],
    ['2026-03-28', '2026-03-30', 3],
  ])('%s – %s holds %i days', (from, to, days) => {
    expect(periodDays(from, to)).toBe(days);
  });

  it.each([
    ['2026-01-01', '2026-01-31', null],
    ['2024-01-01', '2024-12-31', null],
    ['2026-01-01', '2027-01-01', null],
    ['2026-01-01', '2027-01-02', 'ERROR_REPORT_PERIOD_TOO_LONG'],
    ['2026-02-01', '2026-01-31', 'ERROR_REPORT_PERIOD_REVERSED'],
  ])('%s – %s: %s', (from, to, error) => {
    expect(periodError(from, to)).toBe(error);
  });

  it.each([
    ['2026-03-04', '2026-03-02', '2026-03-08'], // a Wednesday
    ['2026-03-02', '2026-03-02', '2026-03-08'], // Monday
    ['2026-03-08', '2026-03-02', '2026-03-08'], // Sunday
    ['2027-01-01', '2026-12-28', '2027-01-03'], // across New Year
  ])('the week of %s is %s – %s', (today, from, to) => {
    expect(weekOf(today)).toEqual({ from, to });
  });

  it.each([
    ['2026-02-14', '2026-02-01', '2026-02-28'],
    ['2024-02-29', '2024-02-01', '2024-02-29'],
    ['2026-12-31', '2026-12-01', '2026-12-31'],
  ])('the month of %s is %s – %s', (today, from, to) => {
    expect(monthOf(today)).toEqual({ from, to });
  });

  it('lists the months a period touches', () => {
    expect(monthsOf({ from: '2025-11-15', to: '2026-02-01' })).toEqual(['2025-11', '2025-12', '2026-01', '2026-02']);
    expect(monthsOf({ from: '2026-03-01', to: '2026-03-31' })).toEqual(['2026-03']);
  });

  it('fills a missing end from the default period and refuses a bad one on endTime', () => {
    const fallback = { from: '2026-03-01', to: '2026-03-31' };
    expect(reportPeriod({}, fallback)).toEqual(fallback);
    expect(reportPeriod({ startTime: '', endTime: '' }, fallback)).toEqual(fallback);
    expect(reportPeriod({ startTime: '2026-03-10' }, fallback)).toEqual({ from: '2026-03-10', to: '2026-03-31' });
    const refused = (raw: unknown) => {
      try {
        reportPeriod(raw, fallback);
      } catch (e) {
        if (isAppError(e)) return [e.status, e.details?.fields];
      }
      return null;
    };
    expect(refused({ startTime: '2025-01-01', endTime: '2026-03-31' })).toEqual([
      400,
      { endTime: ['ERROR_REPORT_PERIOD_TOO_LONG'] },
    ]);
    expect(refused({ startTime: '2026-04-01' })).toEqual([400, { endTime: ['ERROR_REPORT_PERIOD_REVERSED'] }]);
    expect(refused({ startTime: '2026-02-30' })).toEqual([400, { startTime: ['ERROR_INVALID_DATE'] }]);
  });
});
