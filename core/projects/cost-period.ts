/*
 * The ongoing cost's period (spec section 9: "Projects have a configurable month day to reset
 * costs"), as pure rules on calendar days in the tenant's zone. The period starts on the most
 * recent reset day on or before today; a reset day past a month's end falls on that month's last
 * day (the 31st is February's 28th or 29th), as the time-report lock day does (period-lock.ts).
 */

/** The last day of a month (1–12). */
function lastDayOf(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

const pad = (n: number) => String(n).padStart(2, '0');

/** The reset day in a month, clamped to the month's last day, as YYYY-MM-DD. */
function resetDateIn(year: number, month: number, resetDay: number): string {
  return `${String(year).padStart(4, '0')}-${pad(month)}-${pad(Math.min(resetDay, lastDayOf(year, month)))}`;
}

/**
 * The first day of the ongoing cost period: this month's reset day when today has reached it,
 * else last month's (January's period before its reset day began in December of the year before).
 * `today` is YYYY-MM-DD; `resetDay` 1–31 (anything else is clamped into that range).
 */
export function costPeriodStart(today: string, resetDay: number): string {
  const day = Math.min(31, Math.max(1, Math.trunc(resetDay) || 1));
  const [y, m] = today.split('-').map(Number) as [number, number];
  const thisMonth = resetDateIn(y, m, day);
  if (thisMonth <= today) return thisMonth;
  return m === 1 ? resetDateIn(y - 1, 12, day) : resetDateIn(y, m - 1, day);
}

/** The `count` months (YYYY-MM) up to and including today's, oldest first. */
export function lastMonths(today: string, count: number): string[] {
  let [y, m] = today.split('-').map(Number) as [number, number];
  const months: string[] = [];
  for (let i = 0; i < count; i++) {
    months.unshift(`${String(y).padStart(4, '0')}-${pad(m)}`);
    if (--m < 1) {
      m = 12;
      y--;
    }
  }
  return months;
}
