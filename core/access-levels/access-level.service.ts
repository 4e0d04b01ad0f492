import type { Ctx } from '~/core/context';
import { notFound } from '~/core/errors/app-error';
import { requireAccess } from '~/core/permissions/access';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** One access level. An id of another tenant is simply not in this schema: 404 like any other. */
export async function getAccessLevel(ctx: Ctx, id: string) {
  requireAccess(ctx.auth, { permission: 'accesslevels:read' });
  if (!UUID.test(id)) throw notFound();
  const row = await ctx.trx('access_levels').where({ id }).first();
  if (!row) throw notFound();
  return {
    id: row.id as string,
    displayName: row.display_name as string,
    description: row.description as string | null,
    configuration: row.configuration as Record<string, unknown>,
    permissions: row.permissions as string[],
  };
}
