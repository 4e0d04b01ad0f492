import { describe, expect, it } from 'vitest';
import { clampPosition, moveToPosition, reorderKey } from './activity-order';

const ids = ['a', 'b', 'c', 'd', 'e'];

describe('[projects] activity order', () => {
  it.each([
    ['c', 1, ['c', 'a', 'b', 'd', 'e']],
    ['c', 5, ['a', 'b', 'd', 'e', 'c']],
    ['a', 3, ['b', 'c', 'a', 'd', 'e']],
    ['e', 2, ['a', 'e', 'b', 'c', 'd']],
    ['b', 2, ['a', 'b', 'c', 'd', 'e']],
    ['b', 0, ['b', 'a', 'c', 'd', 'e']],
    ['b', 99, ['a', 'c', 'd', 'e', 'b']],
    ['x', 1, ['a', 'b', 'c', 'd', 'e']],
  ] as const)('moves %s to position %d', (id, position, expected) => {
    expect(moveToPosition(ids, id, position)).toEqual(expected);
  });

  it('clamps positions to 1..n', () => {
    expect(clampPosition(-3, 4)).toBe(1);
    expect(clampPosition(2.4, 4)).toBe(2);
    expect(clampPosition(7, 4)).toBe(4);
    expect(clampPosition(Number.NaN, 4)).toBe(4);
    expect(clampPosition(3, 0)).toBe(1);
  });

  it('sorting by the keys gives the same order as moving', () => {
    for (const moved of ids)
      for (let position = 1; position <= ids.length; position++) {
        const others = ids.filter((id) => id !== moved);
        const keyed = ids
          .map((id) => ({ id, key: reorderKey(others.indexOf(id) + 1, id === moved, position) }))
          .sort((x, y) => x.key - y.key)
          .map((x) => x.id);
        expect(keyed).toEqual(moveToPosition(ids, moved, position));
      }
  });
});
