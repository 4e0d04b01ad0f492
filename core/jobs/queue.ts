import type { z } from 'zod';
import type { Config } from '~/core/config/env';
import type { JobDefinition } from './define-job';
import { BullmqQueue } from './bullmq-queue';
import { EmbeddedQueue } from './embedded-queue';

export interface EnqueueOptions {
  /** Run no earlier than this many milliseconds from now. */
  delayMs?: number;
  /** Run no earlier than this moment (wins over delayMs when both are given). */
  runAt?: Date;
}

export interface ScheduleOptions<S extends z.ZodType> {
  /** One schedule per key: calling schedule() again with the same key replaces it, never duplicates. */
  key: string;
  everyMs: number;
  data: z.input<S>;
}

export type JobState = 'waiting' | 'delayed' | 'active' | 'completed' | 'failed';

/** What an operator (or a test) can learn about one queued run. */
export interface JobInfo {
  id: string;
  /** The job definition's id. */
  name: string;
  state: JobState;
  /** Attempts started so far. */
  attempts: number;
  lastError: string | null;
}

/**
 * The one queue interface the app uses, so code that enqueues never knows whether Redis is there.
 * Both backends keep jobs outside the process (Redis, or rows in control.jobs), so queued, delayed
 * and scheduled jobs survive a restart.
 */
export interface JobQueue {
  readonly kind: 'bullmq' | 'embedded';
  /** Validates the payload (throws JobPayloadError) and queues one run; returns its id. */
  enqueue<S extends z.ZodType>(def: JobDefinition<S>, data: z.input<S>, options?: EnqueueOptions): Promise<string>;
  /** Creates or replaces the repeating schedule `key`; idempotent, so every boot can call it. */
  schedule<S extends z.ZodType>(def: JobDefinition<S>, options: ScheduleOptions<S>): Promise<void>;
  /** Starts working on runs of these definitions (retries with exponential backoff). */
  start(defs: readonly JobDefinition[]): Promise<void>;
  /** Stops taking runs, waits for running handlers to finish and record their result, then closes. */
  stop(): Promise<void>;
  /** Resolves when the backend answers; throws otherwise (for /readyz). */
  ready(): Promise<void>;
  getJob(id: string): Promise<JobInfo | null>;
}

export interface QueueOptions {
  /** Handlers of 'work' jobs running at once in this process. */
  concurrency?: number;
  /** Handlers of 'sweep' jobs running at once in this process, beside the 'work' ones. */
  sweepConcurrency?: number;
  /** First retry delay; each further retry doubles it. */
  backoffMs?: number;
  /** Embedded backend: how often to look for due rows. */
  pollMs?: number;
  /** Embedded backend: how long a claimed run is owned before another worker may take it over. */
  lockMs?: number;
  /** BullMQ backend: Redis key prefix, so tests (or two apps) can share one Redis. */
  prefix?: string;
}

export const DEFAULT_CONCURRENCY = 2;
/** One sweep at a time per process: sweeps are periodic and can wait; they must not crowd out work. */
export const DEFAULT_SWEEP_CONCURRENCY = 1;
export const DEFAULT_BACKOFF_MS = 5_000;
export const QUEUE_NAME = 'ordo';
/** BullMQ: the sweeps' own queue, served by a worker of its own (see JobDefinition.lane). */
export const SWEEP_QUEUE_NAME = 'ordo-sweep';

/** Retry n (1-based) waits base·2^(n-1), capped at an hour so a long outage does not park a job for days. */
export function backoffDelay(baseMs: number, failedAttempts: number): number {
  return Math.min(baseMs * 2 ** Math.max(0, failedAttempts - 1), 3_600_000);
}

export function delayFrom(options: EnqueueOptions | undefined, now = Date.now()): number {
  if (options?.runAt) return Math.max(0, options.runAt.getTime() - now);
  return Math.max(0, options?.delayMs ?? 0);
}

export function assertSchedule(key: string, everyMs: number): void {
  if (!/^[a-z0-9][a-z0-9:._-]{0,199}$/i.test(key)) throw new Error(`Invalid schedule key ${JSON.stringify(key)}`);
  if (!Number.isInteger(everyMs) || everyMs < 1) throw new Error(`Schedule ${key}: everyMs must be a positive integer`);
}

/**
 * BullMQ on Redis when REDIS_URL is set (several app processes share it), otherwise the embedded
 * backend on the app's own database, so a single `npm start` needs no Redis.
 */
export function createQueue(config: Pick<Config, 'REDIS_URL'>, options: QueueOptions = {}): JobQueue {
  return config.REDIS_URL ? new BullmqQueue(config.REDIS_URL, options) : new EmbeddedQueue(options);
}
