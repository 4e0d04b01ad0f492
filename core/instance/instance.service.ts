import { z } from 'zod';
import type { Ctx } from '~/core/context';
import { recordHistory } from '~/core/history/history';
import { CONTROL_SCHEMA } from '~/core/db/identifiers';
import { parseInput } from '~/core/errors/validation';
import { requireAccess } from '~/core/permissions/access';
import { invalidateHostCache } from '~/tenants/registry';
import { COUNTRIES, DATE_FORMATS, LANGUAGE_KEYS, ZInstanceConfig, type TInstanceConfig } from './instance-config';

export const ZUpdateInstance = z.object({
  displayName: z
    .string({ error: 'ERROR_REQUIRED_FIELD' })
    .trim()
    .min(1, 'ERROR_REQUIRED_FIELD')
    .max(200, 'ERROR_MAX_LENGTH'),
  country: z.enum(COUNTRIES, { error: 'ERROR_INVALID_VALUE' }),
  languageKey: z.enum(LANGUAGE_KEYS, { error: 'ERROR_INVALID_VALUE' }),
  dateFormat: z.enum(DATE_FORMATS, { error: 'ERROR_INVALID_VALUE' }),
  currencySymbol: z
    .string({ error: 'ERROR_REQUIRED_FIELD' })
    .trim()
    .min(1, 'ERROR_REQUIRED_FIELD')
    .max(5, 'ERROR_MAX_LENGTH'),
  logoUrl: z
    .string()
    .trim()
    .max(2000, 'ERROR_MAX_LENGTH')
    .transform((v) => (v === '' ? null : v))
    .pipe(z.url({ protocol: /^https?$/, error: 'ERROR_INVALID_VALUE' }).nullable()),
});

export function getInstance(ctx: Ctx) {
  return { displayName: ctx.tenant.displayName, configuration: ctx.tenant.config };
}

/**
 * Saves the instance configuration (spec section 3). The registry row and the history row are
 * written in the same transaction: the control table is addressed by its schema.
 */
export async function updateInstance(ctx: Ctx, raw: unknown): Promise<TInstanceConfig> {
  requireAccess(ctx.auth, { permission: 'instance:edit' });
  const input = parseInput(ZUpdateInstance, raw);
  const config = ZInstanceConfig.parse({
    country: input.country,
    languageKey: input.languageKey,
    dateFormat: input.dateFormat,
    currency: { symbol: input.currencySymbol },
    logoUrl: input.logoUrl,
  });
  await ctx.trx
    .withSchema(CONTROL_SCHEMA)
    .table('tenants')
    .where({ id: ctx.tenant.id })
    .update({ display_name: input.displayName, config, updated_at: ctx.now });
  await recordHistory(ctx, { entity: 'instance', entityId: ctx.tenant.id, action: 'edit', data: input });
  invalidateHostCache();
  return config;
}
