import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { JobPayloadError, PermanentJobError, defineJob } from './define-job';
import type { JobQueue } from './queue';

/**
 * The behaviour every JobQueue backend must show, run by each backend's test file. Keeping one
 * suite is what lets the app treat Redis and the embedded queue as interchangeable.
 */
export interface ContractBackend {
  /** Retry backoff the backend's queues are created with (tests check retries are not early). */
  backoffMs: number;
  /** Long enough for the backend to have noticed a due job (a few poll intervals). */
  settleMs: number;
  /**
   * A fresh, isolated place for one test (BullMQ: a new key prefix; embedded: the shared database,
   * isolated by unique job ids). `create()` may be called several times to imitate a restart.
   */
  isolate(): Promise<{ create(): JobQueue }>;
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export async function waitFor(
  condition: () => boolean | Promise<boolean>,
  what = 'condition',
  timeoutMs = 15_000,
): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > until) throw new Error(`Timed out waiting for ${what}`);
    await sleep(20);
  }
}

/** Job ids are shared by every test on a backend: a unique id keeps each test's runs to itself. */
export const uniqueJobId = (label: string) => `test.${label}-${randomBytes(4).toString('hex')}`;

const stateOf = async (q: JobQueue, id: string) => (await q.getJob(id))?.state;

