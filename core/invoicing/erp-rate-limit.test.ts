import { Redis } from 'ioredis';
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import type { ErpRateLimit } from '~/core/extension-points/erp-http';
import { fixedWindowFor, redisErpRateLimit } from './erp-rate-limit';

/*
 * Issue 31 item 7 (decision 052): the vendor's sliding limit kept with rate-limiter-flexible's fixed
 * windows on Redis, by limiters on separate connections (as separate processes have), and counted
 * in the process when Redis fails. tests/integration/erp-rate-limit.test.ts has the two processes.
 */

const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
/** The plugins' margin over the vendor's window (Fortnox, QuickBooks: RATE_SLACK_MS). */
const SLACK_MS = 250;
const clients: Redis[] = [];
const connect = (url = redisUrl) => {
  const client = new Redis(url, { maxRetriesPerRequest: 1, enableOfflineQueue: false, connectTimeout: 500 });
  client.on('error', () => {});
  clients.push(client);
  return client;
};
afterAll(() => {
  for (const c of clients) c.disconnect();
});

/** The most of `times` in any span of `ms` (a vendor's sliding window). */
function mostInAnySpan(times: number[], ms: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  let most = 0;
  for (let i = 0, j = 0; i < sorted.length; i++) {
    while (sorted[i]! - sorted[j]! >= ms) j++;
    most = Math.max(most, i - j + 1);
  }
  return most;
}

describe('[erp] fixedWindowFor', () => {
  it.each([
    // Fortnox's 25 per 5 s with the plugin's 250 ms of slack; QuickBooks' 500 a minute; the tests' limits
    [
      { requests: 25, perMs: 5250 },
      { points: 3, seconds: 1 },
    ],
    [
      { requests: 500, perMs: 60_250 },
      { points: 8, seconds: 1 },
    ],
    [
      { requests: 10, perMs: 2250 },
      { points: 2, seconds: 1 },
    ],
    [
      { requests: 1, perMs: 1000 },
      { points: 1, seconds: 1 },
    ],
    [
      { requests: 1, perMs: 2500 },
      { points: 1, seconds: 3 },
    ],
  ])('%o → %o', (limit, window) => {
    expect(fixedWindowFor(limit)).toEqual(window);
  });

  it('never lets more than the limit into any span of it, whatever the limit', () => {
    for (const requests of [1, 2, 3, 5, 10, 25, 100, 600, 1000])
      for (const perMs of [500, 1000, 1250, 2000, 5250, 60_000, 3_636_000]) {
        const { points, seconds } = fixedWindowFor({ requests, perMs });
        expect(points).toBeGreaterThanOrEqual(1);
        // (P − 1) from the window open when the span begins, P from each one opening inside it
        const worst =
          points === 1 ? Math.ceil(perMs / 1000 / seconds) : points - 1 + points * Math.ceil(perMs / 1000 / seconds);
        expect(worst, `${requests} per ${perMs} ms as ${points} per ${seconds} s`).toBeLessThanOrEqual(requests);
      }
  });
});

describe('[erp] the rate limit on Redis', () => {
  it('two limiters on separate Redis connections share one limit: never more than it in any span', async () => {
    // the vendor's 5 a second, asked with slack as the plugins ask (a grant is seen here a Redis
    // round trip after it was booked, as a request reaches the vendor a network trip after)
    const vendor = { requests: 5, perMs: 1000 };
    const limit: ErpRateLimit = { requests: vendor.requests, perMs: vendor.perMs + SLACK_MS };
    const key = `test:${randomUUID()}`;
    const stores = [redisErpRateLimit(connect()), redisErpRateLimit(connect())];
    const granted: number[] = [];
    await Promise.all(
      Array.from({ length: 10 }, (_, i) => stores[i % 2]!.take(key, limit).then(() => granted.push(Date.now()))),
    );
    expect(granted).toHaveLength(10);
    expect(mostInAnySpan(granted, vendor.perMs)).toBeLessThanOrEqual(vendor.requests);
    // and the two did wait for each other: ten at 5 a second take more than a second
    expect(Math.max(...granted) - Math.min(...granted)).toBeGreaterThan(vendor.perMs);
  }, 30_000);

  it('when Redis cannot be reached, counts in this process instead and still keeps the limit', async () => {
    const vendor = { requests: 3, perMs: 600 };
    const limit: ErpRateLimit = { requests: vendor.requests, perMs: vendor.perMs + SLACK_MS };
    const store = redisErpRateLimit(connect('redis://127.0.0.1:1'));
    const key = `test:${randomUUID()}`;
    const granted: number[] = [];
    await Promise.all(Array.from({ length: 7 }, () => store.take(key, limit).then(() => granted.push(Date.now()))));
    expect(granted).toHaveLength(7);
    expect(mostInAnySpan(granted, vendor.perMs)).toBeLessThanOrEqual(vendor.requests);
  }, 30_000);
});
