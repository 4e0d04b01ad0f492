import { addDays, addMonthsToFirst, daysBetween, startOfMonth } from '~/core/calendar/dates';

/**
 * The dashboard's statistics periods (spec section 2: the last 12 months, this year and the last 2
 * months). Each is whole months in the tenant's calendar, from the first of its first month up to
 * today, so every card's trend has one column a month and the current month is counted so far.
 */
export const DASHBOARD_PERIODS = ['12m', 'year', '2m'] as const;
export type DashboardPeriod = (typeof DASHBOARD_PERIODS)[number];
export const DEFAULT_PERIOD: DashboardPeriod = '12m';

/** The lead-time card looks back no less than 10 days and no more than a year (spec section 9). */
export const LEAD_TIME_MIN_DAYS = 10;
export const LEAD_TIME_MAX_DAYS = 365;

export interface PeriodRange {
  period: DashboardPeriod;
  /** First day of the first month, `YYYY-MM-DD`. */
  from: string;
  /** The tenant's today, the last day counted. */
  to: string;
  /** `YYYY-MM` of each month in order, the trend's columns. */
  months: string[];
  /** The first day the lead time counts closings from: the period held within 10 days – 1 year. */
  leadFrom: string;
}

export function parsePeriod(value: string | null | undefined): DashboardPeriod {
  return (DASHBOARD_PERIODS as readonly string[]).includes(value ?? '') ? (value as DashboardPeriod) : DEFAULT_PERIOD;
}

/** The period's days for a tenant whose today is `today` (`YYYY-MM-DD`). */
export function periodRange(period: DashboardPeriod, today: string): PeriodRange {
  const month = startOfMonth(today);
  const from =
    period === '12m' ? addMonthsToFirst(month, -11) : period === '2m' ? addMonthsToFirst(month, -1) : `${today.slice(0, 4)}-01-01`;
  const months: string[] = [];
  for (let m = from; m <= month; m = addMonthsToFirst(m, 1)) months.push(m.slice(0, 7));
  const days = daysBetween(from, today);
  const leadFrom =
    days < LEAD_TIME_MIN_DAYS
      ? addDays(today, -LEAD_TIME_MIN_DAYS)
      : days > LEAD_TIME_MAX_DAYS
        ? addDays(today, -LEAD_TIME_MAX_DAYS)
        : from;
  return { period, from, to: today, months, leadFrom };
}
