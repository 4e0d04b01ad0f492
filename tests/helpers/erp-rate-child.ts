/**
 * One process of tests/integration/erp-rate-limit.test.ts: the Fortnox plugin as a worker or web
 * process runs it, the vendor's limit counted on Redis when REDIS_URL is given (as boot does,
 * shareErpRateLimits) and in this process otherwise. It says "ready", waits for "go" on stdin (so
 * every process starts at once), makes CALLS calls at once and prints how they went as JSON.
 * Environment: PLUGIN_OPTIONS (the plugin's options, JSON), ACCESS_TOKEN, CALLS, REDIS_URL (optional).
 */
import readline from 'node:readline';
import { isErpError } from '~/core/extension-points/erp-http';
import { shareErpRateLimits } from '~/core/invoicing/erp-rate-limit';
import { closeRedis } from '~/core/redis/client';
import fortnox from '~/plugins/erp-fortnox';

shareErpRateLimits(process.env.REDIS_URL || undefined);
const provider = fortnox.create(fortnox.options.parse(JSON.parse(process.env.PLUGIN_OPTIONS!)));
const session = {
  tenantId: 'rate-child',
  credentials: { accessToken: process.env.ACCESS_TOKEN!, expiresAt: '2999-12-31T00:00:00.000Z' },
  accounts: { sales: {} },
  async saveCredentials() {
    throw new Error('this token needs no refresh');
  },
};

const lines = readline.createInterface({ input: process.stdin });
process.stdout.write('ready\n');
for await (const line of lines) if (line.trim() === 'go') break;
lines.close();

const calls = Number(process.env.CALLS);
const outcomes = await Promise.allSettled(Array.from({ length: calls }, () => provider.listArticles(session)));
const errors = outcomes.flatMap((o) =>
  o.status === 'rejected' ? [isErpError(o.reason) ? o.reason.code : String(o.reason)] : [],
);
process.stdout.write(`${JSON.stringify({ ok: errors.length === 0, errors })}\n`);
await closeRedis();
