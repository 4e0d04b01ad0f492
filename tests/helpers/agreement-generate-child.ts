/**
 * A generation worker in its own process, for the crash test (tests/integration/agreement-concurrency.test.ts):
 * it writes one batch of a tenant's due agreement invoices and then hangs before its transaction
 * commits, until the test kills it (SIGKILL). Environment: TEST_DATABASE_URL, TENANT_SLUG, UNTIL.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { generateInvoiceBatch } from '~/core/agreements/generation.service';
import { parseConfig, setConfig } from '~/core/config/env';
import { withTenant } from '~/core/db/with-tenant';
import { loadRegistry } from '~/core/extension-points/registry';
import { langFromKey } from '~/core/i18n/languages';
import { getTenantBySlug } from '~/tenants/registry';
import { openTestDatabase } from './db';

setConfig(
  parseConfig({
    NODE_ENV: 'test',
    SECRET_KEY: process.env.SECRET_KEY,
    DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'ordo-child-')),
  }),
);
await loadRegistry({});
await openTestDatabase();
const tenant = await getTenantBySlug(process.env.TENANT_SLUG!);
if (!tenant) throw new Error(`no tenant ${process.env.TENANT_SLUG}`);
await withTenant(tenant, async (trx) => {
  const ctx = { trx, tenant, auth: null, lang: langFromKey(tenant.config.languageKey), now: new Date() };
  const batch = await generateInvoiceBatch(ctx, { until: process.env.UNTIL!, limit: Number(process.env.LIMIT ?? 500) });
  process.stdout.write(`written ${batch.created.length}\n`);
  // hold the transaction open (and the agreements locked) until killed
  await new Promise(() => undefined);
});
