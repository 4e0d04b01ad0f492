import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseConfig } from '~/core/config/env';
import { loadRegistry } from '~/core/extension-points/registry';
import { openRuntime } from '~/core/runtime/boot';

const root = path.resolve(import.meta.dirname, '../..');
const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) if (c.exitCode === null) process.kill(-c.pid!, 'SIGKILL');
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
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/index.ts'], { cwd: root, env, detached: true });
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
  return { child, exited, listening, output: () => output };
}

describe('[platform] server lifecycle', () => {
  it('on SIGTERM stops accepting, finishes the request in flight, then exits cleanly; a second process on the same data directory is refused', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ordo-life-'));
    const port = await freePort();
    const server = startServer(dataDir, port);
    await server.listening;

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

  it('names the database and keeps retrying while it is down, then gives up with a clear message', async () => {
    await loadRegistry({});
    const config = parseConfig({ DATABASE_URL: 'postgres://postgres@127.0.0.1:1/ordo', NODE_ENV: 'test' });
    await expect(openRuntime(config, { waitAttempts: 2 })).rejects.toThrow(
      /The database \(PostgreSQL at 127\.0\.0\.1:1\/ordo\) is not reachable/,
    );
  }, 30_000);
});
