import type { z } from 'zod';
import type { Migration } from '~/core/db/migrate';
import type { JobDefinition } from '~/core/jobs/define-job';
import type { PluginBase } from './plugin';

/** What an app module contributes. Its migrations apply to every tenant schema, enabled or not. */
export interface AppModule {
  /** Top-bar links: path, i18n key of the label, and the permission that shows it. */
  navLinks?: { to: string; labelKey: string; permission?: string }[];
  /** Extra permission strings this module introduces. */
  permissions?: string[];
  migrations?: Migration[];
  jobs?: JobDefinition<z.ZodType>[];
}

export type AppModuleDefinition<O = unknown> = PluginBase<'app-module', O, AppModule>;

export function defineAppModule<O>(def: {
  id: string;
  options: z.ZodType<O>;
  tenantOptions?: z.ZodType<unknown>;
  create(options: O): AppModule;
}): AppModuleDefinition<O> {
  return { kind: 'app-module', ...def };
}
