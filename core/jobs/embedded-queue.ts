import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { withControl } from '~/core/db/with-tenant';
import { logger } from '~/core/log/logger';
import { PermanentJobError, runJob, validatePayload, type JobDefinition, type JobLane } from './define-job';
import {
  DEFAULT_BACKOFF_MS,
  DEFAULT_CONCURRENCY,
  DEFAULT_SWEEP_CONCURRENCY,
  assertSchedule,
  backoffDelay,
  delayFrom,
  type EnqueueOptions,
  type JobInfo,
  type JobQueue,
  type QueueOptions,
  type ScheduleOptions,
} from './queue';

const DEFAULT_POLL_MS = 500;
const DEFAULT_LOCK_MS = 5 * 60_000;
const CLEANUP_EVERY_MS = 10 * 60_000;
const READY_TIMEOUT_MS = 5_000;
const MAX_ERROR_LENGTH = 4_000;

interface JobRow {
  id: string;
  job_id: string;
  data: unknown;
  status: 'waiting' | 'active' | 'completed' | 'failed';
  run_at: Date;
  attempts: number;
  max_attempts: number;
  locked_by: string | null;
  last_error: string | null;
  repeat_key: string | null;
}

type Outcome = { ok: true } | { ok: false; error: unknown };

/** An interval literal for SQL; only ever given numbers we computed, so inlining is safe. */
const ms = (n: number) => `(${Math.max(0, Math.round(n))} * interval '1 millisecond')`;

function errorText(e: unknown): string {
  const text = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
  return text.slice(0, MAX_ERROR_LENGTH);
}

