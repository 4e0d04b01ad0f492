import { startChildWorker, type ChildWorker } from '../helpers/child-worker';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '~/core/db/database';
import { withTenant } from '~/core/db/with-tenant';
import type { ErpCredentials } from '~/core/extension-points/erp-provider';
import { loadRegistry } from '~/core/extension-points/registry';
import { erpProvider, erpSession, readErpConnection, saveErpCredentials } from '~/core/invoicing/erp-connection';
import type { Tenant } from '~/core/tenancy/tenant';
import { getTenantBySlug } from '~/tenants/registry';
import { consentAsBrowser, startFortnoxFake, type FortnoxFake } from '~/tests/fakes/fortnox';
import { createTestTenant } from '~/tests/helpers/app';
import { openTestDatabase } from '~/tests/helpers/db';

/*
 * Issue 31 item 6: Fortnox's refresh token "can only be used once" (tests/fakes/fortnox.ts cites
 * it), so two workers that find one tenant's token expiring at once must not both refresh it. Two
 * worker processes, each with its own database connections and its own session made as a delivery
 * makes it, hold the same expiring token and call Fortnox at the same moment: both calls succeed,
 * the token endpoint is asked once, and what is stored afterwards still refreshes.
 *
 * The workers are processes sharing the database, so this file runs on PostgreSQL (the machine's,
 * or TEST_DATABASE_URL), never on the in-process PGlite.
 */

const previousUrl = process.env.TEST_DATABASE_URL;
process.env.TEST_DATABASE_URL = previousUrl ?? 'postgres://postgres@127.0.0.1:5432/test';

const redirectUri = 'https://erp-refresh.ordo.test/settings/erp/callback';
let db: Database;
let fake: FortnoxFake;
let tenant: Tenant;
let pluginOptions: Record<string, unknown>;

beforeAll(async () => {
  db = await openTestDatabase();
  fake = await startFortnoxFake();
  pluginOptions = {
    fortnox: { clientId: fake.clientId, clientSecret: fake.clientSecret, authBaseUrl: fake.url, apiBaseUrl: fake.url },
  };
  await loadRegistry(pluginOptions);
  tenant = (await getTenantBySlug((await createTestTenant('erp-refresh')).slug))!;
  // Connected as Settings → ERP connects: Fortnox's consent page, and the code exchanged for tokens.
  const { provider } = erpProvider('fortnox');
  if (provider.auth.type !== 'oauth2') throw new Error('Fortnox connects with OAuth2');
  const back = await consentAsBrowser(provider.auth.authorizeUrl({ redirectUri, state: randomUUID() }));
  const credentials = await provider.auth.exchangeCode({
    code: back.searchParams.get('code')!,
    redirectUri,
    tenantId: tenant.id,
  });
  await withTenant(tenant, async (trx) => {
    await trx('erp_connection').update({ kind: 'fortnox' });
    await saveErpCredentials(trx, credentials);
  });
});
afterAll(async () => {
  if (previousUrl === undefined) delete process.env.TEST_DATABASE_URL;
  else process.env.TEST_DATABASE_URL = previousUrl;
  await fake?.close();
  await db?.close();
});

const stored = () => withTenant(tenant, async (trx) => (await readErpConnection(trx)).credentials!);

/** The stored access token ends in `ms` (a minute or less: every worker refreshes before use). */
async function expireStoredTokenIn(ms: number): Promise<ErpCredentials> {
  const next = { ...(await stored()), expiresAt: new Date(Date.now() + ms).toISOString() };
  await withTenant(tenant, (trx) => saveErpCredentials(trx, next));
  return next;
}

type Worker = ChildWorker<{ ok: boolean; error?: string; accessToken?: string }>;

function startWorker(): Worker {
  return startChildWorker('tests/helpers/erp-refresh-child.ts', {
    TEST_DATABASE_URL: process.env.TEST_DATABASE_URL,
    TENANT_SLUG: tenant.slug,
    PLUGIN_OPTIONS: JSON.stringify(pluginOptions),
    LOG_LEVEL: 'silent',
  });
}

describe('[erp] token refresh across processes (issue 31 item 6)', () => {
  it('two workers holding one expiring Fortnox token call at once: both succeed, Fortnox is asked for one refresh', async () => {
    const before = await expireStoredTokenIn(5_000);
    const refreshesBefore = fake.refreshRequestCount();
    const workers = [startWorker(), startWorker()];
    // both have read the expiring token and made their session before either refreshes
    await Promise.all(workers.map((w) => w.ready));
    for (const w of workers) w.go();
    const outcomes = await Promise.all(workers.map((w) => w.outcome));

    expect(outcomes.map((o) => o.error ?? 'ok')).toEqual(['ok', 'ok']);
    expect(fake.refreshRequestCount() - refreshesBefore).toBe(1);
    const after = await stored();
    expect(after.accessToken).not.toBe(before.accessToken);
    expect(after.refreshToken).not.toBe(before.refreshToken);
    // the second worker took the first one's token instead of refreshing with the used-up one
    expect(outcomes.map((o) => o.accessToken)).toEqual([after.accessToken, after.accessToken]);
  }, 150_000);

  it('the refresh token stored after that is the live one: the next refresh works', async () => {
    await expireStoredTokenIn(0);
    const refreshesBefore = fake.refreshRequestCount();
    const connection = await withTenant(tenant, (trx) => readErpConnection(trx));
    await expect(erpProvider('fortnox').provider.listArticles(erpSession(tenant, connection))).resolves.toEqual([]);
    expect(fake.refreshRequestCount() - refreshesBefore).toBe(1);
  });

  it('a session made before another process refreshed takes the stored token after a 401, without refreshing again', async () => {
    const { provider } = erpProvider('fortnox');
    const session = () => withTenant(tenant, async (trx) => erpSession(tenant, await readErpConnection(trx)));
    const stale = await session();
    // Fortnox ends the token early (revoked, or a refresh elsewhere); another worker refreshes it
    fake.expireAccessTokens();
    await expireStoredTokenIn(0);
    await provider.listArticles(await session());
    const refreshesBefore = fake.refreshRequestCount();
    await expect(provider.listArticles(stale)).resolves.toEqual([]);
    expect(fake.refreshRequestCount() - refreshesBefore).toBe(0);
    expect(stale.credentials?.accessToken).toBe((await stored()).accessToken);
  });
});
