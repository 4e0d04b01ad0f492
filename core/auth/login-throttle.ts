import type { Redis } from 'ioredis';
import { getConfig } from '~/core/config/env';
import type { Trx } from '~/core/db/with-tenant';
import { logger } from '~/core/log/logger';
import { firstConnection, getRedis } from '~/core/redis/client';
import { STAFF, type Principal } from './principal';

/**
 * Failed sign-ins are counted per address and per e-mail (ASVS 2.2.1). Past the limit within the
 * window, further attempts are refused for the block time, right password or not. The block is
 * short (15 minutes), so an attacker is slowed without locking a victim out for long. Counters
 * live in Redis when REDIS_URL is set (shared by every app server), else in the tenant schema.
 */
export const THROTTLE = { maxFailures: 10, windowMinutes: 15, blockMinutes: 15 } as const;

/**
 * The counters a sign-in attempt touches: its address (shared by staff and zone sign-ins: one
 * guesser is one guesser) and its e-mail within its kind of user (a zone user may share a staff
 * member's address without either blocking the other).
 */
export function throttleKeys(ip: string | null | undefined, email: string, principal: Principal = STAFF): string[] {
  return [`ip:${ip ?? 'unknown'}`, `${principal.throttleEmailKey}:${email.toLowerCase()}`];
}

export async function isBlocked(trx: Trx, keys: string[], now: Date): Promise<boolean> {
  const row = await trx('login_throttle').whereIn('key', keys).where('blocked_until', '>', now).first('key');
  return Boolean(row);
}

export async function recordFailure(trx: Trx, keys: string[], now: Date): Promise<void> {
  const windowStart = new Date(now.getTime() - THROTTLE.windowMinutes * 60_000);
  const blockUntil = new Date(now.getTime() + THROTTLE.blockMinutes * 60_000);
  for (const key of keys) {
    await trx.raw(
      `insert into login_throttle (key, failures, window_started_at) values (?, 1, ?)
       on conflict (key) do update set
         failures = case when login_throttle.window_started_at < ? then 1 else login_throttle.failures + 1 end,
         window_started_at = case when login_throttle.window_started_at < ? then excluded.window_started_at
                                  else login_throttle.window_started_at end,
         blocked_until = case when login_throttle.window_started_at >= ? and login_throttle.failures + 1 >= ?
                              then ?::timestamptz else login_throttle.blocked_until end`,
      [key, now, windowStart, windowStart, windowStart, THROTTLE.maxFailures, blockUntil],
    );
  }
}

export async function clearFailures(trx: Trx, key: string): Promise<void> {
  await trx('login_throttle').where({ key }).delete();
}

export interface ThrottleStore {
  isBlocked(keys: string[], now: Date): Promise<boolean>;
  recordFailure(keys: string[], now: Date): Promise<void>;
  clearFailures(key: string): Promise<void>;
}

export function dbThrottle(trx: Trx): ThrottleStore {
  return {
    isBlocked: (keys, now) => isBlocked(trx, keys, now),
    recordFailure: (keys, now) => recordFailure(trx, keys, now),
    clearFailures: (key) => clearFailures(trx, key),
  };
}

/** Redis counters: INCR within a window that starts at the first failure, a block key with a TTL. */
export function redisThrottle(redis: Redis, scope: string): ThrottleStore {
  const k = (key: string) => `ordo:throttle:${scope}:${key}`;
  return {
    async isBlocked(keys) {
      return (await redis.exists(...keys.map((key) => `${k(key)}:blocked`))) > 0;
    },
    async recordFailure(keys) {
      for (const key of keys) {
        const [[, count]] = (await redis
          .multi()
          .incr(k(key))
          .pexpire(k(key), THROTTLE.windowMinutes * 60_000, 'NX')
          .exec()) as [[Error | null, number], unknown];
        if (count >= THROTTLE.maxFailures)
          await redis.set(`${k(key)}:blocked`, '1', 'PX', THROTTLE.blockMinutes * 60_000);
      }
    },
    async clearFailures(key) {
      await redis.del(k(key), `${k(key)}:blocked`);
    },
  };
}

/** Redis first; if it fails, the same check on the database rather than no check at all. */
function withFallback(primary: ThrottleStore, fallback: ThrottleStore, ready: () => Promise<void>): ThrottleStore {
  async function attempt<R>(run: (store: ThrottleStore) => Promise<R>): Promise<R> {
    try {
      await ready();
      return await run(primary);
    } catch (err) {
      logger.warn({ err: (err as Error).message }, 'sign-in throttle: Redis failed, using the database');
      return run(fallback);
    }
  }
  return {
    isBlocked: (keys, now) => attempt((s) => s.isBlocked(keys, now)),
    recordFailure: (keys, now) => attempt((s) => s.recordFailure(keys, now)),
    clearFailures: (key) => attempt((s) => s.clearFailures(key)),
  };
}

/** The throttle for one tenant's sign-ins. */
export function throttleFor(trx: Trx, tenantId: string): ThrottleStore {
  const url = getConfig().REDIS_URL;
  const db = dbThrottle(trx);
  if (!url) return db;
  const redis = getRedis(url);
  return withFallback(redisThrottle(redis, tenantId), db, () => firstConnection(redis));
}
