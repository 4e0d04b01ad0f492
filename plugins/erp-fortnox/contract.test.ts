import { randomUUID } from 'node:crypto';
import { erpContract } from '~/tests/erp-contract/erp-contract';
import { consentAsBrowser, startFortnoxFake } from '~/tests/fakes/fortnox';
import plugin from './index';

/*
 * The shared ERP contract against the local Fortnox fake. A low limit (10 requests per 2 s instead
 * of Fortnox's 25 per 5 s) makes the rate-limit test reach it in a few seconds.
 */
const rateLimit = { requests: 10, perMs: 2000 };
const redirectUri = 'https://ordo.example/settings/erp/fortnox/callback';

erpContract({
  name: 'fortnox',
  async start() {
    const fake = await startFortnoxFake({ rateLimit });
    const provider = plugin.create(
      plugin.options.parse({
        clientId: fake.clientId,
        clientSecret: fake.clientSecret,
        authBaseUrl: fake.url,
        apiBaseUrl: fake.url,
        requestsPer5s: rateLimit.requests,
        ratePeriodMs: rateLimit.perMs,
      }),
    );
    return {
      provider,
      fake,
      rateLimit,
      badCredentials: { accessToken: 'nope', refreshToken: 'nope', expiresAt: '2999-12-31T00:00:00.000Z' },
      async connect() {
        if (provider.auth.type !== 'oauth2') throw new Error('Fortnox connects with OAuth2');
        const state = randomUUID();
        // As a browser: the consent page, "Tillåt", and Fortnox's redirect back with the code.
        const back = await consentAsBrowser(provider.auth.authorizeUrl({ redirectUri, state }));
        if (back.searchParams.get('state') !== state) throw new Error('the state did not come back');
        const code = back.searchParams.get('code');
        if (!code) throw new Error(`no code in ${back.toString()}`);
        return provider.auth.exchangeCode({ code, redirectUri, tenantId: randomUUID() });
      },
    };
  },
});
