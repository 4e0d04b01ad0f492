import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Database } from '~/core/db/database';
import { withControl } from '~/core/db/with-tenant';
import { openTestDatabase, uniqueSlug } from '~/tests/helpers/db';
import { provisionTenant } from '~/tenants/provision';
import none from '~/plugins/erp-none';
import { defineErpProvider } from './erp-provider';
import { buildRegistry, loadRegistry, type Registry } from './registry';
import { disablePlugin, enabledPlugins, enablePlugin, erpProviderFor } from './tenant-plugins';

const fortnoxLike = defineErpProvider({
  id: 'fake-fortnox',
  displayName: 'Fake Fortnox',
  options: z.object({}),
  tenantOptions: z.object({ clientSecret: z.string().min(10, 'ERROR_REQUIRED_FIELD') }),
  create: () => ({ ...none.create({}), capabilities: { ...none.create({}).capabilities, sendInvoices: true } }),
});

let db: Database;
let registry: Registry;
let tenantId: string;
beforeAll(async () => {
  db = await openTestDatabase();
  await loadRegistry({});
  registry = buildRegistry([none, fortnoxLike], {});
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
  it('uses the built-in "none" ERP until another is enabled', async () => {
    expect((await erpProviderFor(registry, tenantId)).definition.id).toBe('none');
  });

  it('validates per-tenant options, stores them encrypted, and hands them back decrypted', async () => {
    await expect(enablePlugin(registry, tenantId, 'fake-fortnox', { clientSecret: 'short' })).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
    });
    await enablePlugin(registry, tenantId, 'fake-fortnox', { clientSecret: 'very-secret-value' });
    const stored = await withControl((trx) =>
      trx('tenant_plugins').where({ tenant_id: tenantId, plugin_id: 'fake-fortnox' }).first(),
    );
    expect(stored.options).not.toContain('very-secret-value');
    const chosen = await erpProviderFor(registry, tenantId);
    expect(chosen.definition.id).toBe('fake-fortnox');
    expect(chosen.options).toEqual({ clientSecret: 'very-secret-value' });
    await disablePlugin(tenantId, 'fake-fortnox');
    expect(await enabledPlugins(tenantId)).toEqual([]);
    expect((await erpProviderFor(registry, tenantId)).definition.id).toBe('none');
  });

  it('refuses an unknown plugin id', async () => {
    await expect(enablePlugin(registry, tenantId, 'nope')).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});
