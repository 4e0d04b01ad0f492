/**
 * The FileStore contract (ARCHITECTURE §1 "files"): where the bytes of uploaded files live. The
 * local directory under DATA_DIR is the embedded default; an S3-compatible bucket is used when the
 * `S3_*` settings are given. The metadata (name, size, type, what a file belongs to) lives in the
 * tenant's schema; a store only knows keys.
 *
 * - Keys are made by the caller from random ids (`<tenant id>/<random id>`), never from a file's
 *   name: a name is never a path.
 * - Bodies are streams in and out: no store holds a whole file in memory.
 * - `put` either stores the whole body under the key or nothing: a failed or aborted stream leaves
 *   no object behind.
 * - `delete` of a missing key succeeds (deleting after commit may run twice).
 * - `list` walks the stored keys under a prefix with their size and when they were stored, a page at a
 *   time, for the sweep that removes bytes no row names (core/files/orphans.ts).
 *
 * core/files/file-store.contract.ts is the suite every store passes.
 */
import type { Readable } from 'node:stream';

export interface StoredObject {
  /** The bytes, or the requested range of them. */
  body: Readable;
  /** The object's whole size in bytes. */
  size: number;
}

export interface ByteRange {
  /** First byte, inclusive. */
  start: number;
  /** Last byte, inclusive. */
  end: number;
}

export interface FileStore {
  /** A short name for logs and the health page: `local` or `s3`. */
  readonly kind: 'local' | 's3';
  /** Stores the stream's bytes under `key`; resolves with the number of bytes stored. */
  put(key: string, body: Readable, options?: { contentType?: string }): Promise<{ size: number }>;
  /** The object's bytes (a range of them when asked); FileNotStored when there is no such key. */
  get(key: string, range?: ByteRange): Promise<StoredObject>;
  /** The object's size, or null when there is no such key. */
  stat(key: string): Promise<{ size: number } | null>;
  /** Removes the object; a missing key is not an error. */
  delete(key: string): Promise<void>;
  /**
   * Every stored key under `prefix/` (a tenant's schema name), in no promised order, read a page at a
   * time: never the whole listing in memory. Unfinished uploads are not keys and are not listed.
   */
  list(prefix: string): AsyncIterable<StoredKey>;
}

/** A key `list` found: its size and when its bytes were stored. */
export interface StoredKey {
  key: string;
  size: number;
  storedAt: Date;
}

/** `get` of a key the store does not hold. */
export class FileNotStored extends Error {
  constructor(key: string) {
    super(`No stored file under ${key}`);
    this.name = 'FileNotStored';
  }
}

const KEY = /^[A-Za-z0-9_-]+(\/[A-Za-z0-9_-]+)*$/;

/** Keys are slash-separated segments of letters, digits, `_` and `-`: never `..`, never absolute. */
export function assertKey(key: string): string {
  if (!KEY.test(key) || key.length > 200) throw new Error(`Not a file-store key: ${JSON.stringify(key)}`);
  return key;
}
