/**
 * `npm run bench`: seeds a tenant on PostgreSQL, starts the production build, and measures named
 * scenarios one request at a time and under concurrent clients, beside /healthz as the floor.
 * Reports p50/p95 server time (Server-Timing) and SQL statements per request (X-Sql-Statements).
 *
 *   BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/ordo_bench, created if missing)
 *   BENCH_REQUESTS (200), BENCH_CONCURRENCY (8)
 *   BENCH_ONLY=wo: only the work-order scenarios (issue 5: the list call with every filter and sort,
 *   the list page, one order, 50 concurrent clients; issue 6: the map's markers);
 *   BENCH_WO_CLIENTS (50), BENCH_WO_LOAD_REQUESTS (500); BENCH_ONLY=map: the map's markers alone;
 *   BENCH_ONLY=wo-lists: issue 30's list and map cases alone, each beside its raw SQL (target p95
 *   <= 60 ms and at most twice the SQL's); BENCH_CASES=<substring>,… only the cases named so (also
 *   with wo and map); BENCH_RAW_RUNS (50) runs of each case's raw SQL;
 *   BENCH_ONLY=calendar: the planning board's month and week (issue 6; also part of wo)
 *   BENCH_ONLY=throughput: 50 clients on /api/keepalive and /api/wo beside a raw tenant transaction
 *   and a bare node:http server, with the ratios; and the compressed first-load JavaScript of the
 *   main pages (issue 11; also part of the full run). BENCH_THROUGHPUT_SECONDS (8), _CLIENTS (50)
 *   BENCH_ONLY=first-load: the first-load JavaScript alone (BENCH_FIRST_LOAD_FILES=1 lists each file)
 *   BENCH_ONLY=files: issue 12's uploads and downloads of 50 MB (server memory), a drive folder of
 *   10,000 files, and 20 photo thumbnails of a work order, each beside a bare baseline
 *   BENCH_ONLY=proposals: issue 13 on 20,000 proposals of 30 rows (seeded once): one proposal by
 *   API and page loader, its save with 30 rows, the list's first page, each beside its raw SQL and a
 *   bare node:http server (tests/bench/proposals-bench.ts; also part of the full run)
 *   BENCH_ONLY=invoicing: issue 14: closing BENCH_INVOICES (1,000) orders into invoices and outbox
 *   rows, one worker delivering them to the Fortnox fake at 25 requests per 5 s (429s and duplicates
 *   counted), and the invoice PDF on a warm browser (tests/bench/invoicing-bench.ts; also in the full run)
 *   BENCH_ONLY=agreements: issue 16: one generation run making a quarter's invoices for BENCH_AGREEMENTS
 *   (50,000) objects in one tenant and over BENCH_AGREEMENT_TENANTS (200) tenants of 1,000 (seeded
 *   once), invoices per minute and statements per invoice beside a bare set-based insert, and the
 *   upcoming list's p95 beside its bare SQL (tests/bench/agreements-bench.ts; also in the full run)
 *   BENCH_ONLY=time: issue 17 on BENCH_TIME_PEOPLE (100) technicians × BENCH_TIME_YEARS (3) of daily
 *   reports (seeded once): a person's week, the month for everyone and a month's PAXml payroll export,
 *   each beside its raw SQL (tests/bench/time-bench.ts; also in the full run)
 *   BENCH_ONLY=projects: issue 18 on 2,000 projects of 50 orders, 50 people planned over four years
 *   and one project of 5,000 cost rows (seeded once): the project screen, that project's cost
 *   summary and the resource calendar of the 50 over 6 months, each beside its raw SQL
 *   (tests/bench/project-bench.ts; also in the full run)
 *   BENCH_ONLY=service-reports: issue 32: a 6-page report of 60 fields and 12 photos, each page save
 *   beside its raw SQL merge (target p95 <= 50 ms), and its PDF on the warm browser beside a bare
 *   page of the same size (target <= 1.5 s) (tests/bench/service-reports-bench.ts; also in the full run)
 *   BENCH_ONLY=supplier-invoices: issue 33: the supplier-invoice list at BENCH_SI_INVOICES (50,000):
 *   its tabs, a project's and a technician's, each beside its raw SQL (target p95 <= 40 ms)
 *   (tests/bench/supplier-invoices-bench.ts; also in the full run)
 *   BENCH_ONLY=deviations: issue 34: 100,000 deviations (BENCH_DEVIATIONS): the dashboard's statistics
 *   (target p95 <= 50 ms) and the list by each of its filters (target p95 <= 40 ms), each beside its raw
 *   SQL (tests/bench/deviations-bench.ts; also in the full run)
 *   BENCH_ONLY=dashboard: issue 36: the dashboard's eight cards together on the bench tenant (100,000
 *   orders, 1,000 agreements, 200 projects), each period's p95 (target <= 80 ms) beside its raw SQL;
 *   BENCH_ONLY=catalogues: issue 33 item 6: a BENCH_CATALOGUE_ROWS (300,000) row price file loaded by
 *   the import job beside a bare COPY of the same rows, with the process's RSS before, at peak and
 *   after; the catalogue search at BENCH_CATALOGUE_SEARCH_ROWS (1,000,000) rows beside its raw SQL
 *   (tests/bench/supplier-catalogue-bench.ts; also in the full run)
 *   BENCH_ONLY=statistics: issue 36 item 2: each statistics table for the last 12 months, and with a
 *   department, on 100,000 work orders with their invoices, 1,000 agreements and 200 projects, each
 *   beside its raw SQL, the statement printed under it (target p95 <= 150 ms)
 *   (tests/bench/statistics-bench.ts; also in the full run)
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { BENCH_URL, EMAIL, HOST, PASSWORD, ensureDatabase, seed } from './bench-db';
import { listScenarios, loadFixtures, mapScenarios, type WorkOrderFixtures } from './work-order-scenarios';
import { rawBaselines } from './work-order-raw-sql';
import { calendarScenarios } from './calendar-bench';
import { firstLoad } from './first-load';
import { throughput } from './throughput';
import { filesBench } from './files-bench';
import { proposalsBench, seedProposalVolume } from './proposals-bench';
import { invoicingBench } from './invoicing-bench';
import { agreementsBench } from './agreements-bench';
import { timeBench } from './time-bench';
import { projectBench } from './project-bench';
import { serviceReportsBench } from './service-reports-bench';
import { supplierInvoicesBench } from './supplier-invoices-bench';
import { dashboardBench } from './dashboard-bench';
import { deviationsBench } from './deviations-bench';
import { catalogueBench } from './supplier-catalogue-bench';
import { statisticsBench } from './statistics-bench';

const root = path.resolve(import.meta.dirname, '../..');
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 200);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
const ONLY = process.env.BENCH_ONLY ?? '';
const WO_CLIENTS = Number(process.env.BENCH_WO_CLIENTS ?? 50);
const WO_LOAD_REQUESTS = Number(process.env.BENCH_WO_LOAD_REQUESTS ?? 500);
const RAW_RUNS = Number(process.env.BENCH_RAW_RUNS ?? 50);

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

interface Sample {
  serverMs: number;
  clientMs: number;
  sql: number;
  status: number;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

function send(
  port: number,
  req: { method: string; path: string; headers?: Record<string, string>; body?: string },
): Promise<Sample & { body: string }> {
  const started = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    const r = http.request(
      { host: '127.0.0.1', port, method: req.method, path: req.path, headers: { host: HOST, ...req.headers }, agent },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c) => (body += c));
        res.on('end', () => {
          const timing = /app;dur=([\d.]+)/.exec(String(res.headers['server-timing'] ?? ''));
          resolve({
            serverMs: timing ? Number(timing[1]) : NaN,
            clientMs: Number(process.hrtime.bigint() - started) / 1e6,
            sql: Number(res.headers['x-sql-statements'] ?? NaN),
            status: res.statusCode ?? 0,
            body,
          });
        });
      },
    );
    r.on('error', reject);
    if (req.body) r.write(req.body);
    r.end();
  });
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]! : NaN;
};

async function measure(
  port: number,
  make: () => { method: string; path: string; headers?: Record<string, string>; body?: string },
  concurrency: number,
  requests = REQUESTS,
) {
  for (let i = 0; i < 20; i++) await send(port, make()); // warm-up
  const samples: Sample[] = [];
  let next = 0;
  const started = Date.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next++ < requests) samples.push(await send(port, make()));
    }),
  );
  const seconds = (Date.now() - started) / 1000;
  const bad = samples.filter((s) => s.status >= 400).length;
  if (bad) throw new Error(`${bad} requests failed`);
  const server = samples.map((s) => s.serverMs);
  const sql = samples.map((s) => s.sql);
  return {
    requests: samples.length,
    concurrency,
    p50ms: +pct(server, 50).toFixed(2),
    p95ms: +pct(server, 95).toFixed(2),
    clientP95ms: +pct(
      samples.map((s) => s.clientMs),
      95,
    ).toFixed(2),
    sqlP50: pct(sql, 50),
    sqlMax: Math.max(...sql),
    rps: +(samples.length / seconds).toFixed(1),
  };
}

function report(rows: Record<string, unknown>[]) {
  console.table(rows);
  const outDir = path.join(root, 'bench-results');
  fs.mkdirSync(outDir, { recursive: true });
  const file = path.join(outDir, `bench-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  fs.writeFileSync(
    file,
    JSON.stringify(
      { at: new Date().toISOString(), requests: REQUESTS, concurrency: CONCURRENCY, only: ONLY, rows },
      null,
      2,
    ),
  );
  console.log(`written ${path.relative(root, file)}`);
}

type Make = () => { method: string; path: string; headers?: Record<string, string>; body?: string };

/**
 * Issue 5 on 100,000 orders: GET /api/wo with every filter and sort (target p95 <= 40 ms), the
 * list page / (<= 100 ms), one order by API and page (<= 40 ms), one request at a time; the same
 * statements for 10 rows as for 100; then WO_CLIENTS concurrent clients with their throughput.
 */
