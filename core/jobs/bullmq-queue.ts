import { Queue, UnrecoverableError, Worker, type Job, type JobsOptions } from 'bullmq';
import type { z } from 'zod';
import { logger } from '~/core/log/logger';
import { PermanentJobError, runJob, validatePayload, type JobDefinition } from './define-job';
import {
  DEFAULT_BACKOFF_MS,
  DEFAULT_CONCURRENCY,
  QUEUE_NAME,
  assertSchedule,
  delayFrom,
  type EnqueueOptions,
  type JobInfo,
  type JobQueue,
  type QueueOptions,
  type ScheduleOptions,
} from './queue';

const READY_TIMEOUT_MS = 2_000;

/** Finished runs are evicted by BullMQ when later runs finish; failed ones stay longer for operators. */
const KEEP = {
  removeOnComplete: { age: 24 * 3600, count: 1_000 },
  removeOnFail: { age: 7 * 24 * 3600, count: 5_000 },
} satisfies JobsOptions;

function withTimeout<T>(p: Promise<T>, timeoutMs: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${timeoutMs} ms`)), timeoutMs);
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}

/**
 * BullMQ on Redis, for deployments with several app processes. One queue (`ordo`) carries every
 * job; the BullMQ job name is the definition id, so one Worker with concurrency N serves all job
 * kinds and a slow kind cannot starve the others of workers they would otherwise own.
 */
export class BullmqQueue implements JobQueue {
  readonly kind = 'bullmq' as const;
  private readonly queue: Queue;
  private worker: Worker | undefined;
  private readonly defs = new Map<string, JobDefinition>();
  private closed = false;

  constructor(
    private readonly redisUrl: string,
    private readonly options: QueueOptions = {},
  ) {
    this.queue = new Queue(QUEUE_NAME, {
      connection: { url: redisUrl },
      ...(options.prefix ? { prefix: options.prefix } : {}),
    });
    // Without a listener, a Redis outage would surface as an unhandled 'error' event and end the process.
    this.queue.on('error', (err) => logger.warn({ err }, 'job queue: Redis error'));
  }

  private jobOptions(def: JobDefinition): JobsOptions {
    return {
      attempts: def.attempts,
      backoff: { type: 'exponential', delay: this.options.backoffMs ?? DEFAULT_BACKOFF_MS },
      ...KEEP,
    };
  }

  async enqueue<S extends z.ZodType>(
    def: JobDefinition<S>,
    data: z.input<S>,
    options?: EnqueueOptions,
  ): Promise<string> {
    validatePayload(def, data);
    const job = await this.queue.add(def.id, data, { ...this.jobOptions(def), delay: delayFrom(options) });
    return job.id!;
  }

  async schedule<S extends z.ZodType>(def: JobDefinition<S>, options: ScheduleOptions<S>): Promise<void> {
    assertSchedule(options.key, options.everyMs);
    validatePayload(def, options.data);
    await this.queue.upsertJobScheduler(
      options.key,
      { every: options.everyMs },
      { name: def.id, data: options.data, opts: this.jobOptions(def) },
    );
  }

  async start(defs: readonly JobDefinition[]): Promise<void> {
    if (this.worker || this.closed) throw new Error('The BullMQ queue cannot start twice');
    for (const def of defs) {
      const known = this.defs.get(def.id);
      if (known && known !== def) throw new Error(`Two job definitions share the id ${def.id}`);
      this.defs.set(def.id, def);
    }
    this.worker = new Worker(QUEUE_NAME, (job) => this.process(job), {
      connection: { url: this.redisUrl },
      ...(this.options.prefix ? { prefix: this.options.prefix } : {}),
      concurrency: this.options.concurrency ?? DEFAULT_CONCURRENCY,
    });
    this.worker.on('error', (err) => logger.warn({ err }, 'job worker: Redis error'));
    this.worker.on('failed', (job, err) =>
      logger.warn({ err, job: job?.name, jobId: job?.id, attempt: job?.attemptsMade }, 'job attempt failed'),
    );
    await this.worker.waitUntilReady();
  }

  private async process(job: Job): Promise<void> {
    const def = this.defs.get(job.name);
    // Thrown as a normal error: a newer process that knows this job may pick up the retry.
    if (!def) throw new Error(`No job definition named ${JSON.stringify(job.name)} in this worker`);
    try {
      await runJob(def, job.data, {
        jobId: job.id!,
        attempt: Math.max(job.attemptsStarted, job.attemptsMade + 1),
      });
    } catch (e) {
      if (e instanceof PermanentJobError) throw new UnrecoverableError(e.message);
      throw e;
    }
  }

  /** Worker.close() waits for running handlers and their completion records before returning. */
  async stop(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.worker?.close();
    await this.queue.close();
  }

  async ready(): Promise<void> {
    await withTimeout(this.queue.getVersion(), READY_TIMEOUT_MS, 'Redis (job queue)');
  }

  async getJob(id: string): Promise<JobInfo | null> {
    const job = await this.queue.getJob(id);
    if (!job) return null;
    const state = await job.getState();
    if (state === 'unknown') return null;
    return {
      id: job.id!,
      name: job.name,
      state:
        state === 'completed' || state === 'failed' || state === 'active' || state === 'delayed' ? state : 'waiting',
      attempts: Math.max(job.attemptsStarted, job.attemptsMade),
      lastError: job.failedReason || null,
    };
  }
}
