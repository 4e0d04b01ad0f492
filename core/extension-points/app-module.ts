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

export function defineAppModule<S extends z.ZodType>(def: {
  id: string;
  options: S;
  tenantOptions?: z.ZodType<unknown>;
  create(options: z.infer<S>): AppModule;
}): AppModuleDefinition<z.infer<S>> {
  return { kind: 'app-module', ...def };
}
