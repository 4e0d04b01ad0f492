/**
 * The pure rules of a trip (issue 17; spec section 3 "Distance report: id, userId, date,
 * readingKm, reportedDistanceKm"): a trip is reported either as the odometer at its end
 * (readingKm), its distance then the reading less the previous reading of the same person and
 * vehicle, or as kilometres directly (reportedDistanceKm). Kilometres carry one decimal, so the
 * arithmetic is done in tenths to stay exact.
 */

/** The reading or distance as whole tenths of a kilometre (12.3 → 123). */
const toTenths = (km: number): number => Math.round(km * 10);
const fromTenths = (tenths: number): number => tenths / 10;

/** At most one decimal (the columns are numeric(…, 1)). */
export const hasOneDecimal = (km: number): boolean => Math.abs(km * 10 - Math.round(km * 10)) < 1e-6;

type DistanceError = 'ERROR_REQUIRED_FIELD' | 'ERROR_READING_BELOW_PREVIOUS';

export interface TripInput {
  /** The odometer at the trip's end; null when kilometres are given instead. */
  readingKm: number | null;
  /** Kilometres driven: the trip itself without a reading, or a vehicle's first reading's trip. */
  reportedDistanceKm: number | null;
  /** The previous reading of the same person and vehicle (by date, then when it was entered). */
  previousReadingKm: number | null;
}

export type TripDistance =
  { ok: true; distanceKm: number } | { ok: false; field: 'readingKm' | 'reportedDistanceKm'; error: DistanceError };

/**
 * The trip's kilometres. With a reading and a previous one: their difference (a reading below the
 * previous is ERROR_READING_BELOW_PREVIOUS). A vehicle's first reading only starts its chain: the
 * kilometres given with it, else 0. Without a reading the kilometres are required.
 */
export function tripDistance(input: TripInput): TripDistance {
  if (input.readingKm === null) {
    if (input.reportedDistanceKm === null)
      return { ok: false, field: 'reportedDistanceKm', error: 'ERROR_REQUIRED_FIELD' };
    return { ok: true, distanceKm: fromTenths(toTenths(input.reportedDistanceKm)) };
  }
  if (input.previousReadingKm === null)
    return { ok: true, distanceKm: fromTenths(toTenths(input.reportedDistanceKm ?? 0)) };
  const diff = toTenths(input.readingKm) - toTenths(input.previousReadingKm);
  if (diff < 0) return { ok: false, field: 'readingKm', error: 'ERROR_READING_BELOW_PREVIOUS' };
  return { ok: true, distanceKm: fromTenths(diff) };
}

/**
 * The next reading's trip once this reading stands before it: its reading less this one; null
 * when the next reading would be below this one (ERROR_READING_ABOVE_NEXT for the writer).
 */
export function nextTripDistance(nextReadingKm: number, readingKm: number): number | null {
  const diff = toTenths(nextReadingKm) - toTenths(readingKm);
  return diff < 0 ? null : fromTenths(diff);
}

/** The kilometres of a week's trips, summed in tenths. */
export function totalKm(rows: readonly { distanceKm: number }[]): number {
  return fromTenths(rows.reduce((s, r) => s + toTenths(r.distanceKm), 0));
}
