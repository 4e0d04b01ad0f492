import { z } from 'zod';
import type { Ctx } from '~/core/context';
import { isUuid, parseInput } from '~/core/errors/validation';
import { hasAccess, requireAccess } from '~/core/permissions/access';
import {
  CATALOGUE_ACCESS,
  catalogueProducts,
  PICKER_RESULTS,
  SUPPLIER_OPTION_PREFIX,
} from '~/core/supplier-catalogues/catalogue.service';
import { containsPattern, MAX_PAGE_SIZE } from '~/core/registers/list-query';
import { ARTICLE_SEARCH_SQL } from './article.service';

export interface ArticleOption {
  id: string;
  /** "articleId – title", as the spec's pickers show an article. */
  label: string;
  description?: string;
}

const ZOptionsQuery = z.object({
  q: z.string().trim().max(200).optional(),
  /** The article pickers of rows (work order, proposal): supplier catalogues' articles too. */
  supplierInventory: z.boolean().optional(),
  groupId: z
    .string()
    .optional()
    .transform((v) => (v ? v : undefined)),
});

/**
 * The article picker's options (spec section 5): only active articles can be picked, optionally
 * of one group; searched with the trigram index, at most 200 (the picker says when there were
 * more). One query for the options, one for the count.
 */
export async function articleOptions(ctx: Ctx, raw: unknown): Promise<{ options: ArticleOption[]; total: number }> {
  requireAccess(ctx.auth, { permission: 'articles:read' });
  const { q, groupId, supplierInventory } = parseInput(ZOptionsQuery, raw);
  if (groupId && !isUuid(groupId)) return { options: [], total: 0 };
  const base = ctx.trx('articles as a').where('a.status', 'active');
  if (groupId) base.where('a.article_group_id', groupId);
  if (q) base.whereRaw(`${ARTICLE_SEARCH_SQL} like ?`, [containsPattern(q)]);
  const [{ n }] = (await base.clone().count({ n: '*' })) as { n: string | number }[];
  const rows = (await base
    .clone()
    .select('a.id', 'a.article_id', 'a.title', 'a.unit', ctx.trx.raw('a.price::text as price'))
    .orderByRaw('lower(a.title), a.id')
    .limit(MAX_PAGE_SIZE)) as { id: string; article_id: string; title: string; unit: string | null; price: string }[];
  const own = rows.map((r) => ({
    id: r.id,
    label: `${r.article_id} – ${r.title}`,
    ...(r.unit ? { description: r.unit } : {}),
  }));
  // spec section 9: the article picker adds up to 10 supplier-inventory results
  const supplier =
    supplierInventory && q && !groupId && hasAccess(ctx.auth, CATALOGUE_ACCESS.search)
      ? (await catalogueProducts(ctx, { q, limit: PICKER_RESULTS })).products.map((p) => ({
          id: `${SUPPLIER_OPTION_PREFIX}${p.id}`,
          label: `${p.articleNumber} – ${p.articleTitle}`,
          description: p.supplierTitle,
        }))
      : [];
  return { total: Number(n), options: [...own, ...supplier] };
}