function withTimeout<T>(p: Promise<T>, timeoutMs: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${timeoutMs} ms`)), timeoutMs);
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}

/**
 * The queue without Redis: one row per queued run in control.jobs, on the app's own database
 * (PGlite or PostgreSQL). Chosen over BullMQ's Postgres backend because it needs nothing but the
 * knex pool the app already has, and therefore works on PGlite's single connection.
 *
 * Rules that keep it correct:
 * - A run is claimed in one short transaction (`for update skip locked`, so several processes on
 *   PostgreSQL never take the same row), the handler runs with no transaction held, and the result
 *   is written in a second transaction. On PGlite, holding the claim transaction while the handler
 *   opens `withTenant` would deadlock the single connection.
 * - A claim carries a lock deadline, renewed while the handler runs. A row left 'active' by a
 *   crashed process is claimed again once its deadline passes; the claim token (`locked_by`) stops
 *   the old owner from overwriting the new owner's result should it come back.
 * - All times come from the database clock, the one clock every worker shares.
 */
export class EmbeddedQueue implements JobQueue {
  readonly kind = 'embedded' as const;
  /** Slots per lane: a sweep never takes a 'work' slot (JobDefinition.lane). */
  private readonly slots: Record<JobLane, number>;
  private readonly backoffMs: number;
  private readonly pollMs: number;
  private readonly lockMs: number;
  /** Distinguishes this queue object's claims from those of other processes and earlier runs. */
  private readonly token = randomUUID();
  private readonly defs = new Map<string, JobDefinition>();
  private readonly running = new Map<string, { lane: JobLane; done: Promise<void> }>();
  private state: 'idle' | 'started' | 'stopping' | 'stopped' = 'idle';
  private timer: NodeJS.Timeout | undefined;
  private polling: Promise<void> | undefined;
  private lastCleanup = 0;

  constructor(options: QueueOptions = {}) {
    this.slots = {
      work: options.concurrency ?? DEFAULT_CONCURRENCY,
      sweep: options.sweepConcurrency ?? DEFAULT_SWEEP_CONCURRENCY,
    };
    this.backoffMs = options.backoffMs ?? DEFAULT_BACKOFF_MS;
    this.pollMs = options.pollMs ?? DEFAULT_POLL_MS;
    this.lockMs = options.lockMs ?? DEFAULT_LOCK_MS;
  }

  async enqueue<S extends z.ZodType>(
    def: JobDefinition<S>,
    data: z.input<S>,
    options?: EnqueueOptions,
  ): Promise<string> {
    validatePayload(def, data);
    const runAt = options?.runAt ? '?' : `now() + ${ms(delayFrom(options))}`;
    const params: (string | number | Date)[] = [def.id, JSON.stringify(data), def.attempts];
    if (options?.runAt) params.push(options.runAt);
    const { rows } = await withControl((trx) =>
      trx.raw<{ rows: { id: string }[] }>(
        `insert into jobs (job_id, data, max_attempts, run_at) values (?, ?::jsonb, ?, ${runAt}) returning id`,
        params,
      ),
    );
    this.kick();
    return String(rows[0]!.id);
  }

  /**
   * Upserts the schedule's single row. A new schedule runs at once (as BullMQ's `every` does);
   * re-registering keeps the next run time, or every restart (each deploy) would postpone the
   * job by a full period. Only a shorter interval pulls the next run closer.
   */
  async schedule<S extends z.ZodType>(def: JobDefinition<S>, options: ScheduleOptions<S>): Promise<void> {
    assertSchedule(options.key, options.everyMs);
    validatePayload(def, options.data);
    await withControl((trx) =>
      trx.raw(
        `insert into jobs (job_id, data, max_attempts, repeat_key, repeat_every_ms, run_at)
         values (?, ?::jsonb, ?, ?, ?, now())
         on conflict (repeat_key) do update set
           job_id = excluded.job_id,
           data = excluded.data,
           max_attempts = excluded.max_attempts,
           repeat_every_ms = excluded.repeat_every_ms,
           run_at = case when jobs.status = 'waiting'
                         then least(jobs.run_at, now() + excluded.repeat_every_ms * interval '1 millisecond')
                         else jobs.run_at end`,
        [def.id, JSON.stringify(options.data), def.attempts, options.key, options.everyMs],
      ),
    );
    this.kick();
  }

  async start(defs: readonly JobDefinition[]): Promise<void> {
    if (this.state !== 'idle') throw new Error(`The embedded queue cannot start: it is ${this.state}`);
    for (const def of defs) {
      const known = this.defs.get(def.id);
      if (known && known !== def) throw new Error(`Two job definitions share the id ${def.id}`);
      this.defs.set(def.id, def);
    }
    this.state = 'started';
    this.pollSoon(0);
  }

  async stop(): Promise<void> {
    if (this.state !== 'started') {
      this.state = 'stopped';
      return;
    }
    this.state = 'stopping';
    clearTimeout(this.timer);
    // A poll in progress may still launch handlers: wait for it before waiting for the handlers.
    await this.polling;
    await Promise.allSettled([...this.running.values()].map((r) => r.done));
    this.state = 'stopped';
  }

  async ready(): Promise<void> {
    await withTimeout(
      withControl((trx) => trx.raw('select 1 from jobs limit 1')),
      READY_TIMEOUT_MS,
      'The embedded job queue (control.jobs)',
    );
  }

  async getJob(id: string): Promise<JobInfo | null> {
    if (!/^\d{1,18}$/.test(id)) return null;
    const row = await withControl((trx) =>
      trx('jobs').where({ id }).first<(JobRow & { due: boolean }) | undefined>('*', trx.raw('run_at <= now() as due')),
    );
    if (!row) return null;
    return {
      id: String(row.id),
      name: row.job_id,
      state: row.status === 'waiting' && !row.due ? 'delayed' : row.status,
      attempts: row.attempts,
      lastError: row.last_error,
    };
  }

  // ---- the worker loop ----------------------------------------------------------------------

  /** Polls now instead of at the next tick: used after an enqueue and when a handler finishes. */
  private kick(): void {
    if (this.state === 'started' && !this.polling) this.pollSoon(0);
  }

  private pollSoon(delay: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.polling = this.poll().finally(() => {
        this.polling = undefined;
        if (this.state === 'started' && !this.timer) this.pollSoon(this.pollMs);
      });
    }, delay);
  }

  private async poll(): Promise<void> {
    try {
      for (const lane of ['work', 'sweep'] as const) {
        const ids = [...this.defs.values()].filter((d) => d.lane === lane).map((d) => d.id);
        const busy = [...this.running.values()].filter((r) => r.lane === lane).length;
        const free = this.slots[lane] - busy;
        if (free > 0 && ids.length > 0) {
          for (const row of await this.claim(ids, free)) this.launch(row, lane);
        }
      }
      if (Date.now() - this.lastCleanup > CLEANUP_EVERY_MS) {
        this.lastCleanup = Date.now();
        await this.cleanup();
      }
    } catch (e) {
      // The database may be restarting; keep polling, the rows are still there.
      logger.warn({ err: e }, 'embedded job queue: poll failed');
    }
  }

  private async claim(jobIds: readonly string[], limit: number): Promise<JobRow[]> {
    const { rows } = await withControl((trx) =>
      trx.raw<{ rows: JobRow[] }>(
        `update jobs j
            set status = 'active',
                attempts = j.attempts + 1,
                locked_until = now() + ${ms(this.lockMs)},
                locked_by = ? || '/' || (j.attempts + 1)
          where j.id in (
            select id from jobs
             where job_id in (select jsonb_array_elements_text(?::jsonb))
               and ((status = 'waiting' and run_at <= now()) or (status = 'active' and locked_until < now()))
               and id not in (select jsonb_array_elements_text(?::jsonb)::bigint)
             order by run_at, id
             limit ?
             for update skip locked)
          returning j.id, j.job_id, j.data, j.status, j.run_at, j.attempts, j.max_attempts, j.locked_by,
                    j.last_error, j.repeat_key`,
        [this.token, JSON.stringify(jobIds), JSON.stringify([...this.running.keys()]), limit],
      ),
    );
    return rows.map((r) => ({ ...r, id: String(r.id) }));
  }

  private launch(row: JobRow, lane: JobLane): void {
    const done = this.execute(row)
      .catch((e) => logger.error({ err: e, job: row.job_id, jobId: row.id }, 'embedded job queue: run not recorded'))
      .finally(() => {
        this.running.delete(row.id);
        this.kick();
      });
    this.running.set(row.id, { lane, done });
  }

  private async execute(row: JobRow): Promise<void> {
    const def = this.defs.get(row.job_id)!;
    if (row.attempts > row.max_attempts) {
      // The last attempt's worker died mid-run; running it again would exceed the limit.
      await this.record(row, {
        ok: false,
        error: new PermanentJobError('the worker running the last attempt stopped'),
      });
      return;
    }
    const heartbeat = setInterval(
      () => {
        withControl((trx) =>
          trx('jobs')
            .where({ id: row.id, locked_by: row.locked_by })
            .update({ locked_until: trx.raw(`now() + ${ms(this.lockMs)}`) }),
        ).catch((e) => logger.warn({ err: e, jobId: row.id }, 'embedded job queue: lock renewal failed'));
      },
      Math.max(50, Math.floor(this.lockMs / 3)),
    );
    let outcome: Outcome;
    try {
      await runJob(def, row.data, { jobId: row.id, attempt: row.attempts });
      outcome = { ok: true };
    } catch (error) {
      outcome = { ok: false, error };
    } finally {
      clearInterval(heartbeat);
    }
    await this.record(row, outcome);
  }

  /** Writes the outcome, unless another worker has taken the row over meanwhile. */
  private async record(row: JobRow, outcome: Outcome): Promise<void> {
    const log = logger.child({ job: row.job_id, jobId: row.id, attempt: row.attempts });
    const released = { locked_until: null, locked_by: null };
    await withControl(async (trx) => {
      const owned = () => trx('jobs').where({ id: row.id, locked_by: row.locked_by });
      const rearm = (lastError: string | null) =>
        owned().update({
          ...released,
          status: 'waiting',
          attempts: 0,
          run_at: trx.raw(`now() + repeat_every_ms * interval '1 millisecond'`),
          finished_at: trx.raw('now()'),
          last_error: lastError,
        });
      let updated: number;
      if (outcome.ok) {
        updated = row.repeat_key
          ? await rearm(null)
          : await owned().update({ ...released, status: 'completed', finished_at: trx.raw('now()'), last_error: null });
      } else {
        const message = errorText(outcome.error);
        const final = outcome.error instanceof PermanentJobError || row.attempts >= row.max_attempts;
        if (!final) {
          const delay = backoffDelay(this.backoffMs, row.attempts);
          log.warn({ err: outcome.error, retryInMs: delay }, 'job failed; will retry');
          updated = await owned().update({
            ...released,
            status: 'waiting',
            run_at: trx.raw(`now() + ${ms(delay)}`),
            last_error: message,
          });
        } else {
          log.error({ err: outcome.error }, 'job failed for good');
          // A schedule outlives one failed run: it is re-armed for the next period.
          updated = row.repeat_key
            ? await rearm(message)
            : await owned().update({
                ...released,
                status: 'failed',
                finished_at: trx.raw('now()'),
                last_error: message,
              });
        }
      }
      if (updated === 0) log.warn('job result dropped: its lock expired and another worker took it over');
    });
  }

  /** Keeps control.jobs small: finished runs are history, not state. Failed ones stay longer for operators. */
  private async cleanup(): Promise<void> {
    await withControl(async (trx) => {
      await trx.raw(
        `delete from jobs where id in (
           select id from jobs
            where (status = 'completed' and finished_at < now() - interval '1 day')
               or (status = 'failed' and finished_at < now() - interval '7 days')
            limit 5000)`,
      );
    });
  }
}
