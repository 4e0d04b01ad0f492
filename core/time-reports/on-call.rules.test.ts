import { describe, expect, it } from 'vitest';
import {
  listWindow,
  monthWeeks,
  nextMonth,
  overlaps,
  parseInstant,
  previousMonth,
  shiftDays,
  shiftError,
} from './on-call.rules';

const ZONE = 'Europe/Stockholm';
const at = (iso: string) => new Date(iso);

describe('[on-call] the rules of a shift', () => {
  it.each([
    ['2026-03-05T17:00', '2026-03-05T16:00:00.000Z'], // wall clock in winter time (+01)
    ['2026-07-05T17:00', '2026-07-05T15:00:00.000Z'], // summer time (+02)
    ['2026-03-05T17:00:00', '2026-03-05T16:00:00.000Z'], // with seconds, as the date picker posts it
    ['2026-07-05T17:00:00', '2026-07-05T15:00:00.000Z'],
    ['2026-03-05T16:00:00Z', '2026-03-05T16:00:00.000Z'],
    ['2026-03-05T17:00:00+01:00', '2026-03-05T16:00:00.000Z'],
    ['2026-03-05T17:00:00.250Z', '2026-03-05T17:00:00.250Z'],
  ])('reads %s as %s', (text, iso) => {
    expect(parseInstant(text, ZONE)?.toISOString()).toBe(iso);
  });

  it.each([
    ['2026-03-05'],
    ['tomorrow'],
    ['2026-13-05T10:00'],
    ['2026-02-30T10:00Z'],
    ['2026-03-05T24:30'],
    ['2026-03-05T17:00:61'],
    [''],
    [42],
    [null],
  ])('refuses %s', (text) => {
    expect(parseInstant(text, ZONE)).toBeNull();
  });

  it.each([
    ['2026-03-05T17:00Z', '2026-03-06T07:00Z', null],
    ['2026-03-05T17:00Z', '2026-03-05T17:00Z', 'ERROR_END_BEFORE_START'],
    ['2026-03-05T17:00Z', '2026-03-05T16:00Z', 'ERROR_END_BEFORE_START'],
    ['2026-03-01T00:00Z', '2026-04-01T00:00Z', null], // 31 days
    ['2026-03-01T00:00Z', '2026-04-01T00:01Z', null], // the daylight-saving hour's slack
    ['2026-03-01T00:00Z', '2026-04-01T01:01Z', 'ERROR_ON_CALL_SHIFT_TOO_LONG'],
  ])('%s – %s: %s', (start, end, error) => {
    expect(shiftError(at(start), at(end))).toBe(error);
  });

  it('overlaps only when each starts before the other ends', () => {
    const a = { start: at('2026-03-05T17:00Z'), end: at('2026-03-06T07:00Z') };
    expect(overlaps(a, { start: at('2026-03-06T07:00Z'), end: at('2026-03-06T17:00Z') })).toBe(false);
    expect(overlaps(a, { start: at('2026-03-06T06:59Z'), end: at('2026-03-06T17:00Z') })).toBe(true);
    expect(overlaps(a, { start: at('2026-03-05T00:00Z'), end: at('2026-03-07T00:00Z') })).toBe(true);
    expect(overlaps(a, { start: at('2026-03-04T00:00Z'), end: at('2026-03-05T17:00Z') })).toBe(false);
  });

  it('lists the days a shift touches in the zone, its end not counted', () => {
    // 17:00 to 07:00 the next morning, Swedish time
    expect(shiftDays('2026-03-05T16:00:00Z', '2026-03-06T06:00:00Z', ZONE)).toEqual(['2026-03-05', '2026-03-06']);
    // ends at midnight: the next day is not touched
    expect(shiftDays('2026-03-05T07:00:00Z', '2026-03-06T23:00:00Z', ZONE)).toEqual(['2026-03-05', '2026-03-06']);
    // 23:30 UTC on the 5th is already the 6th in Stockholm
    expect(shiftDays('2026-03-05T23:30:00Z', '2026-03-06T01:00:00Z', ZONE)).toEqual(['2026-03-06']);
  });
});

describe('[on-call] the listed window', () => {
  it('is the month of today by default, from midnight to midnight in the zone', () => {
    const w = listWindow({}, '2026-03-17', ZONE);
    expect(w).toEqual({ ok: true, from: at('2026-02-28T23:00:00Z'), to: at('2026-03-31T22:00:00Z') });
  });

  it('takes days (the last one whole) or instants', () => {
    expect(listWindow({ from: '2026-03-30', to: '2026-05-10' }, '2026-01-01', ZONE)).toEqual({
      ok: true,
      from: at('2026-03-29T22:00:00Z'),
      to: at('2026-05-10T22:00:00Z'),
    });
    expect(listWindow({ from: '2026-03-01T00:00:00Z', to: '2026-03-02T00:00:00Z' }, '2026-01-01', ZONE)).toEqual({
      ok: true,
      from: at('2026-03-01T00:00:00Z'),
      to: at('2026-03-02T00:00:00Z'),
    });
  });

  it('is at most 62 days and ends after it starts', () => {
    expect(listWindow({ from: '2026-01-01', to: '2026-03-03' }, '2026-01-01', ZONE)).toMatchObject({ ok: true });
    expect(listWindow({ from: '2026-01-01', to: '2026-03-04' }, '2026-01-01', ZONE)).toEqual({
      ok: false,
      field: 'to',
      error: 'ERROR_ON_CALL_PERIOD_TOO_LONG',
    });
    expect(listWindow({ from: '2026-03-05', to: '2026-03-04' }, '2026-01-01', ZONE)).toMatchObject({
      ok: false,
      error: 'ERROR_END_BEFORE_START',
    });
    expect(listWindow({ from: 'soon' }, '2026-01-01', ZONE)).toMatchObject({ ok: false, field: 'from' });
  });
});

describe('[on-call] the month calendar', () => {
  it('is whole ISO weeks, Monday first, with their numbers', () => {
    const weeks = monthWeeks('2026-03-01');
    // 1 March 2026 is a Sunday: the first row starts on Monday 23 February (week 9)
    expect(weeks[0]).toEqual({
      week: 9,
      days: ['2026-02-23', '2026-02-24', '2026-02-25', '2026-02-26', '2026-02-27', '2026-02-28', '2026-03-01'],
    });
    expect(weeks.at(-1)!.days).toEqual([
      '2026-03-30',
      '2026-03-31',
      '2026-04-01',
      '2026-04-02',
      '2026-04-03',
      '2026-04-04',
      '2026-04-05',
    ]);
    expect(weeks.map((w) => w.week)).toEqual([9, 10, 11, 12, 13, 14]);
  });

  it('crosses the year with the ISO numbering', () => {
    const weeks = monthWeeks('2027-01-01');
    expect(weeks[0]!.week).toBe(53); // 2026 has 53 weeks
    expect(weeks[0]!.days[0]).toBe('2026-12-28');
    expect(monthWeeks('2021-02-01')).toHaveLength(4); // February 2021: Monday 1st to Sunday 28th
  });

  it('steps months over the year', () => {
    expect(nextMonth('2026-12-01')).toBe('2027-01-01');
    expect(previousMonth('2026-01-01')).toBe('2025-12-01');
    expect(nextMonth('2026-03-01')).toBe('2026-04-01');
  });
});
