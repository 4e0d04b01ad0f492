import { spawn } from 'node:child_process';
import { expect } from 'vitest';
import { withTenant } from '~/core/db/with-tenant';
import { loadRegistry } from '~/core/extension-points/registry';
import type { Tenant } from '~/core/tenancy/tenant';
import { consentAsBrowser, fortnoxPluginOptions, startFortnoxFake, type FortnoxFake } from '~/tests/fakes/fortnox';
import { testApi, type TestApi } from '~/tests/helpers/api';
import { createTestTenant, startTestServer, type TestServer, type TestTenant } from '~/tests/helpers/app';
import { getTenantBySlug } from '~/tenants/registry';

/*
 * A tenant connected to the Fortnox fake, for the supplier-invoice ERP tests
 * (supplier-invoice-erp.test.ts, supplier-invoice-erp-fetch.test.ts): the test server, the fake,
 * the plugin registry pointed at it, a tenant with the ERP module on, its admin signed in, Settings →
 * ERP set to Fortnox and connected through the OAuth round trip; and a delivery worker in a child
 * process that a crash test kills while the fake holds its answer.
 */

export interface FortnoxTenant extends TestApi {
  srv: TestServer;
  fake: FortnoxFake;
  t: TestTenant;
  tenant: Tenant;
  token: string;
  pluginOptions: Record<string, unknown>;
  close(): Promise<void>;
}

export async function startFortnoxTenant(slug: string): Promise<FortnoxTenant> {
  const srv = await startTestServer();
  const fake = await startFortnoxFake();
  const pluginOptions = fortnoxPluginOptions(fake);
  await loadRegistry(pluginOptions);
  const t = await createTestTenant(slug);
  const tenant = (await getTenantBySlug(t.slug))!;
  await withTenant(tenant, (trx) =>
    trx.raw(`insert into app_modules (id, enabled) values ('erp', true) on conflict (id) do update set enabled = true`),
  );
  const api = testApi(() => ({ url: srv.url, host: t.host }));
  const token = await api.signIn(t, t.adminEmail);
  const origin = `https://${slug}.ordo.test`;
  expect(
    (await api.call('PUT', '/api/instance/erp', token, { kind: 'fortnox', accounts: { sales: { '25': '3001' } } }))
      .status,
  ).toBe(200);
  const start = await api.call('POST', '/api/instance/erp/auth', token, { origin });
  const back = await consentAsBrowser(start.json().url);
  const done = await api.call('POST', '/api/instance/erp/callback', token, {
    code: back.searchParams.get('code'),
    state: back.searchParams.get('state'),
    origin,
  });
  expect(done.status, done.text).toBe(200);
  return {
    ...api,
    srv,
    fake,
    t,
    tenant,
    token,
    pluginOptions,
    async close() {
      await fake.close();
      await srv.close();
    },
  };
}

/**
 * Runs the tenant's due supplier-invoice deliveries in a worker process and kills it (SIGKILL) as
 * soon as `reached()` says the vendor acted on the call whose answer the fake holds.
 */
export async function killWorkerAfter(env: FortnoxTenant, reached: () => boolean): Promise<void> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'tests/helpers/supplier-invoice-deliver-child.ts'], {
    env: {
      ...process.env,
      TEST_DATABASE_URL: process.env.TEST_DATABASE_URL,
      TENANT_SLUG: env.t.slug,
      PLUGIN_OPTIONS: JSON.stringify(env.pluginOptions),
      LOG_LEVEL: 'silent',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
  const exited = new Promise<NodeJS.Signals | number | null>((resolve) =>
    child.on('exit', (code, signal) => resolve(signal ?? code)),
  );
  const until = Date.now() + 30_000;
  while (!reached()) {
    if (Date.now() > until) throw new Error(`the worker never reached the vendor: ${stderr}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  child.kill('SIGKILL');
  expect(await exited).toBe('SIGKILL');
}
