import { tenantTimeZone } from '~/core/i18n/number-format';
import { describe, expect, it } from 'vitest';
import {
  dateIn,
  lockedBefore,
  formatDuration,
  isoToWallClock,
  MAX_SPAN_DAYS,
  spanMinutes,
  splitMinutes,
  toMinutes,
  wallClockToIso,
} from './time-rules';

describe('[work orders] time rules', () => {
  it('turns hours and minutes into minutes and back', () => {
    expect(toMinutes(0, 0)).toBe(0);
    expect(toMinutes(2, 5)).toBe(125);
    expect(splitMinutes(125)).toEqual({ hours: 2, minutes: 5 });
    expect(splitMinutes(59)).toEqual({ hours: 0, minutes: 59 });
    expect(splitMinutes(60)).toEqual({ hours: 1, minutes: 0 });
    expect(splitMinutes(-3)).toEqual({ hours: 0, minutes: 0 });
    for (const m of [0, 1, 59, 60, 61, 479, 1440])
      expect(toMinutes(splitMinutes(m).hours, splitMinutes(m).minutes)).toBe(m);
  });

  it('measures a start–end span in whole minutes', () => {
    const start = new Date('2026-03-05T07:30:00Z');
    expect(spanMinutes(start, new Date('2026-03-05T11:45:00Z'))).toEqual({ ok: true, minutes: 255 });
    // 29.6 s rounds to the nearest minute
    expect(spanMinutes(start, new Date('2026-03-05T07:30:30Z'))).toEqual({ ok: true, minutes: 1 });
  });

  it('refuses an end that is not after the start', () => {
    const start = new Date('2026-03-05T07:30:00Z');
    expect(spanMinutes(start, start)).toEqual({ ok: false, error: 'ERROR_END_BEFORE_START' });
    expect(spanMinutes(start, new Date('2026-03-05T07:00:00Z'))).toEqual({
      ok: false,
      error: 'ERROR_END_BEFORE_START',
    });
  });

  it('allows a span of exactly 60 days and refuses a longer one (spec section 9)', () => {
    expect(MAX_SPAN_DAYS).toBe(60);
    const start = new Date('2026-01-01T00:00:00Z');
    const sixty = new Date(start.getTime() + 60 * 86_400_000);
    expect(spanMinutes(start, sixty)).toEqual({ ok: true, minutes: 60 * 1440 });
    expect(spanMinutes(start, new Date(sixty.getTime() + 60_000))).toEqual({
      ok: false,
      error: 'ERROR_TIME_SPAN_TOO_LONG',
    });
  });

  it("gives a moment's date in the tenant's zone", () => {
    // 23:30 UTC on 5 March is already 6 March in Stockholm (UTC+1)
    expect(dateIn(new Date('2026-03-05T23:30:00Z'), tenantTimeZone('SE'))).toBe('2026-03-06');
    expect(dateIn(new Date('2026-03-05T12:00:00Z'), tenantTimeZone('AU'))).toBe('2026-03-05');
    expect(tenantTimeZone(undefined)).toBe('Europe/Stockholm');
  });

  it('writes a duration as h:mm', () => {
    expect(formatDuration(125)).toBe('2:05');
    expect(formatDuration(0)).toBe('0:00');
  });
});

describe('[work orders] wall-clock time in the tenant zone', () => {
  it('converts a datetime-local value to an instant and back, across daylight saving', () => {
    const zone = 'Europe/Stockholm';
    expect(wallClockToIso('2026-03-05T08:30', zone)).toBe('2026-03-05T07:30:00.000Z'); // UTC+1
    expect(wallClockToIso('2026-07-01T08:30', zone)).toBe('2026-07-01T06:30:00.000Z'); // UTC+2
    expect(wallClockToIso('2026-03-29T04:00', zone)).toBe('2026-03-29T02:00:00.000Z'); // the morning DST starts
    expect(isoToWallClock('2026-03-05T07:30:00.000Z', zone)).toBe('2026-03-05T08:30');
    expect(isoToWallClock('2026-07-01T06:30:00.000Z', 'Australia/Sydney')).toBe('2026-07-01T16:30');
    expect(wallClockToIso('', zone)).toBeNull();
    expect(wallClockToIso('kl 8', zone)).toBe('kl 8');
    expect(isoToWallClock(null, zone)).toBe('');
  });

  it('reads the seconds the date picker posts the same way, in the same zone', () => {
    const zone = 'Europe/Stockholm';
    expect(wallClockToIso('2026-03-05T08:30:00', zone)).toBe('2026-03-05T07:30:00.000Z');
    expect(wallClockToIso('2026-07-01T08:30:00', zone)).toBe('2026-07-01T06:30:00.000Z');
    expect(wallClockToIso('2026-03-29T04:00:00', zone)).toBe('2026-03-29T02:00:00.000Z');
    expect(wallClockToIso('2026-03-05T08:30:15', zone)).toBe('2026-03-05T07:30:15.000Z');
    expect(wallClockToIso('2026-03-05T08:30:0', zone)).toBe('2026-03-05T08:30:0');
  });
});

describe('[time] the locked period (spec section 4: locks on a day of the next month)', () => {
  it('locks last month from the lock day of this month on, and the month before last until then', () => {
    expect(lockedBefore('2026-11-04', 5)).toBe('2026-10-01');
    expect(lockedBefore('2026-11-05', 5)).toBe('2026-11-01');
    expect(lockedBefore('2026-01-03', 5)).toBe('2025-12-01');
    expect(lockedBefore('2026-01-05', 5)).toBe('2026-01-01');
  });
  it.each<[string, number, string]>([
    // a lock day past the month's end is its last day: February still locks January
    ['2027-02-27', 30, '2027-01-01'],
    ['2027-02-28', 30, '2027-02-01'],
    ['2028-02-28', 30, '2028-01-01'],
    ['2028-02-29', 30, '2028-02-01'],
    ['2028-02-29', 31, '2028-02-01'],
    ['2027-04-30', 31, '2027-04-01'],
    ['2027-04-29', 31, '2027-03-01'],
    ['2027-03-30', 31, '2027-02-01'],
    ['2027-03-31', 31, '2027-03-01'],
    // across New Year
    ['2027-01-01', 1, '2027-01-01'],
    ['2026-12-31', 1, '2026-12-01'],
  ])('on %s with lock day %i, days before %s are locked', (today, lockDay, first) => {
    expect(lockedBefore(today, lockDay)).toBe(first);
  });
  it('locks nothing by date without a lock day', () => {
    expect(lockedBefore('2026-11-22', null)).toBeNull();
  });
});
