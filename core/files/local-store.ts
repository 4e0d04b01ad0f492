/**
 * The embedded FileStore: files under a directory (DATA_DIR/files by default). A key's segments
 * become directories; the bytes are written to a temporary name in the same directory and renamed
 * into place once complete, so a reader never sees half a file and a failed upload leaves nothing.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Transform, type Readable } from 'node:stream';
import {
  assertKey,
  FileNotStored,
  type ByteRange,
  type FileStore,
  type StoredKey,
  type StoredObject,
} from './file-store';

export class LocalFileStore implements FileStore {
  readonly kind = 'local' as const;
  constructor(private readonly root: string) {}

  private file(key: string) {
    return path.join(this.root, ...assertKey(key).split('/'));
  }

  async put(key: string, body: Readable): Promise<{ size: number }> {
    const target = this.file(key);
    await fs.promises.mkdir(path.dirname(target), { recursive: true });
    const temp = `${target}.${randomBytes(6).toString('hex')}.partial`;
    let size = 0;
    const count = new Transform({
      transform(chunk: Buffer, _enc, done) {
        size += chunk.length;
        done(null, chunk);
      },
    });
    try {
      await pipeline(body, count, fs.createWriteStream(temp, { flags: 'wx' }));
      await fs.promises.rename(temp, target);
    } catch (e) {
      await fs.promises.rm(temp, { force: true });
      throw e;
    }
    return { size };
  }

  async get(key: string, range?: ByteRange): Promise<StoredObject> {
    const file = this.file(key);
    let handle: fs.promises.FileHandle;
    try {
      handle = await fs.promises.open(file, 'r');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') throw new FileNotStored(key);
      throw e;
    }
    const { size } = await handle.stat();
    const body = handle.createReadStream(range ? { start: range.start, end: range.end } : {});
    return { body, size };
  }

  async stat(key: string): Promise<{ size: number } | null> {
    try {
      return { size: (await fs.promises.stat(this.file(key))).size };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw e;
    }
  }

  async delete(key: string): Promise<void> {
    await fs.promises.rm(this.file(key), { force: true });
  }

  async *list(prefix: string): AsyncIterable<StoredKey> {
    yield* this.walk(assertKey(prefix));
  }

  /** The keys under `key/`, directory by directory (an opendir reads its entries in small batches). */
  private async *walk(key: string): AsyncIterable<StoredKey> {
    let dir: fs.Dir;
    try {
      dir = await fs.promises.opendir(this.file(key));
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') return;
      throw e;
    }
    for await (const entry of dir) {
      const child = `${key}/${entry.name}`;
      // an upload in progress (or one a crash cut short) is `<key>.<random>.partial`: not a key
      if (entry.name.includes('.')) continue;
      if (entry.isDirectory()) yield* this.walk(child);
      else if (entry.isFile()) {
        const st = await fs.promises.stat(path.join(dir.path, entry.name));
        yield { key: child, size: st.size, storedAt: st.mtime };
      }
    }
  }
}
