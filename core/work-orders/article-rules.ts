/**
 * Pure rules of the article rows on a work order (no database): what a save changed, for the
 * `add_articles` history row. The service applies them; unit tests pin them.
 */

/** A row as history compares it: money and quantities as canonical decimal text. */
export interface ArticleRowSnapshot {
  id: string;
  articleId: string;
  title: string;
  amount: string;
  price: string;
  discount: string;
  description: string | null;
}

export interface ArticleRowChanges {
  added: { articleId: string; title: string; amount: string }[];
  removed: { articleId: string; title: string; amount: string }[];
  changed: { articleId: string; title: string; changes: { field: string; old: unknown; new: unknown }[] }[];
}

const COMPARED = ['articleId', 'title', 'amount', 'price', 'discount', 'description'] as const;

/** What changed between the stored rows and the saved rows, matched by row id. */
export function articleRowChanges(
  before: readonly ArticleRowSnapshot[],
  after: readonly ArticleRowSnapshot[],
): ArticleRowChanges {
  const old = new Map(before.map((r) => [r.id, r]));
  const kept = new Set(after.map((r) => r.id));
  const out: ArticleRowChanges = { added: [], removed: [], changed: [] };
  for (const row of after) {
    const prev = old.get(row.id);
    if (!prev) {
      out.added.push({ articleId: row.articleId, title: row.title, amount: row.amount });
      continue;
    }
    const changes = COMPARED.filter((f) => (prev[f] ?? null) !== (row[f] ?? null)).map((field) => ({
      field,
      old: prev[field] ?? null,
      new: row[field] ?? null,
    }));
    if (changes.length) out.changed.push({ articleId: row.articleId, title: row.title, changes });
  }
  for (const row of before)
    if (!kept.has(row.id)) out.removed.push({ articleId: row.articleId, title: row.title, amount: row.amount });
  return out;
}

export const hasChanges = (c: ArticleRowChanges): boolean =>
  c.added.length > 0 || c.removed.length > 0 || c.changed.length > 0;
