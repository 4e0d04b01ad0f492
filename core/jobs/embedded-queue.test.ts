import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Database } from '~/core/db/database';
import { schemaNameForSlug } from '~/core/db/identifiers';
import { migrateSchema } from '~/core/db/migrate';
import { setDatabase, withControl } from '~/core/db/with-tenant';
import type { Tenant } from '~/core/tenancy/tenant';
import { tenantMigrations } from '~/migrations/tenant';
import { toTenant } from '~/tenants/registry';
import { openTestDatabase, uniqueSlug } from '~/tests/helpers/db';
import { JobPayloadError, defineJob } from './define-job';
import { EmbeddedQueue } from './embedded-queue';
import type { QueueOptions } from './queue';
import { createQueue } from './queue';
import { queueContract, sleep, uniqueJobId, waitFor } from './queue-contract';

let db: Database;
beforeAll(async () => {
  db = await openTestDatabase();
});
afterAll(async () => {
  await db?.close();
  setDatabase(undefined);
});

const OPTIONS: QueueOptions = { pollMs: 50, backoffMs: 100 };

queueContract('embedded', {
  backoffMs: 100,
  settleMs: 300,
  isolate: async () => ({ create: () => new EmbeddedQueue(OPTIONS) }),
});

async function createTenant(label: string): Promise<Tenant> {
  const slug = uniqueSlug(label);
  const schema = schemaNameForSlug(slug);
  const [row] = await withControl((trx) =>
    trx('tenants').insert({ slug, schema_name: schema, display_name: label, status: 'active' }).returning('*'),
  );
  await migrateSchema(db.knex, schema, tenantMigrations);
  return toTenant(row);
}

async function row(id: string) {
  return withControl((trx) => trx('jobs').where({ id }).first());
}

