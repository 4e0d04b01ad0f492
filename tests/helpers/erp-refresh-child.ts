/**
 * One worker of tests/integration/erp-token-refresh.test.ts in its own process: it reads the
 * tenant's ERP connection and makes the plugin session as a delivery does (erpSession), says
 * "ready", waits for "go" on stdin (so every worker holds the same, expiring token before any of
 * them refreshes), calls the ERP once and prints how it went as one JSON line.
 * Environment: TEST_DATABASE_URL, TENANT_SLUG, PLUGIN_OPTIONS (JSON), SECRET_KEY.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { parseConfig, setConfig } from '~/core/config/env';
import { withTenant } from '~/core/db/with-tenant';
import { isErpError } from '~/core/extension-points/erp-http';
import { loadRegistry } from '~/core/extension-points/registry';
import { erpProvider, erpSession, readErpConnection } from '~/core/invoicing/erp-connection';
import { getTenantBySlug } from '~/tenants/registry';
import { openTestDatabase } from './db';

setConfig(
  parseConfig({
    NODE_ENV: 'test',
    SECRET_KEY: process.env.SECRET_KEY,
    DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'ordo-child-')),
  }),
);
await loadRegistry(JSON.parse(process.env.PLUGIN_OPTIONS ?? '{}'));
const db = await openTestDatabase();
const tenant = await getTenantBySlug(process.env.TENANT_SLUG!);
if (!tenant) throw new Error(`no tenant ${process.env.TENANT_SLUG}`);
const connection = await withTenant(tenant, (trx) => readErpConnection(trx));
const session = erpSession(tenant, connection);
const { provider } = erpProvider(connection.kind);

const lines = readline.createInterface({ input: process.stdin });
process.stdout.write('ready\n');
for await (const line of lines) if (line.trim() === 'go') break;
lines.close();

let outcome: Record<string, unknown>;
try {
  const articles = await provider.listArticles(session);
  outcome = { ok: true, articles: articles.length, accessToken: session.credentials?.accessToken };
} catch (err) {
  outcome = { ok: false, error: isErpError(err) ? err.code : String(err) };
}
process.stdout.write(`${JSON.stringify(outcome)}\n`);
await db.close();
