import { describe, expect, it } from 'vitest';
import {
  addDays,
  addMonths,
  addMonthsToFirst,
  dateInZone,
  dayInZone,
  daysBetween,
  daysInMonth,
  endOfMonth,
  hoursInDay,
  isoDayOfWeek,
  isoWeek,
  isoWeekStart,
  isoWeeksInYear,
  monthInZone,
  parsePlainDate,
  startOfDayInZone,
  startOfIsoWeek,
  tenantDate,
  tenantTimeZone,
  todayInZone,
  wallClockParts,
  weekInZone,
  zonedInstant,
} from './dates';

const STOCKHOLM = 'Europe/Stockholm';

describe('month ends', () => {
  it.each([
    // [date, months, result]
    ['2026-01-31', 1, '2026-02-28'],
    ['2028-01-31', 1, '2028-02-29'], // leap year
    ['2028-02-29', 12, '2029-02-28'],
    ['2028-02-29', 48, '2032-02-29'],
    ['2026-01-31', 12, '2027-01-31'],
    ['2026-03-31', 1, '2026-04-30'],
    ['2026-03-31', -1, '2026-02-28'],
    ['2026-05-31', -3, '2026-02-28'],
    ['2026-08-31', 3, '2026-11-30'], // quarter after a 31st
    ['2026-11-30', 3, '2027-02-28'],
    ['2026-12-31', 2, '2027-02-28'],
    ['2026-01-15', -13, '2024-12-15'],
  ] as const)('%s %+i months → %s', (date, months, expected) => {
    expect(addMonths(date, months)).toBe(expected);
  });

  it.each([
    // quarter starts and ends, as agreements invoice quarterly
    ['2026-01-01', '2026-03-31'],
    ['2026-04-01', '2026-06-30'],
    ['2026-07-01', '2026-09-30'],
    ['2026-10-01', '2026-12-31'],
    ['2028-01-01', '2028-03-31'],
  ] as const)('the quarter from %s ends on %s', (first, last) => {
    expect(addDays(addMonthsToFirst(first, 3), -1)).toBe(last);
    expect(endOfMonth(addMonthsToFirst(first, 2))).toBe(last);
  });

  it.each([
    [2026, 1, 31],
    [2026, 2, 28],
    [2028, 2, 29],
    [2100, 2, 28], // divisible by 100, not by 400
    [2000, 2, 29],
    [2026, 4, 30],
    [2026, 12, 31],
  ] as const)('%i-%i has %i days', (year, month, days) => {
    expect(daysInMonth(year, month)).toBe(days);
    expect(endOfMonth(`${year}-${String(month).padStart(2, '0')}-10`).slice(8)).toBe(String(days));
  });

  it('takes the first of a month across years, in both directions', () => {
    expect(addMonthsToFirst('2026-12-31', 1)).toBe('2027-01-01');
    expect(addMonthsToFirst('2026-01-31', -1)).toBe('2025-12-01');
    expect(addMonthsToFirst({ year: 2026, month: 11, day: 15 }, 18)).toEqual({ year: 2028, month: 5, day: 1 });
  });

  it('counts days across a leap day and refuses a date that does not exist', () => {
    expect(daysBetween('2028-02-28', '2028-03-01')).toBe(2);
    expect(daysBetween('2026-12-31', '2026-01-01')).toBe(-364);
    expect(() => addMonths('2026-02-29', 1)).toThrow(RangeError);
    expect(parsePlainDate('2028-02-29')).toEqual({ year: 2028, month: 2, day: 29 });
    expect(parsePlainDate('2026-13-01')).toBeNull();
    expect(parsePlainDate('2026-1-01')).toBeNull();
  });
});

