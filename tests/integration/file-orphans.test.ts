import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTenant } from '~/core/db/with-tenant';
import { ORPHAN_GRACE_MS, sweepOrphanFiles } from '~/core/files/orphans';
import { getFileStore } from '~/core/files/store';
import { EmbeddedQueue } from '~/core/jobs/embedded-queue';
import { withControl } from '~/core/db/with-tenant';
import {
  coreJobs,
  ORPHAN_SWEEP_EVERY_MS,
  registerCoreSchedules,
  sweepOrphanFilesJob,
} from '~/core/jobs/purge-sessions.job';
import type { Tenant } from '~/core/tenancy/tenant';
import { getTenantBySlug } from '~/tenants/registry';
import { createTestTenant, startTestServer, type TestServer } from '~/tests/helpers/app';

/**
 * Issue 37 item 5: bytes a crash left in the FileStore with no row naming them are removed after a
 * grace period, and nothing a row names is ever touched.
 */
let srv: TestServer;
let tenant: Tenant;
let other: Tenant;

const put = (key: string, body = 'x') => getFileStore().put(key, Readable.from([Buffer.from(body)]));
async function keysOf(t: Tenant): Promise<string[]> {
  const keys: string[] = [];
  for await (const k of getFileStore().list(t.schemaName)) keys.push(k.key);
  return keys.sort();
}

beforeAll(async () => {
  srv = await startTestServer();
  tenant = (await getTenantBySlug((await createTestTenant('orphans-a')).slug))!;
  other = (await getTenantBySlug((await createTestTenant('orphans-b')).slug))!;
});
afterAll(() => srv?.close());

describe('[files] the sweep of stored bytes no row names', () => {
  it('removes them once older than the grace period, and keeps what any key column names', async () => {
    const k = (name: string) => `${tenant.schemaName}/${name}-${randomUUID()}`;
    const file = k('file');
    const thumb = `${file}-thumb`;
    const attachment = k('attachment');
    const orphan = k('orphan');
    const orphanThumb = `${orphan}-thumb`;
    await put(file, 'file bytes');
    await put(thumb, 'thumb');
    await put(attachment, 'kept by a table added later');
    await put(orphan, 'nobody committed me');
    await put(orphanThumb, 'nor me');
    const elsewhere = `${other.schemaName}/orphan-${randomUUID()}`;
    await put(elsewhere);
    await withTenant(tenant, async (trx) => {
      await trx('files').insert({
        owner_type: 'drive',
        kind: 'file',
        name: 'plan.png',
        storage_key: file,
        thumb_key: thumb,
        size: 10,
      });
      // any table of the schema with a storage_key column protects its keys, with no list to keep
      await trx.raw('create table orphan_test_attachments (id serial primary key, storage_key text)');
      await trx('orphan_test_attachments').insert({ storage_key: attachment });
    });

    // within the grace period nothing goes: an upload may still be on its way to its commit
    const early = await sweepOrphanFiles(tenant, { now: new Date(Date.now() + ORPHAN_GRACE_MS - 60_000) });
    expect(early).toEqual({ examined: 0, removed: [], bytes: 0 });

    const later = new Date(Date.now() + ORPHAN_GRACE_MS + 60_000);
    const swept = await sweepOrphanFiles(tenant, { now: later });
    expect(swept.examined).toBe(5);
    expect(swept.removed.sort()).toEqual([orphan, orphanThumb].sort());
    expect(swept.bytes).toBe('nobody committed me'.length + 'nor me'.length);
    expect(await keysOf(tenant)).toEqual([attachment, file, thumb].sort());
    // another tenant's keys are its own sweep's business
    expect(await keysOf(other)).toContain(elsewhere);

    // a second run finds nothing more to do
    expect((await sweepOrphanFiles(tenant, { now: later })).removed).toEqual([]);
  });

  it('is a core job, scheduled under one key however often the schedules are registered', async () => {
    expect(coreJobs).toContain(sweepOrphanFilesJob);
    const queue = new EmbeddedQueue();
    await registerCoreSchedules(queue);
    await registerCoreSchedules(queue);
    const rows = await withControl((trx) => trx('jobs').where({ repeat_key: 'files-sweep-orphans' }));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ job_id: 'files.sweep-orphans' });
    expect(Number(rows[0].repeat_every_ms)).toBe(ORPHAN_SWEEP_EVERY_MS);
  });
});
