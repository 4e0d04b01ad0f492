import { open, seal, type SealContext } from '~/core/crypto/secret-box';
import { afterCommit, withControl } from '~/core/db/with-tenant';
import { forgetEverywhere, onForget } from '~/core/events/cache-events';
import { AppError } from '~/core/errors/app-error';
import { validationError } from '~/core/errors/validation';
import type { Geocoder } from './geocoder';
import type { PluginDefinition, Registry } from './registry';

function definition(registry: Registry, pluginId: string): PluginDefinition {
  const def =
    registry.erpProviders.get(pluginId)?.definition ??
    registry.invoiceTemplates.get(pluginId)?.definition ??
    registry.appModules.get(pluginId)?.definition ??
    registry.geocoders.get(pluginId)?.definition;
  if (!def) throw new AppError('NOT_FOUND', 404, { message: `No plugin ${pluginId}` });
  return def;
}

/** A plugin's sealed options belong to their tenant and plugin (decision 040). */
export const pluginOptionsContext = (tenantId: string, pluginId: string): SealContext => ({
  tenant: tenantId,
  purpose: `tenant_plugins.options:${pluginId}`,
});

/**
 * Enables a plugin for a tenant with its per-tenant options (credentials and the like), which are
 * validated by the plugin's schema and stored encrypted. Enabling a geocoder disables the tenant's
 * other geocoders. ERP providers are not enabled here: the tenant's ERP, its tokens and accounts
 * live in its own schema (erp_connection, decision 025) and are chosen in Settings → ERP.
 */
export async function enablePlugin(
  registry: Registry,
  tenantId: string,
  pluginId: string,
  options: unknown = {},
): Promise<void> {
  const def = definition(registry, pluginId);
  if (def.kind === 'erp')
    throw new AppError('ERP_CHOSEN_IN_SETTINGS', 409, { message: 'The ERP is chosen in Settings → ERP' });
  const parsed = def.tenantOptions ? def.tenantOptions.safeParse(options) : { success: true as const, data: options };
  if (!parsed.success) throw validationError(parsed.error);
  const sealed = seal(JSON.stringify(parsed.data ?? {}), pluginOptionsContext(tenantId, pluginId));
  await withControl(async (trx) => {
    forgetAfterCommit(trx, tenantId);
    // one geocoder per tenant: enabling one disables the others
    const sameKind = def.kind === 'geocoder' ? [...registry.geocoders.keys()] : [];
    if (sameKind.length)
      await trx('tenant_plugins')
        .where({ tenant_id: tenantId })
        .whereIn('plugin_id', sameKind)
        .update({ enabled: false, updated_at: new Date() });
    await trx.raw(
      `insert into tenant_plugins (tenant_id, plugin_id, enabled, options) values (?, ?, true, ?)
       on conflict (tenant_id, plugin_id) do update set enabled = true, options = excluded.options, updated_at = now()`,
      [tenantId, pluginId, sealed],
    );
  });
}

export async function disablePlugin(tenantId: string, pluginId: string): Promise<void> {
  await withControl(async (trx) => {
    forgetAfterCommit(trx, tenantId);
    await trx('tenant_plugins')
      .where({ tenant_id: tenantId, plugin_id: pluginId })
      .update({ enabled: false, updated_at: new Date() });
  });
}

/** The plugins a tenant has enabled, with their decrypted options. */
export async function enabledPlugins(tenantId: string): Promise<{ pluginId: string; options: unknown }[]> {
  const rows = await withControl((trx) =>
    trx('tenant_plugins')
      .where({ tenant_id: tenantId, enabled: true })
      .orderBy('plugin_id')
      .select('plugin_id', 'options'),
  );
  return rows.map((r: { plugin_id: string; options: string | null }) => ({
    pluginId: r.plugin_id,
    options: r.options ? JSON.parse(open(r.options, pluginOptionsContext(tenantId, r.plugin_id))) : {},
  }));
}

/** How long a server trusts what it read of a tenant's enabled plugins (others' changes show after it). */
export const PLUGIN_CACHE_MS = 30_000;
const cache = new Map<string, { at: number; plugins: { pluginId: string; options: unknown }[] }>();
/** Bumped on every forget: a read that began before it does not store what it read. */
let generation = 0;
const PLUGIN_CACHE = 'tenant-plugins';
onForget(PLUGIN_CACHE, (tenantId) => {
  generation++;
  cache.delete(tenantId);
});

/**
 * Forgets the tenant's entry once the write commits, here and in every other process (issue 30
 * item 2): forgotten before the commit, a reader in between would cache the old value again.
 */
function forgetAfterCommit(trx: Parameters<typeof afterCommit>[0], tenantId: string): void {
  afterCommit(trx, () => forgetEverywhere(PLUGIN_CACHE, tenantId));
}

/**
 * The enabled plugins, read at most every PLUGIN_CACHE_MS per tenant: a lookup made during a
 * tenant's transaction then rarely needs a second connection (the embedded database has one).
 * Enabling or disabling forgets the tenant's entry in every process once the change commits.
 */
export async function enabledPluginsCached(tenantId: string): Promise<{ pluginId: string; options: unknown }[]> {
  const hit = cache.get(tenantId);
  if (hit && Date.now() - hit.at < PLUGIN_CACHE_MS) return hit.plugins;
  const seen = generation;
  const plugins = await enabledPlugins(tenantId);
  if (seen === generation) cache.set(tenantId, { at: Date.now(), plugins });
  return plugins;
}

/**
 * The geocoder a tenant places addresses with: its enabled one, or none (no positions). Without
 * any geocoder installed nothing is read at all.
 */
export async function geocoderFor(
  registry: Registry,
  tenantId: string,
): Promise<{ geocoder: Geocoder; options: unknown } | null> {
  if (registry.geocoders.size === 0) return null;
  const enabled = (await enabledPluginsCached(tenantId)).find((p) => registry.geocoders.has(p.pluginId));
  if (!enabled) return null;
  return { geocoder: registry.geocoders.get(enabled.pluginId)!.instance, options: enabled.options };
}
