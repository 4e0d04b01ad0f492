import fs from 'node:fs';
import path from 'node:path';
import type { ApiCall } from '~/core/api/define-call';
import type { Migration } from '~/core/db/migrate';
import { APP_MODULES, type AppModuleId } from '~/core/modules/app-modules';
import { isPermission, type Permission } from '~/core/permissions/permissions';
import { pluginRouteProblem, type AppModule, type AppModuleDefinition } from './app-module';
import type { ErpProvider, ErpProviderDefinition } from './erp-provider';
import type { Geocoder, GeocoderDefinition } from './geocoder';
import type { InvoiceTemplate, InvoiceTemplateDefinition } from './invoice-template';

export type PluginDefinition =
  ErpProviderDefinition | InvoiceTemplateDefinition | AppModuleDefinition | GeocoderDefinition;

export class PluginError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PluginError';
  }
}

interface Loaded<D, I> {
  definition: D;
  instance: I;
}

export interface Registry {
  erpProviders: Map<string, Loaded<ErpProviderDefinition, ErpProvider>>;
  invoiceTemplates: Map<string, Loaded<InvoiceTemplateDefinition, InvoiceTemplate>>;
  appModules: Map<string, Loaded<AppModuleDefinition, AppModule>>;
  geocoders: Map<string, Loaded<GeocoderDefinition, Geocoder>>;
  /** Every plugin id, for per-tenant enablement checks. */
  ids: Set<string>;
}

const KINDS = new Set(['erp', 'invoice-template', 'app-module', 'geocoder']);
const ID = /^[a-z][a-z0-9-]{1,49}$/;

function isDefinition(value: unknown): value is PluginDefinition {
  const v = value as Partial<PluginDefinition> | null;
  return Boolean(
    v &&
    typeof v === 'object' &&
    KINDS.has(v.kind as string) &&
    typeof v.id === 'string' &&
    typeof v.create === 'function' &&
    v.options &&
    typeof (v.options as { safeParse?: unknown }).safeParse === 'function',
  );
}

/**
 * Builds the registry from plugin definitions, validating each plugin's boot options. A bad
 * option or a duplicate id throws PluginError naming the plugin and every problem.
 */
export function buildRegistry(definitions: PluginDefinition[], options: Record<string, unknown>): Registry {
  const registry: Registry = {
    erpProviders: new Map(),
    invoiceTemplates: new Map(),
    appModules: new Map(),
    geocoders: new Map(),
    ids: new Set(),
  };
  const problems: string[] = [];
  for (const def of definitions) {
    if (!ID.test(def.id)) {
      problems.push(`plugin id ${JSON.stringify(def.id)} must be kebab-case`);
      continue;
    }
    if (registry.ids.has(def.id)) {
      problems.push(`plugin id "${def.id}" is defined twice`);
      continue;
    }
    const parsed = def.options.safeParse(options[def.id] ?? {});
    if (!parsed.success) {
      for (const issue of parsed.error.issues)
        problems.push(`plugin "${def.id}": option ${issue.path.join('.') || '(root)'}: ${issue.message}`);
      continue;
    }
    registry.ids.add(def.id);
    // Each kind's factory gets its own parsed options; the casts only narrow the union.
    if (def.kind === 'erp') registry.erpProviders.set(def.id, { definition: def, instance: def.create(parsed.data) });
    else if (def.kind === 'invoice-template')
      registry.invoiceTemplates.set(def.id, { definition: def, instance: def.create(parsed.data) });
    else if (def.kind === 'geocoder')
      registry.geocoders.set(def.id, { definition: def, instance: def.create(parsed.data) });
    else {
      const instance = def.create(parsed.data);
      problems.push(...appModuleProblems(def.id, instance, registry));
      registry.appModules.set(def.id, { definition: def, instance });
    }
  }
  for (const id of Object.keys(options))
    if (!definitions.some((d) => d.id === id))
      problems.push(`PLUGIN_OPTIONS names "${id}", which is not an installed plugin`);
  if (!registry.erpProviders.has('none') && problems.length === 0)
    problems.push('the built-in ERP provider "none" is missing (plugins/erp-none)');
  if (problems.length) {
    throw new PluginError(
      `Ordo cannot start: ${problems.length} plugin problem(s):\n${problems.map((p) => `  - ${p}`).join('\n')}`,
    );
  }
  return registry;
}

const accessProblem = (where: string, access: { permission: string; module?: string } | undefined) =>
  !access
    ? `${where} declares no access`
    : !['public', 'signed-in'].includes(access.permission) && !isPermission(access.permission)
      ? `${where} needs "${access.permission}", which is not a permission`
      : access.module && !(APP_MODULES as readonly string[]).includes(access.module)
        ? `${where} names the unknown app module "${access.module}"`
        : null;

