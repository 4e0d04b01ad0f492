/** A calendar date without time or time zone; month is 1-12. */
export interface PlainDate {
  year: number;
  month: number;
  day: number;
}

export interface IsoWeek {
  /** The ISO week-numbering year, which differs from the calendar year around New Year. */
  year: number;
  /** 1-53. */
  week: number;
}

const DAY_MS = 86_400_000;

/**
 * ISO 8601 week of a date. A week runs Monday to Sunday and belongs to the year that holds its
 * Thursday, so 1 January can be in week 52 or 53 of the previous year and 31 December in week 1 of
 * the next; years whose Thursday count is 53 have week 53 (spec section 9).
 */
export function isoWeek(date: PlainDate): IsoWeek {
  // UTC keeps daylight-saving shifts out of the day arithmetic.
  const utc = Date.UTC(date.year, date.month - 1, date.day);
  const isoDayOfWeek = new Date(utc).getUTCDay() || 7; // Monday 1 … Sunday 7
  const thursday = new Date(utc + (4 - isoDayOfWeek) * DAY_MS);
  const year = thursday.getUTCFullYear();
  const dayOfYear = (thursday.getTime() - Date.UTC(year, 0, 1)) / DAY_MS; // 0-based
  return { year, week: Math.floor(dayOfYear / 7) + 1 };
}

/** The Monday that starts ISO week `week` of ISO year `year`. */
export function isoWeekStart(year: number, week: number): PlainDate {
  // 4 January is always in week 1
  const jan4 = Date.UTC(year, 0, 4);
  const monday1 = jan4 - ((new Date(jan4).getUTCDay() || 7) - 1) * DAY_MS;
  return fromUtc(monday1 + (week - 1) * 7 * DAY_MS);
}

/** 52 or 53: a year has week 53 when 28 December (always in the last week) is in week 53. */
export function isoWeeksInYear(year: number): number {
  return isoWeek({ year, month: 12, day: 28 }).week;
}

/** The date `days` after (or before) a date. */
export function addDays(date: PlainDate, days: number): PlainDate {
  return fromUtc(Date.UTC(date.year, date.month - 1, date.day) + days * DAY_MS);
}

/** ISO day of week: Monday 1 … Sunday 7. */
export function isoDayOfWeek(date: PlainDate): number {
  return new Date(Date.UTC(date.year, date.month - 1, date.day)).getUTCDay() || 7;
}

/** YYYY-MM-DD. */
export function formatPlainDate(d: PlainDate): string {
  return `${d.year}-${String(d.month).padStart(2, '0')}-${String(d.day).padStart(2, '0')}`;
}

/** A YYYY-MM-DD text as a date (null when it is not a real date). */
export function parsePlainDate(text: string | null | undefined): PlainDate | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text ?? '');
  if (!m) return null;
  const d = { year: Number(m[1]), month: Number(m[2]), day: Number(m[3]) };
  const back = fromUtc(Date.UTC(d.year, d.month - 1, d.day));
  return back.year === d.year && back.month === d.month && back.day === d.day ? d : null;
}

function fromUtc(ms: number): PlainDate {
  const d = new Date(ms);
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}
