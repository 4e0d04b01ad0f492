import { describe, expect, it } from 'vitest';
import { addDays, isoDayOfWeek, isoWeek, isoWeekStart, isoWeeksInYear, parsePlainDate } from './iso-week';

describe('isoWeek', () => {
  it.each([
    // [date, ISO year, week]
    ['2020-01-01', 2020, 1],
    ['2020-12-27', 2020, 52],
    ['2020-12-28', 2020, 53],
    ['2020-12-31', 2020, 53],
    ['2021-01-01', 2020, 53],
    ['2021-01-03', 2020, 53],
    ['2021-01-04', 2021, 1],
    ['2021-06-15', 2021, 24],
    ['2022-01-01', 2021, 52],
    ['2022-01-02', 2021, 52],
    ['2022-01-03', 2022, 1],
    ['2024-02-29', 2024, 9],
    ['2024-12-29', 2024, 52],
    ['2024-12-30', 2025, 1],
    ['2025-01-01', 2025, 1],
    ['2025-12-28', 2025, 52],
    ['2025-12-29', 2026, 1],
    ['2026-01-01', 2026, 1],
    ['2026-03-29', 2026, 13], // the Sunday daylight saving starts in Europe
    ['2026-12-31', 2026, 53],
    ['2027-01-01', 2026, 53],
    ['2027-01-03', 2026, 53],
    ['2027-01-04', 2027, 1],
    ['2015-12-31', 2015, 53],
    ['2016-01-03', 2015, 53],
    ['2008-12-29', 2009, 1],
  ] as const)('%s → %i W%i', (iso, year, week) => {
    const [y, m, d] = iso.split('-').map(Number) as [number, number, number];
    expect(isoWeek({ year: y, month: m, day: d })).toEqual({ year, week });
  });

  it('gives every day of a Monday-to-Sunday week the same number', () => {
    const weeks = [4, 5, 6, 7, 8, 9, 10].map((day) => isoWeek({ year: 2021, month: 1, day }));
    expect(new Set(weeks.map((w) => `${w.year}-${w.week}`)).size).toBe(1);
    expect(isoWeek({ year: 2021, month: 1, day: 11 })).toEqual({ year: 2021, week: 2 });
  });
});

describe('isoWeekStart and isoWeeksInYear', () => {
  it.each([
    [2026, 1, '2025-12-29'],
    [2026, 53, '2026-12-28'],
    [2027, 1, '2027-01-04'],
    [2015, 53, '2015-12-28'],
    [2021, 1, '2021-01-04'],
  ] as const)('week %i/%i starts on %s', (year, week, monday) => {
    const d = isoWeekStart(year, week);
    expect(`${d.year}-${String(d.month).padStart(2, '0')}-${String(d.day).padStart(2, '0')}`).toBe(monday);
    expect(isoDayOfWeek(d)).toBe(1);
    expect(isoWeek(d)).toEqual({ year, week });
  });

  it('knows which years have 53 weeks', () => {
    expect([2015, 2020, 2026, 2032].map(isoWeeksInYear)).toEqual([53, 53, 53, 53]);
    expect([2021, 2024, 2025, 2027].map(isoWeeksInYear)).toEqual([52, 52, 52, 52]);
  });

  it('adds days across months and years, and refuses dates that do not exist', () => {
    expect(addDays({ year: 2026, month: 12, day: 30 }, 3)).toEqual({ year: 2027, month: 1, day: 2 });
    expect(addDays({ year: 2024, month: 3, day: 1 }, -1)).toEqual({ year: 2024, month: 2, day: 29 });
    expect(parsePlainDate('2026-02-30')).toBeNull();
    expect(parsePlainDate('2026-02-28')).toEqual({ year: 2026, month: 2, day: 28 });
  });
});