describe('embedded queue', () => {
  const open: EmbeddedQueue[] = [];
  const track = (q: EmbeddedQueue) => (open.push(q), q);
  afterEach(async () => {
    await Promise.all(open.splice(0).map((q) => q.stop()));
  });

  it('is what createQueue picks without REDIS_URL', () => {
    expect(createQueue({ REDIS_URL: undefined }).kind).toBe('embedded');
  });

  it('takes over a job left active by a crashed process once its lock has expired, not before', async () => {
    const attempts: number[] = [];
    const def = defineJob({
      id: uniqueJobId('orphan'),
      schema: z.object({ which: z.string() }),
      handler: async (data, ctx) => void attempts.push(ctx.attempt),
    });
    const insert = (which: string, lockInterval: string) =>
      withControl(async (trx) => {
        const { rows } = await trx.raw(
          `insert into jobs (job_id, data, status, attempts, locked_until, locked_by, run_at)
           values (?, ?::jsonb, 'active', 1, now() + interval '${lockInterval}', 'dead-process/1', now() - interval '1 minute')
           returning id`,
          [def.id, JSON.stringify({ which })],
        );
        return String(rows[0].id);
      });
    const expired = await insert('expired', '-1 second');
    const held = await insert('held', '1 hour');
    const q = track(new EmbeddedQueue(OPTIONS));
    await q.start([def]);
    await waitFor(async () => (await q.getJob(expired))?.state === 'completed', 'the orphan to complete');
    await sleep(300);
    expect(attempts).toEqual([2]);
    expect((await row(held)).status).toBe('active');
  });

  it('renews the lock of a long job, so another worker does not run it twice', async () => {
    let runs = 0;
    const def = defineJob({
      id: uniqueJobId('long'),
      schema: z.object({}),
      handler: async () => {
        runs++;
        await sleep(3_000);
      },
    });
    // the job outlives its lock three times over; the lock is renewed at half its length, which leaves
    // half a second for a renewal on a loaded machine (a quarter of a second was missed under CI's load)
    const a = track(new EmbeddedQueue({ ...OPTIONS, lockMs: 1_000 }));
    const b = track(new EmbeddedQueue({ ...OPTIONS, lockMs: 1_000 }));
    const id = await a.enqueue(def, {});
    await a.start([def]);
    await waitFor(() => runs === 1, 'the job to start');
    await b.start([def]);
    await waitFor(async () => (await a.getJob(id))?.state === 'completed', 'completion');
    expect(runs).toBe(1);
  });

  it('upserts a schedule by key: one row, new data, next run not postponed', async () => {
    const def = defineJob({ id: uniqueJobId('sched'), schema: z.object({ v: z.number() }), handler: async () => {} });
    const q = new EmbeddedQueue(OPTIONS);
    const key = uniqueJobId('key');
    await q.schedule(def, { key, everyMs: 3_600_000, data: { v: 1 } });
    const before = await withControl((trx) => trx('jobs').where({ repeat_key: key }).first());
    await sleep(20);
    await q.schedule(def, { key, everyMs: 3_600_000, data: { v: 2 } });
    const rows = await withControl((trx) => trx('jobs').where({ repeat_key: key }));
    expect(rows).toHaveLength(1);
    expect(rows[0].data).toEqual({ v: 2 });
    expect(new Date(rows[0].run_at).getTime()).toBe(new Date(before.run_at).getTime());
  });

  it('re-arms a schedule after it runs instead of completing it', async () => {
    let runs = 0;
    const def = defineJob({ id: uniqueJobId('rearm'), schema: z.object({}), handler: async () => void runs++ });
    const q = track(new EmbeddedQueue(OPTIONS));
    const key = uniqueJobId('key');
    await q.schedule(def, { key, everyMs: 3_600_000, data: {} });
    await q.start([def]);
    await waitFor(() => runs === 1, 'the first run');
    await waitFor(async () => {
      const r = await withControl((trx) => trx('jobs').where({ repeat_key: key }).first());
      return r.status === 'waiting' && new Date(r.run_at).getTime() > Date.now() + 3_500_000;
    }, 'the schedule to be re-armed an hour ahead');
  });

  it('runs a tenant-scoped job inside withTenant and refuses unknown tenants', async () => {
    const tenant = await createTenant('jobs');
    const seen: { schema: string; slug: string }[] = [];
    const def = defineJob({
      id: uniqueJobId('tenant'),
      tenantScoped: true,
      schema: z.object({ tenantId: z.string(), note: z.string() }),
      handler: async (data, ctx) => {
        const { rows } = await ctx.trx.raw('select current_schema() as s');
        await ctx.trx('history').insert({ entity: 'test', entity_id: '1', action: data.note });
        seen.push({ schema: rows[0].s, slug: ctx.tenant.slug });
      },
    });
    const q = track(new EmbeddedQueue(OPTIONS));
    await expect(q.enqueue(def, { tenantId: 'acme', note: 'x' })).rejects.toBeInstanceOf(JobPayloadError);
    await q.start([def]);
    const ok = await q.enqueue(def, { tenantId: tenant.id, note: 'hello' });
    const missing = await q.enqueue(def, { tenantId: randomUUID(), note: 'lost' });
    await waitFor(async () => (await q.getJob(ok))?.state === 'completed', 'the tenant job');
    expect(seen).toEqual([{ schema: tenant.schemaName, slug: tenant.slug }]);
    const history = await db.knex.withSchema(tenant.schemaName).from('history').where({ action: 'hello' });
    expect(history).toHaveLength(1);
    await waitFor(async () => (await q.getJob(missing))?.state === 'failed', 'the unknown-tenant job to fail');
    expect(await q.getJob(missing)).toMatchObject({ attempts: 1 });
    expect((await q.getJob(missing))!.lastError).toMatch(/does not exist/);
  });

  it('deletes completed runs older than a day and keeps recent ones', async () => {
    const def = defineJob({ id: uniqueJobId('cleanup'), schema: z.object({}), handler: async () => {} });
    const ids = await withControl(async (trx) => {
      const { rows } = await trx.raw(
        `insert into jobs (job_id, status, finished_at) values
           (?, 'completed', now() - interval '2 days'),
           (?, 'completed', now() - interval '1 hour'),
           (?, 'failed', now() - interval '2 days')
         returning id`,
        [def.id, def.id, def.id],
      );
      return rows.map((r: { id: string }) => String(r.id));
    });
    const q = track(new EmbeddedQueue(OPTIONS));
    await q.start([def]);
    await waitFor(async () => !(await row(ids[0])), 'the old completed run to be deleted');
    expect(await row(ids[1])).toBeTruthy();
    expect(await row(ids[2])).toBeTruthy();
  });

  it('reports the database as ready', async () => {
    await expect(new EmbeddedQueue(OPTIONS).ready()).resolves.toBeUndefined();
  });
});
