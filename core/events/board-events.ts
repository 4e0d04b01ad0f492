import { EventEmitter } from 'node:events';
import { Redis } from 'ioredis';
import { getConfig } from '~/core/config/env';
import { afterCommit, type Trx } from '~/core/db/with-tenant';
import { logger } from '~/core/log/logger';

/**
 * Live planning boards: after a planning change commits, every open calendar of the tenant hears
 * the board's new version and reloads what it shows (issue 6: "two dispatchers editing the same
 * board see each other's changes without reloading").
 *
 * Within one process an EventEmitter carries the news. With `REDIS_URL` the news goes through
 * Redis pub/sub, so a board served by one app process hears a change made on another; when Redis
 * cannot take it, the process still tells its own boards. A board that missed news (a dropped
 * connection) reloads when it reconnects, so news is a hint, never the data.
 */

export interface BoardEvent {
  tenantId: string;
  version: number;
  /** Who made the change, so their own board need not flash a notice. */
  userId: string | null;
  /** The orders the change touched. */
  workOrderIds: string[];
}

const CHANNEL = 'ordo:board';
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
  subscriber.on('error', (err) => logger.warn({ err: err.message }, 'board events: redis subscriber problem'));
  subscriber.on('message', (_channel: string, message: string) => {
    try {
      const event = JSON.parse(message) as BoardEvent;
      local.emit(event.tenantId, event);
    } catch (err) {
      logger.warn({ err }, 'board events: unreadable message');
    }
  });
  void subscriber.subscribe(CHANNEL).catch((err: Error) => {
    logger.warn({ err: err.message }, 'board events: could not subscribe');
  });
}

/** Tells every board of the tenant, in every process, about a change that has committed. */
export async function publishBoardEvent(event: BoardEvent): Promise<void> {
  const url = redisUrl();
  if (url) {
    if (!publisher) {
      publisher = new Redis(url, { maxRetriesPerRequest: 1, connectTimeout: 2000 });
      publisher.on('error', () => undefined);
    }
    try {
      await publisher.publish(CHANNEL, JSON.stringify(event));
      return;
    } catch (err) {
      logger.warn({ err: (err as Error).message }, 'board events: redis publish failed; telling this process only');
    }
  }
  local.emit(event.tenantId, event);
}

/** Publishes once the transaction commits; a rollback tells nobody. */
export function publishAfterCommit(trx: Trx, event: BoardEvent): void {
  afterCommit(trx, () => publishBoardEvent(event));
}

/** Listens to one tenant's boards; returns the way to stop. */
export function subscribeBoard(tenantId: string, listener: (event: BoardEvent) => void): () => void {
  const url = redisUrl();
  if (url) ensureSubscriber(url);
  local.on(tenantId, listener);
  return () => local.off(tenantId, listener);
}

const streams = new Set<() => void>();

/** An open live channel registers how to end it, so shutdown does not wait for browsers to leave. */
export function registerBoardStream(stop: () => void): () => void {
  streams.add(stop);
  return () => streams.delete(stop);
}

/** Ends every open live channel (the browsers reconnect to another process) and closes Redis. */
export async function closeBoardEvents(): Promise<void> {
  for (const stop of [...streams]) stop();
  streams.clear();
  const s = subscriber;
  const p = publisher;
  subscriber = undefined;
  publisher = undefined;
  await Promise.all([s?.quit().catch(() => s.disconnect()), p?.quit().catch(() => p.disconnect())]);
}
