import { z } from 'zod';
import type { Ctx } from '~/core/context';
import { CONTROL_SCHEMA } from '~/core/db/identifiers';
import { parseInput } from '~/core/errors/validation';
import { recordHistory } from '~/core/history/history';
import { storedConfig } from '~/core/instance/instance.service';
import {
  MAX_OBJECT_ID_LENGTH,
  OBJECT_KINDS,
  ZInstanceConfig,
  type TObjectSettings,
} from '~/core/instance/instance-config';
import { requireAccess } from '~/core/permissions/access';
import { invalidateHostCacheAfterCommit } from '~/tenants/registry';

/**
 * The object settings of the instance (settings → object; spec sections 1 and 5): what the
 * instance calls its objects (`kind`, the wording) and the minimum length of a proposed object id
 * (`minIdLength`, a positive number; GET /bo/id/propose without ?length uses it). Kept in the
 * instance configuration next to the company details, so every request has them without a query.
 */

export const OBJECT_SETTINGS_ENTITY = 'business_object_settings';

/** PATCH /instance/bo: any of the settings; what is left out keeps its value. */
export const ZObjectSettingsPatch = z
  .object({
    kind: z.enum(OBJECT_KINDS, { error: 'ERROR_INVALID_VALUE' }).optional(),
    minIdLength: z.coerce
      .number({ error: 'ERROR_INVALID_VALUE' })
      .int('ERROR_INVALID_VALUE')
      .min(1, 'ERROR_INVALID_VALUE')
      .max(MAX_OBJECT_ID_LENGTH, 'ERROR_INVALID_VALUE')
      .optional(),
  })
  .strict();

/** GET /instance/bo: every signed-in user may read them (object forms and pages word by them). */
export async function getObjectSettings(ctx: Ctx): Promise<TObjectSettings> {
  requireAccess(ctx.auth, { permission: 'signed-in' });
  return (await storedConfig(ctx)).objects;
}

/**
 * PATCH /instance/bo {kind?, minIdLength?}: saves the settings given (instance:edit), the
 * registry row and one history row in the caller's transaction. Answers the full settings.
 */
export async function updateObjectSettings(ctx: Ctx, raw: unknown): Promise<TObjectSettings> {
  requireAccess(ctx.auth, { permission: 'instance:edit' });
  const patch = parseInput(ZObjectSettingsPatch, raw);
  const stored = await storedConfig(ctx);
  const objects: TObjectSettings = {
    kind: patch.kind ?? stored.objects.kind,
    minIdLength: patch.minIdLength ?? stored.objects.minIdLength,
  };
  const config = ZInstanceConfig.parse({ ...stored, objects });
  await ctx.trx
    .withSchema(CONTROL_SCHEMA)
    .table('tenants')
    .where({ id: ctx.tenant.id })
    .update({ config, updated_at: ctx.now });
  await recordHistory(ctx, { entity: OBJECT_SETTINGS_ENTITY, entityId: ctx.tenant.id, action: 'edit', data: patch });
  invalidateHostCacheAfterCommit(ctx.trx);
  return objects;
}
