/**
 * The FileStore contract suite: every store runs it (local-store.test.ts, s3-store.test.ts).
 * Call it inside a vitest file with a function that gives a fresh, empty store.
 */
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { expect, it } from 'vitest';
import { FileNotStored, type FileStore } from './file-store';

async function text(body: Readable): Promise<string> {
  const parts: Buffer[] = [];
  for await (const c of body) parts.push(Buffer.from(c as Buffer));
  return Buffer.concat(parts).toString('utf8');
}

/** A stream of `total` bytes in 64 KiB chunks, made as it is read (never held whole). */
export function generated(total: number, fill = 0x61): Readable {
  let sent = 0;
  return new Readable({
    read() {
      if (sent >= total) return void this.push(null);
      const n = Math.min(65536, total - sent);
      sent += n;
      this.push(Buffer.alloc(n, fill));
    },
  });
}

export function fileStoreContract(store: () => FileStore) {
  const key = () => `t_contract/${randomUUID()}`;

  it('stores a stream and gives the same bytes back, with its size', async () => {
    const k = key();
    const put = await store().put(k, Readable.from([Buffer.from('hello '), Buffer.from('world')]), {
      contentType: 'text/plain',
    });
    expect(put.size).toBe(11);
    const got = await store().get(k);
    expect(got.size).toBe(11);
    expect(await text(got.body)).toBe('hello world');
    expect(await store().stat(k)).toEqual({ size: 11 });
  });

  it('gives a byte range', async () => {
    const k = key();
    await store().put(k, Readable.from([Buffer.from('0123456789')]));
    const got = await store().get(k, { start: 2, end: 5 });
    expect(await text(got.body)).toBe('2345');
    expect(got.size).toBe(10);
  });

  it('stores a large stream (several parts) and counts every byte', async () => {
    const k = key();
    const total = 12 * 1024 * 1024 + 5;
    expect((await store().put(k, generated(total))).size).toBe(total);
    let n = 0;
    for await (const c of (await store().get(k)).body) n += (c as Buffer).length;
    expect(n).toBe(total);
  });

  it('answers FileNotStored for a missing key and null from stat', async () => {
    const k = key();
    await expect(store().get(k)).rejects.toBeInstanceOf(FileNotStored);
    expect(await store().stat(k)).toBeNull();
  });

  it('deletes, and deleting again is not an error', async () => {
    const k = key();
    await store().put(k, Readable.from([Buffer.from('x')]));
    await store().delete(k);
    await store().delete(k);
    expect(await store().stat(k)).toBeNull();
  });

  it('leaves nothing behind when the stream fails half way', async () => {
    const k = key();
    let sent = 0;
    const failing = new Readable({
      read() {
        sent++;
        if (sent > 3) this.destroy(new Error('connection lost'));
        else this.push(Buffer.alloc(65536, 1));
      },
    });
    await expect(store().put(k, failing)).rejects.toThrow('connection lost');
    expect(await store().stat(k)).toBeNull();
  });

  it('refuses a key that could leave its place', async () => {
    for (const bad of ['../x', '/etc/passwd', 'a/../../b', 'a b', ''])
      await expect(store().put(bad, Readable.from([Buffer.from('x')]))).rejects.toThrow(/Not a file-store key/);
  });

  it('lists the keys under a prefix with their sizes, and not those of a longer prefix or a failed upload', async () => {
    const prefix = `t_list_${randomUUID().slice(0, 8)}`;
    const started = Date.now() - 2_000; // a store's clock may be a second behind, and round down
    await store().put(`${prefix}/a`, Readable.from([Buffer.from('1')]));
    await store().put(`${prefix}/b-thumb`, Readable.from([Buffer.from('22')]));
    await store().put(`${prefix}/sub/c`, Readable.from([Buffer.from('333')]));
    await store().put(`${prefix}x/d`, Readable.from([Buffer.from('4444')])); // another tenant's schema
    const failing = new Readable({
      read() {
        this.destroy(new Error('connection lost'));
      },
    });
    await expect(store().put(`${prefix}/e`, failing)).rejects.toThrow('connection lost');
    const listed: { key: string; size: number; storedAt: Date }[] = [];
    for await (const k of store().list(prefix)) listed.push(k);
    expect(listed.map(({ key, size }) => ({ key, size })).sort((x, y) => x.key.localeCompare(y.key))).toEqual([
      { key: `${prefix}/a`, size: 1 },
      { key: `${prefix}/b-thumb`, size: 2 },
      { key: `${prefix}/sub/c`, size: 3 },
    ]);
    for (const k of listed) {
      expect(k.storedAt.getTime()).toBeGreaterThanOrEqual(started);
      expect(k.storedAt.getTime()).toBeLessThanOrEqual(Date.now() + 2_000);
    }
    const none: unknown[] = [];
    for await (const k of store().list(`t_list_none_${randomUUID().slice(0, 8)}`)) none.push(k);
    expect(none).toEqual([]);
  });
}