async function workOrders(port: number, api: (path: string) => Make, page: (path: string) => Make) {
  const rows: Record<string, unknown>[] = [];
  const f = await loadFixtures(BENCH_URL);
  const list = listScenarios(f);
  const target = (p95: number, limit: number) => (p95 <= limit ? 'ok' : `MISSED (${limit})`);
  const one = async (scenario: string, make: Make, limit: number) => {
    const m = await measure(port, make, 1);
    rows.push({ scenario, ...m, target: target(m.p95ms, limit) });
    console.error(`${scenario}: p50 ${m.p50ms} p95 ${m.p95ms} ms, ${m.sqlP50} statements`); // progress
  };
  rows.push(...(await workOrderLists(port, api, f)));
  for (const size of [10, 100]) await one(`API wo open, ${size} rows`, api(`/api/wo?size=${size}`), 40);
  const pages: Record<string, string> = {
    'page / (remembered filters)': '/',
    'page / sort customer': '/?list=open&sort=customer',
    'page / unassigned': '/?list=open&unassigned=true',
    'page / search "kamera"': '/?list=open&search=kamera',
    'page / closed, all time': '/?list=closed&closedFrom=2000-01-01&closedTo=2100-01-01',
    'page / history, page 3': '/?list=history&from=100',
  };
  for (const [name, p] of Object.entries(pages)) await one(name, page(p), 100);
  rows.push(...(await mapMarkers(port, page)));
  rows.push(...(await calendar(port, api, page)));
  await one('API wo one order', api(`/api/wo/${f.workOrder}`), 40);
  await one('page /work-orders/:id', page(`/work-orders/${f.workOrder}`), 40);
  // Throughput: WO_CLIENTS clients at once, each request the next list scenario in turn.
  const mixed = Object.values(list);
  let i = 0;
  const load: Record<string, Make> = {
    'API wo open, intake': api('/api/wo'),
    'API wo, every list scenario in turn': () => api(`/api/wo?${mixed[i++ % mixed.length]}`)(),
    'API wo one order': api(`/api/wo/${f.workOrder}`),
    'page /work-orders/:id': page(`/work-orders/${f.workOrder}`),
    'page /': page('/'),
  };
  for (const [name, make] of Object.entries(load)) {
    rows.push({ scenario: `${name} x${WO_CLIENTS}`, ...(await measure(port, make, WO_CLIENTS, WO_LOAD_REQUESTS)) });
    console.error(`${name} x${WO_CLIENTS}: ${JSON.stringify(rows.at(-1))}`); // progress
  }
  return rows;
}

