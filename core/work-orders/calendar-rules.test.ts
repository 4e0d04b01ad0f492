import { describe, expect, it } from 'vitest';
import { formatPlainDate as f, type PlainDate } from '~/core/calendar/dates';
import {
  columnIndex,
  formatClock,
  parseClock,
  shiftView,
  viewColumns,
  viewRange,
  type CalendarPeriod,
  type CalendarView,
} from './calendar-rules';

const d = (text: string): PlainDate => {
  const [year, month, day] = text.split('-').map(Number) as [number, number, number];
  return { year, month, day };
};
const tech = (period: CalendarPeriod, anchor: string): CalendarView => ({
  period,
  perspective: 'technician',
  anchor: d(anchor),
  step: 1,
});
const range = (v: CalendarView) => {
  const r = viewRange(v);
  return [f(r.from), f(r.to)];
};

describe('calendar periods', () => {
  it.each([
    ['day', '2026-12-09', '2026-12-09', '2026-12-10'],
    ['week', '2026-12-09', '2026-12-07', '2026-12-14'],
    ['week', '2027-01-01', '2026-12-28', '2027-01-04'], // week 53 of 2026 spans the new year
    ['month', '2026-02-15', '2026-02-01', '2026-03-01'],
    ['quarter', '2026-05-20', '2026-04-01', '2026-07-01'],
    ['half_year', '2026-11-22', '2026-07-01', '2027-01-01'],
    ['year', '2026-11-22', '2026-01-01', '2027-01-01'],
  ] as const)('%s around %s covers %s up to %s', (period, anchor, from, to) => {
    expect(range(tech(period, anchor))).toEqual([from, to]);
  });

  it('steps the project perspective by 1, 3, 6 or 12 months from the anchor month', () => {
    const v: CalendarView = { period: 'month', perspective: 'project', anchor: d('2026-11-22'), step: 3 };
    expect(range(v)).toEqual(['2026-11-01', '2027-02-01']);
    expect(f(shiftView(v, 1))).toBe('2027-02-01');
    expect(f(shiftView({ ...v, step: 12 }, -1))).toBe('2025-11-01');
  });

  it('moves the arrows one period at a time', () => {
    expect(f(shiftView(tech('day', '2026-12-31'), 1))).toBe('2027-01-01');
    expect(f(shiftView(tech('week', '2026-12-30'), 1))).toBe('2027-01-06');
    expect(f(shiftView(tech('month', '2026-01-31'), 1))).toBe('2026-02-01');
    expect(f(shiftView(tech('quarter', '2026-01-10'), -1))).toBe('2025-10-01');
    expect(f(shiftView(tech('year', '2026-06-10'), 1))).toBe('2027-06-01');
  });
});

describe('calendar columns', () => {
  it('a week has seven days with their ISO week; a month one per day', () => {
    const week = viewColumns(tech('week', '2026-12-31'));
    expect(week.map((c) => c.key)).toEqual([
      '2026-12-28',
      '2026-12-29',
      '2026-12-30',
      '2026-12-31',
      '2027-01-01',
      '2027-01-02',
      '2027-01-03',
    ]);
    expect(week.every((c) => c.kind === 'day' && c.week === 53)).toBe(true);
    expect(viewColumns(tech('month', '2024-02-10'))).toHaveLength(29);
  });

  it('a day has hour columns; a plan is placed by its hour, clamped to the shown hours', () => {
    const cols = viewColumns(tech('day', '2026-12-09'));
    expect(cols[0]).toMatchObject({ kind: 'hour', hour: 6 });
    expect(cols.at(-1)).toMatchObject({ kind: 'hour', hour: 19 });
    expect(columnIndex(cols, '2026-12-09', 8 * 60 + 30)).toBe(2);
    expect(columnIndex(cols, '2026-12-09', 2 * 60)).toBe(0);
    expect(columnIndex(cols, '2026-12-09', 23 * 60)).toBe(cols.length - 1);
    expect(columnIndex(cols, '2026-12-10', 8 * 60)).toBe(-1);
  });

  it('quarters, half years and years are counted in ISO weeks, 53 in a 53-week year', () => {
    const year = viewColumns(tech('year', '2026-06-01'));
    expect(year[0]).toMatchObject({ kind: 'week', week: 1, year: 2026 });
    expect(year.at(-1)).toMatchObject({ kind: 'week', week: 53, year: 2026 });
    expect(year).toHaveLength(53);
    expect(viewColumns(tech('year', '2025-06-01'))).toHaveLength(53); // 2025 starts in week 1 on 30 Dec 2024 and ends in 2026's week 1
    const q = viewColumns(tech('quarter', '2026-02-01'));
    expect(columnIndex(q, '2026-01-07', 0)).toBe(1);
  });
});

describe('clock', () => {
  it('reads and writes 24-hour times', () => {
    expect(parseClock('08:30')).toBe(510);
    expect(parseClock('24:00')).toBeNull();
    expect(parseClock('8:30')).toBeNull();
    expect(formatClock(510)).toBe('08:30');
    expect(formatClock(25 * 60)).toBe('01:00');
  });
});
