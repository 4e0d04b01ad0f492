import type { Redis } from 'ioredis';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import {
  setErpRateLimitStore,
  takeInProcessSlot,
  type ErpRateLimit,
  type ErpRateLimitStore,
} from '~/core/extension-points/erp-http';
import { logger } from '~/core/log/logger';
import { getRedis } from '~/core/redis/client';

/*
 * The vendors' rate limits shared by every process through Redis (issue 31 item 7; decision 052),
 * counted by rate-limiter-flexible. Without Redis the limit stays in the process
 * (core/extension-points/erp-http.ts), which is right for the embedded mode's single process.
 */

/**
 * The fixed window that keeps a vendor's sliding one. rate-limiter-flexible counts a key in fixed
 * windows, each opened by its first request and lasting whole seconds; vendors count any span of
 * `perMs` (Fortnox says "sliding window"). Windows of D seconds holding P requests each put at most
 * (P − 1) + P·⌈d / D⌉ requests in a span of d: those of the window open when the span begins, less
 * its first, which came before; and P for each window that opens inside it, one at most per D.
 * Among D from one second up to ⌈d⌉ this chooses the one that lets the most through with that at or
 * under the vendor's limit; P = 1 with D ≥ d always fits. The price is pace: a limit of 25 per 5.25 s
 * becomes 3 a second (63 %), 500 a minute 8 a second (96 %).
 */
export function fixedWindowFor(limit: ErpRateLimit): { points: number; seconds: number } {
  const span = limit.perMs / 1000;
  let best = { points: 1, seconds: Math.max(1, Math.ceil(span)) };
  for (let seconds = 1; seconds <= Math.ceil(span); seconds++) {
    const points = Math.floor((limit.requests + 1) / (1 + Math.ceil(span / seconds)));
    if (points >= 1 && points / seconds > best.points / best.seconds) best = { points, seconds };
  }
  return best;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** How long a request waits for Redis to connect before it is counted in this process instead. */
const REDIS_READY_WAIT_MS = 2_000;

function readyWithin(redis: Redis, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      redis.off('ready', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    redis.once('ready', done);
  });
}

/**
 * The store on Redis: a request waits until its window has room (the library answers how long),
 * never fails for the limit. When Redis itself fails the request is counted in this process
 * instead, as the sign-in throttle falls back to the database: a limit kept per process is better
 * than none, and the vendor's 429 is still waited out (createErpHttp).
 */
export function redisErpRateLimit(redis: Redis): ErpRateLimitStore {
  const limiters = new Map<string, RateLimiterRedis>();
  let firstConnect: Promise<void> | undefined;
  const limiterFor = (limit: ErpRateLimit) => {
    const { points, seconds } = fixedWindowFor(limit);
    const prefix = `ordo:erp-rate:${points}/${seconds}`;
    let limiter = limiters.get(prefix);
    if (!limiter) {
      limiter = new RateLimiterRedis({ storeClient: redis, keyPrefix: prefix, points, duration: seconds });
      limiters.set(prefix, limiter);
    }
    return limiter;
  };
  return {
    async take(key, limit) {
      const limiter = limiterFor(limit);
      // a process just started may not have connected yet (commands fail at once rather than queue):
      // its first requests wait for that, once; later, Redis away means counting here at once
      firstConnect ??= redis.status === 'ready' ? Promise.resolve() : readyWithin(redis, REDIS_READY_WAIT_MS);
      await firstConnect;
      for (;;) {
        try {
          await limiter.consume(key);
          return;
        } catch (answer) {
          if (!(answer instanceof RateLimiterRes)) {
            logger.warn(
              { err: (answer as Error)?.message, key },
              'ERP rate limit: Redis failed, counting in this process',
            );
            return takeInProcessSlot(key, limit);
          }
          // the window is full: wait for it to close (a little spread, so waiters do not all come at once)
          await sleep(answer.msBeforeNext + Math.floor(Math.random() * 20));
        }
      }
    },
  };
}

/** At boot: with REDIS_URL, every ERP request of this process is counted on Redis. */
export function shareErpRateLimits(redisUrl: string | undefined): void {
  setErpRateLimitStore(redisUrl ? redisErpRateLimit(getRedis(redisUrl)) : undefined);
}
