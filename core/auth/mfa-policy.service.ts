import { z } from 'zod';
import type { Ctx } from '~/core/context';
import { recordHistory } from '~/core/history/history';
import { AppError } from '~/core/errors/app-error';
import { isUuid, parseInput } from '~/core/errors/validation';
import { requireAccess } from '~/core/permissions/access';

/** The tenant's MFA rule: nobody, everyone, or the holders of chosen access levels must use it. */
export const ZMfaPolicy = z.object({
  mfaRequired: z.enum(['off', 'all', 'levels'], { error: 'ERROR_INVALID_VALUE' }),
  mfaAccessLevelIds: z.array(z.string()).default([]),
});
export type TMfaPolicy = z.infer<typeof ZMfaPolicy>;

/** The rule and the access levels it can name. */
export async function getMfaPolicy(ctx: Ctx): Promise<TMfaPolicy & { levels: { id: string; displayName: string }[] }> {
  requireAccess(ctx.auth, { permission: 'settings:read' });
  const row = await ctx.trx('auth_settings').first('mfa_required', 'mfa_access_level_ids');
  const levels = await ctx.trx('access_levels').select('id', 'display_name').orderByRaw('lower(display_name)');
  return {
    mfaRequired: row?.mfa_required ?? 'off',
    mfaAccessLevelIds: row?.mfa_access_level_ids ?? [],
    levels: levels.map((l: { id: string; display_name: string }) => ({ id: l.id, displayName: l.display_name })),
  };
}

export async function updateMfaPolicy(ctx: Ctx, raw: unknown): Promise<void> {
  requireAccess(ctx.auth, { permission: 'instance:edit' });
  const input = parseInput(ZMfaPolicy, raw);
  const ids = input.mfaRequired === 'levels' ? [...new Set(input.mfaAccessLevelIds)] : [];
  if (input.mfaRequired === 'levels' && ids.length === 0)
    throw new AppError('VALIDATION_FAILED', 400, { fields: { mfaAccessLevelIds: ['ERROR_REQUIRED_FIELD'] } });
  const found = ids.length && ids.every(isUuid) ? await ctx.trx('access_levels').whereIn('id', ids).select('id') : [];
  if (found.length !== ids.length)
    throw new AppError('VALIDATION_FAILED', 400, { fields: { mfaAccessLevelIds: ['ERROR_INVALID_VALUE'] } });
  await ctx.trx('auth_settings').update({ mfa_required: input.mfaRequired, mfa_access_level_ids: ids });
  await recordHistory(ctx, {
    entity: 'auth_settings',
    entityId: 'mfa',
    action: 'edit',
    data: { mfaRequired: input.mfaRequired, mfaAccessLevelIds: ids },
  });
}
