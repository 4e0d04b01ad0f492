import { describe, expect, it } from 'vitest';
import { articleRowChanges, hasChanges, type ArticleRowSnapshot } from './article-rules';

const row = (id: string, over: Partial<ArticleRowSnapshot> = {}): ArticleRowSnapshot => ({
  id,
  articleId: `a-${id}`,
  title: `Artikel ${id}`,
  amount: '1.000',
  price: '100.00',
  discount: '',
  description: null,
  ...over,
});

describe('[work orders] article row changes', () => {
  it('lists added, removed and changed rows by row id', () => {
    const before = [row('1'), row('2'), row('3')];
    const after = [row('1'), row('3', { amount: '2.000', discount: '10%' }), row('4')];
    const c = articleRowChanges(before, after);
    expect(c.added).toEqual([{ articleId: 'a-4', title: 'Artikel 4', amount: '1.000' }]);
    expect(c.removed).toEqual([{ articleId: 'a-2', title: 'Artikel 2', amount: '1.000' }]);
    expect(c.changed).toEqual([
      {
        articleId: 'a-3',
        title: 'Artikel 3',
        changes: [
          { field: 'amount', old: '1.000', new: '2.000' },
          { field: 'discount', old: '', new: '10%' },
        ],
      },
    ]);
    expect(hasChanges(c)).toBe(true);
  });

  it('finds nothing when the rows are the same', () => {
    const c = articleRowChanges([row('1')], [row('1')]);
    expect(c).toEqual({ added: [], removed: [], changed: [] });
    expect(hasChanges(c)).toBe(false);
  });
});
