import fs from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileStoreContract, generated } from './file-store.contract';
import { S3FileStore } from './s3-store';

/** The little of s3rver (a Koa application, untyped) that the test uses. */
interface KoaContext {
  method: string;
  path: string;
  query: Record<string, string | string[] | undefined>;
  status: number;
  body: unknown;
}
type Middleware = (ctx: KoaContext, next: () => Promise<void>) => Promise<void>;
interface S3rverInstance {
  middleware: Middleware[];
  httpServer?: Server;
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
}
type S3rverClass = new (options: Record<string, unknown>) => S3rverInstance;
const S3rver = createRequire(import.meta.url)('s3rver') as S3rverClass;

const BUCKET = 'ordo-test';
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ordo-s3rver-'));
/** Where s3rver keeps the parts of unfinished multipart uploads, one directory per upload. */
const uploadsDir = path.join(dir, BUCKET, '._S3rver_uploads');
/** Every request the server received, as `PUT /ordo-test/t_x/abc ?partNumber&uploadId&x-id`. */
const requests: string[] = [];

let server: S3rverInstance;
let endpoint: string;
let store: S3FileStore;

function storeWith(prefix?: string) {
  return new S3FileStore({
    endpoint,
    bucket: BUCKET,
    region: 'us-east-1',
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    prefix,
    // two keys a page, so the contract's listing of three keys follows a continuation token
    listPageSize: 2,
  });
}

/** A stream that sends `before` bytes in 64 KiB chunks, then fails. */
function failingAfter(before: number): Readable {
  let sent = 0;
  return new Readable({
    read() {
      if (sent >= before) return void this.destroy(new Error('connection lost'));
      const n = Math.min(65536, before - sent);
      sent += n;
      this.push(Buffer.alloc(n, 7));
    },
  });
}

const requestsFor = (objectKey: string) => requests.filter((r) => r.includes(` /${BUCKET}/${objectKey} `));
const query = (r: string) => r.slice(r.indexOf('?') + 1).split('&');
const isCreate = (r: string) => r.startsWith('POST') && query(r).includes('uploads');
const isPart = (r: string) => r.startsWith('PUT') && query(r).includes('partNumber');
const isComplete = (r: string) => r.startsWith('POST') && query(r).includes('uploadId');
const isAbort = (r: string) => r.startsWith('DELETE') && query(r).includes('uploadId');

beforeAll(async () => {
  server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory: dir,
    configureBuckets: [{ name: BUCKET }],
  });
  // Put in front of s3rver's own middleware (Koa composes the list when the server starts).
  server.middleware.unshift(
    async (ctx, next) => {
      requests.push(`${ctx.method} ${ctx.path} ?${Object.keys(ctx.query).sort().join('&')}`);
      await next();
    },
    // s3rver 3.7 has no AbortMultipartUpload (`DELETE <key>?uploadId=` answers 405 Method Not
    // Allowed), so an aborted upload would keep its parts forever. This is the whole operation
    // on its file layout: the upload's directory goes.
    async (ctx, next) => {
      const uploadId = ctx.query.uploadId;
      if (ctx.method !== 'DELETE' || typeof uploadId !== 'string') return next();
      const upload = path.join(uploadsDir, uploadId);
      if (!/^[0-9a-f]+$/.test(uploadId) || !fs.existsSync(upload)) {
        ctx.status = 404;
        ctx.body = 'NoSuchUpload';
        return;
      }
      await fs.promises.rm(upload, { recursive: true });
      ctx.status = 204;
    },
  );
  const { port } = await server.run();
  endpoint = `http://127.0.0.1:${port}`;
  store = storeWith();
});

