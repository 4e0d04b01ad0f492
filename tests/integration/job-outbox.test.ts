import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { executeRun, startInvoiceRun } from '~/core/agreements/agreement-runs';
import { tenantToday } from '~/core/agreements/generation.service';
import { addDays, addMonthsToFirst } from '~/core/calendar/dates';
import { validateSession } from '~/core/auth/session.service';
import type { Ctx } from '~/core/context';
import { withTenant } from '~/core/db/with-tenant';
import { defineJob, runJob } from '~/core/jobs/define-job';
import { OUTBOX_LEASE_MS, dispatchOutbox, setOutboxQueue } from '~/core/jobs/outbox';
import { coreJobs } from '~/core/jobs/purge-sessions.job';
import type { JobQueue } from '~/core/jobs/queue';
import { logger } from '~/core/log/logger';
import type { Tenant } from '~/core/tenancy/tenant';
import { getTenantBySlug } from '~/tenants/registry';
import { insertAgreementType, insertObjectsWithAgreements } from '~/tests/helpers/agreements';
import { testApi } from '~/tests/helpers/api';
import { createTestTenant, startTestServer, type TestServer, type TestTenant } from '~/tests/helpers/app';

/*
 * What a commit promises is written in its transaction (issue 30 item 2; decision 041): the bulk
 * agreement run's job is an outbox row that exists once the run's transaction commits and not after
 * a rollback; a process that died before handing it to the queue leaves the row, which a later
 * hand-over picks up, and the run is made exactly once. And the logs (item 8): a job's lines carry
 * job, jobId and attempt; a request's line names the document browser.
 */

type Row = Record<string, unknown>;

let srv: TestServer;
let a: TestTenant;
let tenant: Tenant;
let token: string;
let until: string;
const { signIn, call } = testApi(() => ({ url: srv.url, host: a.host }));

beforeAll(async () => {
  srv = await startTestServer();
  a = await createTestTenant('outbox');
  tenant = (await getTenantBySlug(a.slug))!;
  token = await signIn(a, a.adminEmail);
  const today = tenantToday({ tenant, now: new Date() });
  const monthStart = addMonthsToFirst(today, 0);
  until = addDays(addMonthsToFirst(today, 1), -1);
  await withTenant(tenant, async (trx) => {
    const agreementId = await insertAgreementType(trx, {
      code: 'OUT-M',
      invoiceInterval: 'month_1',
      invoiceDay: 1,
      woInterval: null,
    });
    await insertObjectsWithAgreements(trx, {
      agreementId,
      count: 2,
      start: monthStart,
      prefix: 'OB',
      totalPrice: '500.00',
    });
  });
});
afterEach(() => {
  setOutboxQueue(null);
  vi.restoreAllMocks();
});
afterAll(() => srv?.close());

/** Starts a run in a unit of work of our own, as the route does. */
async function startRun(options: { rollback?: boolean } = {}): Promise<string> {
  let runId = '';
  await withTenant(tenant, async (trx) => {
    const now = new Date();
    const auth = await validateSession(trx, token, now, { idleMinutes: 30, absoluteHours: 12 });
    const ctx: Ctx = { trx, tenant, auth, lang: 'sv', now };
    runId = (await startInvoiceRun(ctx, { until })).run.id;
    if (options.rollback) throw new Error('rolled back on purpose');
  }).catch((err: Error) => {
    if (err.message !== 'rolled back on purpose') throw err;
  });
  return runId;
}

const outboxRows = () => withTenant(tenant, (trx) => trx('job_outbox').select('*') as Promise<Row[]>);
const runRow = (id: string) => withTenant(tenant, (trx) => trx('agreement_runs').where({ id }).first() as Promise<Row>);
/** A queue whose process dies before the job reaches Redis. */
const deadQueue = {
  kind: 'bullmq',
  enqueue: () => Promise.reject(new Error('the process died before the queue heard of it')),
} as unknown as JobQueue;

