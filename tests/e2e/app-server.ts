import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import dns from 'node:dns';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { copyOfSchemaScript } from '../helpers/schema-dump';

export interface RunningApp {
  url: string;
  output: () => string;
  stop(): Promise<void>;
  /** Ends the app's processes at once (a worker's exit, which cannot wait). */
  kill(): void;
}

/** Whether any process of the group `pid` leads is still running. */
function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

/** Where global-setup.ts leaves the demo company's data directory for every spec file to copy. */
export const TEMPLATE_ENV = 'ORDO_E2E_DATA_TEMPLATE';

/**
 * With PostgreSQL (TEST_DATABASE_URL), what global-setup.ts made for the apps every worker shares:
 * the database, Redis, key and data directory they run on, and the demo company as a script.
 */
export const SHARED_ENV = 'ORDO_E2E_SHARED';
export interface SharedSetup {
  databaseUrl: string;
  redisUrl: string;
  secretKey: string;
  /** The data directory every shared app uses (the stored files: several processes, one store). */
  dataDir: string;
  /** The file holding the demo company's schema as a script (tests/helpers/schema-dump.ts). */
  demoScriptFile: string;
  demoToken: string;
  demoSchema: string;
  demoTenant: { display_name: string; config: unknown };
}

/**
 * An app for one spec file. With PostgreSQL (CI), a spec file that needs nothing of its own gets a
 * demo company of its own (a tenant at `<slug>.localhost`, copied from the demo company) on the app
 * its worker shares with its other spec files: one start per worker instead of one per file, as
 * tenants share a production server. A spec file that needs its own settings (a mail relay, plugin
 * options), a newcomer's first start (`fresh`) or what only the embedded database allows (`own`:
 * plain-http sign-in providers, refused by a production server on PostgreSQL) gets an app of its own, on the embedded database,
 * as `npm start` runs for a newcomer; so does every spec file without PostgreSQL.
 *
 * An app of its own starts on a copy of the data directory global-setup.ts made by starting the app
 * once on an empty directory (migrations and the demo company), so each spec file starts on the same
 * fresh demo data without building it again.
 */
export async function startApp(
  extraEnv: Record<string, string> = {},
  { fresh = false, own = false }: { fresh?: boolean; own?: boolean } = {},
): Promise<RunningApp> {
  const shared = sharedSetup();
  if (shared && !fresh && !own && Object.keys(extraEnv).length === 0) return demoCompany(shared);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ordo-e2e-'));
  const template = process.env[TEMPLATE_ENV];
  if (!fresh && template) fs.cpSync(template, dataDir, { recursive: true });
  return launch(dataDir, extraEnv);
}

/**
 * Makes the data directory every spec file copies: the app started once on an empty directory and
 * stopped again, so its database holds the migrated schema and the demo company.
 */
