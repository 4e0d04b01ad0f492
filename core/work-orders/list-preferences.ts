import { z } from 'zod';
import type { Ctx } from '~/core/context';
import { invalidSession } from '~/core/errors/app-error';
import { parseInput } from '~/core/errors/validation';
import { ZWorkOrderListQuery } from './work-order.schema';

/**
 * The work-order list's filters and sort, remembered per user (spec section 2): the list's query
 * string, kept in `users.configuration.ui.workOrderList`. Paging is not remembered.
 */
const NOT_REMEMBERED = new Set(['from', 'size', 'index']);

/** The query string worth remembering: known list parameters only, checked like the list call does. */
export function rememberedQuery(query: string): string {
  const params = new URLSearchParams(query);
  const kept = new URLSearchParams();
  const known = new Set(Object.keys(ZWorkOrderListQuery.shape));
  for (const [k, v] of params) if (known.has(k) && !NOT_REMEMBERED.has(k) && v !== '') kept.append(k, v);
  // a query the list call would refuse is not worth keeping
  if (!ZWorkOrderListQuery.safeParse(Object.fromEntries(kept)).success) return '';
  return kept.toString();
}

export async function getListPreferences(ctx: Ctx): Promise<string> {
  if (!ctx.auth) throw invalidSession();
  const row = await ctx
    .trx('users')
    .where({ id: ctx.auth.user.id })
    .first(ctx.trx.raw(`configuration #>> '{ui,workOrderList}' as query`));
  return rememberedQuery(typeof row?.query === 'string' ? row.query : '');
}

const ZSave = z.object({ query: z.string().max(4000, 'ERROR_MAX_LENGTH') });

/** Remembers the list's filters and sort; other UI preferences are kept. */
export async function saveListPreferences(ctx: Ctx, raw: unknown): Promise<void> {
  if (!ctx.auth) throw invalidSession();
  const { query } = parseInput(ZSave, raw);
  await setUiPreference(ctx, 'workOrderList', rememberedQuery(query));
}

/** Sets one key of the signed-in user's `configuration.ui`, keeping the others. */
export async function setUiPreference(ctx: Ctx, key: string, value: unknown): Promise<void> {
  if (!ctx.auth) throw invalidSession();
  await ctx
    .trx('users')
    .where({ id: ctx.auth.user.id })
    .update({
      configuration: ctx.trx.raw(
        `configuration || jsonb_build_object('ui', coalesce(configuration -> 'ui', '{}'::jsonb) || jsonb_build_object(?::text, ?::jsonb))`,
        [key, JSON.stringify(value)],
      ),
    });
}

/** One key of the signed-in user's `configuration.ui` (undefined when never set). */
export async function getUiPreference(ctx: Ctx, key: string): Promise<unknown> {
  if (!ctx.auth) throw invalidSession();
  const row = await ctx
    .trx('users')
    .where({ id: ctx.auth.user.id })
    .first(ctx.trx.raw(`configuration -> 'ui' -> ? as value`, [key]));
  return row?.value ?? undefined;
}
