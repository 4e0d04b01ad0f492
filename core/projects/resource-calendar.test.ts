import { describe, expect, it } from 'vitest';
import {
  dayIndexer,
  isPlanningPeriod,
  moveSpan,
  planningRange,
  planningStep,
  planningWeeks,
  resizeSpan,
  shiftAnchor,
  spanLanes,
  spanPlacement,
  weeksMoved,
} from './resource-calendar';

describe('[projects] the resource calendar’s weeks', () => {
  it('covers a span across a 53-week year in ISO weeks', () => {
    // 2026 has 53 ISO weeks: 28 December 2026 is in week 53, 4 January 2027 starts week 1
    expect(planningWeeks('2026-12-01', '2027-01-31').map((w) => `${w.year}-${w.week}@${w.start}`)).toEqual([
      '2026-49@2026-11-30',
      '2026-50@2026-12-07',
      '2026-51@2026-12-14',
      '2026-52@2026-12-21',
      '2026-53@2026-12-28',
      '2027-1@2027-01-04',
      '2027-2@2027-01-11',
      '2027-3@2027-01-18',
      '2027-4@2027-01-25',
    ]);
    // a week starting in one calendar year belongs to the year of its Thursday
    expect(planningWeeks('2025-12-29', '2025-12-31')).toEqual([{ year: 2026, week: 1, start: '2025-12-29' }]);
  });

  it.each([
    // anchor, step → Monday of the first month's first week .. Sunday of the last month's last week
    ['2026-12-15', 1, '2026-11-30', '2027-01-03'],
    ['2026-12-01', 3, '2026-11-30', '2027-02-28'],
    ['2026-03-31', 6, '2026-02-23', '2026-09-06'],
    ['2026-01-01', 12, '2025-12-29', '2027-01-03'],
    // 1 June 2026 is a Monday, 31 May 2027 too
    ['2026-06-20', 12, '2026-06-01', '2027-06-06'],
  ] as const)('%s over %i months is %s – %s', (anchor, step, from, to) => {
    expect(planningRange(anchor, step)).toEqual({ from, to });
    // every calendar the steps draw is a period one may ask for
    expect(isPlanningPeriod(from, to)).toBe(true);
  });

  it('steps 1, 3, 6 or 12 months from the first of the month; anything else is 3', () => {
    expect(shiftAnchor('2026-11-20', 3, 1)).toBe('2027-02-01');
    expect(shiftAnchor('2026-01-31', 1, -1)).toBe('2025-12-01');
    expect(shiftAnchor('2026-06-01', 12, -1)).toBe('2025-06-01');
    expect([planningStep('6'), planningStep(12), planningStep('5'), planningStep(null), planningStep('x')]).toEqual([
      6, 12, 3, 3, 3,
    ]);
  });

  it.each([
    ['2026-01-01', '2027-01-07', true],
    ['2026-01-01', '2027-01-08', false],
    ['2026-01-31', '2027-02-06', true],
    ['2026-01-31', '2027-02-07', false],
    ['2026-03-10', '2026-03-10', true],
    ['2026-03-10', '2026-03-09', false],
    ['2026-02-30', '2026-03-09', false],
  ] as const)('the period %s – %s may be asked for: %s', (from, to, allowed) => {
    expect(isPlanningPeriod(from, to)).toBe(allowed);
  });
});

describe('[projects] the calendar’s days by number', () => {
  it('counts days from the start across New Year and finds their ISO week, 53 included', () => {
    const days = dayIndexer('2026-12-01', '2027-01-31');
    expect(days.index('2026-12-01')).toBe(0);
    expect(days.index('2027-01-01')).toBe(31);
    expect(days.date(31)).toBe('2027-01-01');
    expect(days.date(-1)).toBe('2026-11-30');
    expect(days.weekOf('2026-12-31')).toEqual({ year: 2026, week: 53, start: '2026-12-28' });
    expect(days.weekOf('2027-01-03')).toEqual({ year: 2026, week: 53, start: '2026-12-28' });
    expect(days.weekOf('2027-01-04')).toEqual({ year: 2027, week: 1, start: '2027-01-04' });
    // the Monday before the first day is in the calendar's first week
    expect(days.weekOf('2026-11-30')).toEqual({ year: 2026, week: 49, start: '2026-11-30' });
    expect(days.weekOf('2027-02-08')).toBeUndefined();
  });
});

describe('[projects] moving and stretching a plan by weeks', () => {
  const span = { startDate: '2026-12-21', endDate: '2026-12-30' };

  it('moves over New Year keeping the length and weekdays', () => {
    expect(moveSpan(span, 1)).toEqual({ startDate: '2026-12-28', endDate: '2027-01-06' });
    expect(moveSpan(span, -3)).toEqual({ startDate: '2026-11-30', endDate: '2026-12-09' });
  });

  it('stretches or shrinks the end, never before the start', () => {
    expect(resizeSpan(span, 2)).toEqual({ startDate: '2026-12-21', endDate: '2027-01-13' });
    expect(resizeSpan(span, -1)).toEqual({ startDate: '2026-12-21', endDate: '2026-12-23' });
    expect(resizeSpan(span, -2)).toEqual({ startDate: '2026-12-21', endDate: '2026-12-21' });
  });

  it('turns pointer travel into whole weeks (half a week rounds away from zero)', () => {
    expect(weeksMoved(0, 10)).toBe(0);
    expect(weeksMoved(34, 10)).toBe(0);
    expect(weeksMoved(35, 10)).toBe(1);
    expect(weeksMoved(-35, 10)).toBe(-1);
    expect(weeksMoved(150, 10)).toBe(2);
    expect(weeksMoved(100, 0)).toBe(0);
  });

  it('places a span on the calendar as fractions of its days, clipped at the edges', () => {
    // a 14-day calendar
    const from = '2026-12-28';
    const to = '2027-01-10';
    expect(spanPlacement({ startDate: '2026-12-28', endDate: '2027-01-03' }, from, to)).toEqual({
      left: 0,
      width: 0.5,
      clippedStart: false,
      clippedEnd: false,
    });
    expect(spanPlacement({ startDate: '2026-12-01', endDate: '2027-01-06' }, from, to)).toEqual({
      left: 0,
      width: 10 / 14,
      clippedStart: true,
      clippedEnd: false,
    });
    expect(spanPlacement({ startDate: '2027-01-10', endDate: '2027-02-01' }, from, to)).toMatchObject({
      left: 13 / 14,
      width: 1 / 14,
      clippedEnd: true,
    });
    expect(spanPlacement({ startDate: '2027-01-11', endDate: '2027-01-12' }, from, to)).toBeNull();
  });

  it('stacks overlapping spans in lanes, reusing a lane once free', () => {
    const { lanes, count } = spanLanes([
      { id: 'a', startDate: '2026-03-02', endDate: '2026-03-13' },
      { id: 'b', startDate: '2026-03-09', endDate: '2026-03-20' },
      { id: 'c', startDate: '2026-03-16', endDate: '2026-03-16' },
      { id: 'd', startDate: '2026-03-13', endDate: '2026-03-13' },
    ]);
    expect(Object.fromEntries(lanes)).toEqual({ a: 0, b: 1, d: 2, c: 0 });
    expect(count).toBe(3);
    expect(spanLanes([]).count).toBe(1);
  });
});
