import { randomBytes } from 'node:crypto';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { BullmqQueue } from './bullmq-queue';
import { defineJob } from './define-job';
import { QUEUE_NAME, createQueue } from './queue';
import { queueContract, uniqueJobId } from './queue-contract';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
/** Every key this run writes starts with this, so the run cleans up exactly its own keys. */
const RUN_PREFIX = `ordo-test-${randomBytes(4).toString('hex')}`;
let isolation = 0;
const newPrefix = () => `${RUN_PREFIX}-${++isolation}`;

afterAll(async () => {
  const redis = new Redis(REDIS_URL);
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${RUN_PREFIX}*`, 'COUNT', 1000);
      if (keys.length) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
});

queueContract('bullmq', {
  backoffMs: 100,
  settleMs: 300,
  isolate: async () => {
    const prefix = newPrefix();
    return { create: () => new BullmqQueue(REDIS_URL, { prefix, backoffMs: 100 }) };
  },
});

describe('bullmq queue', () => {
  it('is what createQueue picks when REDIS_URL is set', async () => {
    const q = createQueue({ REDIS_URL }, { prefix: newPrefix() });
    try {
      expect(q.kind).toBe('bullmq');
      await q.ready();
    } finally {
      await q.stop();
    }
  });

  it('upserts a schedule by key: one BullMQ job scheduler, with the latest data and interval', async () => {
    const prefix = newPrefix();
    const def = defineJob({ id: uniqueJobId('sched'), schema: z.object({ v: z.number() }), handler: async () => {} });
    const q = new BullmqQueue(REDIS_URL, { prefix });
    const inspect = new Queue(QUEUE_NAME, { connection: { url: REDIS_URL }, prefix });
    try {
      await q.schedule(def, { key: 'purge-test', everyMs: 60_000, data: { v: 1 } });
      await q.schedule(def, { key: 'purge-test', everyMs: 120_000, data: { v: 2 } });
      const schedulers = await inspect.getJobSchedulers();
      expect(schedulers).toHaveLength(1);
      expect(schedulers[0]).toMatchObject({ key: 'purge-test', name: def.id, every: 120_000 });
      expect(schedulers[0]!.template?.data).toEqual({ v: 2 });
    } finally {
      await q.stop();
      await inspect.close();
    }
  });

  it('ready() throws when Redis cannot be reached, and stop() still returns', async () => {
    const q = new BullmqQueue('redis://127.0.0.1:1', { prefix: newPrefix() });
    await expect(q.ready()).rejects.toThrow(/Redis/);
    await q.stop();
  });
});
