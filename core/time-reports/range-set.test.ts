import { describe, expect, it } from 'vitest';
import { formatClock, parseClock, rangeSetError, rangeSetMinutes, startMinutes, type TimeRange } from './range-set';

const set = (...pairs: [string, string][]): TimeRange[] => pairs.map(([start, end]) => ({ start, end }));

describe('[time reports] range sets (spec section 5)', () => {
  it.each<[string, TimeRange[], ReturnType<typeof rangeSetError>]>([
    ['one range', set(['07:00', '16:00']), null],
    ['two ranges with a lunch break', set(['07:00', '11:30'], ['12:00', '16:00']), null],
    ['ranges that touch', set(['07:00', '11:30'], ['11:30', '16:00']), null],
    ['in any order', set(['12:00', '16:00'], ['07:00', '11:30']), null],
    ['a range past midnight', set(['22:00', '06:00']), null],
    ['a night range and an evening one before it', set(['18:00', '21:00'], ['22:00', '02:00']), null],
    ['a night range and the next morning’s after it', set(['22:00', '02:00'], ['02:00', '04:00']), null],
    ['an empty set', [], null],
    ['a range that starts and ends at once', set(['08:00', '08:00']), 'ERROR_RANGE_START_EQUALS_END'],
    ['midnight to midnight', set(['00:00', '00:00']), 'ERROR_RANGE_START_EQUALS_END'],
    ['a start inside another', set(['07:00', '12:00'], ['11:00', '16:00']), 'ERROR_RANGES_OVERLAP'],
    ['an end inside another', set(['10:00', '16:00'], ['07:00', '11:00']), 'ERROR_RANGES_OVERLAP'],
    ['one inside another', set(['07:00', '16:00'], ['09:00', '10:00']), 'ERROR_RANGES_OVERLAP'],
    ['the same range twice', set(['07:00', '16:00'], ['07:00', '16:00']), 'ERROR_RANGES_OVERLAP'],
    ['a morning range inside a night range', set(['22:00', '06:00'], ['01:00', '03:00']), 'ERROR_RANGES_OVERLAP'],
    ['an evening range into a night range', set(['22:00', '06:00'], ['21:00', '23:00']), 'ERROR_RANGES_OVERLAP'],
    ['two night ranges', set(['22:00', '02:00'], ['23:00', '03:00']), 'ERROR_RANGES_OVERLAP'],
    ['a time that is none', set(['25:00', '26:00']), 'ERROR_INVALID_TIME'],
    ['minutes that are none', set(['07:60', '08:00']), 'ERROR_INVALID_TIME'],
  ])('%s', (_name, ranges, error) => {
    expect(rangeSetError(ranges)).toBe(error);
  });

  it.each<[TimeRange[], number]>([
    [set(['07:00', '11:30'], ['12:00', '16:00']), 8.5 * 60],
    [set(['22:00', '06:00']), 8 * 60],
    [set(['23:30', '00:15']), 45],
    [set(['00:00', '23:59']), 23 * 60 + 59],
  ])('%j covers %i minutes', (ranges, minutes) => {
    expect(rangeSetMinutes(ranges)).toBe(minutes);
  });

  it('reads clock times, and an unreadable start is 09:00', () => {
    expect(parseClock('7:05')).toBe(425);
    expect(parseClock('0705')).toBe(425);
    expect(parseClock('24:00')).toBeNull();
    expect(parseClock('')).toBeNull();
    expect(startMinutes('later')).toBe(9 * 60);
    expect(startMinutes(null)).toBe(9 * 60);
    expect(startMinutes('13:15')).toBe(13 * 60 + 15);
    expect(formatClock(1500)).toBe('01:00');
    expect(formatClock(-30)).toBe('23:30');
  });
});
