import { Queue, UnrecoverableError, Worker, type Job, type JobsOptions } from 'bullmq';
import type { z } from 'zod';
import { logger } from '~/core/log/logger';
import { PermanentJobError, runJob, validatePayload, type JobDefinition, type JobLane } from './define-job';
import {
  DEFAULT_BACKOFF_MS,
  DEFAULT_CONCURRENCY,
  DEFAULT_SWEEP_CONCURRENCY,
  QUEUE_NAME,
  SWEEP_QUEUE_NAME,
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

/** The id getJob() knows a sweep-lane run by: BullMQ numbers each queue's jobs on its own. */
const SWEEP_ID_PREFIX = 'sweep-';

/**
 * BullMQ on Redis, for deployments with several app processes. The queue `ordo` carries every
 * 'work' job; the BullMQ job name is the definition id, so one Worker with concurrency N serves all
 * job kinds. Sweeps (JobDefinition.lane) have the queue `ordo-sweep` and a worker of their own, so a
 * walk over every tenant never holds the slots an interactive job is waiting for.
 */
export class BullmqQueue implements JobQueue {
  readonly kind = 'bullmq' as const;
  private readonly queues: Record<JobLane, Queue>;
  private workers: Worker[] = [];
  private readonly defs = new Map<string, JobDefinition>();
  private closed = false;

  constructor(
    private readonly redisUrl: string,
    private readonly options: QueueOptions = {},
  ) {
    const open = (name: string) => {
      const queue = new Queue(name, {
        connection: { url: redisUrl },
        ...(options.prefix ? { prefix: options.prefix } : {}),
      });
      // Without a listener, a Redis outage would surface as an unhandled 'error' event and end the process.
      queue.on('error', (err) => logger.warn({ err }, 'job queue: Redis error'));
      return queue;
    };
    this.queues = { work: open(QUEUE_NAME), sweep: open(SWEEP_QUEUE_NAME) };
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
    const job = await this.queues[def.lane].add(def.id, data, { ...this.jobOptions(def), delay: delayFrom(options) });
    return def.lane === 'sweep' ? `${SWEEP_ID_PREFIX}${job.id!}` : job.id!;
  }

  async schedule<S extends z.ZodType>(def: JobDefinition<S>, options: ScheduleOptions<S>): Promise<void> {
    assertSchedule(options.key, options.everyMs);
    validatePayload(def, options.data);
    await this.queues[def.lane].upsertJobScheduler(
      options.key,
      { every: options.everyMs },
      { name: def.id, data: options.data, opts: this.jobOptions(def) },
    );
    // A key lives in one lane: one scheduled in the other lane by an older release stops there,
    // with the run it had already queued (BullMQ removes that run only while it is delayed).
    const other = this.queues[def.lane === 'sweep' ? 'work' : 'sweep'];
    const moved = await other.getJobScheduler(options.key);
    if (moved) {
      await other.removeJobScheduler(options.key);
      if (moved.next !== undefined) {
        const pending = await other.getJob(`repeat:${options.key}:${moved.next}`);
        const state = await pending?.getState();
        if (state === 'waiting' || state === 'delayed' || state === 'prioritized') await pending!.remove();
      }
    }
  }

  async start(defs: readonly JobDefinition[]): Promise<void> {
    if (this.workers.length || this.closed) throw new Error('The BullMQ queue cannot start twice');
    for (const def of defs) {
      const known = this.defs.get(def.id);
      if (known && known !== def) throw new Error(`Two job definitions share the id ${def.id}`);
      this.defs.set(def.id, def);
    }
    const lanes = [
      { lane: 'work', concurrency: this.options.concurrency ?? DEFAULT_CONCURRENCY },
      { lane: 'sweep', concurrency: this.options.sweepConcurrency ?? DEFAULT_SWEEP_CONCURRENCY },
    ] as const;
    this.workers = lanes.map(({ lane, concurrency }) => {
      const worker = new Worker(this.queues[lane].name, (job) => this.process(job), {
        connection: { url: this.redisUrl },
        ...(this.options.prefix ? { prefix: this.options.prefix } : {}),
        concurrency,
      });
      worker.on('error', (err) => logger.warn({ err }, 'job worker: Redis error'));
      worker.on('failed', (job, err) =>
        logger.warn({ err, job: job?.name, jobId: job?.id, attempt: job?.attemptsMade }, 'job attempt failed'),
      );
      return worker;
    });
    await Promise.all(this.workers.map((w) => w.waitUntilReady()));
  }

  private async process(job: Job): Promise<void> {
    const def = this.defs.get(job.name);
    // Thrown as a normal error: a newer process that knows this job may pick up the retry.
    if (!def) throw new Error(`No job definition named ${JSON.stringify(job.name)} in this worker`);
    try {
      await runJob(def, job.data, {
        jobId: job.queueName === SWEEP_QUEUE_NAME ? `${SWEEP_ID_PREFIX}${job.id!}` : job.id!,
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
    await Promise.all(this.workers.map((w) => w.close()));
    await Promise.all(Object.values(this.queues).map((q) => q.close()));
  }

  async ready(): Promise<void> {
    await withTimeout(this.queues.work.getVersion(), READY_TIMEOUT_MS, 'Redis (job queue)');
  }

  async getJob(id: string): Promise<JobInfo | null> {
    const sweep = id.startsWith(SWEEP_ID_PREFIX);
    const job = await this.queues[sweep ? 'sweep' : 'work'].getJob(sweep ? id.slice(SWEEP_ID_PREFIX.length) : id);
    if (!job) return null;
    const state = await job.getState();
    if (state === 'unknown') return null;
    return {
      id,
      name: job.name,
      state:
        state === 'completed' || state === 'failed' || state === 'active' || state === 'delayed' ? state : 'waiting',
      attempts: Math.max(job.attemptsStarted, job.attemptsMade),
      lastError: job.failedReason || null,
    };
  }
}
