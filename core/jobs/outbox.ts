import type { z } from 'zod';
import { afterCommit, withTenant, type TenantScope, type Trx } from '~/core/db/with-tenant';
import { logger, type Logger } from '~/core/log/logger';
import { runJob, validatePayload, type JobDefinition } from './define-job';
import type { JobQueue } from './queue';

/*
 * The job outbox (issue 30 item 2; decision 041): a job a commit promises is a row in the tenant's
 * job_outbox written in that same transaction, the way an invoice's ERP delivery is a row in
 * erp_deliveries (decision 025). After commit the row is handed to the queue at once; a process that
 * dies in between leaves the row, which the worker's sweep (every OUTBOX_SWEEP_EVERY_MS) hands over
 * later. A rolled-back transaction leaves no row, so no job. Handing over is at least once (a crash
 * between the queue's "added" and the row's delete hands it over again after the lease): a job
 * queued this way must be idempotent, as the agreement run is (it claims only a "queued" run).
 */

/** How long a row being handed over is one process's; after it, the sweep takes it (that one died). */
export const OUTBOX_LEASE_MS = 60_000;
/** The sweep that hands over what no commit's own hand-over did (a crash, a queue that was down). */
export const OUTBOX_SWEEP_EVERY_MS = 10_000;
const OUTBOX_BATCH = 50;

let outboxQueue: JobQueue | null = null;
/** The process's queue (set at boot); without one, a handed-over job runs in this process. */
export function setOutboxQueue(queue: JobQueue | null): void {
  outboxQueue = queue;
}

type Row = Record<string, unknown>;

/**
 * Promises a job in the caller's transaction: validated now, written as an outbox row, handed to
 * the queue after commit. Returns the outbox row's id.
 */
export async function enqueueInTransaction<S extends z.ZodType>(
  trx: Trx,
  tenant: TenantScope,
  def: JobDefinition<S>,
  data: z.input<S>,
): Promise<string> {
  validatePayload(def, data);
  const [row] = (await trx('job_outbox')
    .insert({ job: def.id, data: JSON.stringify(data) })
    .returning('id')) as Row[];
  afterCommit(trx, () => dispatchOutbox(tenant, [def]));
  return row!.id as string;
}

/**
 * Hands the tenant's due outbox rows of these jobs to the queue (or, without one, runs them here),
 * deleting each once handed over. Rows of jobs not listed are left for a process that knows them.
 */
export async function dispatchOutbox(
  tenant: TenantScope,
  defs: readonly JobDefinition[],
  options: { queue?: JobQueue | null; now?: () => Date; log?: Logger } = {},
): Promise<number> {
  const byId = new Map(defs.map((d) => [d.id, d]));
  const queue = options.queue === undefined ? outboxQueue : options.queue;
  const now = options.now ?? (() => new Date());
  const log = options.log ?? logger;
  let handed = 0;
  if (!byId.size) return handed;
  const jobs = [...byId.keys()];
  for (;;) {
    const at = now();
    const claimed = await withTenant(tenant, async (trx) => {
      const result = await trx.raw(
        `with due as (
           select id from job_outbox
            where job in (${jobs.map(() => '?').join(', ')}) and (lease_until is null or lease_until <= ?)
            order by created_at, id
            limit ?
            for update skip locked
         )
         update job_outbox o set lease_until = ?, attempts = o.attempts + 1
           from due where o.id = due.id
         returning o.id, o.job, o.data, o.attempts`,
        [...jobs, at, OUTBOX_BATCH, new Date(at.getTime() + OUTBOX_LEASE_MS)],
      );
      return result.rows as Row[];
    });
    for (const row of claimed) {
      const def = byId.get(row.job as string)!;
      try {
        if (queue) await queue.enqueue(def, row.data as never);
        await withTenant(tenant, (trx) => trx('job_outbox').where({ id: row.id }).del());
        handed++;
      } catch (err) {
        // the lease runs out and the sweep tries again
        log.warn({ err, job: def.id, outboxId: row.id }, 'could not hand a job to the queue');
        continue;
      }
      // no queue (a single process, a test): the job runs here, after its row is gone
      if (!queue)
        await runJob(def, row.data, { jobId: row.id as string, attempt: 1 }).catch((err: unknown) =>
          log.warn({ err, job: def.id, outboxId: row.id }, 'a job run from the outbox failed'),
        );
    }
    if (claimed.length < OUTBOX_BATCH) return handed;
  }
}
