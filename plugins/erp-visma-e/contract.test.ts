import { randomUUID } from 'node:crypto';
import { afterAll, expect } from 'vitest';
import { erpContract } from '~/tests/erp-contract/erp-contract';
import {
  consentAsBrowser,
  startVismaEaccountingFake,
  type VismaEaccountingFake,
} from '~/tests/fakes/visma-eaccounting';
import visma from './index';

// A low limit keeps the suite's "many calls at once" case short while still crossing the window.
const rateLimit = { requests: 10, perMs: 2000 };
let started: VismaEaccountingFake | undefined;

// Visma counts per client and endpoint, across tenants; the plugin's limiter does too, so not one
// call of the whole suite (each test is another tenant) should have met Visma's limit.
afterAll(() => {
  expect(started?.rateLimitedCount()).toBe(0);
});

erpContract({
  name: 'visma-e',
  async start() {
    const fake = await startVismaEaccountingFake({ rateLimit });
    started = fake;
    const provider = visma.create(
      visma.options.parse({
        clientId: fake.clientId,
        clientSecret: fake.clientSecret,
        identityBaseUrl: fake.url,
        apiBaseUrl: fake.url,
        requestsPerMinute: rateLimit.requests,
        ratePeriodMs: rateLimit.perMs,
      }),
    );
    if (provider.auth.type !== 'oauth2') throw new Error('visma-e connects with OAuth2');
    const auth = provider.auth;
    return {
      provider,
      fake,
      rateLimit,
      badCredentials: {
        accessToken: 'nope',
        refreshToken: 'nope',
        expiresAt: new Date(Date.now() + 365 * 24 * 3600_000).toISOString(),
      },
      async connect() {
        const redirectUri = 'https://ordo.test/settings/erp/callback';
        const state = randomUUID();
        const back = await consentAsBrowser(auth.authorizeUrl({ redirectUri, state }));
        if (back.state !== state) throw new Error('the state came back changed');
        return auth.exchangeCode({ code: back.code, redirectUri, tenantId: randomUUID() });
      },
    };
  },
});
