import { z } from 'zod';
import type { Ctx } from '~/core/context';
import { AppError, permissionDenied } from '~/core/errors/app-error';
import { parseInput } from '~/core/errors/validation';
import { recordHistory } from '~/core/history/history';
import { requireAccess } from '~/core/permissions/access';
import { zOptionalMoney, zQuantity } from '~/core/pricing';
import { STOCK_MOVEMENT_TYPES } from './article.schema';
import { ARTICLE_ENTITY, canSeePurchasePrice, requireArticleRow } from './article.service';

export const ZStockMovement = z.object({
  amount: zQuantity(),
  /** What one unit cost when it came in (or went out); optional. */
  price: zOptionalMoney(),
  type: z.enum(STOCK_MOVEMENT_TYPES, { error: 'ERROR_INVALID_VALUE' }),
});

export interface StockMovement {
  id: string;
  type: 'add' | 'remove';
  amount: string;
  /** Unit price of the movement; only for people with articles:price. */
  price?: string | null;
  /** Stock after the movement. */
  balance: string;
  userName: string | null;
  at: string;
}

export const stockNotEnough = () =>
  new AppError('ERROR_STOCK_NOT_ENOUGH', 409, { fields: { amount: ['ERROR_STOCK_NOT_ENOUGH'] } });

/**
 * `POST /articles/{id}/stock {amount, price, type}`: adds to or removes from the stock and logs the
 * movement with the balance after it. Stock never goes below 0 (409 ERROR_STOCK_NOT_ENOUGH); the
 * check and the change are one statement, so two people taking the last unit cannot both succeed.
 */
export async function moveStock(ctx: Ctx, id: unknown, raw: unknown): Promise<{ stockAmount: string }> {
  requireAccess(ctx.auth, { permission: 'articles:edit' });
  const input = parseInput(ZStockMovement, raw);
  if (input.price !== null && !canSeePurchasePrice(ctx)) throw permissionDenied();
  const article = await requireArticleRow(ctx, id);
  const delta = input.type === 'add' ? input.amount : `-${input.amount}`;
  const [updated] = (await ctx
    .trx('articles')
    .where({ id: article.id as string })
    .whereRaw('stock_amount + ?::numeric >= 0', [delta])
    .update({ stock_amount: ctx.trx.raw('stock_amount + ?::numeric', [delta]), updated_at: ctx.now })
    .returning(ctx.trx.raw('stock_amount::text as stock_amount'))) as { stock_amount: string }[];
  if (!updated) throw stockNotEnough();
  await ctx.trx('stock_movements').insert({
    article_id: article.id,
    type: input.type,
    amount: input.amount,
    price: input.price,
    balance: updated.stock_amount,
    user_id: ctx.auth.user.id,
    at: ctx.now,
  });
  await recordHistory(ctx, {
    entity: ARTICLE_ENTITY,
    entityId: article.id as string,
    action: `stock.${input.type}`,
    data: { amount: input.amount, balance: updated.stock_amount },
  });
  return { stockAmount: updated.stock_amount };
}

export const ZPage = z.object({
  offset: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

/** `GET /articles/{id}/stock/history`: the article's stock movements, newest first, paged. */
export async function stockHistory(
  ctx: Ctx,
  id: unknown,
  raw: unknown = {},
): Promise<{ movements: StockMovement[]; totalCount: number }> {
  requireAccess(ctx.auth, { permission: 'articles:read' });
  const article = await requireArticleRow(ctx, id);
  const { offset, limit } = parseInput(ZPage, raw);
  const base = ctx.trx('stock_movements as m').where('m.article_id', article.id as string);
  const [{ n }] = (await base.clone().count({ n: '*' })) as { n: string | number }[];
  const rows = (await base
    .clone()
    .leftJoin('users as u', 'u.id', 'm.user_id')
    .select(
      'm.id',
      'm.type',
      ctx.trx.raw('m.amount::text as amount'),
      ctx.trx.raw('m.price::text as price'),
      ctx.trx.raw('m.balance::text as balance'),
      'm.at',
      'u.name as user_name',
    )
    .orderBy([
      { column: 'm.at', order: 'desc' },
      { column: 'm.id', order: 'desc' },
    ])
    .limit(limit)
    .offset(offset)) as Record<string, unknown>[];
  const withPrice = canSeePurchasePrice(ctx);
  return {
    totalCount: Number(n),
    movements: rows.map((r) => {
      const m: StockMovement = {
        id: String(r.id),
        type: r.type as StockMovement['type'],
        amount: r.amount as string,
        balance: r.balance as string,
        userName: (r.user_name as string | null) ?? null,
        at: new Date(r.at as string).toISOString(),
      };
      if (withPrice) m.price = (r.price as string | null) ?? null;
      return m;
    }),
  };
}
