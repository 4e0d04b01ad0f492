import type { Ctx } from '~/core/context';
import { notFound } from '~/core/errors/app-error';
import { isUuid } from '~/core/errors/validation';

/** An object as the sub-resources (codes, log, forms, prices) refer to it. */
export interface BoRef {
  id: string;
  serialCode: string;
}

/** The object, or 404 for an unknown id, an id of another tenant, or anything not a uuid. */
export async function requireBo(ctx: Ctx, id: unknown): Promise<BoRef> {
  if (!isUuid(id)) throw notFound();
  const row = await ctx.trx('business_objects').where({ id }).first('id', 'serial_code');
  if (!row) throw notFound();
  return { id: row.id as string, serialCode: row.serial_code as string };
}
