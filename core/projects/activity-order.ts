/**
 * The order of a project's activities (spec: "activity (id, sortOrder)"; api-calls.md
 * "PUT …/{aid}/reorder {sortOrder}"): positions run 1..n. Moving one activity to a position puts it
 * there and shifts the others up or down by one, keeping their order among themselves. The SQL in
 * activity.service.ts does the same in one statement; the panel uses this to show a move at once.
 */

/** A position asked for, clamped to 1..count (a non-integer is rounded, a non-number goes last). */
export function clampPosition(position: number, count: number): number {
  if (count <= 0) return 1;
  if (!Number.isFinite(position)) return count;
  return Math.min(Math.max(Math.round(position), 1), count);
}

/** `ids` (in their current order) with `movedId` at `position` (1-based); an unknown id changes nothing. */
export function moveToPosition<T extends string>(ids: readonly T[], movedId: T, position: number): T[] {
  const from = ids.indexOf(movedId);
  if (from < 0) return [...ids];
  const rest = ids.filter((id) => id !== movedId);
  const to = clampPosition(position, ids.length) - 1;
  return [...rest.slice(0, to), movedId, ...rest.slice(to)];
}

/**
 * The sort key that places every item: the others keep 2·rank (rank 1..n−1 among themselves), the
 * moved one takes 2·position − 1, just before the other that held that position. Numbering the
 * keys 1..n gives the new order; activity.service.ts computes the same keys in SQL.
 */
export function reorderKey(rank: number, isMoved: boolean, position: number): number {
  return isMoved ? 2 * position - 1 : 2 * rank;
}
