import { EventEmitter } from 'node:events';
import { Redis } from 'ioredis';
import { getConfig } from '~/core/config/env';
import { logger } from '~/core/log/logger';

/*
 * Forgetting a cached value in every process (issue 30 item 2; decision 041): the web processes and
 * the workers each keep their own short-lived caches (a tenant's enabled plugins, 30 s); after a
 * write commits, the writer forgets its own entry and, with REDIS_URL, tells the others over Redis
 * pub/sub (the board events' way). News is a hint: a process that missed it still re-reads when its
 * entry's time runs out.
 */

const CHANNEL = 'ordo:cache-forget';
const local = new EventEmitter();
local.setMaxListeners(0);
let publisher: Redis | undefined;
let subscriber: Redis | undefined;

function redisUrl(): string | undefined {
  try {
    return getConfig().REDIS_URL;
  } catch {
    return undefined;
  }
}

function ensureSubscriber(url: string): void {
  if (subscriber) return;
  subscriber = new Redis(url, { maxRetriesPerRequest: null, connectTimeout: 2000 });
  subscriber.on('error', (err) => logger.warn({ err: err.message }, 'cache events: redis subscriber problem'));
  subscriber.on('message', (_channel: string, message: string) => {
    try {
      const { cache, key } = JSON.parse(message) as { cache: string; key: string };
      local.emit(cache, key);
    } catch (err) {
      logger.warn({ err }, 'cache events: unreadable message');
    }
  });
  void subscriber.subscribe(CHANNEL).catch((err: Error) => {
    logger.warn({ err: err.message }, 'cache events: could not subscribe');
  });
}

/** Listens for `cache`'s keys forgotten in this process, and in others once `listenForForgets` ran. */
export function onForget(cache: string, forget: (key: string) => void): void {
  local.on(cache, forget);
}

/**
 * Hears other processes' forgets (called at boot by the server and the worker; a command that
 * exits soon has no cache worth keeping and no Redis connection to close).
 */
export function listenForForgets(): void {
  const url = redisUrl();
  if (url) ensureSubscriber(url);
}

/** Forgets `key` of `cache` here at once and in every other process through Redis. */
export async function forgetEverywhere(cache: string, key: string): Promise<void> {
  local.emit(cache, key);
  const url = redisUrl();
  if (!url) return;
  if (!publisher) {
    publisher = new Redis(url, { maxRetriesPerRequest: 1, connectTimeout: 2000 });
    publisher.on('error', () => undefined);
  }
  // our own process hears it again: forgetting twice is harmless
  await publisher.publish(CHANNEL, JSON.stringify({ cache, key }));
}

/** Closes the Redis connections (shutdown, tests). */
export async function closeCacheEvents(): Promise<void> {
  const s = subscriber;
  const p = publisher;
  subscriber = undefined;
  publisher = undefined;
  await Promise.all([s?.quit().catch(() => s.disconnect()), p?.quit().catch(() => p.disconnect())]);
}
