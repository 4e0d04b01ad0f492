import { Redis } from 'ioredis';
import { logger } from '~/core/log/logger';

let client: Redis | undefined;
const firstConnections = new WeakMap<Redis, Promise<void>>();
const CONNECT_TIMEOUT_MS = 2000;

/**
 * One shared Redis connection for counters (sign-in throttling). Commands fail fast when Redis is
 * away instead of queueing, so callers can fall back to the database.
 */
export function getRedis(url: string): Redis {
  if (!client) {
    const redis = new Redis(url, {
      maxRetriesPerRequest: 1,
      enableOfflineQueue: false,
      connectTimeout: CONNECT_TIMEOUT_MS,
    });
    redis.on('error', (err) => logger.warn({ err: err.message }, 'redis connection problem'));
    firstConnections.set(
      redis,
      new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, CONNECT_TIMEOUT_MS);
        const done = () => (clearTimeout(timer), resolve());
        redis.once('ready', done);
        redis.once('error', done);
        redis.once('end', done);
      }),
    );
    client = redis;
  }
  return client;
}

/**
 * Resolves once the client's first connection attempt has ended, whichever way. Without the offline
 * queue, a command sent before that fails at once: the first sign-in after a start would find Redis
 * "down" and fall back to the database. Later outages are not waited for; commands fail fast.
 */
export function firstConnection(redis: Redis): Promise<void> {
  return firstConnections.get(redis) ?? Promise.resolve();
}

export async function closeRedis(): Promise<void> {
  const c = client;
  client = undefined;
  await c?.quit().catch(() => c.disconnect());
}
