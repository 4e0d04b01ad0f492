import type { Trx } from '~/core/db/with-tenant';
import { z } from 'zod';
import type { Ctx } from '~/core/context';
import { recordHistory } from '~/core/history/history';
import { parseInput } from '~/core/errors/validation';
import { requireAccess } from '~/core/permissions/access';
import { APP_MODULES, type AppModuleId } from './app-modules';

/** One app module of the tenant. A module without a row in app_modules is off. */
export interface TAppModule {
  id: AppModuleId;
  enabled: boolean;
  configuration: Record<string, unknown>;
}

/**
 * PUT /instance/appmodule {appModuleId, configuration, enabled?}. Only the modules of
 * core/modules/app-modules.ts can be set (plugins are enabled per tenant through tenant_plugins);
 * `enabled` left out keeps the current state, or switches a module without a row on.
 */
export const ZSetAppModule = z.object({
  appModuleId: z.enum(APP_MODULES, { error: 'ERROR_INVALID_VALUE' }),
  configuration: z.record(z.string(), z.unknown(), { error: 'ERROR_INVALID_VALUE' }).optional(),
  enabled: z.boolean({ error: 'ERROR_INVALID_VALUE' }).optional(),
});
export type TSetAppModule = z.infer<typeof ZSetAppModule>;

/** Every known app module with whether this tenant has it on, in catalogue order. */
export async function listAppModules(ctx: Ctx): Promise<TAppModule[]> {
  requireAccess(ctx.auth, { permission: 'settings:read' });
  const rows = (await ctx.trx('app_modules').select('id', 'enabled', 'configuration')) as {
    id: string;
    enabled: boolean;
    configuration: Record<string, unknown> | null;
  }[];
  const byId = new Map(rows.map((r) => [r.id, r]));
  return APP_MODULES.map((id) => {
    const row = byId.get(id);
    return { id, enabled: row?.enabled ?? false, configuration: row?.configuration ?? {} };
  });
}

/**
 * Switches an app module on or off and/or replaces its configuration. Sessions read the enabled
 * modules on every request, so the change applies from the next request on, for every user.
 */
export async function setAppModule(ctx: Ctx, raw: unknown): Promise<TAppModule> {
  requireAccess(ctx.auth, { permission: 'instance:edit' });
  const input = parseInput(ZSetAppModule, raw);
  const current = (await ctx.trx('app_modules').where({ id: input.appModuleId }).first()) as
    { enabled: boolean; configuration: Record<string, unknown> | null } | undefined;
  const next: TAppModule = {
    id: input.appModuleId,
    enabled: input.enabled ?? current?.enabled ?? true,
    configuration: input.configuration ?? current?.configuration ?? {},
  };
  await ctx.trx.raw(
    `insert into app_modules (id, enabled, configuration) values (?, ?, ?::jsonb)
     on conflict (id) do update set enabled = excluded.enabled, configuration = excluded.configuration`,
    [next.id, next.enabled, JSON.stringify(next.configuration)],
  );
  await recordHistory(ctx, {
    entity: 'app_module',
    entityId: next.id,
    action: 'edit',
    data: { before: current ?? null, after: next },
  });
  return next;
}

/** Whether the tenant has a module switched on, for flows without a signed-in user (sign-in). */
export async function isModuleEnabled(trx: Trx, id: AppModuleId): Promise<boolean> {
  const row = await trx('app_modules').where({ id, enabled: true }).first('id');
  return Boolean(row);
}
