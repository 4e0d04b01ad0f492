import { afterAll, expect } from 'vitest';
import { erpContract } from '~/tests/erp-contract/erp-contract';
import { startErplyFake, type ErplyFake } from '~/tests/fakes/erply';
import plugin from './index';

/*
 * The shared ERP contract against the local Erply fake. Erply's hourly quota (6000 per account) is
 * lowered to 10 requests per 2 s on both sides so the rate-limit test reaches it in a few seconds.
 */
const rateLimit = { requests: 10, perMs: 2000 };
let started: ErplyFake | undefined;

// Every call of the suite goes to one Erply account: the limiter, keyed by the client code, should
// have kept all of them inside Erply's quota (no 1002 and no 429 from the fake).
afterAll(() => {
  expect(started?.rateLimitedCount()).toBe(0);
});

erpContract({
  name: 'erply',
  async start() {
    const fake = await startErplyFake({ hourlyQuota: rateLimit });
    started = fake;
    const provider = plugin.create(
      plugin.options.parse({
        apiBaseUrl: `${fake.url}/api/`,
        requestsPerHour: rateLimit.requests,
        hourMs: rateLimit.perMs,
      }),
    );
    return {
      provider,
      fake,
      rateLimit,
      badCredentials: { clientCode: fake.clientCode, username: fake.username, password: 'not-the-password' },
      async connect() {
        if (provider.auth.type !== 'api-key') throw new Error('Erply connects with a client code, user and password');
        return { clientCode: fake.clientCode, username: fake.username, password: fake.password };
      },
    };
  },
});
