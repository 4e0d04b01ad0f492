import { describe, expect, it } from 'vitest';
import { isDateLocked, lockDateOf, monthLock, type LockState } from './period-lock';

const state = (s: Partial<LockState>): LockState => ({ boundary: null, locked: [], unlocked: [], ...s });

describe('isDateLocked', () => {
  it.each([
    // [boundary, locked by hand, unlocked by hand, date, locked?]
    [null, [], [], '2026-01-15', false],
    ['2026-11-01', [], [], '2026-10-31', true],
    ['2026-11-01', [], [], '2026-11-01', false],
    ['2026-11-01', [], ['2026-10-01'], '2026-10-31', false],
    ['2026-11-01', [], ['2026-10-01'], '2026-09-30', true],
    ['2026-11-01', ['2026-11-01'], [], '2026-11-20', true],
    [null, ['2026-02-01'], [], '2026-02-28', true],
    [null, ['2026-02-01'], [], '2026-03-01', false],
    ['2027-01-01', [], [], '2026-12-31', true],
  ] as const)('boundary %s, locked %j, unlocked %j: %s → %s', (boundary, locked, unlocked, date, expected) => {
    expect(isDateLocked(state({ boundary, locked, unlocked }), date)).toBe(expected);
  });
});

describe('monthLock', () => {
  it('tells a month locked by hand from one locked by the rule', () => {
    const s = state({ boundary: '2026-11-01', locked: ['2026-11-01'], unlocked: ['2026-09-01'] });
    expect(monthLock(s, '2026-11-10')).toEqual({ locked: true, byHand: true });
    expect(monthLock(s, '2026-10-10')).toEqual({ locked: true, byHand: false });
    expect(monthLock(s, '2026-09-10')).toEqual({ locked: false, byHand: true });
    expect(monthLock(s, '2026-12-10')).toEqual({ locked: false, byHand: false });
  });
});

describe('lockDateOf', () => {
  it.each([
    ['2026-01-01', 5, '2026-02-05'],
    // a lock day past the next month's end locks on its last day: February, leap and not
    ['2026-01-01', 31, '2026-02-28'],
    ['2028-01-01', 30, '2028-02-29'],
    ['2026-03-01', 31, '2026-04-30'],
    // December locks in January of the next year
    ['2026-12-01', 10, '2027-01-10'],
    ['2026-05-01', null, null],
  ] as const)('%s with lock day %s locks on %s', (month, day, expected) => {
    expect(lockDateOf(month, day)).toBe(expected);
  });
});
