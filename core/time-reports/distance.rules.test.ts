import { describe, expect, it } from 'vitest';
import { hasOneDecimal, nextTripDistance, totalKm, tripDistance, type TripInput } from './distance.rules';

const trip = (readingKm: number | null, previousReadingKm: number | null, reportedDistanceKm: number | null = null) =>
  tripDistance({ readingKm, previousReadingKm, reportedDistanceKm } satisfies TripInput);

describe('[time reports] a trip’s distance (spec section 3)', () => {
  it.each<[string, ReturnType<typeof trip>, ReturnType<typeof tripDistance>]>([
    ['a reading after the previous: their difference', trip(12_345.6, 12_300.2), { ok: true, distanceKm: 45.4 }],
    ['tenths stay exact (0.1 + 0.2)', trip(0.3, 0.1), { ok: true, distanceKm: 0.2 }],
    ['the same reading again: 0 km', trip(500, 500), { ok: true, distanceKm: 0 }],
    [
      'a reading below the previous is refused',
      trip(499.9, 500),
      { ok: false, field: 'readingKm', error: 'ERROR_READING_BELOW_PREVIOUS' },
    ],
    ['a vehicle’s first reading starts the chain: 0 km', trip(10_000, null), { ok: true, distanceKm: 0 }],
    ['a first reading with its kilometres', trip(10_000, null, 42), { ok: true, distanceKm: 42 }],
    ['with a previous reading the kilometres sent do not count', trip(10_050, 10_000, 7), { ok: true, distanceKm: 50 }],
    ['kilometres directly', trip(null, 12_000, 18.5), { ok: true, distanceKm: 18.5 }],
    [
      'neither reading nor kilometres',
      trip(null, null, null),
      { ok: false, field: 'reportedDistanceKm', error: 'ERROR_REQUIRED_FIELD' },
    ],
  ])('%s', (_name, got, want) => {
    expect(got).toEqual(want);
  });

  it('recomputes the next trip against a reading put before it, or refuses one above it', () => {
    expect(nextTripDistance(1_200, 1_150.5)).toBe(49.5);
    expect(nextTripDistance(1_200, 1_200)).toBe(0);
    expect(nextTripDistance(1_200, 1_200.1)).toBeNull();
  });

  it('sums a week in tenths and knows one decimal', () => {
    expect(totalKm([{ distanceKm: 0.1 }, { distanceKm: 0.2 }, { distanceKm: 10 }])).toBe(10.3);
    expect(totalKm([])).toBe(0);
    expect(hasOneDecimal(12.3)).toBe(true);
    expect(hasOneDecimal(12.34)).toBe(false);
  });
});
