import type { Ctx } from '~/core/context';

export interface Option {
  id: string;
  label: string;
}

/** Price lists as select options (customer and object forms), by title. */
export async function priceListOptions(ctx: Ctx): Promise<Option[]> {
  const rows = await ctx.trx('price_lists').select('id', 'title').orderByRaw('lower(title), id');
  return rows.map((r: { id: string; title: string }) => ({ id: r.id, label: r.title }));
}

/** Article groups as select options, labelled "ID – name". */
export async function articleGroupOptions(ctx: Ctx): Promise<Option[]> {
  const rows = await ctx.trx('article_groups').select('id', 'title', 'display_name').orderByRaw('lower(title), id');
  return rows.map((r: { id: string; title: string; display_name: string }) => ({
    id: r.id,
    label: r.display_name && r.display_name !== r.title ? `${r.title} – ${r.display_name}` : r.title,
  }));
}
