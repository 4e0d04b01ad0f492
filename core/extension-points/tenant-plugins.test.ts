import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import type { Database } from '~/core/db/database';
import { getConfig, setConfig } from '~/core/config/env';
import { seal } from '~/core/crypto/secret-box';
import { withControl } from '~/core/db/with-tenant';
import { closeCacheEvents, listenForForgets, onForget } from '~/core/events/cache-events';
import { openTestDatabase, uniqueSlug } from '~/tests/helpers/db';
import { provisionTenant } from '~/tenants/provision';
import none from '~/plugins/erp-none';
import { defineGeocoder } from './geocoder';
import { buildRegistry, loadRegistry, type Registry } from './registry';
import {
  disablePlugin,
  enabledPlugins,
  enabledPluginsCached,
  enablePlugin,
  pluginOptionsContext,
} from './tenant-plugins';

const geocoderLike = defineGeocoder({
  id: 'fake-geo',
  displayName: 'Fake geocoder',
  options: z.object({}),
  tenantOptions: z.object({ apiKey: z.string().min(10, 'ERROR_REQUIRED_FIELD') }),
  create: () => ({ geocode: async () => null }),
});

let db: Database;
let registry: Registry;
let tenantId: string;
beforeAll(async () => {
  db = await openTestDatabase();
  await loadRegistry({});
  registry = buildRegistry([none, geocoderLike], {});
  const slug = uniqueSlug('plug');
  tenantId = (
    await provisionTenant({
      slug,
      name: 'Plug AB',
      hosts: [`${slug}.ordo.test`],
      adminEmail: `a@${slug}.se`,
      adminPassword: 'password-1',
    })
  ).tenantId;
});
afterAll(() => db.close());

describe('[plugins] per-tenant enablement', () => {
  it('does not enable ERP providers: the ERP is chosen in Settings → ERP (the tenant schema)', async () => {
    await expect(enablePlugin(registry, tenantId, 'none')).rejects.toMatchObject({ code: 'ERP_CHOSEN_IN_SETTINGS' });
  });

  it('validates per-tenant options, stores them encrypted, and hands them back decrypted', async () => {
    await expect(enablePlugin(registry, tenantId, 'fake-geo', { apiKey: 'short' })).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
    });
    await enablePlugin(registry, tenantId, 'fake-geo', { apiKey: 'very-secret-value' });
    const stored = await withControl((trx) =>
      trx('tenant_plugins').where({ tenant_id: tenantId, plugin_id: 'fake-geo' }).first(),
    );
    expect(stored.options).not.toContain('very-secret-value');
    expect(await enabledPlugins(tenantId)).toEqual([
      { pluginId: 'fake-geo', options: { apiKey: 'very-secret-value' } },
    ]);
    await disablePlugin(tenantId, 'fake-geo');
    expect(await enabledPlugins(tenantId)).toEqual([]);
  });

  it('refuses an unknown plugin id', async () => {
    await expect(enablePlugin(registry, tenantId, 'nope')).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});

describe('[plugins] the cache is forgotten after the write commits (issue 30 item 2)', () => {
  it('a read between the write and its commit does not keep the old value', async () => {
    await enablePlugin(registry, tenantId, 'fake-geo', { apiKey: 'old-value-1234' });
    const keyOf = async () =>
      ((await enabledPluginsCached(tenantId)).find((p) => p.pluginId === 'fake-geo')?.options as { apiKey: string })
        .apiKey;
    expect(await keyOf()).toBe('old-value-1234');
    // a lock on the tenant's plugin rows holds the write inside its transaction, not yet committed
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let locked!: () => void;
    const isLocked = new Promise<void>((r) => (locked = r));
    const lock = withControl(async (trx) => {
      await trx('tenant_plugins').where({ tenant_id: tenantId }).forUpdate().select('plugin_id');
      locked();
      await held;
    });
    await isLocked;
    const write = enablePlugin(registry, tenantId, 'fake-geo', { apiKey: 'new-value-5678' });
    await new Promise((r) => setTimeout(r, 200));
    // the reader in between sees (and may cache) what is committed: the old value
    expect(await keyOf()).toBe('old-value-1234');
    release();
    await lock;
    await write;
    await new Promise((r) => setImmediate(r));
    expect(await keyOf()).toBe('new-value-5678');
  });
});

describe('[plugins] another process forgets the entry too', () => {
  it('drops the cached value when a forget arrives over Redis', async () => {
    if (!getConfig().REDIS_URL)
      setConfig({ ...getConfig(), REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379' });
    listenForForgets();
    const other = new Redis(getConfig().REDIS_URL!);
    const keyOf = async () =>
      ((await enabledPluginsCached(tenantId)).find((p) => p.pluginId === 'fake-geo')?.options as { apiKey: string })
        .apiKey;
    // rows written behind this process's back: only a forget from elsewhere makes it read again
    const write = (apiKey: string) =>
      withControl((trx) =>
        trx('tenant_plugins')
          .where({ tenant_id: tenantId, plugin_id: 'fake-geo' })
          .update({
            enabled: true,
            options: seal(JSON.stringify({ apiKey }), pluginOptionsContext(tenantId, 'fake-geo')),
          }),
      );
    /** Another process's forget, published until this one heard it (the subscription starts async). */
    const forgetFromElsewhere = async () => {
      let heard = false;
      onForget('tenant-plugins', () => (heard = true));
      await vi.waitFor(async () => {
        await other.publish('ordo:cache-forget', JSON.stringify({ cache: 'tenant-plugins', key: tenantId }));
        await new Promise((r) => setTimeout(r, 20));
        expect(heard).toBe(true);
      });
    };
    try {
      await write('before-other-1');
      await forgetFromElsewhere();
      expect(await keyOf()).toBe('before-other-1');
      await write('after-other-2');
      expect(await keyOf()).toBe('before-other-1'); // cached
      await forgetFromElsewhere();
      expect(await keyOf()).toBe('after-other-2');
    } finally {
      other.disconnect();
      await closeCacheEvents();
    }
  });
});
