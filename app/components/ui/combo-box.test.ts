import { describe, expect, it } from 'vitest';
import { COMBO_BOX_OPTION_LIMIT, visibleOptions } from './combo-box';

const contains = (label: string, query: string) => label.toLowerCase().includes(query.toLowerCase());
const options = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `o${i + 1}`, label: `Option ${i + 1}` }));

describe('visibleOptions (spec: above 200 options only 200 until 2 characters are typed)', () => {
  it.each([
    // [option count, query, shown, total, isCut]
    [10, '', 10, 10, false],
    [200, '', 200, 200, false],
    [201, '', 200, 201, true],
    [1000, '', 200, 1000, true],
    [1000, '1', 200, 272, true], // one character: still cut (272 labels contain "1")
    [1000, 'n ', 200, 1000, true], // a space does not count towards the 2 characters
    [1000, '12', 20, 20, false], // two characters: every match
    [1000, 'Option', 1000, 1000, false],
    [1000, 'nothing', 0, 0, false],
    [150, '1', 70, 70, false], // few enough matches: no cut even with one character
  ])('%i options, query %j → %i shown of %i, cut %s', (count, query, shown, total, isCut) => {
    const result = visibleOptions(options(count), query, contains);
    expect(result.shown).toHaveLength(shown);
    expect(result.total).toBe(total);
    expect(result.isCut).toBe(isCut);
  });

  it('keeps the caller’s order and takes the first 200', () => {
    const { shown } = visibleOptions(options(500), '', contains);
    expect(shown[0]?.id).toBe('o1');
    expect(shown[COMBO_BOX_OPTION_LIMIT - 1]?.id).toBe('o200');
  });

  it('keeps the chosen option in the list even beyond the first 200', () => {
    const { shown, total } = visibleOptions(options(500), '', contains, 'o450');
    expect(shown[0]?.id).toBe('o450');
    expect(shown).toHaveLength(201);
    expect(total).toBe(500);
  });

  it('does not repeat the chosen option when it is already shown', () => {
    const { shown } = visibleOptions(options(500), '', contains, 'o3');
    expect(shown.filter((o) => o.id === 'o3')).toHaveLength(1);
    expect(shown).toHaveLength(200);
  });

  it('ignores a chosen id that is not among the items', () => {
    expect(visibleOptions(options(5), '', contains, 'gone').shown).toHaveLength(5);
  });

  it('does not change the items it is given', () => {
    const items = options(300);
    visibleOptions(items, '', contains, 'o299');
    expect(items).toHaveLength(300);
    expect(items[0]?.id).toBe('o1');
  });
});
