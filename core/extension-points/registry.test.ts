import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineAppModule } from './app-module';
import { defineErpProvider } from './erp-provider';
import { buildRegistry, discoverPlugins, loadRegistry, PluginError, pluginMigrations, PLUGINS_DIR } from './registry';
import none from '~/plugins/erp-none';

const fake = defineErpProvider({
  id: 'fake-erp',
  displayName: 'Fake',
  options: z.object({ baseUrl: z.url(), timeoutMs: z.number().int().positive().default(5000) }),
  create: () => ({ testConnection: async () => {}, sendInvoice: async () => ({ externalId: '1', state: 'success' }) }),
});

describe('[platform] plugin registry', () => {
  it('finds the plugins under plugins/, always with the built-in "none" ERP provider', async () => {
    const found = await discoverPlugins(PLUGINS_DIR);
    expect(found.map((p) => p.id)).toContain('none');
    const registry = await loadRegistry({});
    expect(registry.erpProviders.get('none')?.definition.displayName).toBe('Ordo');
  });

  it('validates options at boot and names the plugin and each bad option', () => {
    expect(() => buildRegistry([none, fake], { 'fake-erp': { baseUrl: 'nope', timeoutMs: -1 } })).toThrow(PluginError);
    try {
      buildRegistry([none, fake], { 'fake-erp': { baseUrl: 'nope', timeoutMs: -1 } });
    } catch (e) {
      expect((e as Error).message).toMatch(/plugin "fake-erp": option baseUrl/);
      expect((e as Error).message).toMatch(/plugin "fake-erp": option timeoutMs/);
    }
    const ok = buildRegistry([none, fake], { 'fake-erp': { baseUrl: 'https://erp.example.com' } });
    expect(ok.erpProviders.has('fake-erp')).toBe(true);
  });

  it('refuses options for a plugin that is not installed, duplicate ids, and a missing "none"', () => {
    expect(() => buildRegistry([none], { typo: {} })).toThrow(/"typo", which is not an installed plugin/);
    expect(() => buildRegistry([none, none], {})).toThrow(/defined twice/);
    expect(() => buildRegistry([], {})).toThrow(/"none" is missing/);
  });

  it('collects app-module migrations under the plugin id', () => {
    const mod = defineAppModule({
      id: 'module-demo',
      options: z.object({}),
      create: () => ({ migrations: [{ name: '0001-things', up: async () => {} }] }),
    });
    expect(pluginMigrations(buildRegistry([none, mod], {})).map((m) => m.name)).toEqual([
      'plugin-module-demo-0001-things',
    ]);
  });

  it('refuses a plugin folder whose index does not export a definition', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ordo-plugins-'));
    fs.mkdirSync(path.join(dir, 'broken'));
    fs.writeFileSync(path.join(dir, 'broken', 'index.js'), 'export default { hello: 1 };');
    await expect(discoverPlugins(dir)).rejects.toThrow(/plugins\/broken/);
  });
});
