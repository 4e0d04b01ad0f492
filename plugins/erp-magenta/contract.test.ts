import { erpContract } from '~/tests/erp-contract/erp-contract';
import { startMagentaFake } from '~/tests/fakes/magenta';
import plugin from './index';

/*
 * The shared ERP contract for the file plugin. Magenta has no API: nothing to connect, no limit to
 * keep (the rate limit below is only what the suite asks for), and the fake is the web-order checker
 * of tests/fakes/magenta.ts. The suite's sending tests end early for a provider without sendInvoices.
 */
erpContract({
  name: 'magenta',
  async start() {
    const fake = startMagentaFake();
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