/** BENCH_CASES=<substring>[,<substring>…]: only the list and map cases whose names contain one. */
function pickCases(cases: Record<string, string>): Record<string, string> {
  const wanted = (process.env.BENCH_CASES ?? '').split(',').filter(Boolean);
  return Object.fromEntries(
    Object.entries(cases).filter(([name]) => !wanted.length || wanted.some((w) => name.includes(w))),
  );
}

/**
 * A list or map case through the app beside its raw SQL (issue 30, item 9): the statements the
 * service sends for it, run on a bare client (work-order-raw-sql.ts), and the ratio of the two
 * p95s. Target: p95 <= LIST_LIMIT_MS server time at 100k orders and within RAW_RATIO of the SQL.
 */
const LIST_LIMIT_MS = 60;
const RAW_RATIO = 2;
function besideRaw(scenario: string, m: Awaited<ReturnType<typeof measure>>, raw: { p95ms: number } | undefined) {
  const ratio = raw ? +(m.p95ms / raw.p95ms).toFixed(2) : NaN;
  const missed = [m.p95ms > LIST_LIMIT_MS ? `${LIST_LIMIT_MS} ms` : '', ratio > RAW_RATIO ? `ratio ${RAW_RATIO}` : '']
    .filter(Boolean)
    .join(', ');
  const row = { scenario, ...m, rawSqlP95ms: raw?.p95ms, ratio, target: missed ? `MISSED (${missed})` : 'ok' };
  console.error(`${scenario}: p95 ${m.p95ms} ms, raw SQL p95 ${raw?.p95ms} ms, ratio ${ratio}`); // progress
  return row;
}

