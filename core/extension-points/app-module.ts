import type { z } from 'zod';
import type { ApiCall } from '~/core/api/define-call';
import type { Migration } from '~/core/db/migrate';
import type { Trx } from '~/core/db/with-tenant';
import type { JobDefinition } from '~/core/jobs/define-job';
import type { AppModuleId } from '~/core/modules/app-modules';
import type { Access } from '~/core/permissions/access';
import type { Permission } from '~/core/permissions/permissions';
import type { PluginBase } from './plugin';

/**
 * A page an app module adds. `app/routes.ts` reads each plugin's `routes.ts` (a default export of
 * these, plain data: it is read at build time, before any of Ordo is loaded) and mounts the
 * pages under their parent.
 */
export interface PluginRoute {
  /** `inventory`: under /inventory, with its tab bar; `app`: anywhere in the signed-in shell. */
  parent: 'inventory' | 'app';
  /** Path under the parent, without a leading slash: `doorautomatics`, `doorautomatics/:id`. */
  path: string;
  /** The route module, relative to the plugin's folder: `routes/door-automatics.tsx`. */
  file: string;
}

/** What an app module contributes. Its migrations apply to every tenant schema, enabled or not. */
export interface AppModule {
  /**
   * The app module (spec section 6) that switches this plugin on and off per tenant. While it is
   * off, the plugin's links are hidden and its pages and API calls answer 404, as if they did not
   * exist; user type super bypasses module gating, here too.
   */
  moduleId?: AppModuleId;
  /**
   * Top-bar links: path, i18n key of the label, the permission that shows it, and the top bar's menu
   * that holds it (app/components/shell/nav.ts NAV_GROUPS; registers unless told).
   */
  navLinks?: { to: string; labelKey: string; permission?: string; group?: 'sales' | 'finance' | 'registers' }[];
  /** Tabs under /inventory: path, i18n key (`ns:key`), and the access that shows it. */
  inventoryLinks?: { to: string; labelKey: string; access: Access }[];
  /** Permission strings this module uses; each must be in the catalogue (core/permissions). */
  permissions?: string[];
  /** REST calls under /api, declared like the catalogue's (core/api/define-call). */
  apiCalls?: ApiCall[];
  /** The module's pages, as its `routes.ts` lists them (the registry checks them). */
  routes?: PluginRoute[];
  migrations?: Migration[];
  /**
   * Records of this module that carry files (core/files/owners.ts): the kind's name in file
   * calls (`/file/generic/<kind>/<id>`), the table its ids are in, and who may see and change them.
   */
  fileOwners?: { kind: string; table: string; read: Permission; edit: Permission }[];
  jobs?: JobDefinition<z.ZodType>[];
  /** Rows for the demo company (`npm start`), inserted after the core registers' demo rows. */
  seedDemo?: (trx: Trx) => Promise<void>;
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

/** What is wrong with a plugin page (null when nothing): a bad parent, an absolute path, a file outside the plugin. */
export function pluginRouteProblem(r: PluginRoute): string | null {
  if (r.parent !== 'inventory' && r.parent !== 'app') return `route ${JSON.stringify(r.path)}: unknown parent`;
  if (!r.path || r.path.startsWith('/')) return `route ${JSON.stringify(r.path)}: the path must be relative`;
  if (!/^[\w./-]+\.tsx?$/.test(r.file) || r.file.split('/').includes('..') || r.file.startsWith('/'))
    return `route ${JSON.stringify(r.path)}: the file must be a .tsx inside the plugin's folder`;
  return null;
}

/**
 * The pages every plugin adds under `parent`, as React Router route entries: `manifests` maps each
 * plugin's `routes.ts` (as `import.meta.glob` names it from `app/`) to its list. Files become
 * relative to `app/`; ids are `plugin-<folder>-<path>` so they never clash with the app's.
 */
export function pluginRoutes(
  parent: PluginRoute['parent'],
  manifests: Record<string, PluginRoute[]>,
): { path: string; file: string; id: string }[] {
  return Object.entries(manifests)
    .sort(([x], [y]) => x.localeCompare(y))
    .flatMap(([manifest, routes]) => {
      const folder = manifest.replace(/\/routes\.ts$/, '');
      const name = folder.split('/').pop()!;
      return routes
        .filter((r) => r.parent === parent)
        .map((r) => {
          const problem = pluginRouteProblem(r);
          if (problem) throw new Error(`plugins/${name}/routes.ts: ${problem}`);
          return { path: r.path, file: `${folder}/${r.file}`, id: `plugin-${name}-${r.path.replace(/[^\w]+/g, '-')}` };
        });
    });
}
