import { describe, expect, it } from 'vitest';
import { isAppError } from '~/core/errors/app-error';
import {
  dispatchRuleErrors,
  matchDispatchRule,
  parseDispatchRuleSet,
  ruleWindow,
  timeToMinutes,
  windowsOverlap,
} from './dispatch-rules.rules';

const r = (day: number, startTime: string, endTime: string, userId = 'u') => ({ day, startTime, endTime, userId });
const USER = '0b7f6a52-6f1e-4f57-9f0e-2d4a1c3b5e6f';

describe('timeToMinutes and ruleWindow', () => {
  it.each([
    ['00:00', 0],
    ['08:30', 510],
    ['23:59', 1439],
    ['08:30:00', 510],
    ['24:00', null],
    ['8:30', null],
    ['', null],
  ])('%s is %s', (value, minutes) => expect(timeToMinutes(value)).toBe(minutes));

  it('places a window on the week; an end before the start wraps into the next day', () => {
    expect(ruleWindow(r(1, '08:00', '17:00'))).toEqual({ start: 480, length: 540 });
    expect(ruleWindow(r(2, '22:00', '02:00'))).toEqual({ start: 1440 + 1320, length: 240 });
    expect(ruleWindow(r(7, '23:00', '01:00'))).toEqual({ start: 6 * 1440 + 1380, length: 120 });
  });

  it('has no window for an empty range or an unreadable row', () => {
    expect(ruleWindow(r(1, '08:00', '08:00'))).toBeNull();
    expect(ruleWindow(r(0, '08:00', '09:00'))).toBeNull();
    expect(ruleWindow(r(1, 'x', '09:00'))).toBeNull();
  });
});

describe('time-range sets (spec section 5)', () => {
  // [description, rules, rows marked overlapping, rows marked empty]
  const table: [string, ReturnType<typeof r>[], number[], number[]][] = [
    ['one range', [r(1, '08:00', '17:00')], [], []],
    ['touching ranges on a day', [r(1, '08:00', '12:00'), r(1, '12:00', '17:00')], [], []],
    ['the same hours on different days', [r(1, '08:00', '17:00'), r(2, '08:00', '17:00')], [], []],
    ['a start inside another range', [r(1, '08:00', '12:00'), r(1, '11:00', '14:00')], [0, 1], []],
    ['a range inside another', [r(1, '08:00', '17:00'), r(1, '10:00', '11:00')], [0, 1], []],
    ['sharing the start, ending inside', [r(1, '08:00', '17:00'), r(1, '08:00', '12:00')], [0, 1], []],
    ['the same range twice', [r(3, '08:00', '12:00'), r(3, '08:00', '12:00')], [0, 1], []],
    ['equal start and end', [r(1, '08:00', '08:00')], [], [0]],
    ['a wrap past midnight alone', [r(1, '22:00', '06:00')], [], []],
    ['a wrap touching the next morning', [r(1, '22:00', '06:00'), r(2, '06:00', '14:00')], [], []],
    ['a wrap into the next day’s range', [r(1, '22:00', '02:00'), r(2, '01:00', '05:00')], [0, 1], []],
    ['a wrap against the same day’s early range', [r(1, '22:00', '02:00'), r(1, '01:00', '05:00')], [], []],
    ['a wrap against the same evening', [r(1, '22:00', '02:00'), r(1, '23:00', '23:30')], [0, 1], []],
    ['Sunday’s wrap into Monday', [r(7, '22:00', '02:00'), r(1, '00:00', '08:00')], [0, 1], []],
    ['Sunday’s wrap touching Monday', [r(7, '22:00', '02:00'), r(1, '02:00', '08:00')], [], []],
    [
      'three rows, one overlapping two',
      [r(1, '08:00', '10:00'), r(1, '10:00', '12:00'), r(1, '09:00', '11:00')],
      [0, 1, 2],
      [],
    ],
  ];
  it.each(table)('%s', (_, rules, overlapping, empty) => {
    const { fields, overlaps } = dispatchRuleErrors(rules);
    expect(Object.keys(overlaps).map(Number).sort()).toEqual(overlapping);
    for (const i of overlapping) expect(fields[`dispatchRules.${i}.startTime`]).toEqual(['DISPATCH_RULES_OVERLAP']);
    for (const i of empty) expect(fields[`dispatchRules.${i}.endTime`]).toEqual(['DISPATCH_RULE_EMPTY_RANGE']);
    expect(Object.keys(fields)).toHaveLength(overlapping.length + empty.length);
  });

  it('names the rows a row overlaps', () => {
    const { overlaps } = dispatchRuleErrors([r(1, '08:00', '10:00'), r(1, '10:00', '12:00'), r(1, '09:00', '11:00')]);
    expect(overlaps).toEqual({ '0': [2], '1': [2], '2': [0, 1] });
  });

  it('overlap is symmetric', () => {
    const a = ruleWindow(r(1, '22:00', '02:00'))!;
    const b = ruleWindow(r(2, '01:00', '05:00'))!;
    expect(windowsOverlap(a, b)).toBe(true);
    expect(windowsOverlap(b, a)).toBe(true);
  });
});

