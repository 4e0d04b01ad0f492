import { CalendarDate, CalendarDateTime } from '@internationalized/date';
import { describe, expect, it } from 'vitest';
import { dateTimeValueOf, wallClockOf } from './date-picker';

describe('[ui] a wall-clock time as a date picker value', () => {
  it('reads the kept text, with or without seconds, and writes it back without them', () => {
    expect(dateTimeValueOf('2026-03-05T08:30')).toEqual(new CalendarDateTime(2026, 3, 5, 8, 30));
    expect(dateTimeValueOf('2026-03-05T08:30:00')).toEqual(new CalendarDateTime(2026, 3, 5, 8, 30));
    expect(wallClockOf(new CalendarDateTime(2026, 3, 5, 8, 30))).toBe('2026-03-05T08:30');
    expect(wallClockOf(dateTimeValueOf('2026-12-31T23:59'))).toBe('2026-12-31T23:59');
  });

  it('shows an empty field for nothing or for text that is not a time', () => {
    expect(dateTimeValueOf('')).toBeNull();
    expect(dateTimeValueOf(null)).toBeNull();
    expect(dateTimeValueOf('kl 8')).toBeNull();
    expect(dateTimeValueOf('2026-02-30T08:00')).toBeNull();
    expect(wallClockOf(null)).toBe('');
    expect(wallClockOf(new CalendarDate(2026, 3, 5))).toBe('');
  });
});
