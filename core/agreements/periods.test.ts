import { describe, expect, it } from 'vitest';
import { AGREEMENT_INTERVALS, type AgreementInterval } from './agreement-constants';
import {
  duePeriods,
  firstPeriodStart,
  generationDate,
  isPeriodStart,
  nextPeriodStart,
  periodEnd,
  periodLabel,
  periodsGeneratedBetween,
  weekOf,
} from './periods';

describe('[agreements] period arithmetic', () => {
  // every interval: the next start and the last day from a start in a leap February
  it.each<[AgreementInterval, string, string, string]>([
    ['month_1', '2028-02-01', '2028-03-01', '2028-02-29'],
    ['month_2', '2028-01-01', '2028-03-01', '2028-02-29'],
    ['month_3', '2027-12-01', '2028-03-01', '2028-02-29'],
    ['month_4', '2027-11-01', '2028-03-01', '2028-02-29'],
    ['month_5', '2027-10-01', '2028-03-01', '2028-02-29'],
    ['month_6', '2027-09-01', '2028-03-01', '2028-02-29'],
    ['month_18', '2026-09-01', '2028-03-01', '2028-02-29'],
    ['year_1', '2027-03-01', '2028-03-01', '2028-02-29'],
    ['year_2', '2026-03-01', '2028-03-01', '2028-02-29'],
    ['year_3', '2025-03-01', '2028-03-01', '2028-02-29'],
    ['year_4', '2024-03-01', '2028-03-01', '2028-02-29'],
    ['quarter', '2027-10-01', '2028-01-01', '2027-12-31'],
    ['half_year', '2028-01-01', '2028-07-01', '2028-06-30'],
  ])('%s from %s: next %s, ends %s', (interval, start, next, end) => {
    expect(nextPeriodStart(interval, start)).toBe(next);
    expect(periodEnd(interval, start)).toBe(end);
  });

  it('covers every interval of the spec in the table above', () => {
    expect(AGREEMENT_INTERVALS).toHaveLength(13);
  });

  it.each<[number, string, string]>([
    // clamped to the month's length; 0 is the last day
    [31, '2027-02-01', '2027-02-28'],
    [31, '2028-02-01', '2028-02-29'],
    [30, '2028-02-01', '2028-02-29'],
    [29, '2100-02-01', '2100-02-28'], // 2100 is no leap year
    [29, '2000-02-01', '2000-02-29'], // 2000 is
    [31, '2027-03-01', '2027-03-31'],
    [31, '2027-04-01', '2027-04-30'],
    [0, '2027-04-01', '2027-04-30'],
    [0, '2027-02-01', '2027-02-28'],
    [0, '2028-02-01', '2028-02-29'],
    [0, '2027-12-01', '2027-12-31'],
    [1, '2027-06-01', '2027-06-01'],
    [15, '2027-06-01', '2027-06-15'],
  ])('generation day %i of the period starting %s is %s', (day, start, expected) => {
    expect(generationDate(day, start)).toBe(expected);
  });

  it('does not drift after a short month: the 31st, then 28 February, then the 31st again', () => {
    const periods = duePeriods('month_1', 31, '2027-01-01', '2027-04-30');
    expect(periods.map((p) => p.generateOn)).toEqual(['2027-01-31', '2027-02-28', '2027-03-31', '2027-04-30']);
  });

  it.each<[AgreementInterval, string, boolean]>([
    ['quarter', '2027-01-01', true],
    ['quarter', '2027-04-01', true],
    ['quarter', '2027-07-01', true],
    ['quarter', '2027-10-01', true],
    ['quarter', '2027-02-01', false],
    ['quarter', '2027-04-02', false],
    ['half_year', '2027-07-01', true],
    ['half_year', '2027-04-01', false],
    ['month_3', '2027-02-01', true],
    ['year_1', '2027-08-01', true],
    ['month_1', '2027-08-15', false],
  ])('%s can start on %s: %s', (interval, date, ok) => {
    expect(isPeriodStart(interval, date)).toBe(ok);
  });

  it.each<[AgreementInterval, string, string]>([
    ['month_1', '2027-03-01', '2027-03-01'],
    ['month_1', '2027-03-15', '2027-04-01'],
    ['month_1', '2027-12-02', '2028-01-01'],
    ['quarter', '2027-02-15', '2027-04-01'],
    ['quarter', '2027-10-01', '2027-10-01'],
    ['quarter', '2027-10-02', '2028-01-01'],
    ['half_year', '2027-02-01', '2027-07-01'],
    ['half_year', '2027-07-02', '2028-01-01'],
    ['year_2', '2027-05-20', '2027-06-01'],
  ])('%s: the first period on or after %s starts %s', (interval, date, start) => {
    expect(firstPeriodStart(interval, date)).toBe(start);
  });

  it('catches up every missed period up to the day, each exactly once, in order', () => {
    const periods = duePeriods('quarter', 1, '2026-01-01', '2026-11-25');
    expect(periods).toEqual([
      { from: '2026-01-01', to: '2026-03-31', generateOn: '2026-01-01' },
      { from: '2026-04-01', to: '2026-06-30', generateOn: '2026-04-01' },
      { from: '2026-07-01', to: '2026-09-30', generateOn: '2026-07-01' },
      { from: '2026-10-01', to: '2026-12-31', generateOn: '2026-10-01' },
    ]);
    // a period whose day has not come is not due; on its day it is
    expect(duePeriods('month_1', 0, '2026-11-01', '2026-11-29')).toEqual([]);
    expect(duePeriods('month_1', 0, '2026-11-01', '2026-11-30')).toHaveLength(1);
  });

  it('multi-year intervals span leap days and keep the month', () => {
    expect(duePeriods('year_4', 29, '2024-02-01', '2032-12-31').map((p) => p.generateOn)).toEqual([
      '2024-02-29',
      '2028-02-29',
      '2032-02-29',
    ]);
    expect(duePeriods('month_18', 31, '2027-01-01', '2029-12-31').map((p) => [p.from, p.to])).toEqual([
      ['2027-01-01', '2028-06-30'],
      ['2028-07-01', '2029-12-31'],
    ]);
    expect(duePeriods('year_3', 1, '2026-03-01', '2032-03-01').map((p) => p.to)).toEqual([
      '2029-02-28',
      '2032-02-29',
      '2035-02-28',
    ]);
  });

  it('lists the periods generated in a window (the scheduled view)', () => {
    expect(
      periodsGeneratedBetween('half_year', 15, '2026-01-01', '2026-06-01', '2027-12-31').map((p) => p.generateOn),
    ).toEqual(['2026-07-15', '2027-01-15', '2027-07-15']);
  });

  it.each<[AgreementInterval, string, ReturnType<typeof periodLabel>]>([
    ['month_1', '2026-11-01', { kind: 'month', year: 2026, month: 11 }],
    ['quarter', '2026-10-01', { kind: 'quarter', year: 2026, quarter: 4 }],
    ['month_3', '2026-04-01', { kind: 'quarter', year: 2026, quarter: 2 }],
    ['month_3', '2026-05-01', { kind: 'range', from: '2026-05-01', to: '2026-07-31' }],
    ['half_year', '2026-07-01', { kind: 'half', year: 2026, half: 2 }],
    ['year_1', '2027-01-01', { kind: 'year', year: 2027 }],
    ['year_1', '2027-03-01', { kind: 'range', from: '2027-03-01', to: '2028-02-29' }],
  ])('%s from %s is labelled %j', (interval, start, label) => {
    expect(periodLabel(interval, start)).toEqual(label);
  });

  it.each<[string, number, number]>([
    // 2026 has 53 ISO weeks: 31 December and 1–3 January 2027 are week 53 of 2026
    ['2026-12-31', 2026, 53],
    ['2027-01-01', 2026, 53],
    ['2027-01-03', 2026, 53],
    ['2027-01-04', 2027, 1],
    // 2020 too; 2021's first days belong to it
    ['2021-01-01', 2020, 53],
    // 2025 has 52: its 29 December is week 1 of 2026
    ['2025-12-29', 2026, 1],
    ['2032-12-31', 2032, 53],
  ])('the service visit generated %s is planned in week %i-%i', (date, year, week) => {
    expect(weekOf(date)).toEqual({ year, week });
  });
});