describe('daylight-saving nights in Europe/Stockholm', () => {
  it.each([
    // [date, hours, midnight (UTC), next midnight (UTC)]
    ['2026-03-28', 24, '2026-03-27T23:00:00.000Z', '2026-03-28T23:00:00.000Z'],
    ['2026-03-29', 23, '2026-03-28T23:00:00.000Z', '2026-03-29T22:00:00.000Z'], // clocks go 02:00 → 03:00
    ['2026-03-30', 24, '2026-03-29T22:00:00.000Z', '2026-03-30T22:00:00.000Z'],
    ['2026-10-25', 25, '2026-10-24T22:00:00.000Z', '2026-10-25T23:00:00.000Z'], // clocks go 03:00 → 02:00
    ['2026-10-26', 24, '2026-10-25T23:00:00.000Z', '2026-10-26T23:00:00.000Z'],
  ] as const)('%s lasts %i hours, from %s to %s', (date, hours, start, end) => {
    expect(hoursInDay(date, STOCKHOLM)).toBe(hours);
    const day = dayInZone(date, STOCKHOLM);
    expect(day.start.toISOString()).toBe(start);
    expect(day.end.toISOString()).toBe(end);
    expect(startOfDayInZone(date, STOCKHOLM).toISOString()).toBe(start);
  });

  it('has a 23-hour day in Sydney when its clocks go forward in October', () => {
    expect(hoursInDay('2026-10-04', 'Australia/Sydney')).toBe(23);
    expect(hoursInDay('2026-04-05', 'Australia/Sydney')).toBe(25);
  });

  it('turns wall-clock times into instants across the change', () => {
    const at = (day: number, month: number, hour: number, minute = 0) =>
      zonedInstant({ year: 2026, month, day, hour, minute }, STOCKHOLM).toISOString();
    expect(at(29, 3, 1, 59)).toBe('2026-03-29T00:59:00.000Z'); // still winter time
    expect(at(29, 3, 3)).toBe('2026-03-29T01:00:00.000Z'); // summer time
    expect(at(29, 3, 2, 30)).toBe('2026-03-29T01:30:00.000Z'); // skipped: moves on by the gap
    expect(at(25, 10, 1, 30)).toBe('2026-10-24T23:30:00.000Z');
    expect(at(25, 10, 4)).toBe('2026-10-25T03:00:00.000Z');
    expect(wallClockParts('2026-10-25T00:30:00Z', STOCKHOLM)).toMatchObject({ day: 25, hour: 2, minute: 30 });
    expect(wallClockParts('2026-10-25T01:30:00Z', STOCKHOLM)).toMatchObject({ day: 25, hour: 2, minute: 30 });
  });

  it('gives the week and the month holding a change their real length', () => {
    const week = weekInZone('2026-03-29', STOCKHOLM); // Monday 23 March to Monday 30 March
    expect(week.start.toISOString()).toBe('2026-03-22T23:00:00.000Z');
    expect(week.end.toISOString()).toBe('2026-03-29T22:00:00.000Z');
    expect((week.end.getTime() - week.start.getTime()) / 3_600_000).toBe(7 * 24 - 1);
    const october = monthInZone('2026-10-10', STOCKHOLM);
    expect(october.start.toISOString()).toBe('2026-09-30T22:00:00.000Z');
    expect(october.end.toISOString()).toBe('2026-10-31T23:00:00.000Z');
    expect((october.end.getTime() - october.start.getTime()) / 3_600_000).toBe(31 * 24 + 1);
  });
});

describe('the day boundary in the tenant zone', () => {
  it.each([
    // [instant, zone, date]
    ['2026-06-01T21:59:59Z', STOCKHOLM, '2026-06-01'],
    ['2026-06-01T22:00:00Z', STOCKHOLM, '2026-06-02'], // summer: UTC+2
    ['2026-06-01T23:30:00Z', STOCKHOLM, '2026-06-02'],
    ['2026-01-15T22:59:00Z', STOCKHOLM, '2026-01-15'],
    ['2026-01-15T23:30:00Z', STOCKHOLM, '2026-01-16'], // winter: UTC+1
    ['2026-12-31T23:30:00Z', STOCKHOLM, '2027-01-01'], // already next year
    ['2026-03-28T23:30:00Z', STOCKHOLM, '2026-03-29'],
    ['2026-10-24T22:30:00Z', STOCKHOLM, '2026-10-25'],
    ['2026-06-01T15:00:00Z', 'Australia/Sydney', '2026-06-02'],
    ['2026-06-01T21:30:00Z', 'Europe/Tallinn', '2026-06-02'],
    ['2026-06-01T23:30:00Z', 'UTC', '2026-06-01'],
  ] as const)('%s is %s… in %s', (instant, zone, date) => {
    expect(dateInZone(instant, zone)).toBe(date);
    expect(todayInZone(zone, new Date(instant))).toBe(date);
  });

  it("takes the tenant's zone from its country, Stockholm when it names none", () => {
    expect(tenantTimeZone('SE')).toBe(STOCKHOLM);
    expect(tenantTimeZone('EE')).toBe('Europe/Tallinn');
    expect(tenantTimeZone('LV')).toBe('Europe/Riga');
    expect(tenantTimeZone('AU')).toBe('Australia/Sydney');
    expect(tenantTimeZone(null)).toBe(STOCKHOLM);
    const late = new Date('2026-12-31T23:30:00Z');
    expect(tenantDate(late, 'SE')).toBe('2027-01-01');
    expect(tenantDate(new Date('2026-06-01T15:00:00Z'), 'AU')).toBe('2026-06-02');
    expect(tenantDate(new Date('2026-06-01T15:00:00Z'), null)).toBe('2026-06-01');
  });
});

describe('week 53', () => {
  it.each([
    // [date, ISO year, week, Monday]
    ['2026-12-31', 2026, 53, '2026-12-28'],
    ['2027-01-01', 2026, 53, '2026-12-28'],
    ['2027-01-03', 2026, 53, '2026-12-28'],
    ['2027-01-04', 2027, 1, '2027-01-04'],
    ['2021-01-03', 2020, 53, '2020-12-28'],
    ['2020-12-28', 2020, 53, '2020-12-28'],
    ['2024-12-30', 2025, 1, '2024-12-30'], // 30 December in week 1 of the next year
  ] as const)('%s is week %i-W%i, from %s', (date, year, week, monday) => {
    expect(isoWeek(date)).toEqual({ year, week });
    expect(startOfIsoWeek(date)).toBe(monday);
  });
});

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
    expect(addDays('2026-01-31', 30)).toBe('2026-03-02');
    expect(addDays('2026-12-20', 15)).toBe('2027-01-04');
    expect(parsePlainDate('2026-02-30')).toBeNull();
    expect(parsePlainDate('2026-02-28')).toEqual({ year: 2026, month: 2, day: 28 });
  });
});