/** Every list case of GET /api/wo (work-order-scenarios.ts) beside its raw SQL. */
async function workOrderLists(port: number, api: (path: string) => Make, f: WorkOrderFixtures) {
  const list = pickCases(listScenarios(f));
  const raw = await rawBaselines(BENCH_URL, f, list, 'list', RAW_RUNS);
  const rows: Record<string, unknown>[] = [];
  for (const [name, qs] of Object.entries(list))
    rows.push(besideRaw(`API wo ${name}`, await measure(port, api(`/api/wo?${qs}`), 1), raw[name]));
  return rows;
}

/**
 * Issue 6: the technician calendar over 50 technicians and their plans: a month p95 <= 60 ms and
 * a week <= 30 ms server time, as the page loads them and as the API answers.
 */
async function calendar(port: number, api: (path: string) => Make, page: (path: string) => Make) {
  const rows: Record<string, unknown>[] = [];
  for (const c of calendarScenarios()) {
    const m = await measure(port, (c.kind === 'api' ? api : page)(c.path), 1);
    rows.push({ scenario: c.name, ...m, target: m.p95ms <= c.limit ? 'ok' : `MISSED (${c.limit})` });
    console.error(`${c.name}: p50 ${m.p50ms} p95 ${m.p95ms} ms, ${m.sqlP50} statements`); // progress
  }
  return rows;
}

/**
 * Issue 6: the map tab's markers for the current filters, as the browser asks for them when a
 * filter changes (the route's data: p95 <= 60 ms server time), and the whole map page once.
 */
async function mapMarkers(port: number, page: (path: string) => Make) {
  const rows: Record<string, unknown>[] = [];
  const f = await loadFixtures(BENCH_URL);
  const cases = pickCases(mapScenarios(f));
  const raw = await rawBaselines(BENCH_URL, f, cases, 'map', RAW_RUNS);
  for (const [name, qs] of Object.entries(cases))
    rows.push(besideRaw(`map markers ${name}`, await measure(port, page(`/work-orders/map.data?${qs}`), 1), raw[name]));
  if (ONLY === 'wo-lists') return rows;
  const m = await measure(port, page('/work-orders/map?list=open'), 1);
  rows.push({ scenario: 'page /work-orders/map', ...m, target: m.p95ms <= 100 ? 'ok' : 'MISSED (100)' });
  return rows;
}

