import type { Ctx } from '~/core/context';

/**
 * Every mutation writes one history row (ARCHITECTURE §8), in the same transaction as the change;
 * the spec's history events are views of these rows.
 */
export async function recordHistory(
  ctx: Ctx,
  entry: { entity: string; entityId: string; action: string; data?: unknown },
): Promise<void> {
  await ctx.trx('history').insert({
    entity: entry.entity,
    entity_id: entry.entityId,
    action: entry.action,
    user_id: ctx.auth?.user.id ?? null,
    at: ctx.now,
    data: entry.data === undefined ? null : JSON.stringify(entry.data),
  });
}
