import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export interface RunningApp {
  url: string;
  output: () => string;
  stop(): Promise<void>;
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
 * Starts the app as a newcomer's `npm start` does: no DATABASE_URL, no REDIS_URL, its own data
 * directory. It runs in its own process group so stopping it stops the server too.
 *
 * The data directory is a copy of the one global-setup.ts made by starting the app once on an empty
 * directory (migrations and the demo company, as a newcomer's first start), so each spec file starts
 * on the same fresh demo data without building it again. `fresh` starts on an empty directory, as
 * the newcomer does (shell.spec), and so does every start when there is no template (a spec file run
 * by Playwright without the global setup).
 */
export async function startApp(
  extraEnv: Record<string, string> = {},
  { fresh = false }: { fresh?: boolean } = {},
): Promise<RunningApp> {
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

async function launch(
  dataDir: string,
  extraEnv: Record<string, string>,
  { keepDataDir = false }: { keepDataDir?: boolean } = {},
): Promise<RunningApp> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    // a browser, SMTP, HTTP or file-store call inside a transaction fails the request (decision 049)
    ORDO_TRANSACTION_GUARD: 'strict',
    // 44 apps start in a run, most never print: Chromium starts on a spec's first document instead
    WARM_DOCUMENT_BROWSER: '0',
    ...extraEnv,
  };
  delete env.DATABASE_URL;
  delete env.REDIS_URL;
  delete env.NODE_ENV;
  const child: ChildProcess = spawn('npm', ['start'], { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const url = `http://localhost:${port}`;
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the app did not start in time:\n${out}`)), 120_000);
    const check = setInterval(() => {
      if (out.includes('Ordo is running at')) {
        clearTimeout(timer);
        clearInterval(check);
        resolve();
      }
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
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      process.kill(-child.pid!, 'SIGTERM');
      const timer = setTimeout(() => process.kill(-child.pid!, 'SIGKILL'), 20_000);
      await exited;
      clearTimeout(timer);
      if (!keepDataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