async function main() {
  const url = BENCH_URL;
  await ensureDatabase(url);
  if (!ONLY || ONLY === 'invoicing') {
    // in-process, on a tenant of its own: closing, the outbox, delivery to the Fortnox fake, PDFs
    const lines = await invoicingBench(url);
    for (const line of lines) console.log(line);
    if (ONLY) return;
  }
  if (!ONLY || ONLY === 'service-reports') {
    // in-process: a 6-page report's page saves beside their raw SQL, its PDF beside a bare page
    const lines = await serviceReportsBench(url);
    for (const line of lines) console.log(line);
    if (ONLY) return;
  }
  if (!ONLY || ONLY === 'supplier-invoices') {
    // in-process: the supplier-invoice list at 50,000 invoices beside its raw SQL
    const lines = await supplierInvoicesBench(url);
    for (const line of lines) console.log(line);
    if (ONLY) return;
  }
  if (!ONLY || ONLY === 'deviations') {
    // in-process: the deviation dashboard and list at 100,000 deviations beside their raw SQL
    const lines = await deviationsBench(url);
    for (const line of lines) console.log(line);
    if (ONLY) return;
  }
  if (!ONLY || ONLY === 'dashboard') {
    // in-process: the dashboard's eight cards at 100,000 orders, 1,000 agreements and 200 projects beside their raw SQL
    const lines = await dashboardBench(url);
    for (const line of lines) console.log(line);
    if (ONLY) return;
  }
  if (!ONLY || ONLY === 'statistics') {
    // in-process: each statistics table on 100,000 work orders and their invoices beside its raw SQL
    const lines = await statisticsBench(url);
    for (const line of lines) console.log(line);
    if (ONLY) return;
  }
  if (!ONLY || ONLY === 'catalogues') {
    // in-process: a 300,000-row price file loaded beside a bare COPY, memory; search at 1,000,000 rows beside raw SQL
    const lines = await catalogueBench(url);
    for (const line of lines) console.log(line);
    if (ONLY) return;
  }
  if (!ONLY || ONLY === 'agreements') {
    // in-process: generation throughput over one big and many small tenants, the upcoming list
    const lines = await agreementsBench(url);
    for (const line of lines) console.log(line);
    if (ONLY) return;
  }
  if (!ONLY || ONLY === 'time') {
    // in-process: a person's week, the month for everyone and the payroll export on 100 × 3 years
    const lines = await timeBench(url);
    for (const line of lines) console.log(line);
    if (ONLY) return;
  }
  if (!ONLY || ONLY === 'projects') {
    // in-process: the project screen, a 5,000-row cost summary and the resource calendar of 50 people
    const lines = await projectBench(url);
    for (const line of lines) console.log(line);
    if (ONLY) return;
  }
  if (!fs.existsSync(path.join(root, 'build/server/index.js')))
    throw new Error('No build: run `npm run build` first (npm run bench does).');
  await seed(url);
  if (!ONLY || ONLY === 'proposals') await seedProposalVolume(url);

  const port = await freePort();
  const server = spawn('node', ['--import', 'tsx', 'server/index.ts'], {
    cwd: root,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      NODE_ENV: 'production',
      DATABASE_URL: url,
      SECRET_KEY: 'bench-secret-key-bench-secret-key-0000',
      PORT: String(port),
      LOG_LEVEL: 'warn',
      REDIS_URL: process.env.REDIS_URL ?? '',
    },
  });
  let log = '';
  server.stdout!.on('data', (d) => (log += d));
  server.stderr!.on('data', (d) => (log += d));
  try {
    for (let i = 0; ; i++) {
      try {
        if ((await send(port, { method: 'GET', path: '/healthz' })).status === 200) break;
      } catch {
        /* not yet */
      }
      if (i > 300) throw new Error(`server did not start:\n${log}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    const signIn = () => ({
      method: 'POST',
      path: '/api/authenticate',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: EMAIL, password: PASSWORD, hostname: HOST }),
    });
    const token = JSON.parse((await send(port, signIn())).body).token as string;
    const first = async (path: string) =>
      JSON.parse((await send(port, { method: 'GET', path, headers: { authorization: `Bearer ${token}` } })).body);
    const articleId = (await first('/api/articles?limit=1')).articles[0].id as string;
    const customerId = (await first('/api/customers?limit=1&q=10005')).customers[0].id as string;
    const scenarios: Record<
      string,
      () => { method: string; path: string; headers?: Record<string, string>; body?: string }
    > = {
      'healthz (floor)': () => ({ method: 'GET', path: '/healthz' }),
      'sign-in POST /api/authenticate': signIn,
      'keepalive GET /api/keepalive': () => ({
        method: 'GET',
        path: '/api/keepalive',
        headers: { authorization: `Bearer ${token}` },
      }),
      'signed-in shell GET /': () => ({
        method: 'GET',
        path: '/',
        headers: { cookie: `__Host-ordo_session=${token}` },
      }),
    };
    const rows: Record<string, unknown>[] = [];
    const api = (path: string) => () => ({ method: 'GET', path, headers: { authorization: `Bearer ${token}` } });
    const page = (path: string) => () => ({ method: 'GET', path, headers: { cookie: `__Host-ordo_session=${token}` } });
    if (!ONLY || ONLY === 'wo') rows.push(...(await workOrders(port, api, page)));
    if (ONLY === 'map' || ONLY === 'wo-lists') rows.push(...(await mapMarkers(port, page)));
    if (ONLY === 'wo-lists') rows.unshift(...(await workOrderLists(port, api, await loadFixtures(BENCH_URL))));
    if (ONLY === 'calendar') rows.push(...(await calendar(port, api, page)));
    if (!ONLY || ONLY === 'proposals')
      rows.push(
        ...(await proposalsBench({
          port,
          token,
          databaseUrl: url,
          schema: 't_bench',
          requests: REQUESTS,
          measure: (p, make) => measure(p, make, 1),
          fetch: (req) => send(port, req),
        })),
      );
    if (!ONLY || ONLY === 'files') rows.push(...(await filesBench({ port, host: HOST, token }, url, 't_bench')));
    if (!ONLY || ONLY === 'throughput' || ONLY === 'first-load') {
      if (ONLY !== 'first-load')
        rows.push(...(await throughput({ port, host: HOST, token, databaseUrl: url, schema: 't_bench' })));
      rows.push(
        ...(await firstLoad(port, HOST, `__Host-ordo_session=${token}`, [
          '/',
          '/inventory/customers',
          '/inventory/objects',
          '/work-orders/calendar',
          '/settings',
        ])),
      );
    }
    if (ONLY) return report(rows);
    for (const [name, make] of Object.entries(scenarios)) {
      for (const c of [1, CONCURRENCY]) rows.push({ scenario: name, ...(await measure(port, make, c)) });
    }
    // The registers on 20,000 customers, 50,000 objects and 10,000 articles, one request at a time
    // (targets: API p95 <= 30 ms, pages p95 <= 80 ms, the same statements for 20 rows as for 100).
    const registers: Record<string, () => { method: string; path: string; headers?: Record<string, string> }> = {
      'API customers, 20 rows': api('/api/customers?limit=20'),
      'API customers, 100 rows': api('/api/customers?limit=100'),
      'API customers search "solros"': api('/api/customers?q=solros&limit=20'),
      'API customers search "10017"': api('/api/customers?q=10017&limit=20'),
      'API objects, 20 rows': api('/api/bo?limit=20'),
      'API objects, 100 rows': api('/api/bo?limit=100'),
      'API objects search "SN00123"': api('/api/bo?q=SN00123&limit=20'),
      'API objects search "garage"': api('/api/bo?q=garage&limit=20'),
      'API articles, 20 rows': api('/api/articles?limit=20'),
      'API articles, 100 rows': api('/api/articles?limit=100'),
      'API articles search "kamera"': api('/api/articles/q?q=kamera'),
      'API price lookup': api(`/api/articles/${articleId}?customerId=${customerId}`),
      'picker customers "so"': page('/inventory/customers/options?q=so'),
      'picker articles "det"': page('/inventory/articles/options?q=det'),
      'page customers': page('/inventory/customers'),
      'page customers search': page('/inventory/customers?q=solros'),
      'page objects': page('/inventory/objects'),
      'page objects search': page('/inventory/objects?q=garage'),
      'page articles': page('/inventory/articles'),
    };
    for (const [name, make] of Object.entries(registers))
      rows.push({ scenario: name, ...(await measure(port, make, 1)) });
    // Documents: one work order as PDF on the warm browser (the warm-up launches it), one at a time
    // and at the page cap (2); STACK.md expects ~150 ms warm.
    const workOrderId = (await first('/api/wo?list=open&size=1')).workOrders?.[0]?.id as string | undefined;
    if (workOrderId) {
      const pdf = () => ({
        method: 'POST',
        path: '/api/wo/pdf',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ workOrder: workOrderId, templateId: 'default' }),
      });
      for (const c of [1, 2])
        rows.push({ scenario: 'API work order PDF (warm browser)', ...(await measure(port, pdf, c)) });
    }
    report(rows);
  } finally {
    process.kill(-server.pid!, 'SIGTERM');
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
