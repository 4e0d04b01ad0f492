/**
 * The process's FileStore, chosen from the configuration: an S3-compatible bucket when S3_BUCKET
 * (with its keys) is set, else the directory DATA_DIR/files. Kept on globalThis for the same
 * reason as the database (core/db/with-tenant): plugins bring their own copy of core.
 */
import path from 'node:path';
import type { Knex } from 'knex';
import { getConfig } from '~/core/config/env';
import { afterCommit } from '~/core/db/with-tenant';
import { assertOutsideTransaction } from '~/core/db/transaction-guard';
import { logger } from '~/core/log/logger';
import type { FileStore } from './file-store';
import { LocalFileStore } from './local-store';
import { S3FileStore } from './s3-store';

const STORE = Symbol.for('ordo.fileStore');
const holder = globalThis as { [STORE]?: FileStore };

export function fileStoreFromConfig(c = getConfig()): FileStore {
  if (c.S3_BUCKET && c.S3_ACCESS_KEY_ID && c.S3_SECRET_ACCESS_KEY)
    return new S3FileStore({
      endpoint: c.S3_ENDPOINT,
      bucket: c.S3_BUCKET,
      region: c.S3_REGION,
      accessKeyId: c.S3_ACCESS_KEY_ID,
      secretAccessKey: c.S3_SECRET_ACCESS_KEY,
    });
  return new LocalFileStore(path.resolve(c.DATA_DIR, 'files'));
}

export function getFileStore(): FileStore {
  return (holder[STORE] ??= outsideTransactionsOnly(fileStoreFromConfig()));
}

/** For tests and boot: the store every later call uses. */
export function setFileStore(store: FileStore | undefined): void {
  holder[STORE] = store && outsideTransactionsOnly(store);
}

/** A store whose every call first checks that no transaction is open (decision 049). */
function outsideTransactionsOnly(store: FileStore): FileStore {
  return {
    kind: store.kind,
    put(key, body, options) {
      assertOutsideTransaction('storing a file');
      return store.put(key, body, options);
    },
    get(key, range) {
      assertOutsideTransaction('reading a stored file');
      return store.get(key, range);
    },
    stat(key) {
      assertOutsideTransaction('looking up a stored file');
      return store.stat(key);
    },
    delete(key) {
      assertOutsideTransaction('deleting a stored file');
      return store.delete(key);
    },
    list(prefix) {
      assertOutsideTransaction('listing stored files');
      return store.list(prefix);
    },
  };
}

/**
 * Deletes stored objects once the transaction has committed (a deleted record's files, a replaced
 * thumbnail); nothing when it rolls back. A failure is logged: the row is gone, and an object left
 * behind costs only space.
 */
export function deleteAfterCommit(trx: Knex.Transaction, keys: readonly (string | null | undefined)[]): void {
  const list = keys.filter((k): k is string => Boolean(k));
  if (!list.length) return;
  afterCommit(trx, () => deleteStored(list));
}

/** Deletes stored objects now (an upload whose unit of work failed); failures are logged. */
export async function deleteStored(keys: readonly string[]): Promise<void> {
  const store = getFileStore();
  await Promise.all(
    keys.map((k) => store.delete(k).catch((err: unknown) => logger.warn({ err, key: k }, 'stored file not deleted'))),
  );
}
