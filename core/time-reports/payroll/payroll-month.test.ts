import { describe, expect, it } from 'vitest';
import type { LockState } from '../period-lock';
import { addMonths, defaultPayrollMonth, MONTH_PATTERN, monthRange } from './payroll-month';

const state = (s: Partial<LockState>): LockState => ({ boundary: null, locked: [], unlocked: [], ...s });

describe('monthRange', () => {
  it.each([
    ['2026-03', '2026-03-01', '2026-03-31'],
    ['2026-02', '2026-02-01', '2026-02-28'],
    ['2028-02', '2028-02-01', '2028-02-29'],
    ['2026-04', '2026-04-01', '2026-04-30'],
    ['2026-12', '2026-12-01', '2026-12-31'],
  ])('%s → %s…%s', (month, from, to) => {
    expect(monthRange(month)).toEqual({ from, to });
  });
});

describe('addMonths', () => {
  it.each([
    ['2026-03', -1, '2026-02'],
    ['2026-01', -1, '2025-12'],
    ['2026-12', 1, '2027-01'],
    ['2026-05', -24, '2024-05'],
  ])('%s %+d → %s', (month, delta, expected) => {
    expect(addMonths(month, delta)).toBe(expected);
  });
});

describe('MONTH_PATTERN', () => {
  it.each([
    ['2026-03', true],
    ['2026-12', true],
    ['2026-13', false],
    ['2026-00', false],
    ['2026-3', false],
    ['2026-03-01', false],
    ['', false],
  ])('%j → %s', (value, ok) => {
    expect(MONTH_PATTERN.test(value)).toBe(ok);
  });
});

describe('defaultPayrollMonth', () => {
  it.each<[string, Partial<LockState>, string, string]>([
    ['nothing locked: the previous month', {}, '2026-04-10', '2026-03'],
    ['the lock-day rule locked last month', { boundary: '2026-04-01' }, '2026-04-10', '2026-03'],
    ['the rule locked two months back', { boundary: '2026-03-01' }, '2026-04-02', '2026-02'],
    ['this month locked by hand', { boundary: '2026-04-01', locked: ['2026-04-01'] }, '2026-04-20', '2026-04'],
    [
      'last month unlocked by hand: the one before',
      { boundary: '2026-04-01', unlocked: ['2026-03-01'] },
      '2026-04-10',
      '2026-02',
    ],
    ['an old month locked by hand only', { locked: ['2025-11-01'] }, '2026-04-10', '2025-11'],
    ['a lock longer ago than two years: the previous month', { locked: ['2023-01-01'] }, '2026-04-10', '2026-03'],
  ])('%s', (_name, s, today, expected) => {
    expect(defaultPayrollMonth(state(s), today)).toBe(expected);
  });
});
