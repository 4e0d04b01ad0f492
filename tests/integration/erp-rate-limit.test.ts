import { startChildWorker, type ChildWorker } from '../helpers/child-worker';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fortnox from '~/plugins/erp-fortnox';
import { consentAsBrowser, startFortnoxFake, type FortnoxFake } from '~/tests/fakes/fortnox';

/*
 * Issue 31 item 7: a vendor's limit holds for all of Ordo's processes together. Two processes call
 * one Fortnox company at once, each with the plugin as a worker runs it. The fake refuses (429) any
 * request past its limit within a sliding window, as Fortnox documents (tests/fakes/fortnox.ts):
 * with the limit counted on Redis it refuses none; counted in each process's memory (no Redis),
 * the two together go past it — which is what this change is for.
 */

const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
/** Low, so the test reaches it in seconds (Fortnox's is 25 per 5 s). */
const rateLimit = { requests: 10, perMs: 2000 };
const CALLS = 8;

let fake: FortnoxFake;
let pluginOptions: Record<string, unknown>;
let accessToken: string;

beforeAll(async () => {
  fake = await startFortnoxFake({ rateLimit });
  pluginOptions = {
    clientId: fake.clientId,
    clientSecret: fake.clientSecret,
    authBaseUrl: fake.url,
    apiBaseUrl: fake.url,
    requestsPer5s: rateLimit.requests,
    ratePeriodMs: rateLimit.perMs,
  };
  const provider = fortnox.create(fortnox.options.parse(pluginOptions));
  if (provider.auth.type !== 'oauth2') throw new Error('Fortnox connects with OAuth2');
  const redirectUri = 'https://erp-rate.ordo.test/settings/erp/callback';
  const back = await consentAsBrowser(provider.auth.authorizeUrl({ redirectUri, state: randomUUID() }));
  const credentials = await provider.auth.exchangeCode({
    code: back.searchParams.get('code')!,
    redirectUri,
    tenantId: randomUUID(),
  });
  accessToken = credentials.accessToken!;
});
afterAll(async () => {
  await fake?.close();
});

type Worker = ChildWorker<{ ok: boolean; errors: string[] }>;

function startWorker(redis: string | null): Worker {
  return startChildWorker('tests/helpers/erp-rate-child.ts', {
    REDIS_URL: redis ?? '',
    PLUGIN_OPTIONS: JSON.stringify(pluginOptions),
    ACCESS_TOKEN: accessToken,
    CALLS: String(CALLS),
    LOG_LEVEL: 'silent',
  });
}

/** Two processes make CALLS calls each at once; what the fake counted meanwhile. */
async function twoProcesses(redis: string | null) {
  const before = { requests: fake.requestCount(), refused: fake.rateLimitedCount() };
  const workers = [startWorker(redis), startWorker(redis)];
  await Promise.all(workers.map((w) => w.ready));
  for (const w of workers) w.go();
  const outcomes = await Promise.all(workers.map((w) => w.outcome));
  return {
    outcomes,
    requests: fake.requestCount() - before.requests,
    refused: fake.rateLimitedCount() - before.refused,
  };
}

describe('[erp] rate limits across processes (issue 31 item 7)', () => {
  it('with Redis, two processes together stay within the vendor’s limit: Fortnox refuses none', async () => {
    const run = await twoProcesses(redisUrl);
    expect(run.outcomes).toEqual([
      { ok: true, errors: [] },
      { ok: true, errors: [] },
    ]);
    expect(run.requests).toBe(2 * CALLS);
    expect(run.refused).toBe(0);
  }, 150_000);

  it('without Redis, each process keeps the limit alone and the two together go past it', async () => {
    const run = await twoProcesses(null);
    // every call still succeeds (the 429s are waited out), but Fortnox had to refuse some
    expect(run.outcomes.map((o) => o.ok)).toEqual([true, true]);
    expect(run.refused).toBeGreaterThan(0);
  }, 150_000);
});
