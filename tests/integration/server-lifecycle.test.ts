import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { parseConfig } from '~/core/config/env';
import { loadRegistry } from '~/core/extension-points/registry';
import { openRuntime } from '~/core/runtime/boot';

const root = path.resolve(import.meta.dirname, '../..');
const children: ChildProcess[] = [];
const outputs: (() => string)[] = [];
afterAll(() => {
  for (const c of children) if (c.exitCode === null) process.kill(-c.pid!, 'SIGKILL');
});
// a failed or timed-out test shows what its servers said (a start that never finished says why)
afterEach((ctx) => {
  if (ctx.task.result?.state === 'fail' || ctx.task.result?.errors?.length) for (const out of outputs) console.error(`--- server output\n${out()}`);
  outputs.length = 0;
});

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

/** The server as `npm start` runs it, on an embedded database in `dataDir`. */
function startServer(dataDir: string, port: number) {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'info' };
  delete env.DATABASE_URL;
  delete env.REDIS_URL;
  delete env.NODE_ENV;
  delete env.SECRET_KEY; // `npm start` as a newcomer runs it: the key is generated in DATA_DIR
  const child = spawn(process.execPath, ['server/index.ts'], { cwd: root, env, detached: true });
  children.push(child);
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const listening = new Promise<void>((resolve, reject) => {
    const timer = setInterval(() => {
      if (output.includes('Ordo is running at')) {
        clearInterval(timer);
        resolve();
      }
    }, 100);
    void exited.then(() => {
      clearInterval(timer);
      reject(new Error(output));
    });
  });
  listening.catch(() => {}); // awaited only by the test that expects the server to come up
  outputs.push(() => output);
  return { child, exited, listening, port, output: () => output };
}

