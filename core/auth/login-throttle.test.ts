import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import type { Trx } from '~/core/db/with-tenant';
import { closeRedis } from '~/core/redis/client';
import { redisThrottle, THROTTLE, throttleFor, throttleKeys } from './login-throttle';

/** The Redis store against a real Redis (REDIS_URL, or the local one every CI machine runs). */
const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: 1 });
const scope = `test-${Date.now().toString(36)}`;
afterAll(async () => {
  const keys = await redis.keys(`ordo:throttle:${scope}*`);
  if (keys.length) await redis.del(...keys);
  await redis.quit();
});

describe('[identity] sign-in throttle on Redis', () => {
  it('blocks an address and an account after the limit, per tenant, and a success clears the account', async () => {
    const store = redisThrottle(redis, scope);
    const other = redisThrottle(redis, `${scope}-other`);
    const keys = throttleKeys('10.0.0.1', 'Anna@Example.se');
    const now = new Date();
    for (let i = 0; i < THROTTLE.maxFailures - 1; i++) await store.recordFailure(keys, now);
    expect(await store.isBlocked(keys, now)).toBe(false);
    await store.recordFailure(keys, now);
    expect(await store.isBlocked(keys, now)).toBe(true);
    // The same person on another tenant is not affected.
    expect(await other.isBlocked(keys, now)).toBe(false);
    // The block has a time limit: nobody is locked out for long.
    const ttl = await redis.pttl(`ordo:throttle:${scope}:${keys[1]}:blocked`);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(THROTTLE.blockMinutes * 60_000);
    await store.clearFailures(keys[1]!);
    expect(await store.isBlocked([keys[1]!], now)).toBe(false);
    expect(await store.isBlocked([keys[0]!], now)).toBe(true);
  });
});

describe('[identity] sign-in throttle right after a start', () => {
  it('counts the first failure in Redis, not in the database, before the connection is up', async () => {
    await closeRedis(); // as a process that has not used Redis yet
    const database = (() => {
      throw new Error('the throttle fell back to the database');
    }) as unknown as Trx;
    const keys = throttleKeys('10.0.0.2', `first-${scope}@example.se`);
    await throttleFor(database, `${scope}-first`).recordFailure(keys, new Date());
    expect(await redis.get(`ordo:throttle:${scope}-first:${keys[1]}`)).toBe('1');
    await closeRedis();
  });
});