describe('[outbox] the agreement run is promised in its transaction', () => {
  it('leaves no row and no run after a rollback', async () => {
    const runId = await startRun({ rollback: true });
    expect(runId).not.toBe('');
    expect(await outboxRows()).toEqual([]);
    expect(await runRow(runId)).toBeUndefined();
  });

  it('writes the outbox row with the run; a crash before the queue leaves it, handed over later, the run made once', async () => {
    setOutboxQueue(deadQueue);
    const runId = await startRun();
    // the hand-over after commit failed (the "crash"): the row is there, leased, the run queued
    await vi.waitFor(async () => expect((await outboxRows())[0]?.attempts).toBe(1));
    const [row] = await outboxRows();
    expect(row).toMatchObject({ job: 'agreements.invoice-run', data: { tenantId: tenant.id, runId } });
    expect(await runRow(runId)).toMatchObject({ status: 'queued' });
    // within the lease nobody takes it again
    expect(await dispatchOutbox(tenant, coreJobs, { queue: null })).toBe(0);
    // the sweep, once the lease ran out, hands it over: here with no queue, so it runs in this process
    const later = () => new Date(Date.now() + OUTBOX_LEASE_MS + 1000);
    expect(await dispatchOutbox(tenant, coreJobs, { queue: null, now: later })).toBe(1);
    expect(await outboxRows()).toEqual([]);
    const done = await runRow(runId);
    expect(done).toMatchObject({ status: 'done', created: 2 });
    // a second copy of the job (the hand-over is at least once) finds the run taken: nothing twice
    await executeRun(tenant, runId);
    expect(await runRow(runId)).toMatchObject({ status: 'done', created: 2, finished_at: done.finished_at });
    expect(await dispatchOutbox(tenant, coreJobs, { queue: null, now: later })).toBe(0);
    const invoices = await withTenant(tenant, (trx) => trx('invoices').count({ n: '*' }).first());
    expect(Number(invoices!.n)).toBe(2);
  });

  it('hands the job to the queue right after commit when the queue is there', async () => {
    const queued: unknown[] = [];
    setOutboxQueue({
      kind: 'bullmq',
      enqueue: async (def: { id: string }, data: unknown) => (queued.push([def.id, data]), 'job-1'),
    } as unknown as JobQueue);
    const runId = await startRun();
    await vi.waitFor(() => expect(queued).toEqual([['agreements.invoice-run', { tenantId: tenant.id, runId }]]));
    await vi.waitFor(async () => expect(await outboxRows()).toEqual([]));
    await executeRun(tenant, runId);
  });
});

/** Lines the logger's children write, captured as JSON. */
function captureLogs(): Row[] {
  const lines: Row[] = [];
  const sink = pino(
    { base: null },
    new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(JSON.parse(chunk.toString()) as Row);
        done();
      },
    }),
  );
  vi.spyOn(logger, 'child').mockImplementation(((bindings: pino.Bindings) => sink.child(bindings)) as never);
  return lines;
}

describe('[logs] one child logger per job and per request', () => {
  it("repeats job, jobId and attempt on every line of a job's run", async () => {
    const lines = captureLogs();
    const job = defineJob({
      id: 'tests.log-lines',
      schema: z.object({}),
      async handler(_data, ctx) {
        ctx.log.info('first');
        ctx.log.warn({ extra: 1 }, 'second');
      },
    });
    await runJob(job, {}, { jobId: 'job-42', attempt: 2 });
    await runJob(job, {}, { jobId: 'job-43', attempt: 1 });
    expect(lines.map((l) => [l.msg, l.job, l.jobId, l.attempt])).toEqual([
      ['first', 'tests.log-lines', 'job-42', 2],
      ['second', 'tests.log-lines', 'job-42', 2],
      ['first', 'tests.log-lines', 'job-43', 1],
      ['second', 'tests.log-lines', 'job-43', 1],
    ]);
  });

  it("names the document browser's executablePath on a request's line", async () => {
    const lines = captureLogs();
    const res = await call('GET', '/api/agreements/invoices/run', token);
    expect(res.status).toBe(200);
    await vi.waitFor(() => expect(lines.find((l) => l.msg === 'request')).toBeDefined());
    const line = lines.find((l) => l.msg === 'request')!;
    expect(line).toMatchObject({
      executablePath: srv.config.CHROMIUM_PATH,
      path: expect.stringContaining('/agreements/invoices/run') as unknown,
    });
    expect(line.requestId).toBe(res.headers['x-request-id']);
  });
});
