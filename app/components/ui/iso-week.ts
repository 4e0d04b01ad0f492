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
