import { z } from 'zod';
import type { Ctx } from '~/core/context';
import { parseInput } from '~/core/errors/validation';

export const ZProposeQuery = z.object({ length: z.coerce.number().int().min(1).max(12).default(5) });

/**
 * Proposes the next free number of `length` digits for a register's number column (customer
 * number, article ID, serial code, supplier number): one more than the largest all-digit value of
 * that length, or 1 followed by zeros when there is none. One indexed query; the unique index
 * still decides if two people take the same proposal at once.
 */
export async function proposeNumber(
  ctx: Ctx,
  table: string,
  column: string,
  raw: unknown,
  where?: Record<string, unknown>,
): Promise<{ id: string }> {
  const { length } = parseInput(ZProposeQuery, raw);
  const q = ctx
    .trx(table)
    .whereRaw(`?? ~ ?`, [column, `^[0-9]{${length}}$`])
    .max({ max: column });
  if (where) q.where(where);
  const [{ max }] = (await q) as { max: string | null }[];
  const first = 10n ** BigInt(length - 1);
  const next = max ? BigInt(max) + 1n : first;
  // All numbers of this length are taken: propose one digit longer rather than a wrong length.
  return { id: (next < first ? first : next).toString() };
}