/**
 * What is wrong with what an app module contributes: an unknown app module or permission, a call
 * or page without access, or a call another plugin already serves. Checked at boot, so a broken
 * plugin stops the server with its name instead of failing on a request.
 */
function appModuleProblems(id: string, m: AppModule, registry: Registry): string[] {
  const problems: string[] = [];
  const at = (what: string) => `plugin "${id}": ${what}`;
  if (m.moduleId && !(APP_MODULES as readonly string[]).includes(m.moduleId))
    problems.push(at(`moduleId "${m.moduleId}" is not an app module (core/modules/app-modules.ts)`));
  for (const p of m.permissions ?? [])
    if (!isPermission(p)) problems.push(at(`permission "${p}" is not in the catalogue (core/permissions)`));
  const taken = new Set(pluginApiCalls(registry).map(({ call }) => `${call.method} ${call.path}`));
  for (const call of m.apiCalls ?? []) {
    const key = `${call.method} ${call.path}`;
    if (!call.path.startsWith('/')) problems.push(at(`API call ${key} must start with /`));
    if (taken.has(key)) problems.push(at(`API call ${key} is served twice`));
    taken.add(key);
    const problem = accessProblem(`API call ${key}`, call.access);
    if (problem) problems.push(at(problem));
  }
  for (const r of m.routes ?? []) {
    const problem = pluginRouteProblem(r);
    if (problem) problems.push(at(problem));
  }
  for (const l of m.inventoryLinks ?? []) {
    if (!l.to.startsWith('/inventory/')) problems.push(at(`inventory link ${l.to} must be under /inventory/`));
    const problem = accessProblem(`inventory link ${l.to}`, l.access);
    if (problem) problems.push(at(problem));
  }
  return problems;
}

/**
 * The API calls app-module plugins serve, each with the app module that gates it (the API router
 * answers 404 while the tenant has that module off).
 */
export function pluginApiCalls(registry: Registry): { pluginId: string; moduleId?: AppModuleId; call: ApiCall }[] {
  return [...registry.appModules.values()].flatMap((m) =>
    (m.instance.apiCalls ?? []).map((call) => ({
      pluginId: m.definition.id,
      moduleId: m.instance.moduleId,
      call,
    })),
  );
}

/**
 * How a plugin's index.ts is imported. By default the process's own `import()`, which reads
 * TypeScript under tsx or Vite; the production server passes tsx's scoped import instead, so only
 * the plugins go through tsx and its built bundle loads as plain JavaScript (see server/index.ts).
 */
export type ModuleImporter = (file: string) => Promise<unknown>;
const nativeImport: ModuleImporter = (file) => import(/* @vite-ignore */ file);

/** Finds plugins: every folder under `dir` with an index.ts default-exporting a definition. */
export async function discoverPlugins(
  dir: string,
  importModule: ModuleImporter = nativeImport,
): Promise<PluginDefinition[]> {
  if (!fs.existsSync(dir)) return [];
  const found: PluginDefinition[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    if (!entry.isDirectory()) continue;
    const file = ['index.ts', 'index.js'].map((f) => path.join(dir, entry.name, f)).find((f) => fs.existsSync(f));
    if (!file) continue;
    const mod = (await importModule(file)) as { default?: unknown };
    if (!isDefinition(mod.default))
      throw new PluginError(
        `plugins/${entry.name}/index.ts must default-export defineErpProvider, defineInvoiceTemplate, defineAppModule or defineGeocoder`,
      );
    found.push(mod.default);
  }
  return found;
}

export const PLUGINS_DIR = path.resolve(process.cwd(), 'plugins');

let current: Registry | undefined;

export async function loadRegistry(
  options: Record<string, unknown>,
  dir = PLUGINS_DIR,
  importModule?: ModuleImporter,
): Promise<Registry> {
  current = buildRegistry(await discoverPlugins(dir, importModule), options);
  return current;
}

export function getRegistry(): Registry {
  if (!current) throw new Error('Plugins are not loaded yet (loadRegistry was not called)');
  return current;
}

/** Tenant migrations contributed by app-module plugins, applied after the core ones. */
export function pluginMigrations(registry: Registry): Migration[] {
  return [...registry.appModules.values()].flatMap((m) =>
    (m.instance.migrations ?? []).map((mig) => ({ ...mig, name: `plugin-${m.definition.id}-${mig.name}` })),
  );
}

/** The record kinds app modules add that carry files, with the module that gates each. */
export function pluginFileOwners(
  registry: Registry,
): { moduleId?: AppModuleId; kind: string; table: string; read: Permission; edit: Permission }[] {
  return [...registry.appModules.values()].flatMap((m) =>
    (m.instance.fileOwners ?? []).map((o) => ({ ...o, moduleId: m.instance.moduleId })),
  );
}