describe('[platform] server lifecycle', () => {
  it('on SIGTERM stops accepting, finishes the request in flight, then exits cleanly; a second process on the same data directory is refused', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ordo-life-'));
    const port = await freePort();
    const server = startServer(dataDir, port);
    await server.listening;
    // the document browser starts with the server, before anyone asks for a PDF (issue 30 item 1)
    await vi.waitFor(() => expect(server.output()).toMatch(/"executablePath":"[^"]+".*"msg":"document browser warm"/), {
      timeout: 60_000,
      interval: 200,
    });

    const second = startServer(dataDir, await freePort());
    expect(await second.exited).toBe(1);
    expect(second.output()).toMatch(/already in use by another Ordo process \(pid \d+\)/);

    // A sign-in whose body is still arriving when the signal comes.
    const body = JSON.stringify({ email: 'admin@nordlarm.se', password: 'ordo-demo-2026' });
    const socket = net.connect(port, '127.0.0.1');
    await new Promise((r) => socket.once('connect', r));
    let response = '';
    socket.on('data', (d) => (response += d));
    socket.write(
      `POST /api/authenticate HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n` +
        body.slice(0, 10),
    );
    await new Promise((r) => setTimeout(r, 300));
    process.kill(server.child.pid!, 'SIGTERM');
    await new Promise((r) => setTimeout(r, 500));

    const refused = await new Promise<boolean>((resolve) => {
      const probe = net.connect(port, '127.0.0.1');
      probe.once('connect', () => {
        probe.destroy();
        resolve(false);
      });
      probe.once('error', () => resolve(true));
    });
    expect(refused).toBe(true);
    expect(server.child.exitCode).toBeNull();

    socket.write(body.slice(10));
    await new Promise((r) => socket.once('close', r));
    expect(response).toMatch(/^HTTP\/1\.1 200/);
    expect(response).toContain('"status":"success"');
    expect(await server.exited).toBe(0);
    expect(server.output()).toContain('"msg":"stopped"');
    expect(fs.existsSync(path.join(dataDir, 'ordo.lock'))).toBe(false);
  }, 120_000);

  it('`npm start` keeps a generated SECRET_KEY in DATA_DIR, and stops within 2 s while browsers hold live calendars and idle keep-alive connections', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ordo-life-'));
    const port = await freePort();
    const server = startServer(dataDir, port);
    await server.listening;
    expect(fs.readFileSync(path.join(dataDir, 'secret-key'), 'utf8').trim()).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const agent = new http.Agent({ keepAlive: true });
    const call = (method: string, p: string, headers: Record<string, string>, body?: string) =>
      new Promise<{ status: number; body: string; res: http.IncomingMessage }>((resolve, reject) => {
        const req = http.request({ host: '127.0.0.1', port, method, path: p, headers, agent }, (res) => {
          let text = '';
          res.on('data', (d) => {
            text += d;
            if (res.headers['content-type']?.startsWith('text/event-stream'))
              resolve({ status: res.statusCode!, body: text, res });
          });
          res.on('end', () => resolve({ status: res.statusCode!, body: text, res }));
        });
        req.on('error', reject);
        req.end(body);
      });
    const auth = await call(
      'POST',
      '/api/authenticate',
      { host: 'localhost', 'content-type': 'application/json' },
      JSON.stringify({ email: 'admin@nordlarm.se', password: 'ordo-demo-2026' }),
    );
    const token = (JSON.parse(auth.body) as { token: string }).token;
    const cookie = `__Host-ordo_session=${token}`;
    // two open calendars (live channels) and one page answered on a kept-alive connection
    const live = await Promise.all(
      [1, 2].map(() => call('GET', '/work-orders/calendar/events', { host: 'localhost', cookie })),
    );
    for (const l of live) expect(l.res.headers['content-type']).toMatch(/^text\/event-stream/);
    expect((await call('GET', '/', { host: 'localhost', cookie })).status).toBe(200);

    const signalled = Date.now();
    process.kill(server.child.pid!, 'SIGTERM');
    expect(await server.exited).toBe(0);
    expect(Date.now() - signalled).toBeLessThan(2_000);
    agent.destroy();

    // the next start on the same data directory reads the same key back
    const again = startServer(dataDir, await freePort());
    const key = fs.readFileSync(path.join(dataDir, 'secret-key'), 'utf8');
    await again.listening;
    expect(fs.readFileSync(path.join(dataDir, 'secret-key'), 'utf8')).toBe(key);

    // The operators' CLI reads the outbox while the server holds the embedded database: it asks
    // the server over its loopback channel, whose token only the data directory's owner can read.
    const recover = await fetch(`http://127.0.0.1:${again.port}/api/pw`, {
      method: 'POST',
      headers: { host: 'localhost', 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'admin@nordlarm.se' }),
    });
    expect(recover.status).toBe(200);
    expect(fs.statSync(path.join(dataDir, 'ordo.server.json')).mode & 0o777).toBe(0o600);
    expect((await fetch(`http://127.0.0.1:${again.port}/_ops/outbox`)).status).toBe(404);
    let outbox: { to: string[]; subject: string }[] = [];
    for (let i = 0; i < 50 && !outbox.length; i++) {
      const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir };
      delete env.DATABASE_URL;
      delete env.NODE_ENV;
      delete env.SECRET_KEY;
      const cli = spawnSync(process.execPath, ['--import', 'tsx', 'tenants/cli.ts', 'outbox', '--json'], {
        cwd: root,
        env,
        encoding: 'utf8',
      });
      expect(cli.status, cli.stderr).toBe(0);
      outbox = JSON.parse(cli.stdout) as typeof outbox;
      if (!outbox.length) await new Promise((r) => setTimeout(r, 100));
    }
    expect(outbox[0]!.to).toEqual(['admin@nordlarm.se']);
    process.kill(again.child.pid!, 'SIGTERM');
    expect(await again.exited).toBe(0);
  }, 120_000);

  it('names the database and keeps retrying while it is down, then gives up with a clear message', async () => {
    await loadRegistry({});
    const config = parseConfig({
      DATABASE_URL: 'postgres://postgres@127.0.0.1:1/ordo',
      NODE_ENV: 'test',
      SECRET_KEY: process.env.SECRET_KEY,
    });
    await expect(openRuntime(config, { waitAttempts: 2 })).rejects.toThrow(
      /The database \(PostgreSQL at 127\.0\.0\.1:1\/ordo\) is not reachable/,
    );
  }, 30_000);
});
