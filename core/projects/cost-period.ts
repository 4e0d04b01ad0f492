import { addMonthsToFirst, daysInMonth, formatPlainDate, parsePlainDate } from '~/core/calendar/dates';

/*
 * The ongoing cost's period (spec section 9: "Projects have a configurable month day to reset
 * costs"), as pure rules on calendar days in the tenant's zone. The period starts on the most
 * recent reset day on or before today; a reset day past a month's end falls on that month's last
 * day (the 31st is February's 28th or 29th), as the time-report lock day does (period-lock.ts).
 */

/** The reset day in a month, clamped to the month's last day, as YYYY-MM-DD. */
function resetDateIn(year: number, month: number, resetDay: number): string {
  return formatPlainDate({ year, month, day: Math.min(resetDay, daysInMonth(year, month)) });
}

/**
 * The first day of the ongoing cost period: this month's reset day when today has reached it,
 * else last month's (January's period before its reset day began in December of the year before).
 * `today` is YYYY-MM-DD; `resetDay` 1–31 (anything else is clamped into that range).
 */
export function costPeriodStart(today: string, resetDay: number): string {
  const day = Math.min(31, Math.max(1, Math.trunc(resetDay) || 1));
  const { year, month } = parsePlainDate(today)!;
  const thisMonth = resetDateIn(year, month, day);
  if (thisMonth <= today) return thisMonth;
  const last = addMonthsToFirst({ year, month, day: 1 }, -1);
  return resetDateIn(last.year, last.month, day);
}

/** The `count` months (YYYY-MM) up to and including today's, oldest first. */
export function lastMonths(today: string, count: number): string[] {
  const months: string[] = [];
  for (let i = 0; i < count; i++) months.unshift(addMonthsToFirst(today, -i).slice(0, 7));
  return months;
}