describe('parseDispatchRuleSet', () => {
  const fieldsOf = (raw: unknown) => {
    try {
      parseDispatchRuleSet(raw);
    } catch (e) {
      if (isAppError(e)) return e.details;
      throw e;
    }
    return null;
  };

  it('accepts a valid set and an empty one', () => {
    expect(parseDispatchRuleSet({ dispatchRules: [r(1, '08:00', '17:00', USER)] })).toEqual([
      { day: 1, startTime: '08:00', endTime: '17:00', userId: USER },
    ]);
    expect(parseDispatchRuleSet({ dispatchRules: [] })).toEqual([]);
  });

  it('reports every row’s own and cross-row errors at once', () => {
    const details = fieldsOf({
      dispatchRules: [
        r(8, '25:00', '08:00', USER),
        r(1, '08:00', '08:00', 'nobody'),
        r(2, '08:00', '12:00', USER),
        r(2, '09:00', '10:00', USER),
      ],
    });
    expect(details?.fields).toEqual({
      'dispatchRules.0.day': ['ERROR_INVALID_VALUE'],
      'dispatchRules.0.startTime': ['ERROR_INVALID_TIME'],
      'dispatchRules.1.userId': ['ERROR_REQUIRED_FIELD'],
      'dispatchRules.1.endTime': ['DISPATCH_RULE_EMPTY_RANGE'],
      'dispatchRules.2.startTime': ['DISPATCH_RULES_OVERLAP'],
      'dispatchRules.3.startTime': ['DISPATCH_RULES_OVERLAP'],
    });
    expect(details?.overlaps).toEqual({ '2': [3], '3': [2] });
  });

  it('refuses a body without the list or with unknown keys', () => {
    expect(fieldsOf({})?.fields).toHaveProperty('dispatchRules');
    expect(fieldsOf({ dispatchRules: [], other: 1 })?.fields).toBeTruthy();
  });
});

describe('matchDispatchRule', () => {
  const day = r(1, '08:00', '17:00', 'day'); // Monday
  const night = r(1, '22:00', '06:00', 'night'); // Monday night into Tuesday
  const sunday = r(7, '23:00', '01:00', 'sunday'); // Sunday night into Monday
  const rules = [day, night, sunday];
  // 2026-03-02 is a Monday
  it.each([
    ['2026-03-02T08:00', 'day'], // start inclusive
    ['2026-03-02T16:59', 'day'],
    ['2026-03-02T17:00', null], // end exclusive
    ['2026-03-02T07:59', null],
    ['2026-03-02T22:00', 'night'],
    ['2026-03-03T05:59', 'night'], // the wrap belongs to Monday's rule
    ['2026-03-03T06:00', null],
    ['2026-03-02T00:30', 'sunday'], // Sunday's wrap into Monday morning
    ['2026-03-01T23:30', 'sunday'],
    ['2026-03-01T22:59', null],
    ['2026-03-09T08:00', 'day'], // the next Monday
    ['2026-03-03T08:00', null], // Tuesday has no day rule
    ['not a date', null],
  ])('%s → %s', (moment, who) => {
    expect(matchDispatchRule(rules, moment)?.userId ?? null).toBe(who);
  });

  it('reads the database’s HH:MM:SS times', () => {
    expect(matchDispatchRule([r(1, '08:00:00', '17:00:00', 'x')], '2026-03-02T09:00')?.userId).toBe('x');
  });

  it('takes the first of overlapping rules (an invalid set)', () => {
    expect(
      matchDispatchRule([r(1, '08:00', '17:00', 'a'), r(1, '09:00', '10:00', 'b')], '2026-03-02T09:30')?.userId,
    ).toBe('a');
  });
});
