import { erpContract } from '~/tests/erp-contract/erp-contract';
import { startAcmeBooksFake } from './fake';
import plugin from './index';

/*
 * TEMPLATE: the shared ERP contract (tests/erp-contract/erp-contract.ts) against the local fake.
 * `npm run test:plugin -- <this folder>` runs it. A low limit (10 requests per 2 s instead of the
 * vendor's 60 per minute) makes the rate-limit test cross the window in a few seconds.
 */
const rateLimit = { requests: 10, perMs: 2000 };

erpContract({
  name: 'acme-books',
  async start() {
    const fake = await startAcmeBooksFake({ rateLimit });
    const provider = plugin.create(
      plugin.options.parse({
        apiBaseUrl: fake.url,
        requestsPerWindow: rateLimit.requests,
        windowMs: rateLimit.perMs,
      }),
    );
    return {
      provider,
      fake,
      rateLimit,
      badCredentials: { apiKey: 'acme_not-a-key' },
      async connect() {
        // As Settings → ERP does: one value per field the plugin names, stored as {field: value}.
        if (provider.auth.type !== 'api-key') throw new Error('Acme Books connects with an API key');
        return Object.fromEntries(provider.auth.fields.map((field) => [field, fake.apiKey]));
      },
    };
  },
});
