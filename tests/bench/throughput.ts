/**
 * Issue 11: throughput under 50 clients, each figure beside a baseline measured in the same run on
 * the same machine, since only the ratios mean anything on a shared, noisy 2-core box:
 * - a raw tenant transaction on a bare `pg` pool of the app's size (begin, search path, one select,
 *   commit): the floor of any signed-in call; /api/keepalive should reach at least half of it;
 * - a bare `node:http` server answering "ok": the floor of any HTTP answer;
 * - /api/keepalive and /api/wo?from=0 on the production build.
 */
import { spawn } from 'node:child_process';
import { load, type LoadRequest } from './load';
import { rawTenantTransactions } from './raw-tx';

const CLIENTS = Number(process.env.BENCH_THROUGHPUT_CLIENTS ?? 50);
const SECONDS = Number(process.env.BENCH_THROUGHPUT_SECONDS ?? 8);

const BARE_SERVER = `
const http = require('node:http');
const s = http.createServer((req, res) => { res.setHeader('content-type', 'application/json'); res.end('{"ok":true}'); });
s.keepAliveTimeout = 65000;
s.listen(0, '127.0.0.1', () => console.log(s.address().port));
`;

async function bareHttpServer(): Promise<{ port: number; stop(): void }> {
  const child = spawn(process.execPath, ['-e', BARE_SERVER], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout!.once('data', (d) => resolve(Number(String(d).trim())));
    child.once('exit', (code) => reject(new Error(`bare node:http server exited with ${code}`)));
  });
  return { port, stop: () => child.kill('SIGTERM') };
}

export async function throughput(opts: {
  port: number;
  host: string;
  token: string;
  databaseUrl: string;
  schema: string;
}): Promise<Record<string, unknown>[]> {
  const run = (port: number, make: () => LoadRequest, host = opts.host) =>
    load({ port, hostHeader: host }, make, { clients: CLIENTS, seconds: SECONDS });
  const auth = { authorization: `Bearer ${opts.token}` };

  const raw = await rawTenantTransactions(opts.databaseUrl, opts.schema, { clients: CLIENTS, seconds: SECONDS });
  const bare = await bareHttpServer();
  let bareResult;
  try {
    bareResult = await run(bare.port, () => ({ method: 'GET', path: '/' }), 'localhost');
  } finally {
    bare.stop();
  }
  const keepalive = await run(opts.port, () => ({ method: 'GET', path: '/api/keepalive', headers: auth }));
  const list = await run(opts.port, () => ({ method: 'GET', path: '/api/wo?from=0', headers: auth }));
  for (const [name, r] of [
    ['/api/keepalive', keepalive],
    ['/api/wo?from=0', list],
  ] as const)
    if (r.errors) throw new Error(`${name}: ${r.errors} of ${r.requests} requests failed`);

  const ratio = (x: number, base: number) => +(x / base).toFixed(2);
  const rows = [
    { scenario: `raw tenant transaction x${CLIENTS} (baseline)`, rps: raw.rps },
    { scenario: `bare node:http x${CLIENTS} (baseline)`, ...bareResult },
    {
      scenario: `GET /api/keepalive x${CLIENTS}`,
      ...keepalive,
      'of raw tx': ratio(keepalive.rps, raw.rps),
      'of bare http': ratio(keepalive.rps, bareResult.rps),
      target: keepalive.rps >= raw.rps / 2 ? 'ok' : 'MISSED (half of raw tx)',
    },
    {
      scenario: `GET /api/wo?from=0 x${CLIENTS}`,
      ...list,
      'of raw tx': ratio(list.rps, raw.rps),
      'of bare http': ratio(list.rps, bareResult.rps),
      // issue 11's figures: 1,000/s beside a raw transaction's 4,674/s on the same machine
      target: list.rps >= raw.rps * (1000 / 4674) ? 'ok' : 'MISSED (1000/4674 of raw tx)',
    },
  ];
  for (const r of rows) console.error(JSON.stringify(r)); // progress
  return rows;
}
