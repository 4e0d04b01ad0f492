import { describe, expect, it } from 'vitest';
import { dayTotals, isFarBeyondSchedule, reportTime, type ReportTimeInput } from './time-report.rules';

const base: ReportTimeInput = { tagType: 'work', scheduledMinutes: 480 };

describe('reportTime', () => {
  it.each([
    // a span, a span past midnight, an unreadable start (09:00)
    [
      { startTime: '07:00', endTime: '16:00' },
      { startTime: '07:00', endTime: '16:00', minutes: 540 },
    ],
    [
      { startTime: '22:00', endTime: '06:00' },
      { startTime: '22:00', endTime: '06:00', minutes: 480 },
    ],
    [
      { startTime: '23:30', endTime: '00:15' },
      { startTime: '23:30', endTime: '00:15', minutes: 45 },
    ],
    [
      { startTime: 'soon', endTime: '11:00' },
      { startTime: '09:00', endTime: '11:00', minutes: 120 },
    ],
    [
      { startTime: '', endTime: '10:30' },
      { startTime: '09:00', endTime: '10:30', minutes: 90 },
    ],
    [
      { startTime: '730', endTime: '1200' },
      { startTime: '07:30', endTime: '12:00', minutes: 270 },
    ],
    // hours and minutes
    [
      { hours: 7, minutes: 30 },
      { startTime: null, endTime: null, minutes: 450 },
    ],
    [
      { hours: 0, minutes: 15 },
      { startTime: null, endTime: null, minutes: 15 },
    ],
    [
      { hours: 24, minutes: 0 },
      { startTime: null, endTime: null, minutes: 1440 },
    ],
  ] as const)('%j → %j', (input, expected) => {
    expect(reportTime({ ...base, ...input })).toEqual({ ok: true, ...expected });
  });

  it.each([
    [{ startTime: '08:00', endTime: '08:00' }, { endTime: ['ERROR_RANGE_START_EQUALS_END'] }],
    [{ startTime: '08:00', endTime: '' }, { endTime: ['ERROR_REQUIRED_FIELD'] }],
    [{ startTime: '08:00', endTime: '25:00' }, { endTime: ['ERROR_INVALID_TIME'] }],
    [{ hours: 24, minutes: 1 }, { reportedHours: ['ERROR_INVALID_VALUE'] }],
    [{}, { reportedHours: ['ERROR_REQUIRED_FIELD'] }],
  ] as const)('refuses %j', (input, fields) => {
    expect(reportTime({ ...base, ...input })).toEqual({ ok: false, fields });
  });

  it('an absence without time is the scheduled day; on a day without schedule it needs hours', () => {
    expect(reportTime({ tagType: 'absence', scheduledMinutes: 480 })).toEqual({
      ok: true,
      startTime: null,
      endTime: null,
      minutes: 480,
    });
    expect(reportTime({ tagType: 'absence', scheduledMinutes: 0 }).ok).toBe(false);
    expect(reportTime({ tagType: 'absence', scheduledMinutes: 480, hours: 4 })).toMatchObject({ minutes: 240 });
  });

  it("an attendance without time takes its tag's default time, also past midnight", () => {
    expect(
      reportTime({ tagType: 'attend', scheduledMinutes: 480, defaultStart: '17:00', defaultEnd: '07:00' }),
    ).toEqual({
      ok: true,
      startTime: '17:00',
      endTime: '07:00',
      minutes: 840,
    });
  });
});

describe('dayTotals', () => {
  it('counts work-order time, own work and absence against the schedule, attendance apart', () => {
    expect(
      dayTotals(
        [
          { tagType: 'work', minutes: 60 },
          { tagType: 'absence', minutes: 120 },
          { tagType: 'attend', minutes: 540 },
        ],
        300,
      ),
    ).toEqual({ workOrder: 300, work: 60, absence: 120, attend: 540, total: 420 });
  });

  it('counts work-order time inside the own work once, not on top of it (issue 28: 333 h against 168)', () => {
    // Erik: own ARB 08:00 and 07:30 on orders the same day is 8 h worked, not 15:30.
    expect(dayTotals([{ tagType: 'work', minutes: 480 }], 450)).toMatchObject({ total: 480 });
    expect(
      dayTotals(
        [
          { tagType: 'work', minutes: 480 },
          { tagType: 'absence', minutes: 60 },
        ],
        600,
      ),
    ).toMatchObject({
      total: 660,
    });
  });
});

describe('isFarBeyondSchedule', () => {
  it.each([
    // total, scheduled (minutes), warns
    [333.5 * 60, 168 * 60, true],
    [168 * 60 + 42 * 60, 168 * 60, false], // exactly a quarter over
    [168 * 60 + 42 * 60 + 1, 168 * 60, true],
    [180 * 60, 168 * 60, false],
    [8 * 60, 0, false], // a day's work without a schedule
    [8 * 60 + 1, 0, true],
    [20 * 60, 16 * 60, false], // a quarter over, but less than a day
    [0, 168 * 60, false],
  ])('%d min against %d min scheduled warns: %s', (total, scheduled, warns) => {
    expect(isFarBeyondSchedule(total, scheduled)).toBe(warns);
  });
});
