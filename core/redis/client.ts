import { Redis } from 'ioredis';
import { logger } from '~/core/log/logger';

let client: Redis | undefined;

/**
 * One shared Redis connection for counters (sign-in throttling). Commands fail fast when Redis is
 * away instead of queueing, so callers can fall back to the database.
 */
export function getRedis(url: string): Redis {
  if (!client) {
    client = new Redis(url, { maxRetriesPerRequest: 1, enableOfflineQueue: false, connectTimeout: 2000 });
    client.on('error', (err) => logger.warn({ err: err.message }, 'redis connection problem'));
  }
  return client;
}

export async function closeRedis(): Promise<void> {
  const c = client;
  client = undefined;
  await c?.quit().catch(() => c.disconnect());
}
