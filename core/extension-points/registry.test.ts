import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineCall } from '~/core/api/define-call';
import { defineAppModule, pluginRoutes, type PluginRoute } from './app-module';
import { defineErpProvider } from './erp-provider';
import {
  buildRegistry,
  discoverPlugins,
  loadRegistry,
  pluginApiCalls,
  PluginError,
  pluginMigrations,
  PLUGINS_DIR,
} from './registry';
import none from '~/plugins/erp-none';
import doorAutomatics from '~/plugins/module-door-automatics';
import doorAutomaticRoutes from '~/plugins/module-door-automatics/routes';

const fake = defineErpProvider({
  id: 'fake-erp',
  displayName: 'Fake',
  options: z.object({ baseUrl: z.url(), timeoutMs: z.number().int().positive().default(5000) }),
  create: () => ({ ...none.create({}), capabilities: { ...none.create({}).capabilities, sendInvoices: true } }),
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

  it("accepts an app module's routes, API calls, links and permissions, gated by its app module", () => {
    const registry = buildRegistry([none, doorAutomatics], {});
    const mod = registry.appModules.get('module-door-automatics')!.instance;
    expect(mod.moduleId).toBe('doorautomatics');
    expect(mod.routes?.map((r) => r.path)).toContain('doorautomatics/:id');
    expect(mod.inventoryLinks?.map((l) => l.to)).toEqual(['/inventory/doorautomatics']);
    const calls = pluginApiCalls(registry).map(({ call, moduleId }) => `${moduleId} ${call.method} ${call.path}`);
    expect(calls).toContain('doorautomatics GET /doorautomatics/:id/history');
    expect(calls).toContain('doorautomatics POST /doorautomatics');
    expect(calls).toContain('doorautomatics PUT /wo/doorautomatics/:id');
    // The fixed path comes before /:id, so "id" is never read as one.
    const gets = calls.filter((c) => c.includes(' GET '));
    expect(gets.indexOf('doorautomatics GET /doorautomatics/id/propose')).toBeLessThan(
      gets.indexOf('doorautomatics GET /doorautomatics/:id'),
    );
    expect(pluginMigrations(registry).map((m) => m.name)).toEqual([
      'plugin-module-door-automatics-0001-door-automatics',
      'plugin-module-door-automatics-0002-work-order-door-automatics',
    ]);
  });

  it('refuses an unknown app module, permission or access, a duplicate call and a page outside the plugin', () => {
    const call = defineCall({
      method: 'GET',
      path: '/things',
      access: { permission: 'things:read' as never },
      input: z.unknown(),
      summary: 'x',
      handler: async () => ({}),
    });
    const bad = defineAppModule({
      id: 'module-bad',
      options: z.object({}),
      create: () => ({
        moduleId: 'nope' as never,
        permissions: ['things:read'],
        apiCalls: [call, { ...call, access: { permission: 'bo:read' } }],
        routes: [{ parent: 'inventory', path: 'things', file: '../../app/root.tsx' }],
        inventoryLinks: [{ to: '/things', labelKey: 'x', access: { permission: 'bo:read' } }],
      }),
    });
    let message = '';
    try {
      buildRegistry([none, bad], {});
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toMatch(/plugin "module-bad": moduleId "nope" is not an app module/);
    expect(message).toMatch(/plugin "module-bad": permission "things:read" is not in the catalogue/);
    expect(message).toMatch(
      /plugin "module-bad": API call GET \/things needs "things:read", which is not a permission/,
    );
    expect(message).toMatch(/plugin "module-bad": API call GET \/things is served twice/);
    expect(message).toMatch(/plugin "module-bad": route "things": the file must be a .tsx inside the plugin's folder/);
    expect(message).toMatch(/plugin "module-bad": inventory link \/things must be under \/inventory\//);
  });

  it('mounts plugin pages under their parent, with files relative to app/ and their own ids', () => {
    const manifests: Record<string, PluginRoute[]> = {
      '../plugins/module-door-automatics/routes.ts': doorAutomaticRoutes,
      '../plugins/module-other/routes.ts': [{ parent: 'app', path: 'other', file: 'routes/other.tsx' }],
    };
    expect(pluginRoutes('inventory', manifests)).toContainEqual({
      path: 'doorautomatics/:id',
      file: '../plugins/module-door-automatics/routes/door-automatic.tsx',
      id: 'plugin-module-door-automatics-doorautomatics-id',
    });
    expect(pluginRoutes('app', manifests)).toEqual([
      {
        path: 'work-orders/:id/doorautomatics',
        file: '../plugins/module-door-automatics/routes/work-order-door-automatics.tsx',
        id: 'plugin-module-door-automatics-work-orders-id-doorautomatics',
      },
      { path: 'other', file: '../plugins/module-other/routes/other.tsx', id: 'plugin-module-other-other' },
    ]);
    expect(() =>
      pluginRoutes('app', { '../plugins/x/routes.ts': [{ parent: 'app', path: '/abs', file: 'routes/a.tsx' }] }),
    ).toThrow(/plugins\/x\/routes.ts: route "\/abs": the path must be relative/);
  });
});