export async function makeDataTemplate(): Promise<{ dir: string; remove(): void }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ordo-e2e-template-'));
  const app = await launch(dir, {}, { keepDataDir: true });
  await app.stop();
  return { dir, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/** Starts and stops the app once on the shared database and data directory (global-setup.ts). */
export async function startSharedSetupApp(dataDir: string, env: Record<string, string>): Promise<void> {
  const app = await launch(dataDir, env, { keepDataDir: true, postgres: true });
  await app.stop();
}

function sharedSetup(): SharedSetup | null {
  const raw = process.env[SHARED_ENV];
  return raw ? (JSON.parse(raw) as SharedSetup) : null;
}

/** The environment of an app on PostgreSQL and Redis, as a production server runs. */
export function sharedAppEnv(shared: Pick<SharedSetup, 'databaseUrl' | 'redisUrl' | 'secretKey'>) {
  return {
    DATABASE_URL: shared.databaseUrl,
    REDIS_URL: shared.redisUrl,
    SECRET_KEY: shared.secretKey,
    // this machine only: the demo companies keep the published password (tenants/demo.ts)
    HOST: '127.0.0.1',
  };
}

/**
 * Chromium sends `*.localhost` to this machine itself (RFC 6761); the test's own requests
 * (Playwright's API requests, fetch) go through Node, which asks the system resolver: this worker
 * answers those names the same way.
 */
function resolveLocalhostNames() {
  type Lookup = (host: string, ...rest: unknown[]) => unknown;
  const local = (host: string) => (typeof host === 'string' && host.endsWith('.localhost') ? '127.0.0.1' : host);
  const lookup = dns.lookup as unknown as Lookup;
  const lookupPromise = dns.promises.lookup as unknown as Lookup;
  (dns as unknown as { lookup: Lookup }).lookup = (host, ...rest) => lookup(local(host), ...rest);
  (dns.promises as unknown as { lookup: Lookup }).lookup = (host, ...rest) => lookupPromise(local(host), ...rest);
}

let workerApp: Promise<RunningApp> | null = null;
let demoScript: string | undefined;

/** This worker's shared app, started on its first spec file and stopped when the worker ends. */
function sharedApp(shared: SharedSetup): Promise<RunningApp> {
  if (!workerApp) {
    resolveLocalhostNames();
    workerApp = launch(shared.dataDir, sharedAppEnv(shared), { keepDataDir: true, postgres: true }).then((app) => {
      // Playwright ends a worker's process once its files are done: take the app down with it
      process.once('exit', () => {
        app.kill();
        if (process.env.ORDO_E2E_LOG_FILE) fs.appendFileSync(process.env.ORDO_E2E_LOG_FILE, app.output());
      });
      return app;
    });
  }
  return workerApp;
}

/**
 * A demo company of the spec file's own on the worker's shared app: the demo company's schema copied
 * under a new name with new ids, its registry row and the host `<slug>.localhost`, in one
 * transaction; its stored files copied under their new names. "Stopping" it leaves it be.
 */
async function demoCompany(shared: SharedSetup): Promise<RunningApp> {
  const app = await sharedApp(shared);
  const slug = `e2e-${randomBytes(5).toString('hex')}`;
  const schema = `t_${slug.replace(/-/g, '_')}`;
  const host = `${slug}.localhost`;
  demoScript ??= fs.readFileSync(shared.demoScriptFile, 'utf8');
  const { sql, ids } = copyOfSchemaScript(demoScript, shared.demoToken, schema);
  const filesOf = (s: string) => path.join(shared.dataDir, 'files', s);
  if (fs.existsSync(filesOf(shared.demoSchema))) {
    fs.mkdirSync(filesOf(schema), { recursive: true });
    for (const name of fs.readdirSync(filesOf(shared.demoSchema))) {
      const renamed = name.replace(/^[0-9a-f-]{36}/, (id) => ids.get(id) ?? id);
      fs.copyFileSync(path.join(filesOf(shared.demoSchema), name), path.join(filesOf(schema), renamed));
    }
  }
  const client = new pg.Client({ connectionString: shared.databaseUrl });
  await client.connect();
  try {
    await client.query(
      `begin;\nset local check_function_bodies = false;\nset local search_path = "${schema}";\n${sql}`,
    );
    await client.query(
      `with t as (
         insert into control.tenants (slug, schema_name, display_name, status, provision_step, config)
         values ($1, $2, $3, 'active', 'active', $4) returning id)
       insert into control.tenant_hosts (hostname, tenant_id) select $5, id from t`,
      [slug, schema, shared.demoTenant.display_name, JSON.stringify(shared.demoTenant.config), host],
    );
    await client.query('commit');
  } catch (err) {
    await client.query('rollback').catch(() => undefined);
    throw err;
  } finally {
    await client.end();
  }
  const url = `http://${host}:${new URL(app.url).port}`;
  return { url, output: app.output, stop: async () => {}, kill: () => {} };
}

async function launch(
  dataDir: string,
  extraEnv: Record<string, string>,
  { keepDataDir = false, postgres = false }: { keepDataDir?: boolean; postgres?: boolean } = {},
): Promise<RunningApp> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    DATA_DIR: dataDir,
    // ORDO_E2E_LOG_LEVEL=info shows the apps' whole log in a failed test's output (app.output())
    LOG_LEVEL: process.env.ORDO_E2E_LOG_LEVEL ?? 'warn',
    // a browser, SMTP, HTTP or file-store call inside a transaction fails the request (decision 049)
    ORDO_TRANSACTION_GUARD: 'strict',
    // 44 apps start in a run, most never print: Chromium starts on a spec's first document instead
    WARM_DOCUMENT_BROWSER: '0',
    // the run built once before it started: an edit meanwhile does not rebuild under running apps
    ORDO_BUILD: 'as-is',
    ...extraEnv,
  };
  if (!postgres) {
    delete env.DATABASE_URL;
    delete env.REDIS_URL;
  }
  delete env.NODE_ENV;
  const child: ChildProcess = spawn('npm', ['start'], { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const url = `http://localhost:${port}`;
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the app did not start in time:\n${out}`)), 120_000);
    // embedded, the app says so on its console; on PostgreSQL it logs JSON (here only warnings):
    // either way it is up once it answers its readiness check
    let asking = false;
    const check = setInterval(() => {
      if (asking) return;
      asking = true;
      const ready = out.includes('Ordo is running at')
        ? Promise.resolve(true)
        : fetch(`${url}/readyz`).then(
            (r) => r.ok,
            () => false,
          );
      void ready.then((ok) => {
        asking = false;
        if (!ok) return;
        clearTimeout(timer);
        clearInterval(check);
        resolve();
      });
    }, 200);
    child.once('exit', (code) => {
      clearTimeout(timer);
      clearInterval(check);
      reject(new Error(`npm start exited with ${code}:\n${out}`));
    });
  });
  return {
    url,
    output: () => out,
    kill() {
      // the server shuts itself down on SIGTERM; nothing here can wait for it
      if (groupAlive(child.pid!)) process.kill(-child.pid!, 'SIGTERM');
    },
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      process.kill(-child.pid!, 'SIGTERM');
      const timer = setTimeout(() => process.kill(-child.pid!, 'SIGKILL'), 20_000);
      await exited;
      // npm exits before the server it started: wait for the whole group, so the data directory is
      // closed (the embedded database flushed, its lock released) before anyone copies or removes it
      while (groupAlive(child.pid!)) await new Promise((r) => setTimeout(r, 50));
      clearTimeout(timer);
      if (!keepDataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
