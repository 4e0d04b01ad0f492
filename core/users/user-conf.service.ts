import { z } from 'zod';
import type { Ctx } from '~/core/context';
import { recordHistory } from '~/core/history/history';
import { parseInput } from '~/core/errors/validation';
import { invalidSession } from '~/core/errors/app-error';
import { LANGUAGE_KEYS } from '~/core/instance/instance-config';

/** PATCH /users/conf: one of ui, language, startPage (spec: failures are only logged by the client). */
export const ZUserConf = z
  .object({
    language: z.enum(LANGUAGE_KEYS, { error: 'ERROR_INVALID_VALUE' }).optional(),
    startPage: z.enum(['workorders', 'dashboard'], { error: 'ERROR_INVALID_VALUE' }).optional(),
    ui: z.record(z.string(), z.unknown()).optional(),
  })
  .refine((v) => v.language !== undefined || v.startPage !== undefined || v.ui !== undefined, {
    message: 'ERROR_REQUIRED_FIELD',
  });

export async function updateUserConf(ctx: Ctx, raw: unknown): Promise<void> {
  const input = parseInput(ZUserConf, raw);
  if (!ctx.auth) throw invalidSession();
  const patch: Record<string, unknown> = {};
  if (input.language) patch.language = input.language;
  const conf: Record<string, unknown> = {};
  if (input.startPage) conf.startPage = input.startPage;
  if (input.ui) conf.ui = input.ui;
  await ctx
    .trx('users')
    .where({ id: ctx.auth.user.id })
    .update({
      ...patch,
      configuration: ctx.trx.raw(`configuration || ?::jsonb`, [JSON.stringify(conf)]),
      updated_at: ctx.now,
    });
  await recordHistory(ctx, { entity: 'user', entityId: ctx.auth.user.id, action: 'edit.conf', data: input });
}
