import { erpContract } from '~/tests/erp-contract/erp-contract';
import { startVismaAdministrationFake } from '~/tests/fakes/visma-administration';
import plugin from './index';

/*
 * The shared ERP contract for the file plugin. Visma Administration has no API: nothing to connect
 * (the credentials are empty), no limit to keep (the rate limit below is only what the suite asks
 * for), and the fake is the import checker of tests/fakes/visma-administration.ts. The suite's
 * sending tests end early for a provider without sendInvoices.
 */
erpContract({
  name: 'visma',
  async start() {
    const fake = startVismaAdministrationFake();
    const provider = plugin.create(plugin.options.parse({}));
    return {
      provider,
      fake,
      rateLimit: { requests: 1, perMs: 1000 },
      badCredentials: {},
      async connect() {
        return {};
      },
    };
  },
});
