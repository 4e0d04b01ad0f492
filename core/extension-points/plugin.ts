import type { z } from 'zod';
import type { Migration } from '~/core/db/migrate';

/** What every plugin definition has: an id, a zod schema for its boot options, and a factory. */
export interface PluginBase<Kind extends string, Options, Instance> {
  kind: Kind;
  /** Unique across all plugins, kebab-case; for ERP providers the spec's ERP kind (fortnox, visma, …). */
  id: string;
  /** Options given at boot (PLUGIN_OPTIONS[id]); validated before the server starts. */
  options: z.ZodType<Options>;
  /** Per-tenant settings (credentials and the like), stored encrypted; validated when a tenant enables it. */
  tenantOptions?: z.ZodType<unknown>;
  create(options: Options): Instance;
}
export type { Migration };