export function queueContract(name: string, backend: ContractBackend): void {
  describe(`${name}: JobQueue contract`, () => {
    const open: JobQueue[] = [];
    const track = (q: JobQueue) => (open.push(q), q);
    afterEach(async () => {
      await Promise.all(open.splice(0).map((q) => q.stop()));
    });

    it('runs a job with its validated data (defaults applied) and marks it completed', async () => {
      const { create } = await backend.isolate();
      const seen: { data: unknown; jobId: string; attempt: number; now: Date }[] = [];
      const def = defineJob({
        id: uniqueJobId('ok'),
        schema: z.object({ n: z.number().int(), label: z.string().default('none') }),
        handler: async (data, ctx) => {
          seen.push({ data, jobId: ctx.jobId, attempt: ctx.attempt, now: ctx.now });
        },
      });
      const q = track(create());
      await q.ready();
      await q.start([def]);
      const id = await q.enqueue(def, { n: 7 });
      await waitFor(() => seen.length === 1, 'the job to run');
      expect(seen[0]!.data).toEqual({ n: 7, label: 'none' });
      expect(seen[0]!.jobId).toBe(id);
      expect(seen[0]!.attempt).toBe(1);
      expect(seen[0]!.now).toBeInstanceOf(Date);
      await waitFor(async () => (await stateOf(q, id)) === 'completed', 'completed state');
      expect(await q.getJob(id)).toMatchObject({ id, name: def.id, state: 'completed', lastError: null });
    });

    it('refuses an invalid payload at enqueue and queues nothing', async () => {
      const { create } = await backend.isolate();
      const seen: number[] = [];
      const def = defineJob({
        id: uniqueJobId('strict'),
        schema: z.object({ n: z.number().int() }),
        handler: async (data) => void seen.push(data.n),
      });
      const q = track(create());
      await expect(q.enqueue(def, { n: 'seven' } as unknown as { n: number })).rejects.toBeInstanceOf(JobPayloadError);
      await expect(q.enqueue(def, { n: 1.5 })).rejects.toThrow(/Invalid payload for job/);
      // Queued before any worker started: it waits for one.
      await expect(q.enqueue(def, { n: 1 })).resolves.toBeTypeOf('string');
      await expect(
        q.schedule(def, { key: uniqueJobId('bad'), everyMs: 1000, data: { n: 'x' } as unknown as { n: number } }),
      ).rejects.toBeInstanceOf(JobPayloadError);
      await q.start([def]);
      await q.enqueue(def, { n: 2 });
      await waitFor(() => seen.length === 2, 'the valid jobs');
      await sleep(backend.settleMs);
      expect(seen.sort()).toEqual([1, 2]);
    });

    it('retries a failing job with growing delays, then marks it failed', async () => {
      const { create } = await backend.isolate();
      const tries: { attempt: number; at: number }[] = [];
      const def = defineJob({
        id: uniqueJobId('flaky'),
        schema: z.object({}),
        attempts: 3,
        handler: async (_data, ctx) => {
          tries.push({ attempt: ctx.attempt, at: Date.now() });
          throw new Error(`boom ${ctx.attempt}`);
        },
      });
      const q = track(create());
      await q.start([def]);
      const id = await q.enqueue(def, {});
      await waitFor(async () => (await stateOf(q, id)) === 'failed', 'failed state');
      await sleep(backend.settleMs + backend.backoffMs * 4);
      expect(tries.map((t) => t.attempt)).toEqual([1, 2, 3]);
      // Exponential backoff: never earlier than base, then 2 × base (a little slack for clock rounding).
      expect(tries[1]!.at - tries[0]!.at).toBeGreaterThanOrEqual(backend.backoffMs * 0.9);
      expect(tries[2]!.at - tries[1]!.at).toBeGreaterThanOrEqual(backend.backoffMs * 2 * 0.9);
      const info = await q.getJob(id);
      expect(info).toMatchObject({ state: 'failed', attempts: 3 });
      expect(info!.lastError).toMatch(/boom 3/);
    });

    it('fails at once, without retries, when retrying cannot help', async () => {
      const { create } = await backend.isolate();
      const id = uniqueJobId('schema-change');
      // The payload was valid for the schema of the process that queued it, not for the worker's.
      const old = defineJob({ id, schema: z.object({ n: z.number() }), handler: async () => {} });
      let calls = 0;
      const current = defineJob({
        id,
        schema: z.object({ n: z.number().min(10) }),
        attempts: 3,
        handler: async () => void calls++,
      });
      const gaveUp = defineJob({
        id: uniqueJobId('permanent'),
        schema: z.object({}),
        attempts: 3,
        handler: async () => {
          calls++;
          throw new PermanentJobError('mailbox does not exist');
        },
      });
      const q = track(create());
      await q.start([current, gaveUp]);
      const a = await q.enqueue(old, { n: 1 });
      const b = await q.enqueue(gaveUp, {});
      await waitFor(async () => (await stateOf(q, a)) === 'failed' && (await stateOf(q, b)) === 'failed', 'failures');
      await sleep(backend.settleMs + backend.backoffMs * 2);
      expect(calls).toBe(1);
      expect(await q.getJob(a)).toMatchObject({ state: 'failed', attempts: 1 });
      expect((await q.getJob(a))!.lastError).toMatch(/Invalid payload/);
      expect(await q.getJob(b)).toMatchObject({ state: 'failed', attempts: 1 });
      expect((await q.getJob(b))!.lastError).toMatch(/mailbox does not exist/);
    });

    it('does not run a delayed job early (delayMs and runAt)', async () => {
      const { create } = await backend.isolate();
      const ran: { tag: string; at: number }[] = [];
      const def = defineJob({
        id: uniqueJobId('later'),
        schema: z.object({ tag: z.string() }),
        handler: async (data) => void ran.push({ tag: data.tag, at: Date.now() }),
      });
      const q = track(create());
      await q.start([def]);
      const t0 = Date.now();
      const a = await q.enqueue(def, { tag: 'delay' }, { delayMs: 800 });
      await q.enqueue(def, { tag: 'runAt' }, { runAt: new Date(t0 + 900) });
      await q.enqueue(def, { tag: 'now' });
      await waitFor(() => ran.length >= 1, 'the immediate job');
      // while the delay has not passed, the delayed jobs wait (on a machine so loaded that the immediate
      // job took longer than the delay, only the times below can tell)
      const seen = [...ran];
      const state = await stateOf(q, a);
      if (Date.now() - t0 < 750) {
        expect(seen.map((r) => r.tag)).toEqual(['now']);
        expect(state).toBe('delayed');
      }
      await waitFor(() => ran.length === 3, 'the delayed jobs');
      const at = Object.fromEntries(ran.map((r) => [r.tag, r.at - t0]));
      expect(at.delay).toBeGreaterThanOrEqual(780);
      expect(at.runAt).toBeGreaterThanOrEqual(880);
    });

    it('keeps scheduled and delayed jobs across a restart', async () => {
      const { create } = await backend.isolate();
      let phase = 1;
      const runs: { tag: string; phase: number }[] = [];
      const def = defineJob({
        id: uniqueJobId('durable'),
        schema: z.object({ tag: z.string() }),
        handler: async (data) => void runs.push({ tag: data.tag, phase }),
      });
      const first = track(create());
      await first.start([def]);
      await first.enqueue(def, { tag: 'delayed' }, { delayMs: 700 });
      await first.schedule(def, { key: uniqueJobId('every'), everyMs: 400, data: { tag: 'scheduled' } });
      await first.stop();
      const stoppedRuns = runs.length;
      phase = 2;
      await sleep(backend.settleMs);
      expect(runs.length).toBe(stoppedRuns); // nothing runs while no worker is started

      const second = track(create());
      await second.start([def]);
      await waitFor(
        () =>
          runs.filter((r) => r.tag === 'delayed').length === 1 &&
          runs.filter((r) => r.tag === 'scheduled' && r.phase === 2).length >= 2,
        'the delayed job and two scheduled runs after the restart',
      );
      expect(runs.filter((r) => r.tag === 'delayed')).toEqual([{ tag: 'delayed', phase: 2 }]);
    });

    it('stop() waits for a running job to finish and record its result', async () => {
      const { create } = await backend.isolate();
      let started = 0;
      let finished = 0;
      const def = defineJob({
        id: uniqueJobId('slow'),
        schema: z.object({}),
        handler: async () => {
          started++;
          await sleep(500);
          finished++;
        },
      });
      const q = track(create());
      await q.start([def]);
      const id = await q.enqueue(def, {});
      await waitFor(() => started === 1, 'the job to start');
      await q.stop();
      expect(finished).toBe(1);
      await q.stop(); // idempotent

      const again = track(create());
      expect(await stateOf(again, id)).toBe('completed');
      await again.start([def]);
      await sleep(backend.settleMs);
      expect(started).toBe(1); // recorded as done, so not run a second time
    });

    it('gives sweeps a slot of their own: one at a time, and never one a waiting job needs', async () => {
      const { create } = await backend.isolate();
      let release!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      const sweeping: string[] = [];
      const worked: number[] = [];
      const sweep = defineJob({
        id: uniqueJobId('sweep'),
        lane: 'sweep',
        schema: z.object({ tag: z.string() }),
        handler: async (data) => {
          sweeping.push(data.tag);
          await gate;
        },
      });
      const work = defineJob({
        id: uniqueJobId('work'),
        schema: z.object({ i: z.number() }),
        handler: async (data) => void worked.push(data.i),
      });
      const q = track(create());
      const sweepId = await q.enqueue(sweep, { tag: 'a' });
      await q.enqueue(sweep, { tag: 'b' });
      await q.start([sweep, work]);
      await waitFor(() => sweeping.length === 1, 'the first sweep to start');
      // both 'work' slots are free while the sweep runs: two jobs queued after it run at once
      await q.enqueue(work, { i: 1 });
      await q.enqueue(work, { i: 2 });
      await waitFor(() => worked.length === 2, 'the work queued behind a running sweep');
      await sleep(backend.settleMs);
      expect(sweeping).toEqual(['a']); // the second sweep waits for the sweep slot, not a work slot
      release();
      await waitFor(() => sweeping.length === 2, 'the second sweep');
      await waitFor(async () => (await stateOf(q, sweepId)) === 'completed', 'the sweep to be recorded');
      expect(await q.getJob(sweepId)).toMatchObject({ id: sweepId, name: sweep.id, state: 'completed' });
    });

    it('moves a schedule to the lane its job now declares, running it once per period, not twice', async () => {
      const { create } = await backend.isolate();
      const runs: string[] = [];
      const key = uniqueJobId('moved');
      const asWork = defineJob({
        id: uniqueJobId('as-work'),
        schema: z.object({}),
        handler: async () => void runs.push('work'),
      });
      const asSweep = defineJob({
        id: uniqueJobId('as-sweep'),
        lane: 'sweep',
        schema: z.object({}),
        handler: async () => void runs.push('sweep'),
      });
      const q = track(create());
      await q.schedule(asWork, { key, everyMs: 60_000, data: {} });
      await q.schedule(asSweep, { key, everyMs: 60_000, data: {} }); // a later release, same key
      await q.start([asWork, asSweep]);
      await waitFor(() => runs.length >= 1, 'the scheduled run');
      await sleep(backend.settleMs);
      expect(runs).toEqual(['sweep']);
    });

    it('runs two jobs at a time, not more', async () => {
      const { create } = await backend.isolate();
      let current = 0;
      let peak = 0;
      let done = 0;
      const def = defineJob({
        id: uniqueJobId('parallel'),
        schema: z.object({ i: z.number() }),
        handler: async () => {
          peak = Math.max(peak, ++current);
          await sleep(300);
          current--;
          done++;
        },
      });
      const q = track(create());
      for (let i = 0; i < 5; i++) await q.enqueue(def, { i });
      await q.start([def]);
      await waitFor(() => done === 5, 'all five jobs');
      expect(peak).toBe(2);
    });
  });
}
