import { randomUUID } from 'node:crypto';
import { erpContract } from '~/tests/erp-contract/erp-contract';
import { consentAsBrowser, startQuickBooksFake } from '~/tests/fakes/quickbooks-online';
import plugin from './index';

/*
 * The shared ERP contract against the local QuickBooks Online fake. A low limit (10 requests per 2 s
 * instead of Intuit's 500 a minute per realm) makes the rate-limit test reach it in a few seconds.
 */
const rateLimit = { requests: 10, perMs: 2000 };
const redirectUri = 'https://ordo.example/settings/erp/callback';

erpContract({
  name: 'quickbooks',
  async start() {
    const fake = await startQuickBooksFake({ rateLimit });
    const provider = plugin.create(
      plugin.options.parse({
        clientId: fake.clientId,
        clientSecret: fake.clientSecret,
        authorizeUrl: fake.authorizeUrl,
        tokenUrl: fake.tokenUrl,
        apiBaseUrl: fake.url,
        requestsPerMinute: rateLimit.requests,
        ratePeriodMs: rateLimit.perMs,
      }),
    );
    return {
      provider,
      fake,
      rateLimit,
      badCredentials: {
        accessToken: 'nope',
        refreshToken: 'nope',
        expiresAt: '2999-12-31T00:00:00.000Z',
        realmId: fake.realmId,
      },
      async connect() {
        if (provider.auth.type !== 'oauth2') throw new Error('QuickBooks connects with OAuth2');
        const state = randomUUID();
        // As a browser: Intuit's consent page, "Connect", and the redirect back with code, state and realmId.
        const back = await consentAsBrowser(provider.auth.authorizeUrl({ redirectUri, state }));
        if (back.searchParams.get('state') !== state) throw new Error('the state did not come back');
        const code = back.searchParams.get('code');
        if (!code) throw new Error(`no code in ${back.toString()}`);
        const params = Object.fromEntries([...back.searchParams].filter(([k]) => k !== 'code' && k !== 'state'));
        return provider.auth.exchangeCode({ code, redirectUri, tenantId: randomUUID(), params });
      },
    };
  },
});
