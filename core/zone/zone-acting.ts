import type { Auth, Ctx } from '~/core/context';
import type { Permission } from '~/core/permissions/permissions';

/**
 * The office's own service functions run for a customer's answer in the zone (decision 063): the
 * zone call first finds the record in the customer's scope (SQL names the session's customer),
 * then calls the office function — accepting a proposal, approving extra work, printing a PDF —
 * so its rules stay in one place. Those functions check a staff permission; this is the staff
 * side the zone stands on: the record's own office person (the proposal's seller) with exactly
 * the permissions the one action needs, never a session, never more.
 */
export async function actingForZone(
  ctx: Ctx,
  officeUserId: string | null,
  permissions: readonly Permission[],
): Promise<Ctx> {
  const zone = ctx.zone;
  if (!zone) throw new Error('actingForZone outside a zone call');
  // the person the office function records; without a seller, the tenant's first super user
  const user = (await ctx
    .trx('users')
    .where((q) => {
      if (officeUserId) q.where({ id: officeUserId });
      else q.where({ user_type: 'super' });
    })
    .orderBy('created_at')
    .first('id', 'email', 'name', 'language')) as
    | { id: string; email: string; name: string; language: string | null }
    | undefined;
  if (!user) throw new Error('actingForZone: the tenant has no office user');
  const auth: Auth = {
    sessionId: `zone:${zone.sessionId}`,
    user: {
      id: user.id,
      email: user.email,
      fullName: user.name,
      shortName: null,
      initials: '',
      userType: 'normal',
      language: user.language ?? null,
      startPage: 'workorders',
    },
    perms: new Set(permissions),
    modules: zone.modules,
    limit: 'none',
    mustEnrollMfa: false,
  };
  return { ...ctx, auth };
}
