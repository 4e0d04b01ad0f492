import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import compression from 'compression';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { precompressedAssets } from './precompressed';

const SCRIPT = `export const greeting = ${JSON.stringify('hej '.repeat(2000))};\n`;
let dir: string;
let server: http.Server;
let port: number;

function get(file: string, acceptEncoding?: string) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    http
      .get(
        { host: '127.0.0.1', port, path: file, headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {} },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
        },
      )
      .on('error', reject);
  });
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ordo-assets-'));
  fs.writeFileSync(path.join(dir, 'app-abc123.js'), SCRIPT);
  fs.writeFileSync(
    path.join(dir, 'app-abc123.js.br'),
    zlib.brotliCompressSync(SCRIPT, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }),
  );
  fs.writeFileSync(path.join(dir, 'plain-def456.js'), SCRIPT);
  // the server's order: the build's brotli files, then on-the-fly compression and the static files
  const app = express();
  app.use('/assets', precompressedAssets(dir));
  app.use(compression());
  app.use('/assets', express.static(dir, { immutable: true, maxAge: '1y' }));
  server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('[assets] the build’s brotli files', () => {
  it('go to a browser that accepts br, as JavaScript, cacheable for a year, and decode to the script', async () => {
    const res = await get('/assets/app-abc123.js', 'gzip, deflate, br, zstd');
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers.vary).toMatch(/Accept-Encoding/i);
    // the very bytes the build wrote, not a compression made on the fly
    expect(res.body.equals(fs.readFileSync(path.join(dir, 'app-abc123.js.br')))).toBe(true);
    expect(zlib.brotliDecompressSync(res.body).toString()).toBe(SCRIPT);
  });

  it('do not go to one that does not accept br (or refuses it with q=0): it gets gzip or the file', async () => {
    const gzip = await get('/assets/app-abc123.js', 'gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gzip.body).toString()).toBe(SCRIPT);
    const refused = await get('/assets/app-abc123.js', 'br;q=0, gzip');
    expect(refused.headers['content-encoding']).toBe('gzip');
    const none = await get('/assets/app-abc123.js');
    expect(none.headers['content-encoding']).toBeUndefined();
    expect(none.body.toString()).toBe(SCRIPT);
  });

  it('leave a file without a brotli copy, and an unknown file, to the rest of the chain', async () => {
    const plain = await get('/assets/plain-def456.js', 'br, gzip');
    expect(plain.status).toBe(200);
    const decoded =
      plain.headers['content-encoding'] === 'br'
        ? zlib.brotliDecompressSync(plain.body)
        : plain.headers['content-encoding'] === 'gzip'
          ? zlib.gunzipSync(plain.body)
          : plain.body;
    expect(decoded.toString()).toBe(SCRIPT);
    expect((await get('/assets/missing.js', 'br')).status).toBe(404);
    // the .br file itself is not an asset name anybody asks for under its own type
    expect((await get('/assets/app-abc123.js.br.js', 'br')).status).toBe(404);
  });
});