afterAll(async () => {
  server?.httpServer?.closeAllConnections();
  await server?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('S3FileStore', () => {
  fileStoreContract(() => store);

  it('stores a large stream as a multipart upload and leaves no unfinished upload', async () => {
    const total = 11 * 1024 * 1024;
    expect((await store.put('t_s3/large', generated(total, 0x62))).size).toBe(total);
    const sent = requestsFor('t_s3/large');
    expect(sent.filter(isCreate)).toHaveLength(1);
    expect(sent.filter(isPart)).toHaveLength(3);
    expect(sent.filter(isComplete)).toHaveLength(1);
    const got = await store.get('t_s3/large', { start: total - 3, end: total - 1 });
    expect(got.size).toBe(total);
    const parts: Buffer[] = [];
    for await (const c of got.body) parts.push(c as Buffer);
    expect(Buffer.concat(parts)).toEqual(Buffer.alloc(3, 0x62));
    expect(fs.existsSync(uploadsDir) ? fs.readdirSync(uploadsDir) : []).toEqual([]);
  });

  it('aborts the multipart upload when the stream fails after some parts', async () => {
    await expect(store.put('t_s3/broken', failingAfter(11 * 1024 * 1024))).rejects.toThrow('connection lost');
    const sent = requestsFor('t_s3/broken');
    // It had gone as far as uploading parts, then gave them up: no object, no parts kept.
    expect(sent.filter(isPart).length).toBeGreaterThanOrEqual(2);
    expect(sent.filter(isComplete)).toEqual([]);
    expect(sent.filter(isAbort)).toHaveLength(1);
    expect(fs.existsSync(uploadsDir) ? fs.readdirSync(uploadsDir) : []).toEqual([]);
    expect(await store.stat('t_s3/broken')).toBeNull();
  });

  it('sends nothing when the stream fails within the first part', async () => {
    await expect(store.put('t_s3/short', failingAfter(1024 * 1024))).rejects.toThrow('connection lost');
    expect(requestsFor('t_s3/short').filter((r) => !r.startsWith('HEAD'))).toEqual([]);
    expect(await store.stat('t_s3/short')).toBeNull();
  });

  it("gives the server's error and lets the input go when the upload is refused", async () => {
    const elsewhere = new S3FileStore({
      endpoint,
      bucket: 'no-such-bucket',
      accessKeyId: 'S3RVER',
      secretAccessKey: 'S3RVER',
    });
    for (const size of [1000, 12 * 1024 * 1024]) {
      const body = generated(size);
      await expect(elsewhere.put('t_s3/refused', body)).rejects.toMatchObject({ name: 'NoSuchBucket' });
      expect(body.destroyed).toBe(true);
    }
  });

  it('lists a page of keys at a time, each page after the last key of the one before', async () => {
    for (const k of ['a', 'b', 'c', 'd', 'e']) await store.put(`t_pages/${k}`, Readable.from([Buffer.from(k)]));
    const before = requests.length;
    const listed: string[] = [];
    for await (const k of store.list('t_pages')) listed.push(k.key);
    expect(listed).toEqual(['t_pages/a', 't_pages/b', 't_pages/c', 't_pages/d', 't_pages/e']);
    const lists = requests.slice(before).filter((r) => r.startsWith('GET') && query(r).includes('prefix'));
    // two keys a page: a, b | c, d | e
    expect(lists).toHaveLength(3);
    expect(query(lists[0]!)).not.toContain('marker');
    expect(query(lists[1]!)).toContain('marker');
  });

  it('keeps its keys under the prefix', async () => {
    const prefixed = storeWith('tenants-files/');
    expect((await prefixed.put('t_p/one', Readable.from([Buffer.from('abc')]))).size).toBe(3);
    expect(await prefixed.stat('t_p/one')).toEqual({ size: 3 });
    expect(await store.stat('tenants-files/t_p/one')).toEqual({ size: 3 });
    expect(await store.stat('t_p/one')).toBeNull();
    // listed by the store's own keys, without the bucket's prefix
    const listed: string[] = [];
    for await (const k of prefixed.list('t_p')) listed.push(k.key);
    expect(listed).toEqual(['t_p/one']);
    await prefixed.delete('t_p/one');
    expect(await store.stat('tenants-files/t_p/one')).toBeNull();
    expect(() => storeWith('../up')).toThrow(/Not a file-store key/);
  });
});
