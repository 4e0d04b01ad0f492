import { afterAll, expect } from 'vitest';
import { erpContract } from '~/tests/erp-contract/erp-contract';
import { startWintFake, type WintFake } from '~/tests/fakes/wint';
import wint from './index';

// A low limit keeps the suite's "many calls at once" case short while still crossing the window.
const rateLimit = { requests: 10, perMs: 1000 };
let started: WintFake | undefined;

// The plugin keeps the limit per Wint API user, as the fake counts it: no call of the suite met a 429.
afterAll(() => {
  expect(started?.rateLimitedCount()).toBe(0);
});

erpContract({
  name: 'wint',
  async start() {
    const fake = await startWintFake({ rateLimit });
    started = fake;
    const provider = wint.create(
      wint.options.parse({ apiBaseUrl: fake.url, requestsPerWindow: rateLimit.requests, windowMs: rateLimit.perMs }),
    );
    return {
      provider,
      fake,
      rateLimit,
      badCredentials: { username: fake.username, apiKey: 'not-the-key' },
      async connect() {
        if (provider.auth.type !== 'api-key') throw new Error('Wint connects with an API key');
        const values: Record<string, string> = { username: fake.username, apiKey: fake.apiKey };
        return Object.fromEntries(provider.auth.fields.map((field) => [field, values[field]!]));
      },
    };
  },
});
