/**
 * A supplier-invoice delivery worker in its own process, for the crash test
 * (tests/integration/supplier-invoice-erp.test.ts): it delivers the tenant's due supplier invoices
 * and is killed (SIGKILL) by the test while the vendor holds its answer. Environment:
 * TEST_DATABASE_URL, TENANT_SLUG, PLUGIN_OPTIONS (JSON).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseConfig, setConfig } from '~/core/config/env';
import { loadRegistry } from '~/core/extension-points/registry';
import { deliverDueSupplierInvoices } from '~/core/supplier-invoices/supplier-invoice-delivery';
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
process.stdout.write('delivering\n');
const done = await deliverDueSupplierInvoices(tenant);
process.stdout.write(`${JSON.stringify(done)}\n`);
await db.close();
